"""A second implementation of the verifier of dealerless/3 and dealerless/2, written from
spec/ alone.

It imports nothing from the project (`protocol/`, `peers/`): it is the independent check
that the code and the specification agree (tests/test_layout_tools.py keeps it so). The
scripts tools/independent_check.py, tools/independent_verify.py and
tools/independent_mined.py run it.

Layers, bottom to top; a module imports only from its own layer or the ones below, and
there is no import cycle (tests/test_layout_tools.py):

    errors            the failure codes (1.4)
    group, wire       edwards25519 and hashing (1-3, 5.1, 7.2); the groups and hashes of
                      the ciphersuites (2.5, 3.5: ristretto255 and BLS12-381 G1 in pure
                      Python, group.suites), and their operations on encodings
                      (group.encoded); msgpack, Ed25519 and the setup (8.1-8.3); the
                      peer handshake (12.3), hashed at dealerless/3 (3.5 "What is not the
                      game's": suites.PRE_GAME)
    proofs            Schnorr, DLEQ (6.2, 6.3, and the batch of 6.3.1), the shuffle (7,
                      with 7.5.1's combined t^ check), cannot-play (6.5), sealed
                      commitments (6.6), each in the suite it is given
    rules             bram, mexican-train, mineshaft, mined-games (spec/rules/)
    session           the replay of a transcript frame by frame (8.4-8.6, 10)
    verify            the verdict of a transcript (11.1, 11.2)
    disputes          the single-step check (11.3, 11.4)
    match             match files (11.5)
    checks, cli       the vector files (dealerless/2's in spec/vectors/ and each suite's
                      set at dealerless/3 in spec/vectors/suites/<suite>/, checks.tally
                      .VectorSet), and the scripts' main functions

Decisions where the spec is ambiguous or silent (cited in the modules as [Dn]):
[D1] 8.4 rows 4-5: a negative or boolean `version`/`type` fails the int accessor
     (schema/int, default range 0..2^64-1) before version/unsupported or frame/unknown-type.
[D2] 8.2 row 2 (as clarified): the magic first (setup/version), then the version read
     as int(0, 2^64-1), so `true` is schema/int, then 2 or 3 (version/unsupported), then
     row 2' (six items at 2, seven at 3, the seventh a suite).
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
[D11] Versions (README "Versioning"): a game's every hash, point, scalar, proof and frame
     signature is its setup's suite's at its setup's version (a dealerless/2 setup is
     edwards25519-sha512 with the context "dealerless/2" and the prefix
     "dealerless/frame-signature/1"). A frame's version (8.4), a transcript's magic digit
     (8.6, checked once its setup decodes), a dispute package's item 1 (11.4, checked once
     rule 3 decodes the setup) and a match round's magic digit (11.5) must be the setup's
     or the file's, else version/unsupported.
[D12] 3.5 leaves the byte sizes of 5.2, 6.5, 7.6, 8.5, 10.3, 10.8 and mined-games.md 9
     written for 32-byte points; with P the suite's element length (32, or 48 in G1) a
     point field is P bytes (read as at most P + 1), a ciphertext 2P, a shuffle proof
     3N*P + 32(2N + 5) (7.6 from dealerless/3: c, c^ and t^; 3.5's "Sizes" still says
     2NP + 32(2N + 5), dealerless/2's count of points), a claim P(h + f) + 96 (read as at
     most 91P + 96 + 1); scalars stay 32 bytes.
[D13] 8.5 (dealerless/3) DEAL, REVEAL, DRAW: a proof other than nil is read as bytes of at
     most 65 (schema/bytes) before nil-with-pairs or bytes-with-none is dleq/length
     (session.bodies [P1]); 6.3.1 does not order the decoding of a batch's elements
     (proofs.dleq [B1]).
Further gaps (draws, claims, the rule sets) are marked `# SPEC GAP:` where they are decided.
"""
