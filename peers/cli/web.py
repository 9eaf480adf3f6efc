"""`dealerless web`: play in the browser, served by this machine's own peer (spec 12.8)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from peers.cli.network import home_dir, identity_of
from peers.cli.options import EXIT_FAILED, EXIT_OK, fail
from peers.keys import KeyStoreError


def cmd_web(args: argparse.Namespace) -> int:
    from peers.web.server import serve  # aiohttp loads only for this command

    try:
        identity = identity_of(args)
    except KeyStoreError as exc:
        return fail(f"web: {exc}", EXIT_FAILED)
    try:
        asyncio.run(serve(home_dir(args), identity, args.port, not args.no_open,
                          suite=args.suite))
    except KeyboardInterrupt:
        print("dealerless web: stopped; `dealerless games` lists the saved games",
              file=sys.stderr)
    except OSError as exc:
        return fail(f"web: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc} "
                    "(--port 0 picks a free port)", EXIT_FAILED)
    return EXIT_OK

