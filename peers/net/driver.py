"""A networked seat as a Driver: what a person's interface runs (peers/table/driver.py)."""

from __future__ import annotations

from typing import Any

from peers.net.config import HOST, PeerConfig, PeerResult
from peers.net.link import Link
from peers.net.peer import Peer
from peers.store.games import GameStore
from peers.table.driver import AsyncChooser, EndEvent, Event, Notify, SetupEvent


class NetworkDriver:
    """Runs a Peer for a person at the terminal UI (peers/ui/terminal.py)."""

    def __init__(self, link: Link, config: PeerConfig, store: GameStore | None) -> None:
        self.link, self.config = link, config
        self.peer = Peer(link, config, store)
        self.seat = store.seat if store is not None else (0 if config.role == HOST else 1)
        self.result: PeerResult | None = None

    @property
    def started(self) -> bool:
        """Whether a game was agreed (and so stored, and can be resumed)."""
        return self.peer.store is not None

    async def run(self, choose: AsyncChooser, notify: Notify) -> Any:
        def keep_end(event: Event) -> None:
            # The result exists from the EndEvent on: a person who leaves while the link
            # is still closing must not be told the game stopped before the end.
            if isinstance(event, EndEvent) and self.peer.store is not None:
                self.result = PeerResult(event.verdict, self.peer.store.path, event.message)
            if isinstance(event, SetupEvent):
                self.seat = event.seat  # a joiner learns its seat from the roster
            notify(event)
        self.config.choose, self.config.notify = choose, keep_end
        self.result = await self.peer.run()
        return self.result.verdict
