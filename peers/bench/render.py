"""`dealerless bench` in words: the table of spec/09-bench.md's figures."""

from __future__ import annotations

from typing import Any

from peers.bench.groups import group_lines
from peers.bench.seal import seal_lines
from peers.bench.suites import suite_lines


def render(result: dict[str, Any]) -> str:
    """The human-readable table."""
    lines = ["group operation costs (median, us):"]
    lines += [f"  {name:<6} {us:8.1f}" for name, us in result["op_costs_us"].items()]
    lines.append("")
    head = (f"{'N':>3} {'step':<8} {'median ms':>10} {'floor ms':>9} {'ratio':>6} "
            f"{'var':>5} {'base':>5} {'add':>5} {'valid':>5}")
    lines += [f"shuffle (median of {result['reps']} runs):", head]
    for n, rep in result["shuffle"].items():
        for step in ("shuffle", "prove", "verify"):
            s = rep[step]
            o = s["ops"]
            lines.append(f"{n:>3} {step:<8} {s['median_ms']:10.1f} {s['floor_ms']:9.1f} "
                         f"{s['ratio']:6.2f} {o['var']:5d} {o['base']:5d} {o['add']:5d} "
                         f"{o['valid']:5d}")
        lines.append(f"{n:>3} proof {rep['proof_bytes']} bytes; shuffle+prove+verify = "
                     f"{rep['V_per_tile']:.1f} V per tile")
    lines.append("")
    lines.append("DLEQ decryption share (one alone; a DEAL of 13 from its bytes):")
    for step, s in result["dleq"].items():
        lines.append(f"    {step:<11} {s['median_ms']:7.3f} {s['floor_ms']:9.3f} "
                     f"{s['ratio']:6.2f}")
    cp = result["cannot_play"]
    lines.append("")
    lines.append(f"cannot play ({cp['set']}, hand {cp['hand']}, forbidden {cp['forbidden']}, "
                 f"proof {cp['proof_bytes']} bytes):")
    for step in ("prove", "verify"):
        s = cp[step]
        lines.append(f"    {step:<8} {s['median_ms']:10.1f} {s['floor_ms']:9.1f} {s['ratio']:6.2f}"
                     f"  {s['V']:6.1f} V  ops {s['ops']}")
    if "game" in result:
        g = result["game"]
        lines.append("")
        lines.append(f"full Bram game ({g['frames']} frames, {g['transcript_bytes']} bytes):")
        for step in ("selfplay", "verify"):
            s = g[step]
            lines.append(f"    {step:<8} {s['median_ms']:10.1f} {s['floor_ms']:9.1f} "
                         f"{s['ratio']:6.2f}  ops {s['ops']}")
    lines.append("")
    lines.append(f"floor_ratio_max    {result['floor_ratio_max']:.2f}")
    lines.append(f"cannot_play_V      prove {result['cannot_play_V']['prove']:.1f}, "
                 f"verify {result['cannot_play_V']['verify']:.1f}; "
                 f"cannot_play_floor_ratio {result['cannot_play_floor_ratio']:.2f}")
    if "game_verify_floor_ratio" in result:
        lines.append(f"game_verify_floor_ratio {result['game_verify_floor_ratio']:.2f}")
        t = result["table"]
        lines.append(f"table ({t['rules']}, {t['seats']} seats x {t['tiles']} tiles): set-up "
                     f"{t['setup']['median_ms']:.0f} ms (ratio {t['setup']['ratio']:.2f}); "
                     f"a round of {t['frames']} frames verifies in "
                     f"{t['round_verify']['median_ms']:.0f} ms, "
                     f"table_verify_floor_ratio {result['table_verify_floor_ratio']:.2f}")
    per_tile = ", ".join(f"N={n}: {v:.1f}" for n, v in result["shuffle_V_per_tile"].items())
    lines.append(f"shuffle_V_per_tile {per_tile}")
    lines += seal_lines(result)
    lines += ["", *group_lines(result), "", *suite_lines(result)]
    return "\n".join(lines)


def render_relay(figures: dict[str, Any]) -> str:
    f = figures
    return "\n".join([
        f"relay load: {f['games']} games, {f['concurrent']} at once from one address, "
        f"in {f['wall_s']} s; every seat's transcript identical to the recorded one",
        f"  relay CPU: {f['relay_cpu_s']} s in all, {f['relay_cpu_ms_per_game']} ms a game",
        f"  relay memory: {f['relay_rss_idle_mib']} MiB idle, {f['relay_peak_mib']} MiB at "
        f"peak, {f['relay_kib_per_concurrent_game']} KiB a concurrent game",
        f"  relayed: {f['bytes_relayed_per_game']} bytes received a game; "
        f"{f['games_finished']} games finished, refused {f['refused'] or 'none'}, "
        f"{f['rooms_open_after']} rooms open after",
    ])


def render_parallel(figures: dict[str, Any], path: str) -> str:
    f = figures
    return (f"verify of the match {path} ({f['rounds']} rounds, {f['bytes']} bytes; median of "
            f"{f['runs']} runs, {f['cpus']} CPUs): {f['verify_1_job_s']} s with 1 job, "
            f"{f['verify_n_jobs_s']} s with {f['jobs']} jobs: speed-up {f['speedup']}x, "
            "same verdict")
