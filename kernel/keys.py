"""The player's own secrets, kept outside every save: the config dir, the host secret, the
players' Ed25519 key pairs (docs/FAIRPLAY.md says what each protects).

The config dir is ``$WIF_CONFIG_DIR`` (tests set it), else ``$XDG_CONFIG_HOME/wif``, else
``~/.config/wif``.  It holds ``host.secret`` (32 random bytes: the dice of solitaire and hot
seat games started on this machine), ``keys/<player>.key`` (a player's Ed25519 private key,
raw 32 bytes, hex) and ``receipts/`` (kernel/receipts.py).  Files are created on first use,
readable by their owner only; nothing here ever enters a save, the state or an event.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .errors import WifError

_PLAYER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class KeyProblem(WifError):
    """A key is missing, unreadable or does not match."""


def config_dir() -> Path:
    explicit = os.environ.get("WIF_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "wif"


def _write_new(path: Path, text: str) -> bool:
    """Create ``path`` with ``text``, owner-only; False when another process made it first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return True


def _read_hex(path: Path, what: str, size: int = 32) -> bytes:
    try:
        raw = bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError) as exc:
        raise KeyProblem(f"{path}: {what} cannot be read ({exc})") from None
    if len(raw) != size:
        raise KeyProblem(f"{path}: {what} should be {size} bytes, is {len(raw)}")
    return raw


# ---------------------------------------------------------------- the host secret
def host_secret() -> bytes:
    """This machine's dice secret, made on first use."""
    path = config_dir() / "host.secret"
    if not path.exists():
        _write_new(path, secrets.token_bytes(32).hex() + "\n")
    return _read_hex(path, "the host secret")


def game_dice_key(secret: bytes, game_id: str) -> bytes:
    """One game's dice key: derived from the host secret, so a game never learns the secret
    (revealing one game's key after it ends reveals nothing of another's)."""
    return hmac.new(secret, b"wif dice key\x00" + game_id.encode(), hashlib.sha256).digest()


def dice_commitment(game_key: bytes) -> str:
    """What GameStarted records of the dice key: its hash (binds the game to one key)."""
    return hashlib.sha256(b"wif dice commitment\x00" + game_key).hexdigest()


# ---------------------------------------------------------------- player keys
def check_player_name(player: str) -> None:
    if not isinstance(player, str) or not _PLAYER_NAME.match(player):
        raise KeyProblem(f"player name {player!r}: use letters, digits, '_', '.' or '-' (up to 64), "
                        "starting with a letter or digit")


def key_path(player: str) -> Path:
    check_player_name(player)
    return config_dir() / "keys" / f"{player}.key"


def has_key(player: str) -> bool:
    return key_path(player).exists()


def private_key(player: str, create: bool = False) -> Ed25519PrivateKey:
    """``player``'s signing key from the config dir (made first when ``create``)."""
    path = key_path(player)
    if not path.exists():
        if not create:
            raise KeyProblem(f"player {player!r} has no key on this machine ({path}); only that player can "
                            "sign their moves (a hot seat game keeps every player's key on one machine)")
        _write_new(path, Ed25519PrivateKey.generate().private_bytes_raw().hex() + "\n")
    return Ed25519PrivateKey.from_private_bytes(_read_hex(path, f"player {player!r}'s key"))


def public_key_hex(player: str, create: bool = False) -> str:
    return private_key(player, create).public_key().public_bytes_raw().hex()


class Signer:
    """Signs as one player; the private key is loaded once."""

    def __init__(self, player: str, key: Ed25519PrivateKey):
        self.player = player
        self._key = key
        self.public_hex = key.public_key().public_bytes_raw().hex()

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def signer(player: str, create: bool = False) -> Signer:
    return Signer(player, private_key(player, create))


def verify_signature(public_hex: str, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(bytes(signature), message)
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


class Verifier:
    """Checks signatures against a game's recorded public keys (parsed once each)."""

    def __init__(self, keys: dict[str, str]):
        self._keys: dict[str, Ed25519PublicKey | None] = {}
        for player, public_hex in keys.items():
            try:
                self._keys[player] = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
            except (ValueError, TypeError):
                self._keys[player] = None

    def ok(self, player: str, signature: bytes | None, message: bytes) -> bool:
        key = self._keys.get(player)
        if key is None or not signature:
            return False
        try:
            key.verify(bytes(signature), message)
            return True
        except InvalidSignature:
            return False
