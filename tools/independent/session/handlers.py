"""The phases step by step, spec/10-session.md 10.4 (KEY, NONCE, SHUFFLE, DEAL, MOVE with
its claim, DRAW, REVEAL with the audit), the stages of 10.8 (COMMIT, OPEN, ABSENT,
CHOOSE) and the outcome of 10.6. Each handler updates the state or fails with a code."""

from __future__ import annotations

from typing import Any

from independent.errors import Err, fail_err
from independent.group.ops import u64
from independent.group.points import Tile, tile_text
from independent.proofs.cannot_play import verify_cannot_play
from independent.proofs.dleq import check_dleq, check_dleq_batch
from independent.proofs.schnorr import check_schnorr
from independent.proofs.shuffle import check_shuffle
from independent.rules.common import Outcome
from independent.session.bodies import Shares, read_entry, read_point, read_proof64, read_shares
from independent.session.frames import Frame
from independent.session.game import BONEYARD, HIDDEN, Game
from independent.session.state import State, stage_due
from independent.wire.fields import f_array, f_bytes, f_int


def ctx_of(st: State, fr: Frame) -> bytes:
    return st.game_id + u64(fr.seq) + u64(fr.seat)  # 10.4 / 6.1


def ct(g: Game, st: State, p: int) -> tuple[bytes, bytes]:
    return st.ct(p, g.suite.ops.P)


def open_position(g: Game, st: State, p: int) -> Tile:
    """5.6: M = c2 - sum of the non-nil shares, decoded in the whole set's table (5.1)."""
    o = g.suite.ops
    m = o.sub(ct(g, st, p)[1], o.total([d for d in st.shares[p] if d is not None]))
    if m not in g.tile_of:
        fail_err("deck/not-a-tile", f"position {p} opens to no tile")
    return g.tile_of[m]


def on_key(g: Game, st: State, fr: Frame) -> None:
    b = f_array(fr.body, 3, "KEY body")
    y = read_point(g.suite, b[0], "key_share")
    proof = read_proof64(g.suite, b[1], "key proof", "schnorr/length")
    commitment = f_bytes(b[2], "commitment", 32)
    check_schnorr(g.suite, y, proof, ctx_of(st, fr))
    st.key_shares.append(y)
    st.commitments.append(commitment)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    if g.suite.ops.total(st.key_shares) == g.suite.ops.O:
        fail_err("deck/joint-key-identity", "the key shares cancel")
    st.phase, st.turn = "nonces", 0


def on_nonce(g: Game, st: State, fr: Frame) -> None:
    n_i = f_bytes(f_array(fr.body, 1, "NONCE body")[0], "nonce", 32)
    if g.suite.H("COMMIT", st.game_id, bytes([fr.seat]), n_i)[:32] != st.commitments[fr.seat]:
        fail_err("nonce/commitment-mismatch", "the nonce does not open the commitment")
    st.nonces.append(n_i)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    digest = g.suite.H("FIRST_PLAYER", st.game_id, *st.nonces)
    st.first_player = int.from_bytes(digest, "big") % g.k
    fixed = getattr(g.rules, "first", -1)   # 10.4 / mineshaft.md D19: `first` wins
    if fixed != -1:
        st.first_player = fixed
    o = g.suite.ops
    y = o.total(st.key_shares)
    st.deck = b"".join(o.G + o.add(g.point_of[t], y) for t in g.deck_tiles)  # 5.4
    st.phase, st.turn = "shuffle", 0


def on_shuffle(g: Game, st: State, fr: Frame) -> None:
    st.deck = check_shuffle(g.suite, ctx_of(st, fr), g.suite.ops.total(st.key_shares),
                            st.deck, fr.body)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
    else:
        st.phase, st.turn = "deal", 0


def check_entries(g: Game, st: State, fr: Frame, body: Shares) -> None:
    """DEAL/REVEAL/DRAW: the DLEQ proofs in entry order (6.3), or from dealerless/3 the one
    batch proof of the pairs in order (6.3.1; none without pairs), against Y_i and c1 of
    deck[p]; then D_i is stored in shares[p][i]."""
    ctx, y = ctx_of(st, fr), st.key_shares[fr.seat]
    c1s = [ct(g, st, p)[0] for p in body.positions]
    for c1, d, proof in zip(c1s, body.shares, body.proofs, strict=False):
        check_dleq(g.suite, y, c1, d, proof, ctx)
    if body.batch is not None:
        check_dleq_batch(g.suite, y, c1s, body.shares, body.batch, ctx)
    for p, d in zip(body.positions, body.shares, strict=True):
        st.shares[p][fr.seat] = d


def on_deal(g: Game, st: State, fr: Frame) -> None:
    entries = read_shares(g.suite, fr.body)
    want = [p for p, o in enumerate(st.owners) if o >= 0 and o != fr.seat]
    got = entries.positions
    if got != want:
        fail_err("deal/positions", f"expected shares for positions {want}, got {got}")
    check_entries(g, st, fr, entries)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    st.rules = g.rules.initial_state(st.first_player)
    st.phase, st.turn = "play", g.rules.to_move(st.rules)


class ClaimError(Err):
    """audit/false-claim: blamed on the claimant at the claim's frame (10.4 REVEAL)."""

    # SPEC GAP: 10.4/10.5 do not say whether audit/false-claim is authenticated; it is
    # (the claimant signed the claim frame). Nor what 11.3/11.4 report when the frame judged
    # (the last REVEAL) is not the violation's frame (the claim's): here frame = the claim's.

    def __init__(self, seat: int, frame: int, detail: str) -> None:
        super().__init__("audit/false-claim", detail)
        self.seat, self.frame = seat, frame


def max_claim_bytes(g: Game) -> int:
    """8.5: the claim is at most 91 points and 3 scalars (3008 = 32*(91 + 3) bytes in
    edwards25519 and ristretto255, 4464 in G1), the bound of a true claim (h + f <= 91), and
    is read as bytes of at most that plus one: that many bytes reach the statement's exact
    length check (cannot-play/length), longer ones fail schema/bytes, even a proof length
    6.5.4 alone would accept."""
    return 91 * g.suite.ops.P + 3 * 32


def on_move(g: Game, st: State, fr: Frame) -> None:
    # 8.5 MOVE decoding order: array of 4 or 5; the claim; move_id; the entry.
    b = fr.body
    if not isinstance(b, list) or len(b) not in (4, 5):
        fail_err("schema/array", "MOVE body: expected an array of 4 or 5")
    claim = f_bytes(b[4], "claim", at_most=max_claim_bytes(g) + 1) if len(b) == 5 else None
    move_id = f_int(b[0], "move_id", 0, 2**20)
    entry = None if all(x is None for x in b[1:4]) else read_entry(g.suite, b[1:4])
    move = g.rules.move_from_id(move_id)                                    # 1
    if move is None:
        fail_err("move/unknown-id", f"no move has id {move_id}")
    t = g.rules.played_tile(move)
    mover = fr.seat
    # SPEC GAP: 1a comes before apply (4), so a move apply would reject anyway (a pass in
    # mexican-train's `declare`, say) but that must_play_if_able calls a claim is reported as
    # move/missing-claim, not as its rules/... code. The order of 10.4 is followed.
    if g.rules.drawing_rules and g.rules.must_play_if_able(st.rules, mover, move):  # 1a
        check_claim(g, st, fr, move, claim)
    elif claim is not None:
        fail_err("move/unexpected-claim", f"{move.text()} claims nothing")
    if t is None:                                                            # 2
        if entry is not None:
            fail_err("move/unexpected-opening", f"{move.text()} opens no tile")
    else:                                                                    # 3
        if entry is None:
            fail_err("move/missing-opening", f"{move.text()} needs an opening")
        p = entry.position
        if p >= len(st.owners) or st.owners[p] != mover:
            fail_err("move/not-dealt-to-seat", f"position {p} was not dealt to seat {mover}")
        if st.opened[p] is not None:
            fail_err("move/already-played", f"position {p} was already played ({st.opened[p]})")
        check_dleq(g.suite, st.key_shares[mover], ct(g, st, p)[0], entry.share, entry.proof,
                   ctx_of(st, fr))
        st.shares[p][mover] = entry.share
        tile = open_position(g, st, p)
        if tile != t:
            fail_err("move/tile-mismatch", f"position {p} holds {tile}, not the {t} claimed")
        st.opened[p], st.played[p] = t, True
    st.rules = g.rules.apply(st.rules, mover, move)                          # 4
    if g.rules.drawing_rules and g.rules.draws(move):
        pile = [p for p, o in enumerate(st.owners) if o == BONEYARD]
        if not pile:
            fail_err("session/boneyard", "the rules drew from a pile the session finds empty")
        st.owners[pile[0]], st.drawing = mover, pile[0]
        st.phase, st.turn = "draw", min(s for s in range(g.k) if s != mover)
    elif g.rules.is_over(st.rules):
        st.phase, st.turn = "reveal", 0
    else:
        st.turn = g.rules.to_move(st.rules)


def check_claim(g: Game, st: State, fr: Frame, move: Any, claim: bytes | None) -> None:
    """10.4 PLAY 1a: the statement of 6.5.1 from the state alone, then 6.5.5."""
    mover = fr.seat
    # 10.4 1a, in its order: F, the hand positions; with either empty nothing is proven and
    # no position is examined; else each R_p (claim/unopened), and only then the body's
    # fifth item (move/missing-claim).
    opened = {t for t in st.opened if t is not None}
    forb = g.rules.forbidden_tiles(st.rules, [t for t in g.deck_tiles if t not in opened])
    forb = sorted(forb, key=g.rules.tiles.index)       # canonical order (5.1)
    positions = [p for p, o in enumerate(st.owners) if o == mover and st.opened[p] is None]
    if not forb or not positions:
        if claim is not None:
            fail_err("move/unexpected-claim", f"{move.text()}: nothing to prove")
        return                                 # "nothing is appended to `claims`"
    hand: list[tuple[int, bytes, bytes]] = []
    for p in positions:
        others = [st.shares[p][j] for j in range(g.k) if j != mover]
        if any(d is None for d in others):
            fail_err("claim/unopened", f"position {p} is not privately opened to seat {mover}")
        c1, c2 = ct(g, st, p)
        hand.append((p, c1, g.suite.ops.sub(c2, g.suite.ops.total(others))))  # R_p
    if claim is None:
        fail_err("move/missing-claim", f"{move.text()} claims the seat cannot play: no proof")
    verify_cannot_play(g.suite, g.rules.tiles, g.point_of, g.rules.set_name, ctx_of(st, fr),
                       st.key_shares[mover], hand, forb, claim)
    st.claims.append([fr.seq, mover, [p for p, _, _ in hand], [tile_text(t) for t in forb]])


def on_draw(g: Game, st: State, fr: Frame) -> None:
    """10.4 DRAW: one entry for position `drawing`, from every seat but the drawer."""
    # SPEC GAP: 8.5 gives the DRAW body as `[entry]` (from dealerless/3 `[[pair], proof]`)
    # but decodes it as list(4096) of entries (pairs) like DEAL; it is read as a list, and
    # any list but one entry for `drawing` is draw/positions.
    entries = read_shares(g.suite, fr.body)
    got = entries.positions
    if got != [st.drawing]:
        fail_err("draw/positions", f"expected a share for position {st.drawing}, got {got}")
    check_entries(g, st, fr, entries)
    drawer = st.owners[st.drawing]
    later = [s for s in range(fr.seat + 1, g.k) if s != drawer]
    if later:
        st.turn = later[0]
        return
    st.drawing, st.phase, st.turn = None, "play", g.rules.to_move(st.rules)


def on_reveal(g: Game, st: State, fr: Frame) -> None:
    entries = read_shares(g.suite, fr.body)
    want = [p for p, o in enumerate(st.owners)
            if (o == fr.seat and st.opened[p] is None) or o == HIDDEN]
    got = entries.positions
    if got != want:
        fail_err("reveal/positions", f"expected shares for positions {want}, got {got}")
    check_entries(g, st, fr, entries)
    for p in want:
        if all(d is not None for d in st.shares[p]):
            st.opened[p] = open_position(g, st, p)
    if fr.seat < g.k - 1:
        st.turn = fr.seat + 1
        return
    # 10.4 REVEAL: the audit re-judges every claim in order (audit/false-claim).
    # SPEC GAP: "a position of a claim now holds one of its forbidden tiles" is read as
    # opened[p] (revealed, or played after the claim) being in the claim's F.
    for seq, claimant, positions, forbidden in st.claims:
        for p in positions:
            if st.opened[p] is not None and tile_text(st.opened[p]) in forbidden:
                raise ClaimError(claimant, seq, f"position {p} held {tile_text(st.opened[p])}"
                                 f", forbidden when seat {claimant} claimed at frame {seq}")
    st.phase, st.turn = "done", None
    compute_outcome(g, st)  # 10.6: the last REVEAL is accepted only if this succeeds


def on_commit(g: Game, st: State, fr: Frame) -> None:
    g.rules.on_commit(g.game_id, st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_open(g: Game, st: State, fr: Frame) -> None:
    g.rules.on_open(g.game_id, st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_absent(g: Game, st: State, fr: Frame) -> None:
    if not getattr(g.rules, "simultaneous", False):
        fail_err("frame/unexpected-type", "ABSENT in a deck game")
    g.rules.on_absent(g.game_id, st.rules, fr.seat, fr.body)
    stage_due(g, st)


def on_keys(g: Game, st: State, fr: Frame) -> None:
    """KEY: a deck game's key share (10.4), or a simultaneous game's share key (10.8)."""
    if getattr(g.rules, "simultaneous", False):
        g.rules.on_key(g.game_id, st.rules, fr.seat, fr.body)
        stage_due(g, st)
    else:
        on_key(g, st, fr)


def on_choose(g: Game, st: State, fr: Frame) -> None:
    g.rules.on_choose(st.rules, fr.seat, fr.body)
    stage_due(g, st)


HANDLERS = {1: on_keys, 2: on_nonce, 3: on_shuffle, 4: on_deal, 5: on_move, 6: on_reveal,
            7: on_draw, 8: on_commit, 9: on_open, 10: on_absent, 11: on_choose}
# 10.5 check 8, 10.8: ABSENT from any seat, out of turn, while a KEY, COMMIT or OPEN is owed
ABSENT_PHASES = (10, ("keys", "commit", "open"))


def compute_outcome(g: Game, st: State) -> Outcome:
    """10.6: hands and hidden tiles from the opened, unplayed positions, ascending."""
    hands: list[list[Tile]] = [[] for _ in range(g.k)]
    hidden: list[Tile] = []
    for p, t in enumerate(st.opened):
        if t is None or st.played[p]:
            continue
        if st.owners[p] >= 0:
            hands[st.owners[p]].append(t)
        elif st.owners[p] == HIDDEN:
            hidden.append(t)
    return g.rules.outcome(st.rules, hands, hidden)
