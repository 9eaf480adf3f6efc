"""Option types and shared option groups of the `dealerless` command line.

Each type turns a bad value into a usage error that names the option's rule
(argparse then exits 2, spec/11-verify.md 11.1), before anything starts or waits.
"""

from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from peers.net import launch
from peers.net.config import MAX_SEATS, MIN_SEATS
from peers.net.invitation import check_invitation
from peers.net.link import check_url
from protocol.relay_work import MAX_WORK_BITS
from protocol.rules.bram import KOMI_LIMIT_HALVES

#: Exit codes (spec/11-verify.md 11.1): invalid and failed are both 1.
EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INCOMPLETE = 0, 1, 2, 3
EXIT_FAILED = EXIT_INVALID


class UsageError(Exception):
    """A command-line value that cannot work; reported before anything waits (exit 2)."""


def fail(message: str, code: int = EXIT_USAGE) -> int:
    print(f"dealerless: {message}", file=sys.stderr)
    return code


def number(text: str, convert: Any, noun: str, ok: Any, want: str) -> Any:
    """Parse an option's number; argparse turns the error into a usage message (exit 2)."""
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
    if not ok(value):
        raise argparse.ArgumentTypeError(f"{text!r}: {want}")
    return value


def read_map(path: str) -> str:
    """The text of a `--map` file; ValueError naming what is wrong with it (a usage error:
    nothing has started yet)."""
    form = "a map is rows of cell letters (spec/rules/mined-games.md 2.2)"
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the map {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the map {path} is not a text file (byte {exc.start} is not "
                         f"UTF-8): {form}") from None
    if "\0" in text or not text.strip():
        what = "is empty" if not text.strip() else "holds NUL bytes, not text"
        raise ValueError(f"the map {path} {what}: {form}; without --map the map is drawn")
    return text


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds greater than zero."""
    return float(number(text, float, "a number of seconds",
                         lambda v: math.isfinite(v) and v > 0,
                         "seconds must be finite and above 0"))


def non_negative_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, 0 or more."""
    return float(number(text, float, "a number of seconds",
                         lambda v: math.isfinite(v) and v >= 0,
                         "seconds must be finite and at least 0"))


def positive_int(text: str) -> int:
    """An argparse type: a whole number from 1 to 10**9."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 10**9:
        raise argparse.ArgumentTypeError(f"{text!r}: must be at least 1")
    return value


def think_ms(text: str) -> float:
    """An argparse type: a finite number of milliseconds above 0 and at most a minute."""
    return float(number(text, float, "a number of milliseconds",
                         lambda v: math.isfinite(v) and 0 < v <= 60_000,
                         "milliseconds must be above 0 and at most 60000"))


def count(text: str) -> int:
    return int(number(text, int, "a whole number", lambda v: 1 <= v <= 10**9,
                       "want a whole number from 1 to 10^9"))


def work_bits(text: str) -> int:
    """`relay --work-bits`: 0 to the most a seat pays (spec/12-peers.md 12.5)."""
    return int(number(text, int, "a whole number of bits",
                       lambda v: 0 <= v <= MAX_WORK_BITS,
                       f"want a whole number from 0 to {MAX_WORK_BITS}"))


def ipv4_prefix(text: str) -> int:
    """`relay --ipv4-prefix`: the bits that name an IPv4 client's network, 8 to 32."""
    return int(number(text, int, "a whole number of bits", lambda v: 8 <= v <= 32,
                       "want a whole number of bits from 8 to 32"))


def ipv6_prefix(text: str) -> int:
    """`relay --ipv6-prefix`: the bits that name an IPv6 client's network, 16 to 128."""
    return int(number(text, int, "a whole number of bits", lambda v: 16 <= v <= 128,
                       "want a whole number of bits from 16 to 128"))


def listen_address(text: str) -> tuple[str, int]:
    """`relay --listen`: HOST:PORT, or :PORT for every interface, IPv4 and IPv6."""
    if not text.startswith(":"):
        return parse_hostport(text)
    if not (text[1:].isascii() and text[1:].isdigit() and int(text[1:]) <= 65535):
        raise argparse.ArgumentTypeError(f"{text!r} is not :PORT (port 0-65535)")
    return "", int(text[1:])


def seat_count(text: str) -> int:
    return int(number(text, int, "a whole number of seats",
                       lambda v: MIN_SEATS <= v <= MAX_SEATS,
                       f"a game has {MIN_SEATS} to {MAX_SEATS} seats"))


def probability(text: str) -> float:
    return float(number(text, float, "a probability", lambda v: 0.0 <= v <= 1.0,
                         "a probability is from 0 to 1"))


def parse_komi(text: str) -> int:
    """Komi in whole or half pips ("0", "2.5", "-1") -> half pips, within the rules' range
    (spec/rules/bram.md), so that a bad value is a usage error before anything starts."""
    try:
        halves = Fraction(text) * 2
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of pips") from None
    if halves.denominator != 1:
        raise argparse.ArgumentTypeError("komi is a whole or half number of pips")
    if abs(halves) > KOMI_LIMIT_HALVES:
        raise argparse.ArgumentTypeError(
            f"komi {text} is out of range: at most {KOMI_LIMIT_HALVES // 2} pips either way")
    return int(halves)


def ws_url(text: str) -> str:
    try:
        return check_url(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def invitation_arg(text: str) -> str:
    """`join`'s invitation: a websocket URL, then `#`, the host's pin and the secret."""
    try:
        check_invitation(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def relay_base(text: str) -> str:
    """`--relay`: the relay's own address; the room path is added by `host`."""
    url = ws_url(text).rstrip("/")
    if "/room/" in url or "?" in url:
        raise argparse.ArgumentTypeError(f"--relay takes the relay's address, like "
                                         f"ws://RELAY:8765, not a room URL ({text!r})")
    return url


def port_number(text: str) -> int:
    return int(number(text, int, "a port number", lambda v: 0 <= v <= 65535,
                      "a port is 0 to 65535"))


def parse_hostport(text: str) -> tuple[str, int]:
    try:
        return launch.parse_hostport(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


HOME_HELP = "data directory (default: $DEALERLESS_HOME, else the user data directory)"

ENVIRONMENT = """environment:
  DEALERLESS_HOME        the data directory, unless --home is given
  DEALERLESS_PASSPHRASE  the passphrase of an encrypted identity key; without it
                         you are asked on the terminal"""


def home_option(p: argparse.ArgumentParser) -> None:
    """`--home`, also accepted before the subcommand: a subcommand's copy only overrides
    the top-level one when given (SUPPRESS), so `dealerless --home D games` works."""
    p.add_argument("--home", default=argparse.SUPPRESS, help=HOME_HELP)
