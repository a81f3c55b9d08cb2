"""The per-game plugin host: a pluggy manager holding exactly the plugins a game was created
with, plus the registries their hooks filled (events, reducers, commands, choices, steps,
sequences, scenarios, state sections).  Finding plugins and reading their manifests is
kernel/plugin_discovery.py, whose names are also reachable from here.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from typing import Any, Callable

import pluggy
from pydantic import BaseModel

from . import hookspecs
from .errors import PluginError
from .events import Command, EventData
from .plugin_discovery import (  # noqa: F401  (the names callers import from kernel.plugins)
    BUILTIN_ROOT,
    ENTRY_POINT_GROUP,
    KERNEL_PLUGIN_ID,
    Discovery,
    Kind,
    Manifest,
    PluginInfo,
    content_hash,
    discover,
    extra_plugin_dirs,
    import_plugin,
    kernel_hash,
    load_manifest,
    resolve,
)
from .sequence import StepSpec
from .state import KERNEL_SECTION, guard_sections


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
