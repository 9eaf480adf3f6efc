"""What the terminal table says, as text: pure functions of the seat's view and the
verdict (spec/12-peers.md 12.6). peers/ui/terminal.py lays them out."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from peers.net.config import PeerError
from peers.table.driver import SetupEvent
from protocol.errors import DealerlessError
from protocol.rules.base import halves_text
from protocol.rules.bram_state import End
from protocol.seat import SeatView
from protocol.tiles import Tile
from protocol.verifier import Verdict

EXIT_FAILED, EXIT_USAGE, EXIT_INCOMPLETE = 1, 2, 3
TILE_STYLE, LEGAL_STYLE, END_STYLE = "bold", "bold black on green", "bold black on yellow"


def tile_box(a: int, b: int) -> str:
    return f"[{a}|{b}]"


def line_text(rules_state: Any) -> Text:
    """The line left to right, both open ends marked (the count goes in the title)."""
    if rules_state is None:
        return Text("(the deal is not done yet)", style="dim")
    left, right = rules_state.ends
    # No space between an end's mark and its tile, so that wrapping never parts them.
    text = Text()
    text.append(f"L:{left}", style=END_STYLE)
    text.append("◀")
    text.append(" ".join(tile_box(a, b) for a, b in rules_state.line), style=TILE_STYLE)
    text.append("▶")
    text.append(f"R:{right}", style=END_STYLE)
    return text


def line_title(rules_state: Any) -> str:
    if rules_state is None:
        return "Line of play"
    return f"Line of play: {plural(len(rules_state.line), 'tile')} down"


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def playable_tiles(view: SeatView) -> set[Tile]:
    return {m.tile for m in view.legal if getattr(m, "tile", None) is not None}


def hand_text(view: SeatView | None) -> Text:
    """Every tile in hand; the ones that can be played now are highlighted and starred.

    The count and pips go in the title (`hand_title`), so that 13 tiles take two lines
    at 80 columns.
    """
    if view is None or not view.hand:
        return Text("(no tiles yet)" if view is None else "(empty)", style="dim")
    fits = playable_tiles(view)
    text = Text()
    for t in view.hand:  # the mark is the separator: 7 tiles fit a line at 80 columns
        if t in fits:
            text.append(f"*{tile_box(*t)}", style=LEGAL_STYLE)
        else:
            text.append(f" {tile_box(*t)}", style="dim")
    return text


def hand_title(view: SeatView | None) -> str:
    if view is None or not view.hand:
        return "Your hand"
    pips = sum(a + b for a, b in view.hand)
    fits = "; * fits" if playable_tiles(view) else ""
    return f"Your hand: {plural(len(view.hand), 'tile')}, {pips} pips{fits}"


def move_label(move: Any, ends: tuple[int, int]) -> str:
    """'3-5 on left (ends become 5 and 6)', or 'pass'."""
    tile = getattr(move, "tile", None)
    if tile is None:
        return "pass"
    left, right = ends
    a, b = tile
    if move.end is End.LEFT:
        new = (b if a == left else a, right)
        side = "left"
    else:
        new = (left, b if a == right else a)
        side = "right"
    return f"{a}-{b} on {side}  (ends become {new[0]} and {new[1]})"


def ordered_moves(legal: tuple[Any, ...]) -> list[Any]:
    """Plays first (numbered from 1), the pass last."""
    plays = [m for m in legal if getattr(m, "tile", None) is not None]
    return plays + [m for m in legal if getattr(m, "tile", None) is None]


def result_lines(verdict: Verdict, me: int) -> list[str]:
    """The end of the game for people: outcome, pips with komi, margin, hidden tile.

    What is proven and what is not, as `dealerless verify` says it (spec/11-verify.md
    11.1): no seat is blamed for a violation that is no evidence, and a seat that owes
    a frame is not said to have abandoned (spec/rules/bram.md D14).
    """
    data = verdict.to_json()
    lines: list[str] = []
    if not verdict.valid and data["violation"] is not None:
        v = data["violation"]
        if v["authenticated"]:
            lines.append(f"INVALID game: seat {v['seat']} broke rule {v['rule']} at frame "
                         f"{v['frame']}: {v['detail']}")
        else:
            lines.append(f"NOT PROVEN: corrupt or tampered transcript at frame {v['frame']} "
                         f"({v['rule']}: {v['detail']}); no seat is blamed")
    elif not verdict.complete and data["awaiting"] is not None:
        a, d = data["awaiting"], data["decided"]
        if d is not None:
            who = "You win" if d["winner"] == me else "Your opponent wins"
            margin = (f"by {d['margin']} pips" if d["margin"] is not None
                      else "margin unknown until every hand is revealed")
            lines.append(f"{who}: seat {d['winner']} went out ({margin}); proven by public "
                         f"play")
            lines.append("The hidden tile was not opened")
        lines.append(f"INCOMPLETE: seat {a['seat']} owes the next frame ({a['message']}); "
                     f"that it abandoned is not proven")
    out = data["outcome"]
    if out is not None:
        reason = "went out" if out["reason"] == "out" else "blocked: fewer pips after two passes"
        if out["draw"]:
            lines.append(f"Draw ({reason})")
        else:
            who = "You win" if out["winner"] == me else "Your opponent wins"
            lines.append(f"{who}: seat {out['winner']} wins by {out['margin']} pips ({reason})")
        pips = ", ".join(f"seat {i}: {p}" for i, p in enumerate(out["pips"]))
        lines.append(f"Pips left in hand, komi included: {pips}")
    if data["hidden_tile"]:
        lines.append(f"Hidden tile revealed: {', '.join(data['hidden_tile'])}")
    if verdict.valid and verdict.complete:
        lines.append(f"Transcript verified from nothing: valid and complete, "
                     f"{verdict.frames} frames")
    return lines


def session_text(invitation: str | None, setup: SetupEvent | None,
                 failed: bool = False) -> Text:
    """The strip across the top of a network game.

    Before the setup: the invitation, alone on its lines (no border, no padding, so
    a wrapped URL starts at column 0 and can be selected as plain text). After it: the
    short authentication string to compare and the opponent's key.
    """
    text = Text()
    if setup is None and failed:
        return Text("No game was set up (see below).", style="bold")
    if setup is None:
        if invitation is not None:
            text.append("Invitation: give your opponent this line (c copies it)\n", style="dim")
            text.append(invitation, style="bold")
            text.append("\n")
        text.append("Waiting for an opponent...", style="italic")
        return text
    text.append(f"SAS {setup.sas}", style="bold reverse")
    text.append("  compare it with your opponent out of band\n")
    text.append("Opponent: ", style="dim")
    text.append(setup.opponent, style="bold")
    return text


def failure_text(exc: BaseException) -> str:
    """A failed driver for people: the message, never a traceback."""
    if isinstance(exc, PeerError | DealerlessError | OSError | ValueError):
        what = str(exc) or type(exc).__name__
    else:
        what = f"unexpected {type(exc).__name__}: {exc}"
    return f"The game stopped: {what}"


def failure_exit_code(exc: BaseException) -> int:
    """As `dealerless host/join` report it: a peer that gave up waiting is 3, else 1."""
    return EXIT_INCOMPLETE if isinstance(exc, PeerError) else EXIT_FAILED


def status_title(komi_halves: int | None) -> str:
    if komi_halves is None:
        return "Table"
    komi = halves_text(komi_halves)
    return f"Table: komi {komi} pip{'' if komi == '1' else 's'} to the first player"


def status_text(view: SeatView | None, me: int, last_move: str | None, turn: str) -> Text:
    """Both seats' tile counts, the first player, the last move, and whose turn it is."""
    rules_state = view.rules_state if view is not None else None
    lines = []
    if rules_state is not None:
        counts, first = rules_state.hand_counts, rules_state.first_player
        lines.append(f"Opponent (seat {1 - me}): {plural(counts[1 - me], 'tile')}. "
                     f"You: {plural(counts[me], 'tile')}.")
        facts = f"First player: {'you' if first == me else f'seat {first}'}."
        if last_move is not None:
            facts += f" Last: {last_move}."
        lines.append(facts)
    else:
        lines.append(f"You are seat {me}.")
    text = Text("\n".join(lines) + "\n")
    text.append(turn, style="bold")
    return text


def turn_text(me: int, awaiting: tuple[int, str] | None, *, stopped: bool, over: bool,
              my_turn: bool) -> str:
    if stopped:
        return "The game stopped (see below)."
    if over:
        return "The game is over."
    if my_turn:
        return "Your turn: pick a move below."
    if awaiting is None:
        return "Setting up..."
    seat, message = awaiting
    if message == "move" and seat != me:
        return f"Seat {seat} (opponent) to move..."
    owner = "you" if seat == me else f"seat {seat}"
    return f"Protocol step: {owner} owes a {message} frame..."


def move_options(moves: list[Any], ends: tuple[int, int]) -> tuple[list[str], str]:
    """The move list's lines (plays numbered 1-9, the pass as p) and its title."""
    lines, number = [], 0
    for move in moves:
        if getattr(move, "tile", None) is None:
            lines.append("p  pass")
        else:
            number += 1
            key = str(number) if number <= 9 else " "
            lines.append(f"{key}  {move_label(move, ends)}")
    return lines, ("Your move: 1-9, or arrows + Enter; p passes" if number
                   else "No tile fits: p (or Enter) to pass")
