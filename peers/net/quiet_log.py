"""Rate-limited log lines, so a hostile peer cannot flood the log (issue 17).

Every line a remote party can provoke at will ("ignored a bad handshake message",
"dropped a malformed message", a rejected connection to the relay) goes through a
logger that carries a `RateLimit`: per kind of line (the logger and the format
string, not the values), `burst` lines pass in each `interval` seconds. The last
one says that more are being suppressed, and the first one of a later window says
how many were.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

BURST = 10
INTERVAL = 60.0
MAX_KINDS = 256   # format strings are few; this bounds a logger that formats its own


class RateLimit(logging.Filter):
    """A logging.Filter that lets `burst` records of each kind through per `interval`."""

    def __init__(self, burst: int = BURST, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst, self.interval, self.clock = burst, interval, clock
        self._windows: dict[tuple[str, str], list[float]] = {}  # kind -> [start, passed, held]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        kind = (record.name, str(record.msg))
        with self._lock:
            window = self._windows.get(kind)
            if window is None or now - window[0] >= self.interval:
                held = int(window[2]) if window else 0
                self._forget(now)
                self._windows[kind] = [now, 1, 0]
                if held:
                    self._append(record, f"{held} more like this suppressed before it")
                return True
            if window[1] >= self.burst:
                window[2] += 1
                return False
            window[1] += 1
            if window[1] == self.burst:
                self._append(record, f"more like this suppressed for {self.interval:.0f} s")
            return True

    def _forget(self, now: float) -> None:
        if len(self._windows) >= MAX_KINDS:
            for kind, (start, _, _) in list(self._windows.items()):
                if now - start >= self.interval:
                    del self._windows[kind]
            if len(self._windows) >= MAX_KINDS:
                self._windows.clear()

    @staticmethod
    def _append(record: logging.LogRecord, note: str) -> None:
        record.msg, record.args = f"{record.getMessage()} ({note})", None


def quiet_logger(name: str) -> logging.Logger:
    """logging.getLogger(name) with a RateLimit on it (added once)."""
    logger = logging.getLogger(name)
    if not any(isinstance(f, RateLimit) for f in logger.filters):
        logger.addFilter(RateLimit())
    return logger
