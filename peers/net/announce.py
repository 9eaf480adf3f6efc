"""What a person is told when a networked game's setup is agreed (spec/12-peers.md 12.2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from peers import keys
from peers.net.config import PeerConfig
from peers.store.games import GameStore
from peers.store.seats import KEYS_META, seat_keys
from peers.table.driver import SetupEvent
from protocol.errors import EncodingError
from protocol.identity import fingerprint, short_auth_string
from protocol.setup import GameSetup


def announcer(home: Path, config: PeerConfig) -> Callable[[GameSetup, GameStore], None]:
    """The seat's `on_setup`: once the setup is agreed, tell the person the game and its
    suite, each opponent's identity key (and what `home`'s known players say of it) and
    the SAS to compare."""
    def described(key: bytes) -> str:
        known = keys.check_opponent(home, key)
        # Always the fingerprint too: a name alone cannot be compared out of band.
        return known if "SHA256:" in known else f"{known} ({fingerprint(key)})"

    def on_setup(setup: GameSetup, store: GameStore) -> None:
        others = [s for s in range(setup.seats) if s != store.seat]
        try:
            keys = seat_keys(setup, store.meta(KEYS_META))
            opponent = (described(keys[others[0]]) if setup.seats == 2 else
                        "; ".join(f"seat {s}: {described(keys[s])}" for s in others))
        except EncodingError as exc:   # a damaged database: the game goes on regardless
            opponent = f"unknown ({exc.detail})"
        config.notify(SetupEvent(setup.game_id.hex(), store.seat,
                                 f"{setup.rules} {dict(setup.params)}", opponent,
                                 short_auth_string(setup.game_id), setup.seats,
                                 setup.suite_name))
    return on_setup
