"""A second implementation of the dealerless/2 verifier, written from spec/ alone.

It imports nothing from the project (`protocol/`, `peers/`): it is the independent check
that the code and the specification agree (tests/test_layout_tools.py keeps it so). The
scripts tools/independent_check.py, tools/independent_verify.py and
tools/independent_mined.py run it.

Layers, bottom to top; a module imports only from its own layer or the ones below, and
there is no import cycle (tests/test_layout_tools.py):

    errors            the failure codes (1.4)
    group, wire       edwards25519 and hashing (1-3, 5.1, 7.2); the groups and hashes of
                      the ciphersuites (2.5, 3.5: ristretto255 and BLS12-381 G1 in pure
                      Python, group.suites); msgpack, Ed25519 and the setup (8.1-8.3); the
                      peer handshake (12.3)
    proofs            Schnorr, DLEQ (6.2, 6.3), the shuffle (7), cannot-play (6.5),
                      sealed commitments (6.6)
    rules             bram, mexican-train, mineshaft, mined-games (spec/rules/)
    session           the replay of a transcript frame by frame (8.4-8.6, 10)
    verify            the verdict of a transcript (11.1, 11.2)
    disputes          the single-step check (11.3, 11.4)
    match             match files (11.5)
    checks, cli       the vector files, and the scripts' main functions

Decisions where the spec is ambiguous or silent (cited in the modules as [Dn]):
[D1] 8.4 rows 4-5: a negative or boolean `version`/`type` fails the int accessor
     (schema/int, default range 0..2^64-1) before version/unsupported or frame/unknown-type.
[D2] 8.2 row 2 (as clarified): the magic first (setup/version), then the version read
     as int(0, 2^64-1), so `true` is schema/int, then equal to 2 (version/unsupported).
[D3] 8.2 rows 4/9 (as clarified): a value that is not an integer, text or boolean is
     setup/params (row 4); a parameter the rule set refuses (unknown key, missing
     required one, wrong type, out of range, bad `after`) is rules/params (row 9); a map
     the rule set accepts but that omits a default is setup/params (row 9).
[D4] 10.4 PLAY 1 vs rules/bram.md 4: an id in 57..2^20 is move/unknown-id (bram.md
     calls an out-of-range id rules/move-id).
[D5] 11.2 steps 1 and 4: a transcript error and transcript/bad-evidence are reported
     with authenticated = false; a proven frame/equivocation or frame/out-of-turn with
     authenticated = true (the equivocation vector confirms the latter).
[D6] 7.5 / 8.5: the output deck is read as bytes of at most 64N + 1 (N = the current
     deck), so only a *shorter* deck reaches shuffle/size, and the proof length is
     checked (for N = |e|) before shuffle/size (shuffle_verify, for the vectors, checks
     the size first).
[D7] 8.1 rule 5: within one map the keys are checked (msgpack/map-key) before the
     values are walked; a container at depth 17 is msgpack/too-deep; the parser stack
     of rule 3 is msgpack-python's (1024 nested containers -> msgpack/malformed).
[D8] 10.3: the `turn` of the rules map stays an integer (1 - last mover) once the hand
     is over, although bram.md's to_move is none then; the vectors' state hashes of
     the REVEAL frames require this.
[D9] 11.2 step 3: a frame failing checks 1-4 (not authenticated) still ends the replay
     with verdict invalid, although 10.7 says such failures are "reported and not
     kept" (bad-signature and other-game vectors require this).
[D10] bram.md 8: halves_text of a negative odd count is "-" + the text of its absolute
     value ("-1.5"); only "-0.5" is given as an example.
Further gaps (draws, claims, the rule sets) are marked `# SPEC GAP:` where they are decided.
"""
