"""What a game's database keeps of its seats beyond the setup (spec/12-peers.md 12.4):
their identity keys and, in a suite whose frame keys are not those keys, the bindings of
the one to the other (12.3 "Authentication"), so that a lost roster can be sent again.
"""

from __future__ import annotations

from protocol.errors import EncodingError
from protocol.handshake_auth import BINDING_BYTES
from protocol.setup import GameSetup
from protocol.suite import ED25519

#: The seats' identity keys (12.4), in seat order: in bls12381g1-sha256 the setup holds
#: their frame keys of G1, which name nobody.
KEYS_META = "identity_keys"
#: The seats' frame-key bindings (12.3), in seat order; empty in the suites signed by
#: Ed25519, and absent in a game stored before peer protocol 10.
BINDINGS_META = "frame_key_bindings"


def keys_meta(keys: tuple[bytes, ...]) -> str:
    """`keys` (identity keys or bindings) as a meta value: hex, one space between."""
    return " ".join(k.hex() for k in keys)


def seat_keys(setup: GameSetup, stored: str) -> tuple[bytes, ...]:
    """The seats' identity keys of a stored game: its `identity_keys` meta (`stored`), or
    for a game stored without one (before peer protocol 9) the setup's frame keys, which
    in the suites signed by Ed25519 are those keys. EncodingError if neither holds."""
    if stored:
        keys = _hex(stored, "identity keys")
        if len(keys) == setup.seats and all(len(k) == 32 for k in keys):
            return keys
        raise EncodingError("store/keys", f"{len(keys)} stored identity keys for a game "
                            f"of {setup.seats} seats")
    if setup.suite.signer is not ED25519:
        raise EncodingError("store/keys", f"a game of {setup.suite_name} stored without "
                            "its seats' identity keys")
    return setup.identities


def seat_bindings(setup: GameSetup, stored: str) -> tuple[bytes, ...]:
    """The seats' frame-key bindings of a stored game (its `frame_key_bindings` meta): K
    empty ones in a suite signed by Ed25519 or in a game stored without them."""
    if not stored or setup.suite.signer is ED25519:
        return (b"",) * setup.seats
    bindings = _hex(stored, "frame-key bindings")
    if len(bindings) == setup.seats and all(len(b) == BINDING_BYTES for b in bindings):
        return bindings
    raise EncodingError("store/keys", f"{len(bindings)} stored frame-key bindings for a "
                        f"game of {setup.seats} seats")


def _hex(stored: str, what: str) -> tuple[bytes, ...]:
    try:
        return tuple(bytes.fromhex(k) for k in stored.split(" "))
    except ValueError:
        raise EncodingError("store/keys", f"the stored {what} are not hex") from None
