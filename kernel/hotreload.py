"""Hot reload of plugins while a game is open.

The watchdog thread only notes which plugin changed (debounced, folders watched rather
than files because editors save by replacing the file).  The game loop calls
``process_pending()`` at a safe point; that re-imports the plugin, builds a new plugin host,
replays the whole game under it, and only then swaps it in.  Any failure leaves the
previous version active and reports the error with file, line and (for replay) event seq:
plugin code that raises SystemExit or KeyboardInterrupt included, a manifest (plugin.toml,
read again) deleted or invalid, and a reducer of the edited plugin that writes a section of
the state its plugin does not own (kernel/state.py guard_sections).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .engine import SequenceIndex
from .errors import EventDataError, PluginError, ReducerError
from .game import Game
from .plugins import KERNEL_PLUGIN_ID, PluginHost, PluginInfo, _where, import_plugin, load_manifest, plugin_set_hash
from .state import GameState

DEBOUNCE_SECONDS = 0.2
CHANGE_EVENTS = {"created", "modified", "moved", "deleted", "closed"}  # "closed" = closed after writing
WATCHED_SUFFIXES = {".py", ".toml", ".json", ".csv", ".txt"}


@dataclass
class ReloadResult:
    plugin: str
    ok: bool
    message: str
    seconds: float = 0.0


class PluginReloader:
    """Reloads a game's plugins when their files change."""

    def __init__(self, game: Game, debounce: float = DEBOUNCE_SECONDS):
        self.game = game
        self.debounce = debounce
        self.queue: "queue.Queue[str]" = queue.Queue()
        self.listeners: list[Callable[[ReloadResult], None]] = []
        self.results: list[ReloadResult] = []
        self._timers: dict[str, threading.Timer] = {}
        self._mtimes: dict[str, float] = {}
        self._observer = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------ watching (watchdog thread)
    def folders(self) -> dict[Path, str]:
        return {info.folder.resolve(): info.id for info in self.game.host.infos.values()}

    def plugin_for(self, path: str | Path) -> str | None:
        path = Path(path).resolve()
        if path.suffix not in WATCHED_SUFFIXES or "__pycache__" in path.parts:
            return None
        best = None
        for folder, plugin_id in self.folders().items():
            if folder == path or folder in path.parents:
                if best is None or len(str(folder)) > len(str(best[0])):
                    best = (folder, plugin_id)
        return best[1] if best else None

    def notice(self, path: str | Path) -> None:
        """A file changed: after the debounce, queue its plugin for the game loop."""
        plugin_id = self.plugin_for(path)
        if plugin_id is None:
            return
        try:
            mtime = Path(path).stat().st_mtime
        except OSError:
            mtime = time.time()
        with self._lock:
            if self._mtimes.get(str(path)) == mtime and plugin_id in self._timers:
                return  # the same save reported twice
            self._mtimes[str(path)] = mtime
            old = self._timers.pop(plugin_id, None)
            if old is not None:
                old.cancel()
            timer = threading.Timer(self.debounce, self._enqueue, args=(plugin_id,))
            timer.daemon = True
            self._timers[plugin_id] = timer
            timer.start()

    def _enqueue(self, plugin_id: str) -> None:
        with self._lock:
            self._timers.pop(plugin_id, None)
        self.queue.put(plugin_id)

    def start(self) -> None:
        from watchdog.events import FileSystemEventHandler
        from watchdog.observers import Observer

        reloader = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event):
                # Only changes count: watchdog also reports files merely opened or read,
                # and reloading on every read would replay the game for nothing.
                if event.is_directory or event.event_type not in CHANGE_EVENTS:
                    return
                reloader.notice(event.src_path)
                dest = getattr(event, "dest_path", None)
                if dest:
                    reloader.notice(dest)

        self._observer = Observer()
        for folder in self.folders():
            self._observer.schedule(Handler(), str(folder), recursive=True)
        self._observer.daemon = True
        self._observer.start()

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None
        with self._lock:
            for timer in self._timers.values():
                timer.cancel()
            self._timers.clear()

    # ------------------------------------------------------------ reloading (game-loop thread)
    def process_pending(self) -> list[ReloadResult]:
        """Run queued reloads now.  Call from the thread that owns the game."""
        wanted: list[str] = []
        while True:
            try:
                plugin_id = self.queue.get_nowait()
            except queue.Empty:
                break
            if plugin_id not in wanted:
                wanted.append(plugin_id)
        results = [self.reload(plugin_id) for plugin_id in wanted]
        return results

    def reload(self, plugin_id: str) -> ReloadResult:
        started = time.perf_counter()
        game = self.game
        old_info = game.host.infos.get(plugin_id)
        if old_info is None:
            return self._report(ReloadResult(plugin_id, False, f"plugin {plugin_id!r} is not part of this game"))
        try:
            info = reread_manifest(old_info, game.host.infos)
        except PluginError as exc:
            return self._report(ReloadResult(plugin_id, False, f"reload of {plugin_id!r} refused, previous version "
                                             f"kept: {exc}"))
        saved = {name: mod for name, mod in sys.modules.items()
                 if name == info.module_name or name.startswith(info.module_name + ".")}
        for name in saved:
            del sys.modules[name]
        try:
            module = import_plugin(info)
            modules = {pid: sys.modules[i.module_name] for pid, i in game.host.infos.items()
                       if pid != plugin_id and i.module_name in sys.modules}
            modules[plugin_id] = module
            infos = [info if i.id == plugin_id else i for i in game.host.infos.values()]
            # the edited plugin's reducers are checked to write only its own sections
            host = PluginHost(infos, modules=modules, guarded={plugin_id})
            state = _replay(game, host)
        except (PluginError, ReducerError, EventDataError) as exc:
            self._restore(info.module_name, saved)
            return self._report(ReloadResult(plugin_id, False, f"reload of {plugin_id!r} failed, previous version kept: {exc}"))
        except BaseException as exc:  # noqa: BLE001 - plugin code's SystemExit or KeyboardInterrupt too
            # An edited plugin that calls sys.exit() or raises KeyboardInterrupt at import, in a
            # hook or in a reducer must not take the open game down with it.
            self._restore(info.module_name, saved)
            return self._report(
                ReloadResult(plugin_id, False, f"reload of {plugin_id!r} failed, previous version kept: {_where(exc)}")
            )
        old_hash = old_info.content_hash
        new_hash = info.refresh_hash()
        game.available[plugin_id] = info
        game.host = host
        game.state = state
        game.plugin_set = host.plugin_set()
        game.plugins_hash = plugin_set_hash(game.plugin_set)
        spec_name = state.kernel.sequence.tree
        if spec_name in host.sequences:
            game.sequence_index = SequenceIndex(host.sequences[spec_name][0])
        game._last_snapshot_seq = 0
        if not game.read_only:
            history = game.store.meta("plugin_history") or []
            history.append({"plugin": plugin_id, "at_seq": state.kernel.seq, "from": old_hash, "to": new_hash,
                            "time": time.time()})
            game.store.set_meta("plugin_history", history)
            game.store.set_meta("plugins", game.plugin_set)
            game.store.set_meta("dev_modified", True)
        seconds = time.perf_counter() - started
        return self._report(ReloadResult(plugin_id, True, f"{plugin_id} reloaded, {state.kernel.seq} events replayed "
                                         f"in {seconds * 1000:.0f} ms", seconds))

    @staticmethod
    def _restore(module_name: str, saved: dict) -> None:
        for name in [n for n in sys.modules if n == module_name or n.startswith(module_name + ".")]:
            del sys.modules[name]
        sys.modules.update(saved)

    def _report(self, result: ReloadResult) -> ReloadResult:
        self.results.append(result)
        for listener in list(self.listeners):
            listener(result)
        return result


def reread_manifest(info: PluginInfo, game_plugins: dict[str, PluginInfo]) -> PluginInfo:
    """The plugin as its plugin.toml says now: a deleted or invalid manifest, another id, or
    a requirement the game does not hold is refused, naming the file."""
    path = info.folder / "plugin.toml"
    if not path.is_file():
        raise PluginError(f"{path}: the plugin manifest is gone")
    manifest = load_manifest(path)
    if manifest.id != info.id:
        raise PluginError(f"{path}: the manifest's id is now {manifest.id!r}; a running game's plugin keeps its id "
                          f"{info.id!r}")
    missing = [r for r in manifest.requires if r not in game_plugins and r != KERNEL_PLUGIN_ID]
    if missing:
        raise PluginError(f"{path}: requires {', '.join(missing)}, not part of this game")
    clash = set(manifest.conflicts) & set(game_plugins)
    if clash:
        raise PluginError(f"{path}: conflicts with {', '.join(sorted(clash))}, part of this game")
    return PluginInfo(manifest, info.module_name, info.folder, info.origin)


def _replay(game: Game, host: PluginHost) -> GameState:
    """The whole game folded under ``host``: the rules changed, so no snapshot is trusted."""
    from .engine import fold_rows

    state = GameState.empty(host.state_models)
    fold_rows(host, state, game.store.rows())
    return state
