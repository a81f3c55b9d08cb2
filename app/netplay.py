"""`wif play --server URL GAME --as PLAYER`: the normal game window on a server game (issue #15).

The window's game is a ``RemoteGame``: the player's view as the server sends it, with the
game's own plugins loaded here (for drawing, wording and the UI hooks).  Every command goes to
the server; the forms' choices and previews are asked of the server, which answers from its
authoritative game as this player (app/net/viewops.py says why the window keeps no replica of
its own).  A second connection waits on the server (``wait``) in a thread and notes how far the
game has gone; the window's save watch (app/savewatch.py), which asks ``store.last()`` every
frame for a network game, then folds the news through ``refresh`` exactly as for a save another
process appended to, so a move at one window shows at every window at once.

Without a seat (``--spectate``) the window shows what every side may see while the game runs
(app/net/viewops.py ``state_seen_by_everyone``), decides nothing, and a finished game opens in
the replay viewer on its whole save.
"""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import urlparse

import pygame

from kernel.choices import Choices
from kernel.decisions import Decisions, Outcome
from kernel.engine import SequenceIndex
from kernel.errors import PluginSetMismatch, WifError
from kernel.events import EventRecord, canonical_json
from kernel.fairplay import Identity
from kernel.game import Game, _compare_plugin_sets
from kernel.plugins import PluginHost, discover, plugin_set_hash, resolve
from kernel.state import GameState

from .net.client import NetClient, NetError
from .scenes import GameScene, ReplayScene

WATCH_SECONDS = 10.0  # how long one wait for the other side is held open before it is asked again
REMOTE_WATCH_EVERY = 0.05  # seconds between two looks of the window's save watch at the remote head


def record_from(d: dict) -> EventRecord:
    when = d.get("when") or {}
    return EventRecord(d["seq"], d["type"], d.get("version", 1), d.get("actor"), when.get("turn"), when.get("impulse"),
                       when.get("step"), d.get("cmd"), d.get("data") or {}, bytes.fromhex(d.get("hash") or ""))


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

    def __init__(self, url: str, game: str, player: str | None, as_name: str | None = None):
        self.url, self.name, self.player = url, game, player
        self.listeners: list = []
        self.problems: list[str] = []
        self.store = RemoteStore()
        self.client = NetClient(url, player or as_name or "spectator")
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
            self.watcher = threading.Thread(target=self._watch, name=f"wif-net-watch-{game}", daemon=True)
            self.watcher.start()
        except BaseException:
            self.client.close()
            raise

    def _load_plugins(self, info: dict) -> None:
        discovery = discover()
        recorded = info["plugin_set"]
        problems = _compare_plugin_sets(recorded, discovery.plugins)
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
        self.state = GameState.from_json(canonical_json(update["state"]), self.host.state_models)
        self.store.fetched = [record_from(r) for r in update.get("records", [])]
        self.store.moved_to(update["seq"])
        if update.get("save"):
            import base64

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
        _, decisions = self.client.choices(self.name)
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
        try:
            out = self.client.submit(self.name, command)
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

    def close(self) -> None:
        self._closing.set()
        self.client.close()
        if self._watcher_client is not None:
            self._watcher_client.close()


def open_server_game(url: str, game: str, player: str | None, spectate: bool = False) -> RemoteGame:
    """The window's game for ``wif play --server``: a seat of ``player``, or a spectator's view."""
    if not spectate and not player:
        raise WifError("wif play --server needs --as PLAYER (your seat) or --spectate")
    return RemoteGame(url, game, None if spectate else player, as_name=player)


def finished_save_path(game: RemoteGame, folder: Path) -> Path | None:
    """A finished game's whole save, written where the replay viewer can open it."""
    if game.finished_save is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game.name}-{game.identity.game_id[:8]}.wif"
    path.write_bytes(game.finished_save)
    return path



def server_scene(args):
    """The scene `wif play --server URL GAME` opens: the game window on the server game, or,
    for a spectator of a finished game, the replay viewer on its whole save."""
    game = open_server_game(args.server, args.save, getattr(args, "player", None), getattr(args, "spectate", False))
    if game.finished_save is not None:
        path = finished_save_path(game, Path(getattr(args, "saves", None) or "saves"))
        game.close()
        print(f"game {args.save} is over: its whole save is {path}")
        return ReplayScene(str(path))
    return NetGameScene(game)


class NetGameScene(GameScene):
    """``GameScene`` on a ``RemoteGame``: the forms show this machine's player only (the others
    are "at another machine"), and the save watch looks at the server's head every frame."""

    def enter(self) -> None:
        fresh = self.window is None
        super().enter()
        if fresh:
            self.window.save_watch.every = REMOTE_WATCH_EVERY
            if self.window.play is not None:
                self.window.play.hot_seat = True
                self.window.play.at_screen = self.game.player
        game = self.game
        pygame.display.set_caption(f"World in Flames — {game.state.kernel.scenario} — {game.name} on "
                                   f"{urlparse(game.url).netloc} as {game.player or 'spectator'}")
