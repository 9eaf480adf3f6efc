"""The checks of bls12381g1-sha256 inside real chain virtual machines (issue 32's base).

The suite exists for chains (spec/02-group.md 2.5, 2.6): Chia's CLVM and Ethereum's
EIP-2537 precompiles check BLS12-381 G1 natively. This package runs its primitives there
and measures what a chain charges, with tools of the `[chain]` extra:

- `clvm`, `clvm_checks`: Chialisp programs (clsp/) compiled by clvm_tools_rs and run by
  chia_rs, the cost Chia charges (run cost and bytes);
- `evm`, `evm_checks`: a Vyper 0.4 contract (vy/) on py-evm's Prague fork, with the G1
  precompiles done by arkworks (`evm_precompiles`), execution and transaction gas;
- `clvm_proofs`, `evm_proofs`: the proofs over many elements of dealerless/3 in both:
  one Chaum-Pedersen proof for a batch of shares (spec/06-proofs.md 6.3.1) and the
  shuffle proof (spec/07-shuffle.md 7.5, 7.5.1);
- `cannot_play`, `evm_cannot_play`: the proof that no hand tile is playable
  (spec/06-proofs.md 6.5) in both (clsp/cannot_play.clsp; vy/cannot_play.vy, which reads
  the tile points from vy/tiles.vy);
- `clvm_step`, `evm_step`: the whole single-step check of spec/11-verify.md 11.4 for a
  Bram game, one Chialisp program (clsp/step.clsp) and the contracts of vy/step.vy, each
  reading the dispute package's bytes itself;
- `hints`: the square roots both take to decode a compressed element;
- `codes`: the verdict codes both return, `Verdict` and `SuiteHashes`;
- `errors`: why no verdict could be had.

Each check takes the bytes a referee received and gives a verdict with the reference
implementation's code. Nothing here imports protocol/: the programs are written from the
specification, and tests/test_chain_primitives.py and test_chain_proofs.py hold them to
the suite's vectors. Importing this package, `codes`, `hints`, `clvm`, `clvm_checks` or
`clvm_proofs` needs none of the tools (clvm loads chia_rs and clvm_tools_rs when first
used); `evm` and its users need py-evm.
"""

from __future__ import annotations

import importlib.util

#: The tools of the `[chain]` extra: the name pip installs each by, and its module.
TOOLS = (("chia_rs", "chia_rs"), ("clvm_tools_rs", "clvm_tools_rs"), ("py-evm", "eth"),
         ("vyper", "vyper"))
INSTALL = "pip install 'dealerless[chain]'"


def missing_tools() -> list[str]:
    """The tools of the extra that are not installed, by their pip names."""
    return [name for name, module in TOOLS if importlib.util.find_spec(module) is None]
