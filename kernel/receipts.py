"""Receipts: what each player's client last saw of a game (docs/FAIRPLAY.md).

After every command a player signs, and after opening a game as that player, the client
keeps the (seq, hash) of the head in the config dir (``receipts/<game id>/<player>.json``).
A log that does not extend the receipt (events deleted from the end, an older copy of the
save, a rewritten history) is refused when that player opens or verifies it, naming the seq.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .keys import check_player_name, config_dir


def receipt_path(game_id: str, player: str) -> Path:
    check_player_name(player)
    if not game_id.isalnum():
        raise ValueError(f"game id {game_id!r} is not a game id")
    return config_dir() / "receipts" / game_id / f"{player}.json"


def read(game_id: str, player: str) -> tuple[int, str] | None:
    path = receipt_path(game_id, player)
    try:
        data = json.loads(path.read_text())
        return int(data["seq"]), str(data["hash"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return None  # an unreadable receipt protects nothing; the next command writes a good one


def record(game_id: str, player: str, seq: int, hash_: bytes) -> None:
    """Keep (seq, hash) as the player's receipt; never moves it backwards."""
    if not game_id:
        return
    path = receipt_path(game_id, player)
    old = read(game_id, player)
    if old is not None and old[0] > seq:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"seq": seq, "hash": hash_.hex()}))
    os.replace(tmp, path)


def problem(store, game_id: str, player: str) -> str | None:
    """Why this save's log does not extend ``player``'s receipt (None: it does, or none kept)."""
    if not game_id:
        return None
    kept = read(game_id, player)
    if kept is None:
        return None
    seq, hash_hex = kept
    row = store.conn.execute("SELECT hash FROM events WHERE seq=?", (seq,)).fetchone()
    if row is None:
        last = store.last()[0]
        who = "this machine's dice" if player == "host.dice" else f"player {player!r}"
        return (f"{store.path}: {who} saw this game up to seq {seq}, the save ends at seq {last} "
                "(events deleted from the end, or an older copy of the save)")
    if bytes(row[0]).hex() != hash_hex:
        who = "this machine's dice" if player == "host.dice" else f"player {player!r}"
        return (f"{store.path}: {who} saw another event at seq {seq} than this save has "
                "(the history was rewritten)")
    return None


FLUSH_EVERY = 2.0  # seconds: a receipt costs a file replace (ms on some disks), not one per command


class Keeper:
    """A game's receipts as its players sign: kept in memory and written at most every
    FLUSH_EVERY seconds and when the game closes (a receipt a crash leaves behind is older,
    never wrong: it still protects what it names)."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.pending: dict[str, tuple[int, bytes]] = {}
        self.flushed_at = float("-inf")

    def saw(self, player: str, seq: int, hash_: bytes) -> None:
        self.pending[player] = (seq, hash_)
        if time.monotonic() - self.flushed_at >= FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        for player, (seq, hash_) in self.pending.items():
            record(self.game_id, player, seq, hash_)
        self.pending.clear()
        self.flushed_at = time.monotonic()
