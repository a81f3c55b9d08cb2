"""The client of `wif serve`: it proves its player's key, joins a seat, and plays it.

``RemoteChoices`` turns the server's answer into the kernel's own choice objects
(kernel/choices.py); the fields that follow an option are asked of the server only when a
bot or a front end opens them, so a long tree never crosses the wire whole.  The client keeps
its receipt (the last point of the game the server told it, protocol.py) in its config dir;
joining again with it resumes where it stopped, and a server whose log does not extend it
says so.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from functools import cache
from types import SimpleNamespace

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from kernel import keys as keyring
from kernel.choices import CommandChoice, Decision, Field, Option
from kernel.errors import WifError
from kernel.events import canonical_json

from . import protocol
from .protocol import OUT_OF_DATE

CONNECT_TIMEOUT = 10.0
REPLY_TIMEOUT = 120.0
SEATS_POLL = 0.5  # seconds between two looks at a game that waits for its seats  # a reply that takes longer means the server is gone


class NetError(WifError):
    """The server refused a request, or could not be reached."""


class OutOfDate(NetError):
    """The choices a client holds are of an earlier point of the game."""


def receipt_file(url: str, game: str, player: str):
    safe = "".join(ch if ch.isalnum() else "_" for ch in url)
    return keyring.config_dir() / "receipts" / "net" / safe / f"{game}-{player}.json"


class NetClient:
    def __init__(self, url: str, player: str):
        self.url, self.player = url, player
        self.signer = keyring.signer(player, create=True)
        self._ids = itertools.count(1)
        self.game_id_of: dict[str, str] = {}
        self.submitted_json: str | None = None
        try:
            self.ws = connect(url, open_timeout=CONNECT_TIMEOUT, max_size=64 * 1024 * 1024).__enter__()
        except (OSError, InvalidHandshake) as exc:  # no server there, or not a game server's address
            raise NetError(f"cannot reach the server at {url}: {exc}") from None
        try:
            challenge = json.loads(self.ws.recv(timeout=CONNECT_TIMEOUT))
            message = protocol.challenge_message(bytes.fromhex(challenge["nonce"]), challenge["server"])
            self.ws.send(json.dumps({"player": player, "key": self.signer.public_hex,
                                     "signature": self.signer.sign(message).hex()}))
            welcome = json.loads(self.ws.recv(timeout=CONNECT_TIMEOUT))
        except (TimeoutError, ConnectionClosed, ValueError, KeyError) as exc:
            self.ws.close()
            raise NetError(f"the server at {url} did not complete the challenge in {CONNECT_TIMEOUT:g} s "
                           f"({type(exc).__name__}: {exc})") from None
        if not welcome.get("ok"):
            self.ws.close()
            raise NetError(f"the server refused {player}: {welcome.get('error')}")

    def close(self) -> None:
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def request(self, op: str, **fields) -> dict:
        try:
            return self._request(op, fields)
        except ConnectionClosed as exc:
            raise NetError(f"the server at {self.url} closed the connection ({exc})") from None
        except TimeoutError:
            raise NetError(f"the server at {self.url} did not answer {op} in {REPLY_TIMEOUT:.0f} s") from None

    def _request(self, op: str, fields: dict) -> dict:
        rid = next(self._ids)
        self.ws.send(canonical_json({"op": op, "id": rid, **fields}))
        deadline = time.monotonic() + REPLY_TIMEOUT
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if msg.get("op") == "sign":
                self._sign(msg, fields.get("game"))
                continue
            if msg.get("id") == rid:
                if not msg.get("ok"):
                    raise NetError(msg.get("error") or f"{op} refused")
                return msg

    def _sign(self, msg: dict, game: str | None) -> None:
        message = bytes.fromhex(msg["message"])
        game_id = self.game_id_of.get(game or "", "")
        why = protocol.sign_request_problem(message, game_id, self.player, self.submitted_json)
        if why:  # not signed: the server waits, then refuses the command
            raise NetError(f"{self.player} refused to sign: {why}")
        self.ws.send(json.dumps({"op": "signature", "signature": self.signer.sign(message).hex()}))

    # ------------------------------------------------------------ lobby
    def create(self, game: str, scenario: str, seats: dict[str, list[str]], rules=None, seed=None,
               invitation: bool = False) -> dict:
        """A new game; ``invitation``: listed only to the players it names (any game's seats are
        named: only those players can take them)."""
        return self.request("create", game=game, scenario=scenario, seats=seats, rules=rules or [], seed=seed,
                            invitation=invitation)

    def list_games(self) -> list[dict]:
        return self.request("list")["games"]

    def join(self, game: str, receipt: dict | None = None, sign: bool = True) -> dict:
        """Take (or take again) this player's seat; with a receipt, the server must extend it.
        ``sign`` False: a second connection that only follows the game (a window's watcher);
        the server keeps asking the first one to sign."""
        if receipt is None:
            path = receipt_file(self.url, game, self.player)
            receipt = json.loads(path.read_text()) if path.exists() else None
        out = self.request("join", game=game, receipt=receipt, sign=sign)
        if out.get("started"):
            self.game_id_of[game] = out["game_id"]
            self.keep_receipt(game, out)
        return out

    def keep_receipt(self, game: str, status: dict) -> None:
        """Written whole or not at all (a new file moved over the old): a client killed while
        writing still finds its last receipt when it comes back."""
        path = receipt_file(self.url, game, self.player)
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = path.with_name(path.name + ".new")
        fresh.write_text(json.dumps(status["receipt"]))
        os.replace(fresh, path)

    # ------------------------------------------------------------ play
    def choices(self, game: str) -> tuple[int, list[Decision]]:
        out = self.request("choices", game=game)
        seq = out["seq"]
        decisions = []
        for d_index, d in enumerate(out["decisions"]):
            commands = [CommandChoice(c["type"], c["actor"], self._fields(game, seq, [d_index, c_index], c["fields"]),
                                      c["source"]) for c_index, c in enumerate(d["commands"])]
            decisions.append(Decision(d["decider"], d["step"], d["title"], commands, d["pending"]))
        return seq, decisions

    def _fields(self, game: str, seq: int, path: list[int], found: list[dict]) -> list[Field]:
        """``then`` in an option: the fields that follow it, sent with it (the server's
        field_json); without it they are asked for (``expand``) when looked at."""
        fields = []
        for f_index, f in enumerate(found):
            options = [Option(o["value"], o.get("label", ""),
                              self._fields(game, seq, path + [f_index, o_index], o["then"]) if "then" in o
                              else self._then(game, seq, path + [f_index, o_index]))
                       for o_index, o in enumerate(f.get("options", []))]
            fields.append(Field(f["name"], f["kind"], options, f.get("min"), f.get("max"), f.get("label", "")))
        return fields

    def _then(self, game: str, seq: int, path: list[int]):
        def expand() -> list[Field]:
            try:
                found = self.request("expand", game=game, seq=seq, path=path)["fields"]
            except NetError as exc:
                if OUT_OF_DATE in str(exc):
                    raise OutOfDate(str(exc)) from None
                raise
            return self._fields(game, seq, path, found)
        return expand

    def submit(self, game: str, command: dict, seq: int | None = None) -> dict:
        """``seq``: the choices the command was built from; the server refuses it (OutOfDate)
        if the game has moved on since."""
        self.submitted_json = canonical_json(command)
        try:
            out = self.request("submit", game=game, command=command, **({} if seq is None else {"seq": seq}))
        except NetError as exc:
            if OUT_OF_DATE in str(exc):
                raise OutOfDate(str(exc)) from None
            raise
        finally:
            self.submitted_json = None
        self.keep_receipt(game, out)
        return out


def bot_game(status: dict) -> SimpleNamespace:
    """What a random bot reads of the game besides its choices (app/bots.py Bot.choose): where
    the game stands, and a plugin host with no plugin, so a question the bot asks the game's
    plugins (the random bot's chains ask the sea boxes for cargo at sea) has no answer here: it
    has only the choices (the greedy bot reads a RemoteGame, play_seat)."""
    sequence = SimpleNamespace(current=status["step"], pending=status["pending"], finished=status["finished"])
    # side_of answers None (no plugin here knows the sides): the random bot's naval sampling
    # (app/bot_sea.py SeaSense) then takes the power for its side and finds no convoy at sea
    return SimpleNamespace(host=_no_plugins(), state=SimpleNamespace(kernel=SimpleNamespace(
        seq=status["seq"], turn=status["turn"], impulse=status["impulse"], sequence=sequence,
        side_of=lambda power: None)))


@cache
def _no_plugins():
    from kernel.plugins import PluginHost

    return PluginHost([])


def play_seat(client: NetClient, game: str, policy: str = "random", seed: int = 1, decisions: int = 100000,
              seconds: float = 3600.0, out=None, until=None, think: float = 0.0):
    """A bot plays ``client``'s seat until the game ends, ``decisions`` are made, ``seconds``
    pass or ``until(status)`` says so; ``think``: seconds it waits before each command (a load
    test's players, tools/bench_net.py; each wait drawn between half and one and a half times it).
    Returns (tally, last status)."""
    from app.bots import Bot, Tally

    if policy not in ("random", "greedy"):
        raise WifError(f"no bot policy {policy!r} (random, greedy)")
    bot, tally, pause = Bot(policy, seed), Tally(), random.Random(seed)
    deadline = time.monotonic() + seconds
    status = client.join(game)
    while not status.get("started"):  # the other seats are still open, or the game is being set up
        if time.monotonic() > deadline:
            raise NetError(f"game {game} still waits for its other seats: {', '.join(status.get('open_seats', []))}")
        time.sleep(SEATS_POLL)
        status = client.join(game)
    view = None
    if policy == "greedy":  # it scores candidates by their previews and the view's objectives
        from .remote import RemoteGame

        view = RemoteGame(client.url, game, client.player, client=client, follow=False)
    while tally.decisions < decisions and not status["finished"] and time.monotonic() < deadline \
            and not (until and until(status)):
        if not status["my_turn"]:
            status = client.request("wait", game=game, seq=status["seq"], timeout=min(5.0, seconds))
            continue
        seq, found = client.choices(game)
        pending = [d for d in found if d.pending]
        if not pending:
            status = client.request("wait", game=game, seq=status["seq"], timeout=1.0)
            continue
        decision = pending[0]
        try:
            if view is not None:
                view.store.moved_to(seq)
                view.refresh()
            cmd = bot.choose(view or bot_game(status), decision, client.player)
        except OutOfDate:  # the other side moved while this bot looked: look again
            status = client.request("status", game=game)
            continue
        if cmd is None:
            raise WifError(f"{decision.decider} has nothing it may do in {decision.title!r} and may not finish it")
        tally.decisions += 1
        if think:  # players take more or less time: games that started together drift apart
            time.sleep(think * pause.uniform(0.5, 1.5))
        status = client.submit(game, cmd)
        if status["accepted"]:
            tally.count(cmd["type"])
        elif status["seq"] != seq:
            continue  # decided on choices the other side's move made stale: not a broken contract
        else:
            tally.refused.append(f"{cmd}: {status['reason']}")
            finish = [c for c in decision.commands if c.type == "FinishStep"]
            if finish:
                again = client.submit(game, finish[0].base())
                if again["accepted"]:
                    status = again
                    tally.count("FinishStep")
            if len(tally.refused) > 50:
                raise WifError(f"the bot is stuck in {decision.title!r}: {status['reason']}")
    return tally, status
