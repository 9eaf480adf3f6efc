"""The terminal table for a person playing one seat (spec/12-peers.md section 12.6).

Theory of operation: `PlayApp` runs a `Driver` in a Textual worker on the
app's own asyncio loop. The driver reports what happens through
`notify_event` (called synchronously, so widgets are updated in place) and,
when the person's seat must move, awaits `choose`, which lists the legal
moves and waits on a future that a key press, a click or Enter resolves.
The app sees nothing of the protocol beyond the SeatView, the step notes
and the final verdict, exactly as a remote seat's UI would.

Keys: 1-9 play the numbered move, arrows + Enter pick from the list, p
passes, q quits (an unfinished game then leaves a valid prefix, exit 3).
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

from protocol.errors import DealerlessError
from protocol.rules.base import halves_text
from protocol.rules.bram import End
from protocol.seat import SeatView
from protocol.tiles import Tile
from protocol.verifier import Verdict

from .driver import (
    Driver,
    EndEvent,
    Event,
    LocalDriver,
    NoticeEvent,
    SetupEvent,
    StepEvent,
    ViewEvent,
)

EXIT_USAGE, EXIT_INCOMPLETE = 2, 3
DEFAULT_OUT = "dealerless-game.transcript"
TILE_STYLE, LEGAL_STYLE, END_STYLE = "bold", "bold black on green", "bold black on yellow"


# -- pure rendering helpers ------------------------------------------------------------------

def tile_box(a: int, b: int) -> str:
    return f"[{a}|{b}]"


def line_text(rules_state: Any) -> Text:
    """The line left to right, both open ends marked."""
    if rules_state is None:
        return Text("(the deal is not done yet)", style="dim")
    left, right = rules_state.ends
    text = Text()
    text.append(f" L:{left} ", style=END_STYLE)
    text.append(" ◀ ")
    text.append(" ".join(tile_box(a, b) for a, b in rules_state.line), style=TILE_STYLE)
    text.append(" ▶ ")
    text.append(f" R:{right} ", style=END_STYLE)
    down = _count(len(rules_state.line), "tile")
    text.append(f"\nopen ends: left {left}, right {right}; {down} down", style="dim")
    return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def playable_tiles(view: SeatView) -> set[Tile]:
    return {m.tile for m in view.legal if getattr(m, "tile", None) is not None}


def hand_text(view: SeatView | None) -> Text:
    """Every tile in hand; the ones that can be played now are highlighted and starred."""
    if view is None or not view.hand:
        return Text("(no tiles yet)" if view is None else "(empty)", style="dim")
    fits = playable_tiles(view)
    text = Text()
    for t in view.hand:
        if t in fits:
            text.append(f"*{tile_box(*t)}", style=LEGAL_STYLE)
        else:
            text.append(f" {tile_box(*t)}", style="dim")
        text.append(" ")
    pips = sum(a + b for a, b in view.hand)
    text.append(f"\n{_count(len(view.hand), 'tile')}, {pips} pips", style="dim")
    if fits:
        text.append("; * fits an open end", style="dim")
    return text


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


# -- the app -----------------------------------------------------------------------------

class PlayApp(App[int]):
    """One person's seat at a Bram's dominoes table; the result is the exit code."""

    CSS = """
    #board { width: 3fr; }
    #log { width: 2fr; border: round $accent; }
    #status, #line, #hand, #result { border: round $primary; height: auto; padding: 0 1; }
    #moves { height: 1fr; min-height: 5; border: round $success; }
    #buttons { height: auto; }
    #buttons Button { margin: 0 1; }
    #result { display: none; border: double $warning; }
    #result.shown { display: block; }
    .over #moves, .over #pass { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "pass_move", "Pass"),
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
        self.view: SeatView | None = None
        self.awaiting: tuple[int, str] | None = None
        self.moves: list[Any] = []
        self.last_move: str | None = None
        self._pick: asyncio.Future[Any] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="board"):
                yield Static(id="status")
                yield Static(id="line")
                yield Static(id="hand")
                yield OptionList(id="moves")
                with Horizontal(id="buttons"):
                    yield Button("Pass (p)", id="pass", variant="warning")
                    yield Button("Quit (q)", id="quit", variant="error")
                yield Static(id="result")
            yield RichLog(id="log", wrap=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        titles = {"#status": "Table", "#line": "Line of play", "#hand": "Your hand",
                  "#moves": "Your move", "#log": "Verification log", "#result": "Result"}
        for selector, title in titles.items():
            self.query_one(selector).border_title = title
        for button in self.query(Button):
            button.can_focus = False  # buttons are for the mouse; keys go to the move list
        self._refresh_board()
        self.query_one("#moves", OptionList).focus()
        self.run_worker(self._play(), name="driver", exit_on_error=True)

    async def _play(self) -> None:
        await self.driver.run(self.choose, self.notify_event)

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
                self.last_move = f"{self._who(event.seat)}: {event.note.split(':')[0]}"
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
            self.query_one("#log", RichLog).write(
                Text(f"opponent {event.opponent}; SAS {event.sas}", style="bold"))

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
        """Once the game is over only quitting is left (and shown in the footer)."""
        return self.end is None or action not in ("pass_move", "pick")

    def action_pick(self, number: int) -> None:
        plays = [m for m in self.moves if getattr(m, "tile", None) is not None]
        if 1 <= number <= len(plays):
            self._resolve(plays[number - 1])

    def action_pass_move(self) -> None:
        self._resolve(next((m for m in self.moves if getattr(m, "tile", None) is None), None))

    def action_quit_game(self) -> None:
        """Leave; before the end this abandons the game (a valid prefix, exit code 3)."""
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

    def _refresh_board(self) -> None:
        rules_state = self.view.rules_state if self.view is not None else None
        self.query_one("#status", Static).update(self._status_text(rules_state))
        self.query_one("#line", Static).update(line_text(rules_state))
        self.query_one("#hand", Static).update(hand_text(self.view))
        self._refresh_moves()

    def _status_text(self, rules_state: Any) -> Text:
        me = self.driver.seat
        facts = [f"You are seat {me}."]
        if rules_state is not None:
            counts, first = rules_state.hand_counts, rules_state.first_player
            facts.append(f"Opponent (seat {1 - me}) holds {_count(counts[1 - me], 'tile')}; "
                         f"you hold {counts[me]}.")
            facts.append(f"First player: seat {first}{' (you)' if first == me else ''}.")
        if self.komi_halves is not None:
            komi = halves_text(self.komi_halves)
            facts.append(f"Komi: {komi} pip{'' if komi == '1' else 's'} to the first player.")
        if self.last_move is not None:
            facts.append(f"Last move by {self.last_move}.")
        text = Text(" ".join(facts) + "\n")
        text.append(self._turn_text(), style="bold")
        return text

    def _turn_text(self) -> str:
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
            options.border_title = "Your move (wait)" if self.end is None else "Game over"
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
        options.border_title = ("Your move: 1-9 or arrows + Enter, p to pass" if number
                                else "No tile fits: p (or Enter) to pass")

    def _show_result(self, event: EndEvent) -> None:
        lines = result_lines(event.verdict, self.driver.seat)
        lines.append("Press q to leave.")
        result = self.query_one("#result", Static)
        result.update(Text("\n".join(lines), style="bold"))
        result.add_class("shown")
        self.query_one("#board").add_class("over")
        self.refresh_bindings()
        self._refresh_board()
        log = self.query_one("#log", RichLog)
        mark = "✓" if event.verdict.valid and event.verdict.complete else "✗"
        log.write(Text(f"{mark} transcript replayed from nothing: "
                       f"exit code {event.verdict.exit_code}", style="bold"))


# -- `dealerless play` ---------------------------------------------------------------------

def run_play(args: argparse.Namespace) -> int:
    """Play in the terminal, then save the transcript and print its verdict."""
    try:
        driver = LocalDriver(bot=args.vs, seat=args.seat, komi_halves=args.komi, seed=args.seed)
    except DealerlessError as exc:
        print(f"dealerless: play: {exc}", file=sys.stderr)
        return EXIT_USAGE
    app = PlayApp(driver, komi_halves=args.komi)
    app.run()
    return save_game(app, driver, args.out or DEFAULT_OUT)


def save_game(app: PlayApp, driver: LocalDriver, out: str) -> int:
    """Write the transcript (all of it, or the prefix played before a quit) and its verdict.

    Returns 0 for a valid, complete game, 3 if the person quit first, 1 if invalid.
    """
    from protocol.verifier import replay

    from .report import summary

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
