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


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
