"""`wif serve`: the server that holds the games (issue #15).

Starlette + uvicorn: small, ASGI, WebSockets built in.  The server is authoritative: each
game is one save (the usual SQLite format) in the games folder, every command is decided by
``Game.submit`` here, and the dice come from this server's host secret (its own config dir,
kernel/keys.py): no client can foresee or choose a die.  A command is signed by its player's
own key: while deciding, the kernel asks the player's signer to sign the command with the
heads it made; the server's signer for a remote player forwards that message to the client and
waits for its signature (protocol.sign_request_problem is what the client checks first).  The
server itself is a player of each game with no powers, "server": it signs the first event and
the meta, as the creator of a local game does.

Each client sees only its player's view (kernel/views.py) and the choices of its own powers.
Games are independent; one process holds many (docs/NETWORK.md says how to shard them).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import secrets
import sys
import threading
import time
import traceback
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from kernel import keys as keyring
from kernel.errors import WifError
from kernel.game import Game
from kernel.plugins import discover, resolve
from kernel.views import state_seen_by

from . import protocol
from .rooms import SERVER_PLAYER, Room
from .viewops import ViewOps, whose_turn

WAIT_LIMIT = 30.0
# the largest frame a client may send: its frames are requests, commands and signatures, a few
# kB (a chat message is 1000 characters at most); a larger one closes that connection (1009)
FRAME_LIMIT = 1024 * 1024
CHAT_LIMIT = 1000  # characters in one chat message  # the longest a client's ``wait`` is held open
# a reply's JSON: compact, keys in the order built (no signature is made over a reply, so it
# needs no canonical spelling: sorting every dict's keys of a choices tree or a view was waste)
REPLY_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
# seconds a thread holds the GIL before another that waits for it may run (Python's default is
# 0.005).  Every game's rules run on its own worker thread, every frame of every game on the one
# event-loop thread: while a long command (a set-up's last FinishStep, 80-230 ms) computes, each
# hop of another game's command through the event loop (frame read, worker hand-off, sign
# request, signature, reply) waited up to 5 ms for the GIL.  `wif bench net --games 50
# --seconds 30 --think 2`, two pairs at load 4-6: p95 68.5 and 57.8 ms at 0.005, 55.2 and 43.8
# at 0.0005, the server's CPU a command unchanged (14.8-15.4 against 14.0-15.4 ms).
SWITCH_INTERVAL = 0.0005


class NetServer:
    def __init__(self, games_dir: Path, client_timeout: float = protocol.CLIENT_TIMEOUT):
        self.games_dir = Path(games_dir)
        self.client_timeout = client_timeout  # protocol.CLIENT_TIMEOUT
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.server_id = secrets.token_hex(8)
        self.receipt_key = keyring.game_dice_key(keyring.host_secret(), "wif net receipts")
        self.rooms: dict[str, Room] = {}
        self.rooms_lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        for spec_path in sorted(p for p in self.games_dir.glob("*.json") if not p.name.endswith(".chat.json")):
            name = spec_path.stem
            room = Room(self, name, json.loads(spec_path.read_text()))
            if room.path.exists():
                room.attach(Game.open(room.path))
            self.rooms[name] = room

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()

    def room(self, name: str) -> Room:
        room = self.rooms.get(name)
        if room is None:
            raise WifError(f"no game {name!r} on this server (games: {', '.join(sorted(self.rooms)) or 'none'})")
        return room


def check_scenario_and_rules(scenario: str, rules: list[str]) -> None:
    """Refuses, when the game is created, a scenario or an optional rule this server does not
    have (the game itself is made when its last seat is taken: too late to say so to its
    creator)."""
    discovery = discover()
    info = discovery.plugins.get(scenario)
    if info is None or info.manifest.kind != "scenario":
        known = sorted(i.id for i in discovery.plugins.values() if i.manifest.kind == "scenario")
        raise WifError(f"no scenario {scenario!r} on this server; scenarios: {', '.join(known) or 'none'}")
    resolve([scenario, *rules], discovery.plugins)  # names a rule not installed, or two in conflict


def field_json(field) -> dict:
    """A field of the choices as the client gets it: its options, and the fields that follow an
    option when the rules have already built them (``then``; an empty list: nothing follows), so
    the client asks ``expand`` only for the branches still to be built (each a round trip; the
    bots asked one for every option they chose, most of them leading nowhere)."""
    out = field.as_dict(0)
    for option, entry in zip(field.all_options() if "options" in out else (), out.get("options", ())):
        if isinstance(option.then, list):
            entry["then"] = [field_json(f) for f in option.then]
    return out


class Connection(ViewOps):
    """One authenticated client: its requests, answered in order; a submit runs in a thread
    while this keeps reading (the client's signatures come back through it)."""

    def __init__(self, server: NetServer, ws: WebSocket, player: str, public_hex: str):
        self.server, self.ws, self.player, self.public_hex = server, ws, player, public_hex
        self.loop = asyncio.get_running_loop()
        self.pending_signature: concurrent.futures.Future | None = None
        self.joined: set[str] = set()
        self.submit_command_json: str | None = None

    # called from the deciding thread
    def sign_remotely(self, message: bytes) -> bytes:
        future: concurrent.futures.Future = concurrent.futures.Future()
        self.pending_signature = future
        asyncio.run_coroutine_threadsafe(self.ws.send_json({"op": "sign", "message": message.hex()}), self.loop)
        timeout = self.server.client_timeout
        try:
            answer = future.result(timeout=timeout)
        except concurrent.futures.TimeoutError:
            raise WifError(f"{self.player} did not sign the command in {timeout:g} s") from None
        finally:
            self.pending_signature = None
        try:
            return bytes.fromhex(answer)
        except ValueError:
            raise WifError(f"{self.player}'s signature is not hexadecimal: {answer[:20]!r}") from None

    def drop(self) -> None:
        future = self.pending_signature
        if future is not None and not future.done():
            future.set_exception(WifError(f"{self.player} left before signing"))
        for name in self.joined:
            room = self.server.rooms.get(name)
            links = room.signing_links.get(self.player, []) if room else []
            if self.sign_remotely in links:
                links.remove(self.sign_remotely)

    async def serve(self) -> None:
        tasks: set[asyncio.Task] = set()
        try:
            while True:
                try:
                    msg = await read_frame(self.ws)
                except protocol.MalformedFrame as exc:  # said, and the connection reads on
                    await self.ws.send_text(REPLY_JSON.encode({"op": "error", "id": None, "ok": False, "error": str(exc)}))
                    continue
                if msg.get("op") == "signature":
                    future = self.pending_signature
                    if future is not None and not future.done():
                        future.set_result(str(msg.get("signature", "")))
                    continue
                task = asyncio.create_task(self.answer(msg))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        finally:
            self.drop()
            for task in tasks:
                task.cancel()

    async def answer(self, msg: dict) -> None:
        handler = getattr(self, f"op_{msg.get('op')}", None)
        try:
            if handler is None:
                raise WifError(f"unknown request {msg.get('op')!r}")
            result = await handler(msg)
            reply = {"id": msg.get("id"), "ok": True, **result}
        except KeyError as exc:  # a request without a field it needs
            reply = {"id": msg.get("id"), "ok": False, "error": f"{msg.get('op')}: the request has no {exc.args[0]!r}"}
        except (WifError, ValueError, TypeError, IndexError) as exc:  # bad input: said to the client
            reply = {"id": msg.get("id"), "ok": False, "error": f"{msg.get('op')}: {exc}"
                     if isinstance(exc, IndexError) else str(exc)}
        except Exception as exc:  # a fault here: the client still hears of it instead of waiting for ever
            traceback.print_exc(file=sys.stderr)
            reply = {"id": msg.get("id"), "ok": False,
                     "error": f"the server failed on {msg.get('op')}: {type(exc).__name__}: {exc}"}
        try:
            await self.ws.send_text(REPLY_JSON.encode(reply))
        except (WebSocketDisconnect, RuntimeError):
            pass

    def _seat_room(self, msg: dict) -> Room:
        room = self.server.room(str(msg.get("game")))
        if room.game is None:
            raise WifError(f"game {room.name} has not started: open seats {', '.join(room.open_seats())}")
        if self.player not in room.spec["seats"]:
            raise WifError(f"{self.player!r} has no seat in game {room.name} (seats: {', '.join(room.spec['seats'])})")
        if room.name not in self.joined:
            raise WifError(f"join game {room.name} first")
        return room

    # ------------------------------------------------------------ lobby
    async def op_create(self, msg: dict) -> dict:
        name, seats = str(msg["game"]), msg["seats"]
        if not name.isidentifier():
            raise WifError(f"a game name is letters, digits and _ ({name!r})")
        if not isinstance(seats, dict) or not seats:
            raise WifError("seats: a player name for each list of powers, e.g. {\"alice\": [\"Germany\"]}")
        for player in seats:
            keyring.check_player_name(player)
            if player == SERVER_PLAYER:
                raise WifError(f"{SERVER_PLAYER!r} is the server's own name in a game; choose another seat name")
        if not isinstance(msg.get("rules") or [], list):
            raise WifError("rules: a list of optional rule plugins")
        await asyncio.to_thread(check_scenario_and_rules, str(msg["scenario"]), [str(r) for r in msg.get("rules") or []])
        with self.server.rooms_lock:
            if name in self.server.rooms:
                raise WifError(f"there is already a game {name!r}")
            spec = {"scenario": str(msg["scenario"]), "rules": list(msg.get("rules") or []), "seed": msg.get("seed"),
                    "seats": {p: {"powers": list(ps), "key": ""} for p, ps in seats.items()},
                    "creator": self.player, "invitation": bool(msg.get("invitation"))}
            room = Room(self.server, name, spec)
            self.server.rooms[name] = room
            room.save_spec()
        return {"game": name, "open_seats": room.open_seats()}

    async def op_list(self, msg: dict) -> dict:
        """The open games, and the games by invitation that have a seat for this player."""
        return {"games": [{"game": n, "scenario": r.spec["scenario"], "open_seats": r.open_seats(),
                           "started": r.game is not None, "seats": list(r.spec["seats"]), **whose_turn(r)} for n, r in sorted(self.server.rooms.items())
                          if not r.spec.get("invitation") or self.player in r.spec["seats"]]}

    async def op_join(self, msg: dict) -> dict:
        room = self.server.room(str(msg.get("game")))
        seat = room.spec["seats"].get(self.player)
        if seat is None:
            raise WifError(f"{self.player!r} has no seat in game {room.name} (seats: {', '.join(room.spec['seats'])})")
        if seat["key"] and seat["key"] != self.public_hex:
            raise WifError(f"the seat {self.player!r} of game {room.name} is taken by another key")
        if not seat["key"]:
            seat["key"] = self.public_hex
            room.save_spec()
        if room.game is None and not room.open_seats():  # a failed start is tried (and named) again
            await room.run(room.start_if_full)
        self.joined.add(room.name)
        if msg.get("sign", True):  # a window's second connection only watches: its first one signs
            links = room.signing_links.setdefault(self.player, [])
            if self.sign_remotely not in links:
                links.append(self.sign_remotely)
        if room.game is None:
            return {"started": False, "open_seats": room.open_seats()}
        receipt = msg.get("receipt")

        def check():
            why = room.receipt_problem(self.player, receipt) if receipt else None
            if why:
                raise WifError(why)
            return {"started": True, **self._status(room)}
        return await room.run(check)

    # ------------------------------------------------------------ play
    def _status(self, room: Room) -> dict:
        """Where the game stands for this player: its position after the last stored command
        (a command being decided is not the game's until its events are stored)."""
        at = room.position
        return {"game_id": room.game.identity.game_id, "seq": at.seq, "turn": at.turn, "impulse": at.impulse,
                "step": at.step, "pending": list(at.pending), "my_turn": self.player in at.waiting_for,
                "finished": at.finished, "receipt": room.receipt(self.player)}

    async def op_status(self, msg: dict) -> dict:
        room = self._seat_room(msg)
        return self._status(room)

    async def op_wait(self, msg: dict) -> dict:
        """Answers when the log passes ``seq`` (or after a while): a client waiting for the other side."""
        room = self._seat_room(msg)
        seq = int(msg.get("seq", 0))
        timeout = min(float(msg.get("timeout", WAIT_LIMIT)), WAIT_LIMIT)
        async with room.changed:
            try:
                await asyncio.wait_for(room.changed.wait_for(lambda: room.position.seq > seq), timeout)
            except asyncio.TimeoutError:
                pass
        return self._status(room)

    def _choices(self, room: Room):
        seq = room.game.state.kernel.seq
        cached = room.choices_cache.get(self.player)
        if cached is None or cached[0] != seq:
            cached = (seq, room.game.choices(self.player))
            room.choices_cache[self.player] = cached
        return cached[1]

    async def op_choices(self, msg: dict) -> dict:
        room = self._seat_room(msg)

        def look():
            found = self._choices(room)
            return {"seq": room.game.state.kernel.seq,
                    "decisions": [{"decider": d.decider, "step": d.step, "title": d.title, "pending": d.pending,
                                   "commands": [{"type": c.type, "actor": c.actor, "source": c.source,
                                                 "fields": [field_json(f) for f in c.fields]}
                                                for c in d.commands]}
                                  for d in found.decisions]}
        return await room.run(look)

    async def op_expand(self, msg: dict) -> dict:
        """The fields that follow one option: path = decision, command, then field and option
        indexes in turn (the choices of the seq the client names)."""
        room = self._seat_room(msg)

        def look():
            if int(msg.get("seq", -1)) != room.game.state.kernel.seq:
                raise WifError(f"{protocol.OUT_OF_DATE}: the game has moved on")
            found = self._choices(room)
            d, c, *rest = [int(i) for i in msg["path"]]
            fields = found.decisions[d].commands[c].fields
            for f_index, o_index in zip(rest[::2], rest[1::2]):
                fields = fields[f_index].all_options()[o_index].next_fields()
            return {"fields": [field_json(f) for f in fields]}
        return await room.run(look)

    async def op_submit(self, msg: dict) -> dict:
        room = self._seat_room(msg)
        command = msg["command"]
        if not isinstance(command, dict):
            raise WifError("command: a JSON object")

        asked = time.perf_counter()

        built_on = msg.get("seq")  # a window's command names the choices it was built from

        def decide():
            started = time.perf_counter()
            now = room.game.state.kernel.seq
            if built_on is not None and int(built_on) != now:  # as a local save refuses (GameMovedOn)
                raise WifError(f"{protocol.OUT_OF_DATE}: the game has moved on to event {now} since the choices "
                               f"this command was built from (event {int(built_on)})")
            outcome = room.game.submit(command, player=self.player)
            if outcome.accepted:
                room.moved()
            # where the time went, for `wif bench net`: waiting for the game's worker, then
            # deciding (the rules, the store, the player's signature)
            timing = {"queued_ms": 1000 * (started - asked), "decided_ms": 1000 * (time.perf_counter() - started)}
            return {"accepted": outcome.accepted, "reason": outcome.reason or "", **self._status(room), "timing": timing}
        result = await room.run(decide)
        if result["accepted"]:
            async with room.changed:
                room.changed.notify_all()
        return result

    async def op_chat(self, msg: dict) -> dict:
        """Say something in a game's chat (``text``), or only read it; the messages after ``since``."""
        room = self.server.room(str(msg.get("game")))
        text = msg.get("text")
        if text is not None:
            text = str(text).strip()
            if not text or len(text) > CHAT_LIMIT:
                raise WifError(f"a chat message is 1 to {CHAT_LIMIT} characters")
            room.chat.append({"n": len(room.chat) + 1, "player": self.player, "text": text})
            with (self.server.games_dir / f"{room.name}.chat.jsonl").open("a") as log:
                log.write(json.dumps(room.chat[-1]) + "\n")
        since = int(msg.get("since", 0))
        return {"messages": room.chat[since:]}

    async def op_view(self, msg: dict) -> dict:
        room = self._seat_room(msg)

        return await room.run(lambda: {"state": state_seen_by(room.game, self.player)})


async def read_frame(ws: WebSocket) -> dict:
    """The next message, a JSON object (protocol.MalformedFrame says what else it was)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return protocol.parse_frame(message.get("text"))


async def handshake(server: NetServer, ws: WebSocket) -> tuple[str, str] | None:
    """The client proves its key by signing a fresh challenge; (player, public key) or None.
    A client that does not answer in the server's client timeout is told so and let go (a
    connection that never speaks holds nothing for long)."""
    nonce = secrets.token_bytes(32)
    await ws.send_json({"op": "challenge", "nonce": nonce.hex(), "server": server.server_id})
    try:
        hello = await asyncio.wait_for(read_frame(ws), server.client_timeout)
        player, public_hex = str(hello.get("player", "")), str(hello.get("key", ""))
        keyring.check_player_name(player)
        signature = bytes.fromhex(str(hello.get("signature", "")))
    except asyncio.TimeoutError:
        await ws.send_json({"op": "welcome", "ok": False,
                            "error": f"no answer to the challenge in {server.client_timeout:g} s"})
        return None
    except (WifError, ValueError) as exc:
        await ws.send_json({"op": "welcome", "ok": False, "error": str(exc)})
        return None
    if not keyring.verify_signature(public_hex, signature, protocol.challenge_message(nonce, server.server_id)):
        await ws.send_json({"op": "welcome", "ok": False,
                            "error": f"{player}: the signature of the challenge does not match the key given"})
        return None
    await ws.send_json({"op": "welcome", "ok": True, "player": player})
    return player, public_hex


def make_app(games_dir: Path, client_timeout: float = protocol.CLIENT_TIMEOUT) -> Starlette:
    server = NetServer(games_dir, client_timeout)

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        try:
            who = await handshake(server, ws)
            if who is None:
                await ws.close()
                return
            await Connection(server, ws, *who).serve()
        except WebSocketDisconnect:
            pass

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        server.close()

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)], lifespan=lifespan)
    app.state.net = server
    return app


def serve(host: str, port: int, games_dir: Path, compress: bool = False,
          client_timeout: float = protocol.CLIENT_TIMEOUT) -> None:
    """``compress``: offer permessage-deflate.  Off by default: the frames are small (a few kB at
    most) and compressing each one on the event loop cost more than it saved; at 50 games on
    loopback the server used 16.4 ms of CPU a command without it, 20.5 with it (BENCHMARKS.md,
    "Network (#15)").  The process's GIL switch interval is SWITCH_INTERVAL.  Before it listens it fills the rules' per-process tables (warmup.py;
    WIF_SERVE_WARM=0 skips that)."""
    import os

    import uvicorn

    from .warmup import warm_up

    if os.environ.get("WIF_SERVE_WARM", "1") != "0":  # tests that start many servers skip it
        warmed = warm_up()
        print(f"warmed the rules' tables in {warmed['seconds']} s: {warmed['filled']}", flush=True)
    sys.setswitchinterval(SWITCH_INTERVAL)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"serving on {host}: reachable from other machines", flush=True)
    uvicorn.run(make_app(games_dir, client_timeout), host=host, port=port, log_level="warning", ws_max_size=FRAME_LIMIT,
                ws_per_message_deflate=compress)
