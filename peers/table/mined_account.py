"""The round-by-round account of a finished Mined Games game, for `dealerless verify`
(spec/rules/mined-games.md 5.7): per round and per miner, where it started, the tiles it
stepped onto, its action, what its mine paid or why it paid nothing, where it fell, how
it died, the round's money by source and the money after it; then the iron bonus (5.6).
Enough to check 5.1-5.6 by hand."""

from __future__ import annotations

from protocol.rules.mined_map import GARNETS_PER_MINE, KINDS
from protocol.rules.mined_round import (
    BREAK_FALL_BONUS,
    IRON_BONUS,
    KILL_BONUS,
    STEP_MONEY,
    MinerRound,
    RoundReport,
    pos_text,
    rounded_share,
)
from protocol.rules.mined_stage import MinedOutcome


def _miner_line(seat: int, m: MinerRound, report: RoundReport) -> str:
    parts = [f"seat {seat} from {pos_text(m.start)}"]
    parts.append("steps " + ", ".join(pos_text(p) for p in m.path) if m.path else "no step")
    if m.action:
        parts.append(m.action)
        if m.action.startswith("mine") and m.target is None:
            parts.append("not done: it was falling")
    if m.target is not None:
        split = f", split {m.shared} ways" if m.shared > 1 else ""
        bonus = f" + self-mining ${m.bonus:,}" if m.bonus else ""
        paid = (f"paid nothing: {m.unpaid}" if m.unpaid
                else f"${m.mined - m.bonus:,}{split}{bonus}")
        garnets = f", {GARNETS_PER_MINE} garnets" if m.kind == "R" and not m.unpaid else ""
        parts.append(f"mined the {KINDS[m.kind][0]} at {pos_text(m.target)} ({paid}{garnets})")
    if m.fell_to is not None:
        parts.append(f"fell to {pos_text(m.fell_to)}")
    if m.died:
        parts.append(f"died ({m.died})")
    sources = []
    if m.path:
        n = len(m.path)
        sources.append(f"{n} step{'s' if n > 1 else ''} ${STEP_MONEY * n:,}")
    if m.mined:
        sources.append(f"mining ${m.mined:,}")
    if seat in report.breakers_paid:
        sources.append(f"break-and-fall ${BREAK_FALL_BONUS:,}")
    if seat in report.killers_paid:
        sources.append(f"kill ${KILL_BONUS:,}")
    earned = f"earned ${m.earned:,}" + (f" ({' + '.join(sources)})" if len(sources) > 1
                                       else "")
    return f"  {'; '.join(parts)}; {earned}; money ${m.money:,}"


def mined_rounds_text(out: MinedOutcome) -> list[str]:
    """The account's lines: every round played, then the iron bonus."""
    lines = []
    for number, report in out.rounds:
        lines.append(f"round {number}:" + (f" ${report.pool} to the prize pool"
                                            if report.pool else ""))
        lines += [_miner_line(s, m, report) for s, m in sorted(report.miners.items())]
    most = max(out.iron_rounds, default=0)
    if most:
        top = [s for s, n in enumerate(out.iron_rounds) if n == most]
        share = rounded_share(IRON_BONUS, len(top))
        seats = " and ".join(f"seat {s}" for s in top)
        each = f"${share:,}" if len(top) == 1 else f"${IRON_BONUS:,} split, ${share:,} each"
        lines.append(f"iron bonus: {seats} mined iron in {most} round"
                     f"{'s' if most > 1 else ''}, the most: {each}")
    return lines
