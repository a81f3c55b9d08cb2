"""A game on the server (issue #15): its seats, its save, and the signers that ask the
players' clients to sign their own commands (app/net/server.py says why)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kernel import keys as keyring, receipts
from kernel.errors import WifError
from kernel.fairplay import Signers
from kernel.game import Game

from . import protocol

if TYPE_CHECKING:
    from .server import NetServer

SERVER_PLAYER = "server"  # the server's own name in each game: a player with no powers


class RemoteSigner:
    """Signs as a remote player by asking that player's client (called from the thread that
    decides the command)."""

    def __init__(self, player: str, public_hex: str, room: "Room"):
        self.player, self.public_hex, self.room = player, public_hex, room

    def sign(self, message: bytes) -> bytes:
        links = self.room.signing_links.get(self.player)
        link = links[-1] if links else None
        if link is None:
            raise WifError(f"{self.player} is not connected to sign this command")
        signature = link(message)
        if not keyring.verify_signature(self.public_hex, signature, message):
            raise WifError(f"{self.player}'s signature does not match the key this game recorded")
        return signature


class RoomSigners(Signers):
    """The game's signers on the server: its own key for "server", the clients for the rest."""

    def __init__(self, ident, room: "Room"):
        super().__init__(ident)
        self.room = room

    def get(self, player: str):
        if player == SERVER_PLAYER:
            return super().get(player)
        recorded = self.ident.keys.get(player)
        if recorded is None:
            return super().get(player)  # names the players
        return RemoteSigner(player, recorded, self.room)


class ServerReceipts(receipts.Keeper):
    """The server's disk keeps its own player's receipt only.  A remote player's receipt is kept
    by that player's client (an HMAC tag of the stored head, protocol.receipt_tag), which the
    server checks when it joins; the server never opens a save as a remote player, so a file of
    theirs here was written every two seconds of play and never read.  The host's receipt of
    the dice it rolled (kernel/fairplay.py dice_rolled) is kept as before."""

    def saw(self, player: str, seq: int, hash_: bytes) -> None:
        if player == SERVER_PLAYER:
            super().saw(player, seq, hash_)


@dataclass(frozen=True)
class Position:
    """Where a game stands between two commands, as the lobby, ``status`` and ``wait`` tell it.
    The game's worker takes it after each command; the event loop reads it without touching the
    game, so a client waiting for the other side hears of a move as soon as it is stored, not
    after whatever that game's worker does next."""

    seq: int
    stored: tuple[int, bytes]  # the store's last (seq, hash): what a receipt names
    turn: int
    impulse: int
    step: str | None
    pending: tuple[str, ...]
    finished: bool
    waiting_for: frozenset[str]  # the players of the powers or sides the step waits for

    @classmethod
    def of(cls, game: Game) -> "Position":
        k = game.state.kernel
        waiting = set()
        for decider in k.sequence.pending:
            for power in (k.sides[decider] if decider in k.sides else [decider]):
                if power in k.controllers:
                    waiting.add(k.controllers[power])
        return cls(k.seq, game.store.last(), k.turn, k.impulse, k.sequence.current, tuple(k.sequence.pending),
                   bool(k.sequence.finished), frozenset(waiting))


class Room:
    """One game of the lobby: its seats, and once every seat is taken, its save.

    Every look at the game and every command runs on the room's own worker thread, one at a
    time and in the order asked (``run``): games are independent, so one game's long command,
    or a client slow to sign, holds up that game only, never the server's other games."""

    def __init__(self, server: "NetServer", name: str, spec: dict):
        self.server, self.name, self.spec = server, name, spec
        self.worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"wif-game-{name}")
        self.game: Game | None = None
        self.position: Position | None = None
        # each player's connections that sign, the latest last: a player who also joined at
        # another machine and left it signs again at the first
        self.signing_links: dict[str, list] = {}
        self.changed = asyncio.Condition()
        self.choices_cache: dict[str, tuple[int, object]] = {}
        self.view_chains: dict[str, tuple[int, bytes]] = {}  # app/net/viewops.py shown_since
        chat = server.games_dir / f"{name}.chat.jsonl"
        self.chat: list[dict] = [json.loads(line) for line in chat.read_text().splitlines()] if chat.exists() else []

    @property
    def path(self) -> Path:
        return self.server.games_dir / f"{self.name}.wif"

    def save_spec(self) -> None:
        (self.server.games_dir / f"{self.name}.json").write_text(json.dumps(self.spec, indent=1))

    def open_seats(self) -> list[str]:
        return [p for p, seat in self.spec["seats"].items() if not seat.get("key")]

    def start_if_full(self) -> None:
        if self.game is not None or self.open_seats():
            return
        seats = self.spec["seats"]
        players = {SERVER_PLAYER: [], **{p: list(seat["powers"]) for p, seat in seats.items()}}
        keys = {p: seat["key"] for p, seat in seats.items()}
        keyring.public_key_hex(SERVER_PLAYER, create=True)
        game = Game.new(self.spec["scenario"], self.path, players=players, player_keys=keys,
                        extra_plugins=self.spec.get("rules") or None, seed=self.spec.get("seed"))
        self.attach(game)

    def attach(self, game: Game) -> None:
        game.signers = RoomSigners(game.identity, self)
        game.receipts.flush()
        game.receipts = ServerReceipts(game.identity.game_id)
        self.game = game
        self.position = Position.of(game)

    async def run(self, work):
        """``work()`` on this game's worker thread, after what was asked of it before."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, work)

    def moved(self) -> None:
        """On the worker, after a command: the game's new position for the event loop."""
        self.position = Position.of(self.game)

    def close(self) -> None:
        self.worker.shutdown(wait=True)
        if self.game is not None:
            self.game.close()

    def receipt(self, player: str) -> dict:
        seq, head = self.position.stored
        return {"seq": seq, "tag": protocol.receipt_tag(self.server.receipt_key, self.game.identity.game_id,
                                                        player, seq, head)}

    def receipt_problem(self, player: str, receipt: dict) -> str | None:
        """Why the log here does not extend a client's receipt (the "saves match" check)."""
        seq = int(receipt.get("seq", 0))
        row = self.game.store.conn.execute("SELECT hash FROM events WHERE seq=?", (seq,)).fetchone()
        if row is None:
            return (f"game {self.name}: your receipt is at seq {seq}, but the server's log ends at seq "
                    f"{self.game.store.last()[0]}: the saves do not match (the server lost moves you saw)")
        want = protocol.receipt_tag(self.server.receipt_key, self.game.identity.game_id, player, seq, row[0])
        if not secrets.compare_digest(want, str(receipt.get("tag", ""))):
            return (f"game {self.name}: the server's log at seq {seq} is not the one your receipt names: "
                    "the saves do not match")
        return None
