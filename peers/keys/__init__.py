"""Identity keys and known players (spec/12-peers.md 12.2): the API the commands use.

`home` finds the data directory, `openssh` reads and writes OpenSSH key files,
`identity_key` makes, imports and loads the player's key, `known` remembers
other players' keys.
"""

from peers.keys.home import (
    Home,
    KeyExistsError,
    KeyStoreError,
    NoKeyError,
    PassphraseError,
    games_dir,
    key_path,
    keys_dir,
    resolve_home,
)
from peers.keys.identity_key import (
    DEFAULT_COMMENT,
    KeySummary,
    generate,
    import_key,
    is_encrypted,
    load_identity,
    public_line,
    show,
)
from peers.keys.known import (
    KnownPlayer,
    check_name,
    check_opponent,
    known_names,
    known_players,
    trust,
)
from peers.keys.openssh import format_public_line, parse_public_line

__all__ = [
    "DEFAULT_COMMENT", "Home", "KeyExistsError", "KeyStoreError", "KeySummary", "KnownPlayer",
    "NoKeyError", "PassphraseError", "check_name", "check_opponent", "format_public_line",
    "games_dir", "generate", "import_key", "is_encrypted", "key_path", "keys_dir",
    "known_names", "known_players", "load_identity", "parse_public_line", "public_line",
    "resolve_home", "show", "trust",
]
