"""Layer group: edwards25519, the byte conventions, hashing and the fixed points."""
