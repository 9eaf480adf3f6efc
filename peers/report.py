"""Human-readable accounts of a verdict, for `dealerless verify` and `selfplay`."""

from __future__ import annotations

from protocol.verifier import Verdict


def _seat(verdict: Verdict, seat: int | None) -> str:
    return "no seat" if seat is None else f"seat {seat}"


def headline(verdict: Verdict) -> str:
    if not verdict.valid and verdict.violation is not None:
        return f"INVALID at {verdict.violation.describe()}"
    if not verdict.complete and verdict.awaiting is not None:
        seat, message = verdict.awaiting
        return (f"INCOMPLETE: a valid prefix of {verdict.frames} frames; seat {seat} owes "
                f"the next frame, a {message} frame (if it never comes, seat {seat} "
                f"forfeits)")
    out = verdict.outcome
    if out is None:
        return "VALID"
    pips = ", ".join(f"seat {i}: {p}" for i, p in enumerate(verdict.to_json()["outcome"]["pips"]))
    how = ("went out" if out.reason == "out" else "had fewer pips after two passes")
    margin = verdict.to_json()["outcome"]["margin"]
    result = ("a draw" if out.winner is None
              else f"seat {out.winner} wins by {margin} ({how})")
    return f"VALID and complete: {result}; pips with komi {pips}"


def account(verdict: Verdict) -> str:
    """The game move by move, then the verdict."""
    data = verdict.to_json()
    lines = []
    if data["rules"]:
        lines.append(f"rules {data['rules']['name']} {data['rules']['params']}; "
                     f"game {data['game_id'][:16]}...")
        lines += [f"  seat {s['seat']}: {s['fingerprint']}" for s in data["seats"]]
    if data["first_player"] is not None:
        lines.append(f"first player: seat {data['first_player']}")
    for m in data["moves"]:
        lines.append(f"  frame {m['frame']:>3}  seat {m['seat']}  {m['move']}")
    if data["hidden_tile"]:
        lines.append(f"hidden tile: {', '.join(data['hidden_tile'])}")
    lines.append(headline(verdict))
    return "\n".join(lines)


def summary(verdict: Verdict, path: str, size: int) -> str:
    hidden = verdict.to_json()["hidden_tile"]
    return (f"{headline(verdict)}\n{verdict.frames} frames, {size} bytes, {len(verdict.moves)} "
            f"moves, hidden tile {', '.join(hidden or [])}; transcript written to {path}")
