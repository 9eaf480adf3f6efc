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



def cmd_seat(args: argparse.Namespace) -> int:
    """Write the one-file seat (spec 12.9) and say what to compare it with."""
    import hashlib

    from peers.web.seat_files import code_hash, one_file, seat_files

    files = seat_files()
    page = one_file(files)
    try:
        with open(args.file, "wb") as out:
            out.write(page)
    except OSError as exc:
        return fail(f"seat: cannot write {args.file}: {exc.strerror or exc}", EXIT_FAILED)
    print(f"wrote {args.file} ({len(page):,} bytes): open it in a browser to play a seat")
    print(f"sha256     {hashlib.sha256(page).hexdigest()}")
    print(f"code hash  {code_hash(files)} (the page shows its first 16 digits)")
    return EXIT_OK
