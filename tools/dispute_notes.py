"""The notes of tools/gen_disputes.py's crafted vectors that settle a point of spec/10
and spec/11: for each, the wrong reading it catches."""

#: What each vector of a point settled in spec/10 and 11 catches (the wrong reading).
NOTES = {
    "a bram state holding a claim": "10.3: only forced play makes claims, so a state of "
    "bram (or any rule set without it) holding a well-formed claim is state/inconsistent: "
    "a referee of bram alone checks that claims is empty and runs no audit",
    "package version true": "11.4 rule 2: the version is read as an integer first; true is "
    "no integer (8.1), so schema/int, not version/unsupported nor the version 1",
    "state followed by a trailing byte": "11.4 rule 5, 10.3: the state's unpack keeps its "
    "msgpack/* code; state/schema is for a decoded value that is not a state",
    "state whose seq is written as a uint16": "10.3: non-canonical msgpack is "
    "msgpack/non-canonical from unpack, not state/non-canonical (which is for a canonical "
    "encoding of a map that re-encodes otherwise)",
    "a claim without its proof over a position whose share is missing": "10.4 1a: the "
    "statement is built before the body's fifth item is looked at: claim/unopened, not "
    "move/missing-claim",
    "a forced pass with nothing forbidden over a position whose share is missing": "10.4 "
    "1a: F comes first; with F empty there is nothing to prove and no hand position is "
    "examined, so no claim/unopened (the step is valid)",
    "a claim of 3009 bytes": "8.5: the claim is read as bytes of at most 3009 (its maximum "
    "3008 plus one), so 3009 bytes pass the read and fail the statement's exact length",
    "a claim of 3010 bytes": "8.5: over 3009 bytes is schema/bytes, before any statement",
    "a claim of 3040 bytes (h + f = 92, a length 6.5.4 alone would accept)": "8.5: no true "
    "claim exceeds 3008 bytes, so a longer one is schema/bytes even when its length is a "
    "proof's",
}
