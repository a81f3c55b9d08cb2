"""A server game as one player (or a spectator) sees it, with the interface of a local
``Game`` that the window and the bots read (issue #15): the player's view as the server sends
it, the game's own plugins loaded here (for drawing, wording, UI hooks and a bot's objectives),
choices and previews asked of the server, commands sent there.  app/net/viewops.py says why
nothing is decided or replicated here.

``follow``: a second connection waits on the server (``wait``) in a thread and notes how far
the game has gone (``store.last()``); ``refresh`` then folds the player's new view and the
events it shows.  The window's save watch calls it (app/netplay.py); a bot calls it before it
decides.
"""

from __future__ import annotations

import base64
import threading
from pathlib import Path
from types import UnionType
from typing import Union, get_args, get_origin
from urllib.parse import urlparse

from pydantic import BaseModel, ValidationError

from kernel import keys as keyring
from kernel.choices import Choices
from kernel.decisions import Decisions, Outcome
from kernel.engine import SequenceIndex
from kernel.errors import PluginSetMismatch, WifError
from kernel.events import EventRecord, canonical_json
from kernel.fairplay import Identity
from kernel.game import Game
from kernel.plugin_sets import compare_plugin_sets
from kernel.plugins import PluginHost, discover, plugin_set_hash, resolve
from kernel.state import GameState, KernelState, SnapshotError

from ..wording import power_name, step_title
from .client import NetClient, NetError, OutOfDate

WATCH_SECONDS = 10.0  # how long one wait for the other side is held open before it is asked again


def record_from(d: dict) -> EventRecord:
    when = d.get("when") or {}
    return EventRecord(d["seq"], d["type"], d.get("version", 1), d.get("actor"), when.get("turn"), when.get("impulse"),
                       when.get("step"), d.get("cmd"), d.get("data") or {}, bytes.fromhex(d.get("hash") or ""))


def view_state(raw: dict, section_models: dict) -> GameState:
    """The player's view as a state the window reads.  A view may leave out what the models
    require (the skirmish's fog of war shows an enemy strength as None), so a section that does
    not validate is built as it is, field by field (``loose``): the window shows what the view
    shows, and nothing here is decided from it (app/net/viewops.py)."""
    try:
        return GameState.from_json(canonical_json(raw), section_models)
    except SnapshotError:
        pass
    stored = raw.get("sections", {})
    sections = {name: loose(model, stored[name]) if name in stored else model() for name, model in section_models.items()}
    return GameState(KernelState.model_validate(raw["kernel"]), sections)


def loose(model: type[BaseModel], data):
    """``model`` from ``data``, validated where it can be, else built without validation with
    its nested models built the same way (a hidden value stays as the view gives it)."""
    try:
        return model.model_validate(data)
    except ValidationError:
        if not isinstance(data, dict):
            return data
        return model.model_construct(**{name: _loose_value(f.annotation, data[name])
                                        for name, f in model.model_fields.items() if name in data})


def _loose_value(annotation, value):
    if value is None:
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return loose(annotation, value)
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is dict and len(args) == 2 and isinstance(value, dict):
        return {k: _loose_value(args[1], v) for k, v in value.items()}
    if origin in (list, tuple, set) and args and isinstance(value, list):
        return [_loose_value(args[0], v) for v in value]
    if origin in (Union, UnionType):
        models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
        if models and isinstance(value, dict):
            return loose(models[0], value)
    return value


class RemoteStore:
    """What the window reads of a store: how far the server's game has gone (``last``) and the
    events of the last update (``records``)."""

    def __init__(self):
        self.head_seq = 0
        self.fetched: list[EventRecord] = []
        self.lock = threading.Lock()

    def last(self) -> tuple[int, bytes]:
        return self.head_seq, b""

    def moved_to(self, seq: int) -> None:
        with self.lock:
            self.head_seq = max(self.head_seq, int(seq))

    def records(self, from_seq: int = 1, to_seq: int | None = None):
        return [r for r in self.fetched if r.seq >= from_seq and (to_seq is None or r.seq <= to_seq)]

    def close(self) -> None:
        pass


class RemoteGame(Decisions):
    """A server game as one player (or a spectator, ``player`` None) sees it."""

    read_only = False  # a spectator's window follows the game too (its submits are refused)
    replay_error = None
    remote = True  # the forms say "waiting for" a player at another machine (app/playforms.py)

    def __init__(self, url: str, game: str, player: str | None, as_name: str | None = None,
                 client: NetClient | None = None, follow: bool = True):
        """``client``: a connection already open (a bot's); ``follow`` False: no watcher, the
        caller tells ``store.moved_to`` how far the game has gone."""
        self.url, self.name, self.player = url, game, player
        self.listeners: list = []
        self.problems: list[str] = []
        self.choices_seq: int | None = None  # the seq of the last choices asked: a submit is built on them
        self.store = RemoteStore()
        self._own_client = client is None
        self.client = client or NetClient(url, player or as_name or "spectator")
        self._closing = threading.Event()
        self._watcher_client: NetClient | None = None
        try:
            if player is not None:
                status = self.client.join(game)
                if not status.get("started"):
                    raise WifError(f"game {game} waits for its other seats: {', '.join(status.get('open_seats', []))}")
            info = self.client.request("info", game=game)
            self._load_plugins(info)
            self.identity = Identity(game_id=info["game_id"])
            self.state = GameState.empty(self.host.state_models)
            self.finished_save: bytes | None = None
            self._fold(self._ask_update(0))
            if follow:
                threading.Thread(target=self._watch, name=f"wif-net-watch-{game}", daemon=True).start()
        except BaseException:
            if self._own_client:
                self.client.close()
            raise

    def _load_plugins(self, info: dict) -> None:
        discovery = discover()
        recorded = info["plugin_set"]
        problems = compare_plugin_sets(recorded, discovery.plugins)
        if problems:
            raise PluginSetMismatch(f"{self.url} game {self.name}", problems)
        self.host = PluginHost(resolve([p for p in recorded if p in discovery.plugins], discovery.plugins))
        self.plugin_set = self.host.plugin_set()
        self.plugins_hash = plugin_set_hash(self.plugin_set)
        spec = self.host.scenarios[info["scenario"]]
        self.sequence_index = SequenceIndex(self.host.sequences[spec.sequence][0])

    @property
    def path(self) -> Path:
        return Path(f"{self.name} on {urlparse(self.url).netloc}")

    # ------------------------------------------------------------ following the server
    def _ask_update(self, since: int) -> dict:
        if self.player is not None:
            return self.client.request("update", game=self.name, since=since)
        return self.client.request("spectate", game=self.name, since=since)

    def _fold(self, update: dict) -> list[EventRecord]:
        self.state = view_state(update["state"], self.host.state_models)
        self.store.fetched = [record_from(r) for r in update.get("records", [])]
        self.store.moved_to(update["seq"])
        if update.get("save"):
            self.finished_save = base64.b64decode(update["save"])
        return self.store.fetched

    def _watch(self) -> None:
        """The second connection: waits for the server's game to pass what this window knows."""
        try:
            with NetClient(self.url, self.client.player) as watcher:
                self._watcher_client = watcher
                if self._closing.is_set():
                    return
                if self.player is not None:
                    watcher.join(self.name, sign=False)
                while not self._closing.is_set():
                    op = "wait" if self.player is not None else "watch"
                    status = watcher.request(op, game=self.name, seq=self.store.head_seq, timeout=WATCH_SECONDS)
                    if "seq" in status:
                        self.store.moved_to(status["seq"])
        except (NetError, OSError) as exc:
            if not self._closing.is_set():
                self.problems.append(f"lost the server's news: {exc}")

    def refresh(self) -> int:
        """Fold what the server's game did since this window last looked; how many events."""
        before = self.state.kernel.seq
        if self.store.head_seq <= before:
            return 0
        self._fold(self._ask_update(before))
        return self.state.kernel.seq - before

    # ------------------------------------------------------------ what the window says (issue 15 item 3)
    def deciding(self) -> list[tuple[str, str]]:
        """(player, power) of each power the current step waits for, in the step's order."""
        k = self.state.kernel
        out = []
        for decider in k.sequence.pending:
            for power in (k.sides[decider] if decider in k.sides else [decider]):
                if power in k.controllers and (k.controllers[power], power) not in out:
                    out.append((k.controllers[power], power))
        return out

    def _who(self, pairs: list[tuple[str, str]]) -> str:
        players: dict[str, list[str]] = {}
        for player, power in pairs:
            players.setdefault(player, []).append(power_name(power))
        return " and ".join(f"{'you' if p == self.player else p} ({', '.join(ps)})" for p, ps in players.items())

    def waiting_text(self) -> str:
        """The play form while another player decides: who, in which step, and that this window
        needs nothing: it follows the server by itself."""
        k = self.state.kernel
        others = [(p, w) for p, w in self.deciding() if p != self.player]
        who = self._who(others) or "the other side"
        return (f"{who} is deciding at another machine: {step_title(self, k.sequence.current)}. "
                "This window shows their moves as the server stores them; your decisions come "
                "back here when it is your turn.")

    def news_text(self, added: int) -> str:
        """The status line when moves made at another machine arrive (the window's save watch):
        how many events, and whose decision it is now, in which step."""
        k = self.state.kernel
        events = f"{added} new event{'s' if added != 1 else ''}"
        movers = {r.actor for r in self.store.fetched} & set(k.controllers)
        players = {k.controllers[p] for p in movers}
        head = (f"{self._who([(k.controllers[p], p) for p in sorted(movers)])} moved" if players - {self.player}
                else "the game moved on")
        if k.sequence.finished:
            return f"{head} ({events}): the game is over"
        now = self.deciding()
        step = step_title(self, k.sequence.current)
        if any(p == self.player for p, _ in now):
            return f"{head} ({events}): your turn, {self._who([x for x in now if x[0] == self.player])}: {step}"
        return f"{head} ({events}); now {self._who(now) or 'the game'} is deciding: {step} (this window follows by itself)"

    # ------------------------------------------------------------ deciding, on the server
    def _not_mine(self, player: str | None) -> str | None:
        if self.player is None:
            return f"a spectator decides nothing in game {self.name}"
        if player is not None and player != self.player:
            return f"{player} plays at another machine: this window plays {self.player} in game {self.name}"
        return None

    def choices(self, player: str | None = None) -> Choices:
        finished = self.state.kernel.sequence.finished
        if self._not_mine(player):
            return Choices(player, finished=finished)
        self.choices_seq, decisions = self.client.choices(self.name)
        return Choices(self.player, decisions=decisions, finished=finished)

    def preview(self, command: dict, player: str | None = None) -> dict:
        why = self._not_mine(player)
        if why:
            return {"legal": False, "reason": why}
        return self.client.request("preview", game=self.name, command=command)["preview"]

    def dry_run(self, command: dict, player: str | None = None) -> Outcome:
        return Outcome(False, reason="a network game decides on the server only: no dry run here")

    def submit(self, command: dict, player: str | None = None) -> Outcome:
        why = self._not_mine(player)
        if why:
            return Outcome(False, reason=why)
        before = self.state.kernel.seq
        try:  # OutOfDate goes up to the window (app/netplay.py): it shows the new choices and says so
            out = self.client.submit(self.name, command, seq=self.choices_seq)
        except OutOfDate:
            raise
        except NetError as exc:
            return Outcome(False, reason=str(exc))
        if not out["accepted"]:
            return Outcome(False, reason=out["reason"])
        records = self._fold(self._ask_update(before))
        for listener in list(self.listeners):
            listener(self, records)
        return Outcome(True, records)

    # ------------------------------------------------------------ reading
    def describe(self, rec: EventRecord, state: GameState | None = None) -> str:
        return Game.describe(self, rec, state)

    def history(self, from_seq: int = 1, to_seq: int | None = None, player: str | None = None) -> list[EventRecord]:
        return self.store.records(from_seq, to_seq)

    def replay_save(self, folder: Path | None = None) -> Path:
        """F9: the replay of what this player may see so far, as the server shows it
        (app/net/viewops.py ``view_save_bytes``), written in ``folder`` (the config dir's
        net-replays/) for the replay viewer; a spectator's is the whole save, once the game is over."""
        folder = folder or keyring.config_dir() / "net-replays"
        if self.player is None:
            if self.finished_save is None:
                raise WifError(f"game {self.name} is still being played: a spectator's replay opens when it is over")
            data = self.finished_save
        else:
            data = base64.b64decode(self.client.request("replay", game=self.name)["save"])
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}-{self.player or 'spectator'}-{self.identity.game_id[:8]}-{self.state.kernel.seq}.wif"
        path.write_bytes(data)
        return path

    def close(self) -> None:
        self._closing.set()
        if self._own_client:
            self.client.close()
        if self._watcher_client is not None:
            self._watcher_client.close()


