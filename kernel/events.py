"""Event and command envelopes, canonical JSON and the hash chain.

An event's ``data`` is a plain dict (validated against its registered pydantic model when
it is emitted and when a save is verified); reducers read the dict, which keeps replay
close to the cost of reading the rows.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict

GENESIS_HASH = b"\x00" * 32


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8 kept as is.  (One
    encoder for all: ``json.dumps`` with these options built a new one per call, a tenth of
    ``wif verify``'s time.)"""
    return _CANONICAL.encode(value)


class EventData(BaseModel):
    """Base of every event model.  The class name is the event type (a past-tense fact)."""

    model_config = ConfigDict(extra="forbid")


class Command(BaseModel):
    """Base of every command model.  The class name is the command type (an imperative).

    ``actor`` is the power (or side) on whose behalf the command is made.
    """

    model_config = ConfigDict(extra="forbid")

    actor: str


class EventRecord:
    """One stored event: the envelope plus its data dict."""

    __slots__ = ("seq", "type", "version", "actor", "turn", "impulse", "step", "cmd", "data", "hash")

    def __init__(self, seq, type, version, actor, turn, impulse, step, cmd, data, hash=b""):
        self.seq = seq
        self.type = type
        self.version = version
        self.actor = actor
        self.turn = turn
        self.impulse = impulse
        self.step = step
        self.cmd = cmd  # seq of the first event of the command that produced this one
        self.data = data
        self.hash = hash

    def header_json(self) -> str:
        return canonical_json(
            [self.seq, self.type, self.version, self.actor, self.turn, self.impulse, self.step, self.cmd]
        )

    def as_dict(self) -> dict:
        return {
            "seq": self.seq,
            "type": self.type,
            "version": self.version,
            "actor": self.actor,
            "when": {"turn": self.turn, "impulse": self.impulse, "step": self.step},
            "cmd": self.cmd,
            "data": self.data,
            "hash": self.hash.hex() if self.hash else "",
        }

    def __repr__(self) -> str:
        return f"<{self.type} #{self.seq} {self.data}>"


def chain_hash(prev_hash: bytes, header_json: str, data_json: str) -> bytes:
    """sha256 over the previous hash and the event's canonical JSON (header, then data)."""
    h = hashlib.sha256(prev_hash)
    h.update(header_json.encode())
    h.update(b"\n")
    h.update(data_json.encode())
    return h.digest()


def command_digest(game_id: str, first_seq: int, player: str, command_json: str) -> bytes:
    """What a stored command is, for the chain: its game, place, player and canonical JSON."""
    return hashlib.sha256(canonical_json(["wif command", game_id, first_seq, player]).encode()
                          + b"\n" + command_json.encode()).digest()


def command_link(prev_hash: bytes, digest: bytes) -> bytes:
    """The hash a command's first event chains on: the head before it, then the command."""
    return hashlib.sha256(b"wif command link\x00" + prev_hash + digest).digest()


def signed_message(game_id: str, first_seq: int, last_seq: int, player: str, command_json: str,
                   prev_head: bytes, new_head: bytes) -> bytes:
    """What a player signs for a command: the command where it stands, the head it was
    decided on and the head its events made (so no event of it can change afterwards)."""
    return canonical_json(["wif signed command", game_id, first_seq, last_seq, player, prev_head.hex(),
                           new_head.hex()]).encode() + b"\n" + command_json.encode()


def snapshot_message(game_id: str, seq: int, plugins_hash: str, head: bytes, state_json: str) -> bytes:
    """What the committing player signs for a snapshot (a cache that must match the log)."""
    return canonical_json(["wif snapshot", game_id, seq, plugins_hash, head.hex(),
                           hashlib.sha256(state_json.encode()).hexdigest()]).encode()


def meta_message(game_id: str, stored: dict[str, str]) -> bytes:
    """What is signed of a save's meta: every key's stored JSON text (no decoding: cheap on
    every commit) but the signature's own and the schema version (a migration moves it)."""
    return canonical_json(["wif meta", game_id, {k: v for k, v in stored.items()
                                                 if k not in ("meta_signature", "schema_version")}]).encode()
