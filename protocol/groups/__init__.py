"""The prime-order groups a ciphersuite is built on (spec/02-group.md 2.5).

Each group is one object with one interface (`base.Group`): strict decoding of a
received element or scalar, the group law, scalar multiplication, multi-scalar
multiplication and hashing to the group. `group(name)` returns it; a backend's
library is imported only when its group is first asked for.
"""

from __future__ import annotations

from importlib import import_module

from .base import Element, Group, HashedGroup

__all__ = ["GROUPS", "Element", "Group", "HashedGroup", "group"]

#: Group name -> the module that builds it (its `GROUP`).
GROUPS = {"edwards25519": "edwards25519", "ristretto255": "ristretto255",
          "bls12381g1": "bls12381_g1"}


def group(name: str) -> Group:
    """The group called `name`; KeyError for an unknown name."""
    built: Group = import_module(f"{__name__}.{GROUPS[name]}").GROUP
    return built
