"""Layer wire: canonical msgpack (8.1), the setup (8.2), Ed25519 (8.3) and the peer
handshake (12.3)."""
