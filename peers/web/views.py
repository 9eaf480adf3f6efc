"""What the page is sent, as JSON: a seat's view, each event, the verdict (spec/12-peers.md 12.8).

The page knows no rules. It is handed the public state exactly as the rule set writes
it (`state_to_json`, spec/10-session.md 10.3), the seat's own hand, and the legal moves
with their ids and texts; it draws them and sends back the id of the one picked.
"""

from __future__ import annotations

from typing import Any

from peers.table.driver import EndEvent, NoticeEvent, SetupEvent, StepEvent
from peers.table.report import account, headline
from peers.web import orders
from protocol.frames import MessageType
from protocol.seat import SeatView
from protocol.tiles import Tile, tile_text
from protocol.verifier import Verdict


def tile(t: Tile | None) -> str | None:
    return None if t is None else tile_text(t)


def view_json(game: Any, view: SeatView, phase: str) -> dict[str, Any]:
    """The seat's view; `legal` is what the page may offer, nothing else."""
    rules = game.stages if game.simultaneous else game.rules
    if phase == MessageType.CHOOSE.label:
        legal = [{"id": seat, "text": f"seat {seat}", "tile": None} for seat in view.legal]
    elif game.simultaneous:
        legal = []   # orders are built on the map, each step checked (peers/web/orders.py)
    else:
        legal = [{"id": rules.move_id(m), "text": rules.move_text(m),
                  "tile": tile(rules.played_tile(m))} for m in view.legal]
    state = None if view.rules_state is None else rules.state_to_json(view.rules_state)
    out = {"seat": view.seat, "state": state,
           "hand": [tile(t) for t in view.hand], "legal": legal,
           "params": dict(view.params)}
    if game.simultaneous and view.rules_state is not None:
        out["starts"] = orders.starts(game, view)
    return out


def step_json(event: StepEvent) -> dict[str, Any]:
    return {"kind": "step", "seq": event.seq, "seat": event.seat, "frame": event.kind,
            "text": f"seat {event.seat}: {event.note}"}


def setup_json(event: SetupEvent) -> dict[str, Any]:
    return {"game_id": event.game_id, "seat": event.seat, "rules": event.rules,
            "opponents": event.opponent, "sas": event.sas, "seats": event.seats,
            "suite": event.suite}


def notice_json(event: NoticeEvent) -> dict[str, Any]:
    return {"kind": "notice", "text": event.text}


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """The verdict as `dealerless verify` gives it: its JSON and its readable account."""
    return {"json": verdict.to_json(), "headline": headline(verdict),
            "text": account(verdict), "exit_code": verdict.exit_code}


def end_json(event: EndEvent) -> dict[str, Any]:
    return {"message": event.message, "verdict": verdict_json(event.verdict),
            "bytes": len(event.transcript)}
