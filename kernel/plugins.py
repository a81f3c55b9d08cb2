"""Finding plugins, checking their manifests, and the per-game plugin host.

A plugin is a Python package with a ``plugin.toml`` manifest beside its ``__init__.py``.
They are found in the built-in ``plugins/`` tree, in folders named by ``WIF_PLUGINS_PATH``
(or passed explicitly), and through the ``wif.plugins`` entry-point group (a mod installed
with pip).  Each game gets its own ``PluginHost``: a pluggy manager holding exactly the
plugins that game was created with, plus the registries their hooks filled.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import threading
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Literal

import pluggy
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import hookspecs
from .errors import PluginError
from .events import Command, EventData
from .sequence import StepSpec
from .state import KERNEL_SECTION, guard_sections

BUILTIN_ROOT = Path(__file__).resolve().parent.parent / "plugins"
KERNEL_PLUGIN_ID = "kernel"
ENTRY_POINT_GROUP = "wif.plugins"

Kind = Literal["rules", "optional-rule", "expansion", "scenario", "layout", "map-view", "ui"]


class Manifest(BaseModel):
    """What a plugin declares about itself before any of its code runs."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    name: str = ""
    version: str
    kind: Kind
    description: str = ""
    requires: list[str] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    affects_state: bool = True


@dataclass
class PluginInfo:
    manifest: Manifest
    module_name: str
    folder: Path
    origin: str  # "builtin", "folder", "entry-point", "kernel"
    _hash: str | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return self.manifest.id

    @property
    def content_hash(self) -> str:
        if self._hash is None:
            self._hash = content_hash(self.folder) if self.origin != "kernel" else kernel_hash()
        return self._hash

    def refresh_hash(self) -> str:
        self._hash = None
        return self.content_hash

    def record(self) -> dict[str, str]:
        return {"version": self.manifest.version, "hash": self.content_hash, "kind": self.manifest.kind}


# An editor's swap, backup and lock files come and go while a plugin is edited (``wif play
# --dev``); hashing them would make a save refuse to open once the editor closed.
EDITOR_LEFTOVERS = {".swp", ".swo", ".swx", ".tmp", ".bak", ".orig"}


def _editor_leftover(path: Path) -> bool:
    name = path.name
    return (name.startswith((".", "#")) or name.endswith("~") or path.suffix in EDITOR_LEFTOVERS)


def content_hash(folder: Path) -> str:
    """sha256 over the plugin folder's files (names and bytes), caches, hidden files and
    editors' leftovers excluded."""
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in {".pyc", ".pyo"}:
            continue
        if _editor_leftover(path):
            continue
        rel = path.relative_to(folder).as_posix()
        h.update(rel.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def kernel_hash() -> str:
    """The kernel's own built-in events and reducers are part of every game's rules."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("builtin.py", "engine.py", "lab.py", "state.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def load_manifest(path: Path) -> Manifest:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return Manifest.model_validate(raw)
    except (tomllib.TOMLDecodeError, ValidationError, OSError) as exc:
        raise PluginError(f"{path}: bad plugin manifest: {exc}") from exc


# ---------------------------------------------------------------- discovery
def _called_from_test() -> bool:
    return getattr(sys, "_called_from_test", False) and not os.environ.get("WIF_ENTRY_POINTS")


def extra_plugin_dirs() -> list[Path]:
    value = os.environ.get("WIF_PLUGINS_PATH", "")
    return [Path(p) for p in value.split(os.pathsep) if p]


@dataclass
class Discovery:
    plugins: dict[str, PluginInfo]
    errors: list[str]


def discover(extra_dirs: list[Path] | None = None) -> Discovery:
    """Find every plugin available now.  Broken manifests are reported, not fatal."""
    found: dict[str, PluginInfo] = {}
    errors: list[str] = []

    def add(info: PluginInfo) -> None:
        if info.id in found:
            errors.append(
                f"plugin id {info.id!r} found twice: {found[info.id].folder} and {info.folder}; keeping the first"
            )
            return
        found[info.id] = info

    for manifest_path in sorted(BUILTIN_ROOT.rglob("plugin.toml")):
        folder = manifest_path.parent
        if "__pycache__" in folder.parts:
            continue
        rel = folder.relative_to(BUILTIN_ROOT.parent)
        try:
            add(PluginInfo(load_manifest(manifest_path), ".".join(rel.parts), folder, "builtin"))
        except PluginError as exc:
            errors.append(str(exc))

    for base in list(extra_dirs or []) + extra_plugin_dirs():
        base = Path(base)
        for manifest_path in sorted(base.glob("*/plugin.toml")):
            try:
                manifest = load_manifest(manifest_path)
            except PluginError as exc:
                errors.append(str(exc))
                continue
            module_name = "wif_plugin_" + manifest.id.replace("-", "_")
            add(PluginInfo(manifest, module_name, manifest_path.parent, "folder"))

    if not _called_from_test():
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                spec = importlib.util.find_spec(ep.value)
                if spec is None or not spec.submodule_search_locations:
                    raise PluginError(f"entry point {ep.name} -> {ep.value}: not a package")
                folder = Path(list(spec.submodule_search_locations)[0])
                add(PluginInfo(load_manifest(folder / "plugin.toml"), ep.value, folder, "entry-point"))
            except (PluginError, ImportError, ValueError) as exc:
                errors.append(f"entry point {ep.name}: {exc}")

    allow = os.environ.get("WIF_LOAD_PLUGINS")
    if allow is not None:
        wanted = {p.strip() for p in allow.split(",") if p.strip()}
        found = {k: v for k, v in found.items() if k in wanted}
    return Discovery(found, errors)


_IMPORTING = threading.RLock()  # a plugin module is in sys.modules before it has run: one import at a time


def import_plugin(info: PluginInfo):
    """Import a plugin's module (fresh if it is not loaded yet).  Threads wait for each other: a
    server sets up several games at once, and another thread would see a half-run module (no
    HOOKSPECS yet)."""
    with _IMPORTING:
        return _import_plugin(info)


def _import_plugin(info: PluginInfo):
    loaded = sys.modules.get(info.module_name)
    if loaded is not None:
        where = getattr(loaded, "__file__", None)
        # Two folders may hold plugins of the same id (tests, a mod being developed):
        # reuse the loaded module only if it came from this plugin's folder.
        if where is None or Path(where).resolve().parent == info.folder.resolve():
            return loaded
        del sys.modules[info.module_name]
    if info.origin == "folder":
        init = info.folder / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            info.module_name, init, submodule_search_locations=[str(info.folder)]
        )
        if spec is None or spec.loader is None:
            raise PluginError(f"plugin {info.id!r}: cannot import {init}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[info.module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(info.module_name, None)
            raise
        return module
    return importlib.import_module(info.module_name)


def resolve(wanted: list[str], available: dict[str, PluginInfo]) -> list[PluginInfo]:
    """The plugins ``wanted`` need, dependencies first; refuses missing or conflicting ones."""
    order: list[PluginInfo] = []
    seen: set[str] = set()

    def visit(plugin_id: str, needed_by: str | None, trail: tuple[str, ...]) -> None:
        if plugin_id in seen:
            return
        if plugin_id in trail:
            raise PluginError(f"plugins require each other in a circle: {' -> '.join(trail + (plugin_id,))}")
        info = available.get(plugin_id)
        if info is None:
            who = f" (required by {needed_by!r})" if needed_by else ""
            raise PluginError(f"plugin {plugin_id!r} is not installed{who}")
        for dep in info.manifest.requires:
            visit(dep, plugin_id, trail + (plugin_id,))
        seen.add(plugin_id)
        order.append(info)

    for plugin_id in wanted:
        visit(plugin_id, None, ())
    ids = {p.id for p in order}
    for info in order:
        clash = ids & set(info.manifest.conflicts)
        if clash:
            raise PluginError(f"plugin {info.id!r} conflicts with {', '.join(sorted(clash))}")
    return order


# ---------------------------------------------------------------- the host
@dataclass
class CommandEntry:
    model: type[Command]
    handler: Callable
    anytime: bool
    plugin: str


@dataclass
class ChoicesEntry:
    choices: Callable | None
    preview: Callable | None
    plugin: str


@dataclass
class EventEntry:
    model: type[EventData]
    version: int
    plugin: str


@dataclass
class ScenarioSpec:
    """A scenario: who plays, which sequence tree, and the setup it emits."""

    id: str
    name: str
    sides: dict[str, list[str]]
    sequence: str
    setup: Callable | None = None  # setup(ctx) emits the starting position
    # The step play begins at (a full or root-relative id), e.g. a scenario that starts
    # mid-war skips the New Game stage's steps; a callable gets the game's options.
    start_at: str | Callable[[dict], str | None] | None = None
    description: str = ""
    plugin: str = ""


def _tracer(hook_name, hook_impls, kwargs):
    print(f"wif hook: {hook_name} -> {[i.plugin_name for i in hook_impls]}", file=sys.stderr)


class PluginHost:
    """One game's plugins and everything they registered."""

    def __init__(self, infos: list[PluginInfo], modules: dict[str, Any] | None = None,
                 guarded: set[str] | None = None):
        """``guarded``: the plugins whose reducers are checked at fold to write only their own
        sections (kernel/state.py guard_sections); WIF_CHECK_SECTIONS=1 guards them all."""
        from . import builtin

        self.infos = {info.id: info for info in infos}
        self.pm = pluggy.PluginManager("wif")
        self.pm.add_hookspecs(hookspecs)
        if os.environ.get("WIF_TRACE_PLUGINS"):
            self.pm.add_hookcall_monitoring(_tracer, lambda *a: None)
        self.pm.register(builtin, name=KERNEL_PLUGIN_ID)
        loaded = []
        for info in infos:
            if info.id == KERNEL_PLUGIN_ID:
                continue
            module = (modules or {}).get(info.id)
            if module is None:
                try:
                    module = import_plugin(info)
                except Exception as exc:
                    raise _blame(PluginError(f"plugin {info.id!r} failed to import: {_where(exc)}"), info.id) from exc
            loaded.append((info, module))
        # A plugin may publish hooks of its own (e.g. the combat plugin's modifier hooks that
        # optional rules implement): a ``HOOKSPECS`` module or class of @hookspec functions.
        # They are added before any plugin registers, so every implementation is checked.
        for info, module in loaded:
            specs = getattr(module, "HOOKSPECS", None)
            if specs is not None:
                try:
                    self.pm.add_hookspecs(specs)
                except (ValueError, pluggy.PluginValidationError) as exc:
                    raise _blame(PluginError(f"plugin {info.id!r} publishes bad hookspecs: {exc}"), info.id) from exc
        for info, module in loaded:
            try:
                self.pm.register(module, name=info.id)
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise _blame(PluginError(f"plugin {info.id!r} cannot be registered: {exc}"), info.id) from exc
        try:
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {exc.plugin_name if hasattr(exc, 'plugin_name') else ''}: {exc}") from exc

        self.state_models: dict[str, type[BaseModel]] = {}
        self.events: dict[str, EventEntry] = {}
        self.reducers: dict[str, tuple[Callable, str]] = {}
        self.upcasters: dict[tuple[str, int], Callable] = {}
        self.commands: dict[str, CommandEntry] = {}
        self.sequences: dict[str, tuple[StepSpec, str]] = {}
        self.scenarios: dict[str, ScenarioSpec] = {}
        self.step_rules: dict[str, tuple[Callable, str]] = {}
        self.choices: dict[str, ChoicesEntry] = {}
        self.section_owners: dict[str, str] = {KERNEL_SECTION: KERNEL_PLUGIN_ID}
        self._collect()
        if os.environ.get("WIF_CHECK_SECTIONS"):
            guarded = set(self.infos) | {KERNEL_PLUGIN_ID}
        for event_type, (fn, plugin) in list(self.reducers.items()):
            if plugin in (guarded or ()):
                self.reducers[event_type] = (guard_sections(fn, plugin, self.section_owners), plugin)

    # Call each implementation of a registration hook separately, so that whatever it
    # registers (and whatever goes wrong) is attributed to the right plugin.
    def _each(self, hook_name: str, make_register: Callable[[str], Callable]) -> None:
        hook = getattr(self.pm.hook, hook_name)
        for impl in reversed(hook.get_hookimpls()):
            plugin = impl.plugin_name
            try:
                impl.function(register=make_register(plugin))
            except PluginError:
                raise
            except Exception as exc:
                raise _blame(PluginError(f"plugin {plugin!r} raised in {hook_name}: {_where(exc)}"), plugin) from exc

    def _collect(self) -> None:
        def state(plugin):
            def register(name: str, model: type[BaseModel]) -> None:
                if name == KERNEL_SECTION:
                    raise PluginError(f"plugin {plugin!r}: state section {name!r} is the kernel's")
                if name in self.state_models:
                    raise PluginError(f"plugin {plugin!r}: state section {name!r} is registered twice")
                self.state_models[name] = model
                self.section_owners[name] = plugin

            return register

        def events(plugin):
            def register(model: type[EventData], version: int = 1) -> None:
                name = model.__name__
                if name in self.events:
                    raise PluginError(
                        f"plugin {plugin!r}: event type {name} is registered by {self.events[name].plugin!r} already"
                    )
                self.events[name] = EventEntry(model, version, plugin)

            return register

        def reducers(plugin):
            def register(event_type: str, fn: Callable) -> None:
                if event_type in self.reducers:
                    raise PluginError(
                        f"plugin {plugin!r}: {event_type} has a reducer from {self.reducers[event_type][1]!r} already"
                    )
                self.reducers[event_type] = (fn, plugin)

            return register

        def upcasters(plugin):
            def register(event_type: str, from_version: int, fn: Callable) -> None:
                self.upcasters[(event_type, from_version)] = fn

            return register

        def commands(plugin):
            def register(model: type[Command], handler: Callable, anytime: bool = False,
                         choices: Callable | None = None, preview: Callable | None = None) -> None:
                name = model.__name__
                if name in self.commands:
                    raise PluginError(
                        f"plugin {plugin!r}: command {name} is registered by {self.commands[name].plugin!r} already"
                    )
                self.commands[name] = CommandEntry(model, handler, anytime, plugin)
                if choices is not None or preview is not None:
                    self.choices[name] = ChoicesEntry(choices, preview, plugin)

            return register

        def choices(plugin):
            def register(command_type: str, choices: Callable | None = None, preview: Callable | None = None) -> None:
                if command_type in self.choices:
                    raise PluginError(f"plugin {plugin!r}: choices for {command_type} are given by "
                                      f"{self.choices[command_type].plugin!r} already")
                self.choices[command_type] = ChoicesEntry(choices, preview, plugin)

            return register

        def sequences(plugin):
            def register(name: str, tree: StepSpec) -> None:
                self.sequences[name] = (tree, plugin)

            return register

        def scenarios(plugin):
            def register(spec: ScenarioSpec) -> None:
                spec.plugin = plugin
                self.scenarios[spec.id] = spec

            return register

        def step_rules(plugin):
            def register(step_id: str, fn: Callable) -> None:
                self.step_rules[step_id] = (fn, plugin)

            return register

        self._each("register_state", state)
        self._each("register_events", events)
        self._each("register_reducers", reducers)
        self._each("register_upcasters", upcasters)
        self._each("register_commands", commands)
        self._each("register_choices", choices)
        self._each("register_sequences", sequences)
        self._each("register_scenarios", scenarios)
        self._each("register_step_rules", step_rules)
        for command_type, entry in self.choices.items():
            if command_type not in self.commands:
                raise PluginError(f"plugin {entry.plugin!r}: choices for {command_type}, which no plugin registers as a command")
        for event_type, (_, plugin) in self.reducers.items():
            if event_type not in self.events:
                raise PluginError(f"plugin {plugin!r}: reducer for {event_type}, which no plugin registers as an event")
            # a reducer writes only its plugin's sections, so it folds only its plugin's events
            owner = self.events[event_type].plugin
            if owner != plugin:
                raise _blame(PluginError(f"plugin {plugin!r}: reducer for {event_type}, an event of plugin {owner!r}; "
                                         f"a plugin reduces only the events it registers"), plugin)

    def plugin_set(self) -> dict[str, dict[str, str]]:
        """What a save records: the state-affecting plugins with versions and hashes."""
        from . import builtin

        out = {KERNEL_PLUGIN_ID: {"version": builtin.KERNEL_VERSION, "hash": kernel_hash(), "kind": "rules"}}
        for info in self.infos.values():
            if info.manifest.affects_state and info.id != KERNEL_PLUGIN_ID:
                out[info.id] = info.record()
        return out


def plugin_set_hash(plugin_set: dict[str, dict[str, str]]) -> str:
    h = hashlib.sha256()
    for plugin_id in sorted(plugin_set):
        h.update(f"{plugin_id}={plugin_set[plugin_id]['version']}:{plugin_set[plugin_id]['hash']};".encode())
    return h.hexdigest()[:16]


def _blame(error: PluginError, plugin_id: str) -> PluginError:
    error.plugin_id = plugin_id  # lets a read-only opener leave that plugin out
    return error


def _where(exc: BaseException) -> str:
    """'File x.py, line 12: SyntaxError: …': the place in a plugin's code that failed."""
    if isinstance(exc, SyntaxError):
        return f"{exc.filename}, line {exc.lineno}: SyntaxError: {exc.msg}"
    tb = exc.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is not None:
        return f"{last.tb_frame.f_code.co_filename}, line {last.tb_lineno}: {type(exc).__name__}: {exc}"
    return f"{type(exc).__name__}: {exc}"
