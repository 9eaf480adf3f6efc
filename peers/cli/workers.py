"""Where long work runs: here, on worker processes, or on a Dask cluster
(spec/11-verify.md 11.6).

`verify` and `tournament` hand their work to a `concurrent.futures.Executor` and do
not care which: None runs it in this process (`--jobs 1`), a process pool runs it on
this machine's cores (`--jobs N`), and a Dask client's executor runs it on the workers
of a scheduler (`--dask ADDRESS`, the optional extra `dealerless[cluster]`), which must
have dealerless installed to import the work's functions.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from peers.cli.options import UsageError

CLUSTER_EXTRA = "pip install 'dealerless[cluster]'"


@contextlib.contextmanager
def pool(jobs: int, dask: str | None) -> Iterator[Executor | None]:
    """Where the games are verified: here (None), N worker processes, or a Dask cluster."""
    if dask is not None:
        try:   # an optional extra, untyped: everything from it is Any here
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError(f"--dask needs the cluster extra: {CLUSTER_EXTRA}") from None
        try:
            client = distributed.Client(dask, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {dask}: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
    elif jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as workers:
            yield workers
    else:
        yield None
