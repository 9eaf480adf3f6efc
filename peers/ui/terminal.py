"""The terminal table for a person playing one seat (spec/12-peers.md section 12.6).

Theory of operation: `PlayApp` runs a `Driver` in a Textual worker on the
app's own asyncio loop. The driver reports what happens through
`notify_event` (called synchronously, so widgets are updated in place) and,
when the person's seat must move, awaits `choose`, which lists the legal
moves and waits on a future that a key press, a click or Enter resolves.
The app sees nothing of the protocol beyond the SeatView, the step notes
and the final verdict, exactly as a remote seat's UI would.

Layout, made to fit 80x24: a session strip across the top (a network game's
invitation while the host waits, then the SAS and the opponent's key for the
whole game), the table on the left (status, line of play, hand, moves), the
verification log on the right, and at the end a result box across the bottom
that takes the place of the moves. A driver that fails (a handshake nobody
answers, a lost connection) is shown in that box, never as a traceback; the
exception is kept in `PlayApp.error` for the caller.

Keys: 1-9 play the numbered move, arrows + Enter pick from the list, p
passes, c copies the invitation, q quits (an unfinished game then leaves a
valid prefix, exit 3).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from peers.net.config import PeerError
from peers.table.driver import (
    Driver,
    EndEvent,
    Event,
    LocalDriver,
    NoticeEvent,
    SetupEvent,
    StepEvent,
    ViewEvent,
)
from protocol.errors import DealerlessError
from protocol.rules.base import halves_text
from protocol.rules.bram import DEFAULT_KOMI_HALVES, End
from protocol.seat import SeatView
from protocol.tiles import Tile
from protocol.verifier import Verdict

EXIT_FAILED, EXIT_USAGE, EXIT_INCOMPLETE = 1, 2, 3
DEFAULT_OUT = "dealerless-game.transcript"
TILE_STYLE, LEGAL_STYLE, END_STYLE = "bold", "bold black on green", "bold black on yellow"


# -- pure rendering helpers ------------------------------------------------------------------

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
    return f"Line of play: {_count(len(rules_state.line), 'tile')} down"


def _count(n: int, noun: str) -> str:
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
    return f"Your hand: {_count(len(view.hand), 'tile')}, {pips} pips{fits}"


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


# -- the app -----------------------------------------------------------------------------

class PlayApp(App[int]):
    """One person's seat at a Bram's dominoes table; the result is the exit code."""

    CSS = """
    #session { height: auto; background: $boost; }
    #session.local { display: none; }
    #main { height: 1fr; }
    #board { width: 3fr; }
    #log { width: 2fr; border: none; border-left: solid $accent; border-top: solid $accent;
           padding: 0 0 0 1; }
    #status, #line, #hand { height: auto; padding: 0 1; border-top: solid $primary; }
    #moves { height: 1fr; min-height: 3; border: none; border-top: solid $success;
             padding: 0 1; }
    #moves:focus { border: none; border-top: solid $success; }
    #buttons { height: 1; }
    #buttons Button { margin: 0 1; }
    #result { display: none; height: auto; padding: 0 1; border-top: double $warning; }
    #result.shown { display: block; }
    .over #moves, .over #buttons { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "pass_move", "Pass"),
        Binding("c", "copy_invitation", "Copy invitation"),
        Binding("q", "quit_game", "Quit"),
        *(Binding(str(n), f"pick({n})", f"Move {n}", show=False) for n in range(1, 10)),
    ]

    def __init__(self, driver: Driver, title: str = "dealerless: Bram's dominoes",
                 komi_halves: int | None = None, invitation: str | None = None) -> None:
        super().__init__()
        self.invitation = invitation
        self.setup: SetupEvent | None = None
        self.driver = driver
        self.title = title
        self.sub_title = f"you are seat {driver.seat}"
        self.komi_halves = komi_halves
        self.end: EndEvent | None = None
        self.error: Exception | None = None  # why the driver failed, for the caller
        self.view: SeatView | None = None
        self.awaiting: tuple[int, str] | None = None
        self.moves: list[Any] = []
        self.last_move: str | None = None
        self._pick: asyncio.Future[Any] | None = None

    @property
    def networked(self) -> bool:
        return not isinstance(self.driver, LocalDriver)

    @property
    def over(self) -> bool:
        return self.end is not None or self.error is not None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="session", classes="" if self.networked else "local")
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Static(id="status")
                yield Static(id="line")
                yield Static(id="hand")
                yield OptionList(id="moves")
                with Horizontal(id="buttons"):
                    yield Button("Pass (p)", id="pass", variant="warning", compact=True)
                    yield Button("Quit (q)", id="quit", variant="error", compact=True)
            yield RichLog(id="log", wrap=True, min_width=20)
        yield Static(id="result")
        yield Footer()

    def on_mount(self) -> None:
        titles = {"#status": "Table", "#moves": "Your move", "#log": "Verification log",
                  "#result": "Result"}
        for selector, title in titles.items():
            self.query_one(selector).border_title = title
        for button in self.query(Button):
            button.can_focus = False  # buttons are for the mouse; keys go to the move list
        self._refresh_session()
        self._refresh_board()
        self.query_one("#moves", OptionList).focus()
        self.run_worker(self._play(), name="driver")

    async def _play(self) -> None:
        """Run the driver; if it fails, say why on screen and keep the exception."""
        try:
            await self.driver.run(self.choose, self.notify_event)
        except Exception as exc:  # every failure is shown as a message, none as a traceback
            self._show_failure(exc)

    # -- what the driver calls ---------------------------------------------------------

    async def choose(self, view: SeatView) -> Any:
        """Show `view.legal` and wait for the person to pick one of them."""
        self.view = view
        self.moves = ordered_moves(view.legal)
        self._pick = asyncio.get_running_loop().create_future()
        self._refresh_board()
        self.query_one("#moves", OptionList).focus()  # Enter must never hit a stale button
        move = await self._pick  # a cancelled wait (the person quit) ends the driver too
        self._pick, self.moves = None, []
        self._refresh_moves()
        return move

    def notify_event(self, event: Event) -> None:
        """Driver events arrive on this loop, so widgets are updated directly."""
        if isinstance(event, StepEvent):
            self._log_step(event)
            if event.kind == "move":
                self.last_move = f"{self._who(event.seat)}, {event.note.split(':')[0]}"
        elif isinstance(event, ViewEvent):
            self.view, self.awaiting = event.view, event.awaiting
            self._refresh_board()
        elif isinstance(event, EndEvent):
            self.end = event
            self.awaiting = event.verdict.awaiting
            self._show_result(event)
        elif isinstance(event, NoticeEvent):
            self.query_one("#log", RichLog).write(Text(event.text, style="bold"))
        elif isinstance(event, SetupEvent):
            self.setup = event
            self.query_one("#log", RichLog).write(Text(
                f"game {event.game_id[:16]}, rules {event.rules}; you are seat {event.seat}; "
                f"opponent {event.opponent}; SAS {event.sas}", style="bold"))
            self._refresh_session()
            self.refresh_bindings()

    # -- input -------------------------------------------------------------------------

    @property
    def waiting_for_me(self) -> bool:
        return self._pick is not None and not self._pick.done()

    def _resolve(self, move: Any) -> None:
        if self._pick is not None and not self._pick.done() and move in self.moves:
            self._pick.set_result(move)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if 0 <= message.option_index < len(self.moves):
            self._resolve(self.moves[message.option_index])

    def on_button_pressed(self, message: Button.Pressed) -> None:
        if message.button.id == "pass":
            self.action_pass_move()
        elif message.button.id == "quit":
            self.action_quit_game()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Moves only while the game runs; copying only while the invitation is shown."""
        if action == "copy_invitation":
            return self.invitation is not None and self.setup is None and not self.over
        return not self.over or action not in ("pass_move", "pick")

    def action_pick(self, number: int) -> None:
        plays = [m for m in self.moves if getattr(m, "tile", None) is not None]
        if 1 <= number <= len(plays):
            self._resolve(plays[number - 1])

    def action_pass_move(self) -> None:
        self._resolve(next((m for m in self.moves if getattr(m, "tile", None) is None), None))

    def action_copy_invitation(self) -> None:
        """Put the invitation on the clipboard (OSC 52, if the terminal allows it)."""
        if self.invitation is not None:
            self.copy_to_clipboard(self.invitation)
            self.query_one("#log", RichLog).write(Text(
                "Invitation copied to the clipboard (if your terminal allows OSC 52; "
                "otherwise select it with the mouse, shift+drag in most terminals).",
                style="bold"))

    def action_quit_game(self) -> None:
        """Leave; before the end this abandons the game (a valid prefix, exit code 3)."""
        if self.error is not None:
            self.exit(failure_exit_code(self.error))
        else:
            self.exit(EXIT_INCOMPLETE if self.end is None else self.end.verdict.exit_code)

    # -- drawing -----------------------------------------------------------------------

    def _who(self, seat: int) -> str:
        return "you" if seat == self.driver.seat else f"seat {seat}"

    def _log_step(self, event: StepEvent) -> None:
        line = Text()
        line.append("✓ ", style="bold green")
        line.append(f"{event.seq:>2} {event.kind} {self._who(event.seat)}: ", style="dim")
        line.append(event.note)
        self.query_one("#log", RichLog).write(line)

    def _refresh_session(self) -> None:
        self.query_one("#session", Static).update(
            session_text(self.invitation, self.setup, failed=self.error is not None))

    def _refresh_board(self) -> None:
        rules_state = self.view.rules_state if self.view is not None else None
        if self.setup is None and rules_state is not None:
            # A resumed game plays on without a new setup: nothing left to wait for.
            self.query_one("#session").add_class("local")
        status = self.query_one("#status", Static)
        status.update(self._status_text(rules_state))
        status.border_title = self._status_title()
        line = self.query_one("#line", Static)
        line.update(line_text(rules_state))
        line.border_title = line_title(rules_state)
        hand = self.query_one("#hand", Static)
        hand.update(hand_text(self.view))
        hand.border_title = hand_title(self.view)
        self._refresh_moves()

    def _status_title(self) -> str:
        if self.komi_halves is None:
            return "Table"
        komi = halves_text(self.komi_halves)
        return f"Table: komi {komi} pip{'' if komi == '1' else 's'} to the first player"

    def _status_text(self, rules_state: Any) -> Text:
        me = self.driver.seat
        lines = []
        if rules_state is not None:
            counts, first = rules_state.hand_counts, rules_state.first_player
            lines.append(f"Opponent (seat {1 - me}): {_count(counts[1 - me], 'tile')}. "
                         f"You: {_count(counts[me], 'tile')}.")
            facts = f"First player: {'you' if first == me else f'seat {first}'}."
            if self.last_move is not None:
                facts += f" Last: {self.last_move}."
            lines.append(facts)
        else:
            lines.append(f"You are seat {me}.")
        text = Text("\n".join(lines) + "\n")
        text.append(self._turn_text(), style="bold")
        return text

    def _turn_text(self) -> str:
        if self.error is not None:
            return "The game stopped (see below)."
        if self.end is not None:
            return "The game is over."
        if self.waiting_for_me:
            return "Your turn: pick a move below."
        if self.awaiting is None:
            return "Setting up..."
        seat, message = self.awaiting
        if message == "move" and seat != self.driver.seat:
            return f"Seat {seat} (opponent) to move..."
        owner = "you" if seat == self.driver.seat else f"seat {seat}"
        return f"Protocol step: {owner} owes a {message} frame..."

    def _refresh_moves(self) -> None:
        options = self.query_one("#moves", OptionList)
        options.clear_options()
        if not self.moves or self.view is None:
            options.border_title = "Your move (wait)" if not self.over else "Game over"
            return
        ends = self.view.rules_state.ends
        number = 0
        for move in self.moves:
            if getattr(move, "tile", None) is None:
                options.add_option(Option("p  pass"))
            else:
                number += 1
                key = str(number) if number <= 9 else " "
                options.add_option(Option(f"{key}  {move_label(move, ends)}"))
        options.highlighted = 0
        options.border_title = ("Your move: 1-9, or arrows + Enter; p passes" if number
                                else "No tile fits: p (or Enter) to pass")

    def _show_box(self, title: str, lines: list[str]) -> None:
        """The result box across the bottom; the moves and buttons make room for it."""
        result = self.query_one("#result", Static)
        result.border_title = title
        result.update(Text("\n".join([*lines, "Press q to leave."]), style="bold"))
        result.add_class("shown")
        self.query_one("#main").add_class("over")
        self.refresh_bindings()
        self._refresh_board()

    def _show_result(self, event: EndEvent) -> None:
        lines = result_lines(event.verdict, self.driver.seat)
        if event.verdict.valid and not event.verdict.complete and event.message:
            lines.append(event.message)  # a network game: who went silent, and for how long
        self._show_box("Result", lines)
        log = self.query_one("#log", RichLog)
        mark = "✓" if event.verdict.valid and event.verdict.complete else "✗"
        log.write(Text(f"{mark} transcript replayed from nothing: "
                       f"exit code {event.verdict.exit_code}", style="bold"))

    def _show_failure(self, exc: Exception) -> None:
        self.error = exc
        if self._pick is not None and not self._pick.done():
            self._pick.cancel()
        self._pick, self.moves = None, []
        self._show_box("Stopped", [failure_text(exc)])
        self._refresh_session()
        self.query_one("#log", RichLog).write(Text(f"✗ {failure_text(exc)}", style="bold"))


# -- `dealerless play` ---------------------------------------------------------------------

def run_play(args: argparse.Namespace) -> int:
    """Play in the terminal, then save the transcript and print its verdict."""
    try:
        komi = DEFAULT_KOMI_HALVES if args.komi is None else args.komi
        driver = LocalDriver(bot=args.vs, seat=args.seat, komi_halves=komi, seed=args.seed,
                             think_ms=args.think_ms)
    except DealerlessError as exc:
        print(f"dealerless: play: {exc}", file=sys.stderr)
        return EXIT_USAGE
    app = PlayApp(driver, komi_halves=komi)
    app.run()
    return save_game(app, driver, args.out or DEFAULT_OUT)


def save_game(app: PlayApp, driver: LocalDriver, out: str) -> int:
    """Write the transcript (all of it, or the prefix played before a quit) and its verdict.

    Returns 0 for a valid, complete game, 3 if the person quit first, 1 if invalid.
    """
    from peers.table.report import summary
    from protocol.verifier import replay

    if app.end is not None:
        data, verdict = app.end.transcript, app.end.verdict
    else:  # quit early: what was played is still a valid, signed prefix
        data = driver.table.referees[driver.seat].transcript().encode()
        verdict = replay(data)
    try:
        Path(out).write_bytes(data)
    except OSError as exc:
        print(f"dealerless: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    print(summary(verdict, out, len(data)))
    return EXIT_INCOMPLETE if app.end is None else verdict.exit_code
