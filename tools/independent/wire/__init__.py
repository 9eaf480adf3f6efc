"""Layer wire: canonical msgpack (8.1), the setup (8.2) and Ed25519 (8.3)."""
