#!/usr/bin/env python3
"""Write the measured chain costs of each step's proofs into spec/09-bench.md 9.3.

    python tools/gen_chain_costs.py          # rewrite the block in spec/09-bench.md
    python tools/gen_chain_costs.py --check  # exit 1 if the block differs from a new run

Both exit 2, measuring nothing, without the tools of the `[chain]` extra.

Two seeded games of bls12381g1-sha256 are played (Bram at two seats, Mexican Train at
eight), one frame of each message type is taken with the state it applied to, and every
check of a proof the step makes runs inside the chain VMs of peers/chain: the frame's
signature (8.3), and the key proof (6.2), shuffle proof (7.5), batch proof (6.3.1) or
single DLEQ proof (6.3) its body carries. Whole sets that no game shuffles whole (28 and
55 tiles) are shuffled by the reference prover and put in a SHUFFLE frame signed by it.

What is measured is a sum of separate runs, one Chialisp program (or contract call) a
check: Chia's cost (CLVM run cost plus 12,000 a byte of program and solution) and Ethereum
gas (execution, and the transaction with its 21,000 and calldata). For Bram, the whole
single-step check (spec/11-verify.md 11.4.1: the package's decoding, the rules, the state
hashes and these proofs) is measured too, on the same frames, on both VMs. Every input comes from
fixed seeds, so every figure is exact and `--check` compares them digit for digit.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib.metadata
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from peers.chain import INSTALL, TOOLS, missing_tools
from peers.chain.clvm import BLOCK_COST_LIMIT, COST_PER_BYTE
from peers.entropy import Entropy
from peers.table.selfplay import Table
from protocol.claims import claim_positions, claim_statement, forbidden_tiles
from protocol.context import Context
from protocol.deck import initial_deck, joint_key, shuffle_round
from protocol.elgamal import encode_deck
from protocol.frames import Frame, MessageType, build_frame, parse_frame, signed_message
from protocol.game import Game
from protocol.identity import Identity
from protocol.messages import MoveBody, SharesBody, ShuffleBody
from protocol.state import HIDDEN, PublicState
from protocol.suite import suite
from protocol.tiles import DOUBLE_NINE, DOUBLE_SIX, TileSet
from protocol.verifier import make_package
from protocol.version import PROTOCOL

S = suite("bls12381g1-sha256", PROTOCOL)
ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "09-bench.md"
BEGIN, END = "<!-- chain-costs:begin -->", "<!-- chain-costs:end -->"
COMMAND = "python tools/gen_chain_costs.py"
#: The seeded games (rules, params, seats, seed), the seeds of tools/gen_costs.py.
GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("bram", {}, 2, 1), ("mexican-train", {"seats": 8}, 8, 2))
#: Whole sets no rule set shuffles whole (Bram and Mineshaft leave a tile on the table;
#: Mexican Train shuffles all 91 of double-twelve, its row above).
WHOLE_SETS = (DOUBLE_SIX, DOUBLE_NINE)
#: The row order of each table.
ORDER = ("KEY", "NONCE", "SHUFFLE", "DEAL", "DRAW", "MOVE, tile played", "MOVE, no tile",
         "MOVE, cannot-play claim", "REVEAL")


@dataclass(frozen=True)
class Call:
    """One check, run alike on both VMs: `what` names the method of clvm_checks /
    clvm_proofs and of EvmChecks / EvmProofs, `args` its arguments."""

    what: str
    args: tuple[Any, ...]


@dataclass
class Step:
    """The checks of one frame, with what the table says of it."""

    kind: str
    checked: str           # what the row's checks are, in words
    signed: int            # bytes of the signed message m (8.3)
    calls: list[Call] = field(default_factory=list)
    #: The frame's dispute package (11.3) and the committed state hash, for the whole
    #: step (11.4.1); empty for a frame outside a game.
    package: bytes = b""
    committed: bytes = b""


@dataclass(frozen=True)
class Cost:
    """A step's runs summed: CLVM run cost and bytes (program and solution), EVM execution
    and transaction gas; and the part of the totals that is the frame signature's."""

    run: int
    clvm_bytes: int
    execution: int
    transaction: int
    signature_clvm: int
    signature_transaction: int

    @property
    def clvm_total(self) -> int:
        return self.run + COST_PER_BYTE * self.clvm_bytes


def _signature(setup_keys: Sequence[bytes], frame: Frame) -> Call:
    m = signed_message(S.version, frame.payload)
    return Call("verify_frame_signature", (setup_keys[frame.seat], m, frame.signature))


def _kind(frame: Frame) -> str:
    if frame.type is MessageType.MOVE:
        body = MoveBody.decode(S, frame.body)
        return ("MOVE, cannot-play claim" if body.claim is not None
                else "MOVE, tile played" if body.opening is not None else "MOVE, no tile")
    return frame.type.name


def _shuffle_call(ctx: tuple[bytes, int, int], joint: bytes, deck_in: bytes,
                  frame: Frame) -> Call:
    deck_out, proof = frame.body
    return Call("verify_shuffle", (*ctx, joint, deck_in, deck_out, proof))


def _claim_call(ctx: tuple[bytes, int, int], game: Game, state: PublicState,
                frame: Frame, proof: bytes) -> Call:
    """6.5.5 of a claim: the statement from the state (10.4 PLAY 1a), each hand position
    with its c1, c2 and the other seats' shares, R_j being the chain's to compute."""
    from peers.chain.cannot_play import CannotPlayStatement, HandEntry

    hand = tuple(HandEntry(p, state.deck[p].c1.data, state.deck[p].c2.data,
                           tuple(d.data for i, d in enumerate(state.shares[p])
                                 if i != frame.seat and d is not None))
                 for p in claim_positions(state, frame.seat))
    stmt = CannotPlayStatement(game.rules.tile_set.name, state.key_shares[frame.seat].data,
                               hand, tuple(forbidden_tiles(game, state)))
    return Call("verify_cannot_play", (*ctx, stmt, proof))


def step_of(keys: Sequence[bytes], game: Game, state: PublicState, frame: Frame,
            checked: str) -> Step:
    """The chain checks of `frame`, received in `state`: its signature and its proofs,
    each under the context (game id, frame seq, frame seat) of 6.1. The proofs and shares
    are the bytes the frame carries (8.5); the keys, the decks and each share's c1 are the
    verifier's own, from the state. The referee accepted the frame, so its body decodes."""
    ctx = (state.game_id, frame.seq, frame.seat)
    step = Step(_kind(frame), checked, len(signed_message(S.version, frame.payload)),
                [_signature(keys, frame)], make_package(game, state, frame.wire),
                state.hash(game.rules, S))
    if frame.type is MessageType.KEY:
        key_share, proof, _ = frame.body
        step.calls.append(Call("verify_schnorr", (*ctx, key_share, proof)))
    elif frame.type is MessageType.SHUFFLE:
        step.calls.append(_shuffle_call(ctx, joint_key(S, state.key_shares).data,
                                        encode_deck(state.deck), frame))
    elif frame.type in (MessageType.DEAL, MessageType.DRAW, MessageType.REVEAL):
        rows, proof = frame.body
        if rows:
            step.calls.append(Call("verify_dleq_batch", (
                *ctx, state.key_shares[frame.seat].data,
                [state.deck[p].c1.data for p, _ in rows],
                [d for _, d in rows], proof)))
    elif frame.type is MessageType.MOVE:
        _, p, share, proof = frame.body[:4]
        if p is not None:
            step.calls.append(Call("verify_dleq", (
                *ctx, state.key_shares[frame.seat].data, state.deck[p].c1.data, share, proof)))
        if len(frame.body) == 5:
            step.calls.append(_claim_call(ctx, game, state, frame, frame.body[4]))
    return step


def play(rules: str, params: dict[str, Any], seats: int,
         seed: int) -> tuple[Table, list[tuple[PublicState, Frame]]]:
    """A seeded game of greedy bots, each frame with the state it was received in. One
    referee judges it, as tools/gen_costs.py plays (the seats' own copies would agree)."""
    table = Table.create(rules, params, ("greedy",) * seats, Entropy(seed), in_suite=S)
    ref = table.referees[0]
    frames = []
    while (due := ref.awaiting) is not None:
        seat = due[0]
        state = ref.state
        wire = table.agents[seat].next_frame(state, table.entropy.bytes(f"fresh {seat}"),
                                             table.choosers[seat])
        ref.receive(wire)
        frames.append((state, parse_frame(wire, S)))
    return table, frames


def _shares_count(frame: Frame) -> int:
    return len(SharesBody.decode(S, frame.body).positions)


def game_steps(rules: str, params: dict[str, Any], seats: int, seed: int) -> list[Step]:
    """A step of each kind of the seeded game: its first frame, except the last seat's
    SHUFFLE (its input deck is already shuffled, not the initial one whose every c1 is
    G, 5.4) and the REVEAL with the most shares; each row's words say which."""
    table, frames = play(rules, params, seats, seed)
    keys, game = table.setup.identities, table.referees[0].game
    plan = game.rules.deal
    by_kind: dict[str, list[tuple[PublicState, Frame]]] = {}
    for state, frame in frames:
        by_kind.setdefault(_kind(frame), []).append((state, frame))
    steps = []
    for kind in ORDER:
        found = by_kind.get(kind)
        if not found:
            continue
        state, frame = found[0]
        if kind == "KEY":
            checked = "signature, Schnorr key proof (6.2)"
        elif kind in ("NONCE", "MOVE, no tile"):
            checked = "signature only (the body carries no proof)"
        elif kind == "SHUFFLE":
            state, frame = found[-1]
            checked = (f"signature, shuffle proof of N = {len(state.deck)} (7.5, 7.5.1), "
                       f"seat {frame.seat}'s")
        elif kind == "DEAL":
            n = _shares_count(frame)
            if n != (seats - 1) * plan.hand_size:
                raise AssertionError(f"a DEAL of {n} shares, not (k - 1) * hand size")
            checked = (f"signature, batch proof (6.3.1) of {n} shares: (k - 1) x "
                       f"{plan.hand_size}, the hands of the other seats")
        elif kind == "DRAW":
            checked = f"signature, batch proof of {_shares_count(frame)} share"
        elif kind == "MOVE, tile played":
            checked = "signature, one DLEQ proof (6.3) of the mover's share"
        elif kind == "MOVE, cannot-play claim":
            state, frame = max(found, key=lambda sf: len(sf[1].body[4]))
            claim = claim_statement(game, state, frame.seat)
            assert claim is not None
            checked = (f"signature, cannot-play proof (6.5) of {len(claim.hand)} hand tiles "
                       f"against {len(claim.forbidden)} forbidden (the longest of the game's "
                       f"{len(found)} claims)")
        else:   # REVEAL
            state, frame = max(found, key=lambda sf: _shares_count(sf[1]))
            positions = SharesBody.decode(S, frame.body).positions
            hidden = sum(state.owners[p] == HIDDEN for p in positions)
            checked = (f"signature, batch proof of {len(positions)} shares: seat "
                       f"{frame.seat}'s {len(positions) - hidden} unplayed + {hidden} hidden "
                       f"(the largest of the game's {len(found)} REVEALs)")
        steps.append(step_of(keys, game, state, frame, checked))
    return steps


#: The fixed inputs of the whole-set shuffles: a key, a game id, a signer and fresh bytes
#: (none of them a real secret), the second seat of two shuffling at step 5.
WHOLE_GAME_ID = hashlib.sha256(b"dealerless/gen_chain_costs: a whole set").digest()
WHOLE_SECRET = 123456789
WHOLE_SIGNER = Identity(bytes(range(32)))


def whole_set_step(ts: TileSet) -> Step:
    """A shuffle of every tile of `ts` by the reference prover, second of two rounds, in a
    SHUFFLE frame built and signed as a seat would (its state hash and prev fixed)."""
    key = S.group.base_mul(WHOLE_SECRET)
    first, _ = shuffle_round(initial_deck(S, ts, ts.tiles, key), key,
                             Context(S, WHOLE_GAME_ID, 4, 0), bytes(32), b"a" * 32)
    out, proof = shuffle_round(first, key, Context(S, WHOLE_GAME_ID, 5, 1), bytes([1]) * 32,
                               b"b" * 32)
    body = ShuffleBody(out, proof).encode(S)
    wire = build_frame(WHOLE_SIGNER, S, WHOLE_GAME_ID, 5, bytes([7]) * 32, 1,
                       MessageType.SHUFFLE, bytes([9]) * 32, body, bytes([2]) * 32)
    frame = parse_frame(wire, S)
    keys = (b"", WHOLE_SIGNER.frame_key(S))   # the signer sits at seat 1
    return Step("SHUFFLE", f"signature, shuffle proof of N = {len(ts.tiles)} ({ts.name}, "
                "reference prover)", len(signed_message(S.version, frame.payload)),
                [_signature(keys, frame), _shuffle_call((WHOLE_GAME_ID, frame.seq, frame.seat),
                                                        key.data, encode_deck(first), frame)])


class Vms:
    """Both VMs with their programs: CLVM's (compiled when first run) and the contracts,
    compiled and deployed once on one py-evm harness."""

    MANY = ("verify_shuffle", "verify_dleq_batch")   # clvm_proofs' and EvmProofs' checks

    def __init__(self) -> None:
        from peers.chain import cannot_play, clvm_checks, clvm_proofs
        from peers.chain.evm_cannot_play import EvmCannotPlay
        from peers.chain.evm_proofs import EvmProofs

        self.clvm_checks, self.clvm_proofs = clvm_checks, clvm_proofs
        self.evm = EvmProofs()
        evm_claims = EvmCannotPlay(self.evm.harness)
        #: The one check with a module and a contract of its own (peers/chain/cannot_play).
        self.claims = (cannot_play.verify_cannot_play, evm_claims.verify_cannot_play)

    def cost(self, step: Step) -> Cost:
        """Every check of `step` on both VMs, each of which must find it valid."""
        run = clvm_bytes = execution = transaction = 0
        signature = (0, 0)
        for call in step.calls:
            many = call.what in self.MANY
            if call.what == "verify_cannot_play":
                clvm, evm = (check(*call.args) for check in self.claims)
            else:
                clvm = getattr(self.clvm_proofs if many else self.clvm_checks,
                               call.what)(*call.args)
                evm = getattr(self.evm if many else self.evm.checks, call.what)(*call.args)
            if not (clvm.ok and evm.ok):
                raise AssertionError(f"{step.kind}: {call.what} gave {clvm.code} on CLVM and "
                                     f"{evm.code} on the EVM, not ok")
            run += clvm.cost.run
            clvm_bytes += clvm.cost.program_bytes + clvm.cost.solution_bytes
            execution += evm.cost.execution
            transaction += evm.cost.transaction
            if call.what == "verify_frame_signature":
                signature = (clvm.cost.total, evm.cost.transaction)
        return Cost(run, clvm_bytes, execution, transaction, *signature)


def versions() -> dict[str, str]:
    """The installed versions of the [chain] tools, which the figures depend on."""
    return {name: importlib.metadata.version(name) for name, _ in TOOLS}


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%"


HEADER = ("| step | checks | m bytes | CLVM run | CLVM bytes | CLVM total | of a block "
          "| signature's | EVM execution | EVM transaction | of 2^24 | of 30 M | signature's |")


def table(name: str, title: str, steps: Sequence[Step], vms: Vms,
          misfits: list[str]) -> list[str]:
    """A markdown table of `steps`; a step that passes a Chia block or EIP-7825's cap is
    named in `misfits`."""
    from peers.chain.evm import BLOCK_GAS_LIMIT, TX_GAS_CAP

    lines = [title, "", HEADER, "|" + " --- |" * (HEADER.count("|") - 1)]
    for step in steps:
        c = vms.cost(step)
        lines.append(
            f"| {step.kind} | {step.checked} | {step.signed:,} | {c.run:,} | "
            f"{c.clvm_bytes:,} | {c.clvm_total:,} | {_pct(c.clvm_total, BLOCK_COST_LIMIT)} | "
            f"{c.signature_clvm:,} | {c.execution:,} | {c.transaction:,} | "
            f"{_pct(c.transaction, TX_GAS_CAP)} | {_pct(c.transaction, BLOCK_GAS_LIMIT)} | "
            f"{c.signature_transaction:,} |")
        if c.clvm_total > BLOCK_COST_LIMIT:
            misfits.append(f"{name} {step.kind} ({step.checked}) passes a Chia block")
        if c.transaction > TX_GAS_CAP:
            misfits.append(f"{name} {step.kind} ({step.checked}) passes EIP-7825's cap")
    return [*lines, ""]


WHOLE_HEADER = ("| step | package bytes | CLVM run | CLVM bytes | CLVM total | of a block "
                "| EVM execution | EVM transaction | of 2^24 | of 30 M |")


def whole_table(steps: Sequence[Step], misfits: list[str]) -> list[str]:
    """The whole single-step check (spec/11-verify.md 11.4.1) of each of Bram's `steps`,
    its package judged with the committed state hash by clsp/step.clsp and by the
    contracts of vy/step.vy: the proofs of the table above and everything else, the
    step's decoding, rules and state hashes."""
    from peers.chain.clvm_step import check_step_clvm
    from peers.chain.evm import BLOCK_GAS_LIMIT, TX_GAS_CAP
    from peers.chain.evm_step import check_step_evm

    lines = ["**bram, k = 2, the whole step** (`dealerless check-step --vm clvm|evm`: "
             "clsp/step.clsp and vy/step.vy on the same frames' dispute packages, the "
             "program's bytes and the calldata included):", "", WHOLE_HEADER,
             "|" + " --- |" * (WHOLE_HEADER.count("|") - 1)]
    for step in steps:
        clvm, evm = (check(step.package, step.committed)
                     for check in (check_step_clvm, check_step_evm))
        if not (clvm.code == evm.code == "ok"):
            raise AssertionError(f"{step.kind}: the whole step gave {clvm.code} on CLVM and "
                                 f"{evm.code} on the EVM, not ok")
        c, g = clvm.cost, evm.cost
        lines.append(f"| {step.kind} | {len(step.package):,} | {c.run:,} | "
                     f"{c.program_bytes + c.solution_bytes:,} | {c.total:,} | "
                     f"{_pct(c.total, BLOCK_COST_LIMIT)} | {g.execution:,} | "
                     f"{g.transaction:,} | {_pct(g.transaction, TX_GAS_CAP)} | "
                     f"{_pct(g.transaction, BLOCK_GAS_LIMIT)} |")
        if c.total > BLOCK_COST_LIMIT:
            misfits.append(f"bram's whole {step.kind} passes a Chia block")
        if g.transaction > TX_GAS_CAP:
            misfits.append(f"bram's whole {step.kind} passes EIP-7825's cap")
    return [*lines, ""]


def game_table(game: tuple[str, dict[str, Any], int, int], vms: Vms, misfits: list[str],
               whole: bool = True) -> list[str]:
    """The table of one seeded game of GAMES; for Bram also its whole steps' (`whole`)."""
    rules, params, seats, seed = game
    steps = game_steps(rules, params, seats, seed)
    lines = table(f"{rules}, k = {seats}", f"**{rules}, k = {seats}** (seed {seed}, greedy "
                  "bots):", steps, vms, misfits)
    return lines + (whole_table(steps, misfits) if whole and rules == "bram" else [])


def block_text(progress: Callable[[str], None] = lambda _: None) -> str:
    """The whole block between the markers: the tools, one table a game, the whole sets,
    and what does not fit."""
    from peers.chain.evm import BLOCK_GAS_LIMIT, TX_GAS_CAP

    v = versions()
    vms = Vms()
    lines = [
        f"Measured with chia_rs {v['chia_rs']} (`run_chia_program`, MEMPOOL_MODE) and "
        f"clvm_tools_rs {v['clvm_tools_rs']} (the Chialisp compiler); py-evm {v['py-evm']} "
        f"(its Prague fork, EIP-2537's gas) and vyper {v['vyper']}. CLVM total = run + "
        f"{COST_PER_BYTE:,} x bytes, of a Chia block of {BLOCK_COST_LIMIT:,}; EVM "
        f"transaction gas, of EIP-7825's cap of 2^24 = {TX_GAS_CAP:,} and of a block of "
        f"{BLOCK_GAS_LIMIT:,}.", ""]
    misfits: list[str] = []
    for game in GAMES:
        progress(f"{game[0]}, k = {game[2]}")
        lines += game_table(game, vms, misfits)
    progress("whole sets")
    lines += table("whole set", "**Whole sets** (the reference prover, outside a game):",
                   [whole_set_step(ts) for ts in WHOLE_SETS], vms, misfits)
    lines.append("Does not fit: " + "; ".join(misfits) + "." if misfits else
                 "Every step above fits one Chia block and one transaction under "
                 "EIP-7825's cap.")
    return "\n".join(lines) + "\n"


def replace_block(text: str, block: str) -> str:
    """`text` with its chain-costs block replaced; ValueError if it has none."""
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError(f"{os.path.relpath(SPEC)} has no {BEGIN} ... {END} block")
    return f"{head}{BEGIN}\n{block}{END}{tail}"


def check_one(game: tuple[str, dict[str, Any], int, int]) -> int:
    """Exit status of --check --only: 0 if the game's table, measured now, is in the
    block as it stands."""
    block = SPEC.read_text().partition(BEGIN)[2].partition(END)[0]
    # The proofs' table alone: the whole steps' (the step programs compiled afresh, a
    # minute of CPU) are checked with the whole block.
    lines = game_table(game, Vms(), [], whole=False)
    if "\n".join(lines) in block:
        return 0
    print(f"the {game[0]} table of the chain-cost block in {os.path.relpath(SPEC)} differs "
          f"from what was measured now (regenerate: {COMMAND}); measured:\n"
          + "\n".join(lines), file=sys.stderr)
    return 1


def stale(old: str, new: str) -> str | None:
    """None if the two texts agree, else a short diff of the first differences."""
    if old == new:
        return None
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "spec (now)",
                                "measured", n=0, lineterm="")
    return "\n".join(list(diff)[:12])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the measured chain costs of 9.3")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--only", choices=[game[0] for game in GAMES],
                        help="with --check: measure this game's table alone and find it, "
                        "line for line, in the block (the default test's quick check)")
    args = parser.parse_args(argv)
    if args.only and not args.check:
        parser.error("--only goes with --check: the block is written whole")
    missing = missing_tools()
    if missing:
        print(f"needs the [chain] extra ({', '.join(missing)} missing): {INSTALL}",
              file=sys.stderr)
        return 2
    if args.only:
        return check_one(next(game for game in GAMES if game[0] == args.only))
    try:
        replace_block(SPEC.read_text(), "")   # the markers are there, before half a minute
        block = block_text(lambda what: print(f"measuring {what}", file=sys.stderr))
        # Read again: the rest of the file is not this tool's, and may have changed since.
        text = SPEC.read_text()
        new = replace_block(text, block)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.check:
        diff = stale(text, new)
        if diff is not None:
            print(f"the chain-cost block in {os.path.relpath(SPEC)} differs from what was "
                  f"measured now (regenerate: {COMMAND}):\n{diff}", file=sys.stderr)
            return 1
        return 0
    SPEC.write_text(new)
    print(f"wrote the chain-cost block to {os.path.relpath(SPEC)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
