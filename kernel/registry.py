"""Declarative registration: a plugin lists what it contributes with decorators, not with a
``register_*`` hookimpl per kind and if-chains on event type strings.

    rules = Registry()

    @rules.state("units")
    class Units(BaseModel): ...

    @rules.event
    class UnitMoved(EventData): ...

    @rules.reducer("UnitMoved")
    def _moved(state, event): ...

    @rules.command(MoveUnit, choices=move_choices, preview=move_preview)
    def move_unit(ctx, cmd): ...

    @rules.step_rule("wif.turn.end.reorganize")
    def reorganize(ctx, step_id): ...

    @rules.describe("UnitMoved")
    def _say_moved(event, state): ...

    rules.export(globals())   # at the end of the module: the hookimpls pluggy finds

``export`` defines the ``register_*``, ``describe_event`` and ``event_hexes`` hookimpls in the
module, each answering from the tables above (a describer or hex finder is looked up by the
event's type, so a plugin's describe_event is one dict look-up).  A plugin may still write a
hookimpl by hand for anything else; it must not also export one of the same name.
"""

from __future__ import annotations

from typing import Any, Callable

from .hookspecs import hookimpl


class Registry:
    def __init__(self) -> None:
        self.states: list[tuple[str, type]] = []
        self.events: list[tuple[type, int]] = []
        self.reducers: dict[str, Callable] = {}
        self.upcasters: list[tuple[str, int, Callable]] = []
        self.commands: list[tuple[type, Callable, dict[str, Any]]] = []
        self.step_rules: dict[str, Callable] = {}
        self.describers: dict[str, Callable] = {}
        self.hex_finders: dict[str, Callable] = {}

    # ------------------------------------------------------------ decorators
    def state(self, name: str):
        def deco(model):
            self.states.append((name, model))
            return model
        return deco

    def event(self, model=None, *, version: int = 1):
        def deco(cls):
            self.events.append((cls, version))
            return cls
        return deco(model) if model is not None else deco

    def reducer(self, *event_types: str):
        def deco(fn):
            for t in event_types:
                self.reducers[t] = fn
            return fn
        return deco

    def upcaster(self, event_type: str, from_version: int):
        def deco(fn):
            self.upcasters.append((event_type, from_version, fn))
            return fn
        return deco

    def command(self, model, *, anytime: bool = False, choices: Callable | None = None,
                preview: Callable | None = None):
        def deco(handler):
            self.commands.append((model, handler, {"anytime": anytime, "choices": choices, "preview": preview}))
            return handler
        return deco

    def step_rule(self, *step_ids: str):
        def deco(fn):
            for s in step_ids:
                self.step_rules[s] = fn
            return fn
        return deco

    def describe(self, *event_types: str):
        def deco(fn):
            for t in event_types:
                self.describers[t] = fn
            return fn
        return deco

    def hexes(self, *event_types: str):
        def deco(fn):
            for t in event_types:
                self.hex_finders[t] = fn
            return fn
        return deco

    # ------------------------------------------------------------ the hookimpls
    def export(self, namespace: dict) -> None:
        """Define in ``namespace`` (a plugin module's globals) the hookimpls answering from
        this registry; only those for kinds something was registered for."""
        reg = self

        def register_state(register):
            for name, model in reg.states:
                register(name, model)

        def register_events(register):
            for model, version in reg.events:
                register(model, version=version)

        def register_reducers(register):
            for event_type, fn in reg.reducers.items():
                register(event_type, fn)

        def register_upcasters(register):
            for event_type, version, fn in reg.upcasters:
                register(event_type, version, fn)

        def register_commands(register):
            for model, handler, options in reg.commands:
                register(model, handler, **options)

        def register_step_rules(register):
            for step_id, fn in reg.step_rules.items():
                register(step_id, fn)

        def describe_event(event, state):
            fn = reg.describers.get(event.type)
            return fn(event, state) if fn is not None else None

        def event_hexes(event, state):
            fn = reg.hex_finders.get(event.type)
            return fn(event, state) if fn is not None else None

        wanted = {
            "register_state": reg.states, "register_events": reg.events, "register_reducers": reg.reducers,
            "register_upcasters": reg.upcasters, "register_commands": reg.commands,
            "register_step_rules": reg.step_rules, "describe_event": reg.describers, "event_hexes": reg.hex_finders,
        }
        local = locals()
        for name, table in wanted.items():
            if not table:
                continue
            if name in namespace:
                raise ValueError(f"{namespace.get('__name__', 'plugin')}: {name} is written by hand and exported by "
                                 "its Registry too; keep one")
            namespace[name] = hookimpl(local[name])
