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
exception is kept in `PlayApp.error` for the caller. A bug in the app itself still
ends it with a traceback, but one without local variables: Textual shows them by
default, and the frames of a seat hold its hand and its key share.

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
from rich.traceback import Traceback
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

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
from peers.ui.terminal_text import (
    EXIT_INCOMPLETE,
    EXIT_USAGE,
    failure_exit_code,
    failure_text,
    hand_text,
    hand_title,
    line_text,
    line_title,
    move_options,
    ordered_moves,
    result_lines,
    session_text,
    status_text,
    status_title,
    turn_text,
)
from protocol.errors import DealerlessError
from protocol.rules.bram import DEFAULT_KOMI_HALVES
from protocol.seat import SeatView

DEFAULT_OUT = "dealerless-game.transcript"


class Board(Vertical):
    """The table: status, line of play, hand, the move list and its buttons."""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="line")
        yield Static(id="hand")
        yield OptionList(id="moves")
        with Horizontal(id="buttons"):
            yield Button("Pass (p)", id="pass", variant="warning", compact=True)
            yield Button("Quit (q)", id="quit", variant="error", compact=True)

    def draw(self, view: SeatView | None, status: Text, title: str) -> None:
        rules_state = view.rules_state if view is not None else None
        box = self.query_one("#status", Static)
        box.update(status)
        box.border_title = title
        line = self.query_one("#line", Static)
        line.update(line_text(rules_state))
        line.border_title = line_title(rules_state)
        hand = self.query_one("#hand", Static)
        hand.update(hand_text(view))
        hand.border_title = hand_title(view)

    def show_moves(self, view: SeatView | None, moves: list[Any], over: bool) -> None:
        options = self.query_one("#moves", OptionList)
        options.clear_options()
        if not moves or view is None:
            options.border_title = "Your move (wait)" if not over else "Game over"
            return
        lines, options.border_title = move_options(moves, view.rules_state.ends)
        options.add_options([Option(line) for line in lines])
        options.highlighted = 0


class PlayApp(App[int]):
    """One person's seat at a Bram's dominoes table; the result is the exit code."""

    CSS_PATH = "terminal.tcss"
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
            yield Board(id="board")
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

    def _fatal_error(self) -> None:
        """Textual's report of an unhandled exception, without its local variables."""
        self.bell()
        exc_type, exc, trace = sys.exc_info()
        if exc_type is None or exc is None:
            self.panic(Text("dealerless: the terminal table stopped on an unexpected error"))
            return
        self.panic(Traceback.from_exception(exc_type, exc, trace, width=None,
                                            show_locals=False))

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
                f"game {event.game_id[:16]}, rules {event.rules}; suite {event.suite}; you are "
                f"seat {event.seat}; opponent {event.opponent}; SAS {event.sas}",
                style="bold"))
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
        if self.setup is None and self.view is not None:
            # A resumed game plays on without a new setup: nothing left to wait for.
            self.query_one("#session").add_class("local")
        turn = turn_text(self.driver.seat, self.awaiting, stopped=self.error is not None,
                         over=self.end is not None, my_turn=self.waiting_for_me)
        self.query_one(Board).draw(self.view, status_text(self.view, self.driver.seat,
                                                          self.last_move, turn),
                                   status_title(self.komi_halves))
        self._refresh_moves()

    def _refresh_moves(self) -> None:
        self.query_one(Board).show_moves(self.view, self.moves, self.over)

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
        driver = LocalDriver([args.vs], seat=args.seat, params={"komi_halves": komi},
                             seed=args.seed, think_ms=args.think_ms)
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
