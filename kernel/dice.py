"""The game's fair dice sources (docs/FAIRPLAY.md).  Every die still goes through
``Context.roll`` (kernel/engine.py); these are sources it draws from, like the lab's
``SeededDice`` and ``PlaybackDice`` (kernel/lab.py).

- ``HostDice`` (solitaire, hot seat): HMAC-SHA256 keyed with the game's dice key (derived
  from the host secret in the config dir, kernel/keys.py) over (game id, seq of the
  DiceRolled event, purpose, faces, index).  Nobody without the key can foresee a die; the
  same die at the same place of the log is always the same, so re-deciding is exact.
- ``JointDice`` (PBEM, kernel/pbem_dice.py says when each half is made and app/pbem.py how
  the turn files carry them): the key of one roll is HMAC over two contributions: the
  roller's secret, committed (hashed) in his signed declaration before the other player gives
  his, and the other player's nonce, signed by him after seeing that commitment.  Neither
  alone can predict or choose the result.
- ``RecordedDice``: what a verifier without the key uses: the results the log recorded,
  checked for purpose, faces and count (re-deciding checks everything else).
"""

from __future__ import annotations

import hashlib
import hmac

from .errors import WifError
from .events import canonical_json


class DiceMismatch(WifError):
    """Re-deciding rolled other dice than the log recorded."""


def _uniform(key: bytes, message: list, faces: int) -> int:
    """A die of ``faces`` sides from HMAC-SHA256(key, message): 8 bytes at a time, values in
    the uneven top of the range rejected (no modulo bias)."""
    if faces < 1:
        raise WifError(f"a die needs at least 1 face (asked for {faces})")
    limit = (1 << 64) - (1 << 64) % faces
    attempt = 0
    while True:
        digest = hmac.new(key, canonical_json([*message, attempt]).encode(), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            value = int.from_bytes(digest[i:i + 8], "big")
            if value < limit:
                return value % faces + 1
        attempt += 1


class HostDice:
    """Dice from a key no player sees (the host's, or later a server's)."""

    def __init__(self, key: bytes, game_id: str, state):
        self.key, self.game_id, self.state = key, game_id, state

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        seq = self.state.kernel.seq + 1  # the DiceRolled event that will record these
        return [_uniform(self.key, [self.game_id, seq, purpose, faces, i], faces) for i in range(count)]


class RecordedDice:
    """Re-deciding without the key: the dice the log recorded, in order; asking for another
    roll than the one recorded (purpose, faces, count) is a mismatch naming the seq."""

    def __init__(self, recorded: dict[int, dict], state):
        self.recorded, self.state = recorded, state

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        seq = self.state.kernel.seq + 1
        was = self.recorded.get(seq)
        if was is None or (was.get("purpose"), was.get("faces"), len(was.get("results", []))) != (purpose, faces, count):
            raise DiceMismatch(f"seq {seq}: re-deciding rolls {count}d{faces} for {purpose!r}, the log has "
                               + (f"{len(was.get('results', []))}d{was.get('faces')} for {was.get('purpose')!r}"
                                  if was else "no roll there"))
        return list(was["results"])


# ---------------------------------------------------------------- PBEM: two contributions
def commit(secret: bytes, game_id: str, seq: int) -> str:
    """The roller's commitment to his secret for the roll at ``seq`` (goes in his signed
    command; the secret itself is revealed only after the other player's nonce)."""
    return hashlib.sha256(canonical_json(["wif roll commitment", game_id, seq]).encode() + secret).hexdigest()


def check_reveal(commitment: str, secret: bytes, game_id: str, seq: int) -> str | None:
    """Why a revealed secret does not open ``commitment`` (None: it does)."""
    if not hmac.compare_digest(commit(secret, game_id, seq), commitment):
        return f"seq {seq}: the revealed roll secret does not match the roller's commitment"
    return None


def joint_key(roller_secret: bytes, other_nonce: bytes, game_id: str, seq: int) -> bytes:
    """The key of one PBEM roll: fixed only once both contributions exist."""
    return hmac.new(roller_secret, canonical_json(["wif joint roll", game_id, seq]).encode() + other_nonce,
                    hashlib.sha256).digest()


class JointDice(HostDice):
    """A PBEM roll's dice, drawn like HostDice from the joint key."""

    def __init__(self, roller_secret: bytes, other_nonce: bytes, game_id: str, seq: int, state):
        super().__init__(joint_key(roller_secret, other_nonce, game_id, seq), game_id, state)
