"""Layer proofs: Schnorr (6.2), DLEQ (6.3), the shuffle argument (7), cannot-play (6.5)."""
