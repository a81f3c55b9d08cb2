"""What client and server say to each other, and the checks both sides make.

Every message is one JSON object over a WebSocket.  A request carries ``op`` and ``id``; its
answer carries the same ``id`` and ``ok`` (False: ``error`` says why).  Two messages go the
other way while a submitted command is being decided: the server's ``sign`` (a message for
the player's key to sign) and the client's ``signature``.

Authentication: the server sends a fresh ``challenge``; the client answers with its player
name, its Ed25519 public key and its signature over the challenge (no passwords).

Receipts: the server tells a client where the log stands after each of its requests as
(seq, tag), the tag an HMAC of the stored head under the server's receipt key.  The server can
check that its log still extends a receipt; the client learns nothing of hidden events from it
(a bare stored hash would let it test guesses about them: kernel/views.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json

from kernel.errors import WifError
from kernel.events import canonical_json

CHALLENGE_TAG = b"wif server challenge\x00"
OUT_OF_DATE = "these choices are out of date"  # the server's answer to an expand of an older seq
# seconds the server waits for a client's answer to its challenge, or for its signature of a
# command being decided, before it gives up on it (`wif serve --client-timeout`)
CLIENT_TIMEOUT = 20.0


class MalformedFrame(WifError):
    """A frame that is not one JSON object (the server answers with the reason and reads on)."""


def parse_frame(text: str | None) -> dict:
    """One frame as the JSON object every message is, or MalformedFrame naming what it is."""
    if text is None:
        raise MalformedFrame("malformed frame: a binary frame (every message is one JSON object as text)")
    try:
        msg = json.loads(text)
    except ValueError as exc:
        raise MalformedFrame(f"malformed frame: not JSON ({exc}): {text[:80]!r}") from None
    if not isinstance(msg, dict):
        raise MalformedFrame(f"malformed frame: a JSON {type(msg).__name__}, not an object: {text[:80]!r}")
    return msg


def challenge_message(nonce: bytes, server_id: str) -> bytes:
    return CHALLENGE_TAG + server_id.encode() + b"\x00" + nonce


def receipt_tag(key: bytes, game_id: str, player: str, seq: int, head: bytes) -> str:
    return hmac.new(key, canonical_json(["wif net receipt", game_id, player, seq]).encode() + head,
                    hashlib.sha256).hexdigest()


def sign_request_problem(message: bytes, game_id: str, player: str, command_json: str | None) -> str | None:
    """Why a client refuses to sign what the server sent (None: it is a command of this game
    by this player, the one it submitted, or a snapshot of this game)."""
    head, _, rest = message.partition(b"\n")
    if head.startswith(canonical_json(["wif snapshot", game_id]).encode()[:-1] + b","):
        return None if not rest else "a snapshot message with a tail"
    prefix = canonical_json(["wif signed command", game_id]).encode()[:-1] + b","
    if not head.startswith(prefix):
        return "the server asked to sign something that is not a command or snapshot of this game"
    if f',"{player}",'.encode() not in head:
        return f"the server asked to sign a command of another player than {player!r}"
    if command_json is None or rest.decode() != command_json:
        return "the server asked to sign another command than the one submitted"
    return None
