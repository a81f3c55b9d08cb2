"""The hooks a plugin may implement.  Each docstring is the hook's contract.

Registration hooks receive a ``register`` callback (the habit of datasette and llm) so one
plugin can contribute zero or many things; the kernel calls each implementation on its
own so it always knows which plugin registered what (errors then name the plugin).
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("wif")
hookimpl = pluggy.HookimplMarker("wif")


@hookspec
def register_state(register):
    """Contribute a section of game state: ``register(name, ModelClass)``.

    The model is a pydantic model with defaults for every field; reducers mutate it in
    place.  Section names are namespaced by convention (``"skirmish.board"``).
    """


@hookspec
def register_events(register):
    """Contribute event types: ``register(ModelClass, version=1)``.

    The event type's name is the class name (a past-tense fact: ``CounterMoved``).  Its
    ``data`` is validated against the model when appended and when verified.
    """


@hookspec
def register_reducers(register):
    """Contribute reducers: ``register("EventType", fn)`` with ``fn(state, event) -> None``.

    A reducer mutates ``state`` in place from ``event.data`` (a plain dict).  It must not
    do I/O, roll dice, read the clock or emit events.  One reducer per event type.
    """


@hookspec
def register_upcasters(register):
    """Contribute upcasters: ``register("EventType", from_version, fn)``, ``fn(data) -> data``.

    Called while reading an event stored with an older schema version, one version step
    at a time, before the reducer sees it.
    """


@hookspec
def register_commands(register):
    """Contribute commands: ``register(ModelClass, handler, anytime=False, choices=None, preview=None)``
    (``choices`` and ``preview`` as in ``register_choices``).

    The command type's name is the class name (an imperative: ``MoveCounter``); the
    model subclasses ``kernel.commands.Command``.  ``handler(ctx, command)`` raises
    ``Rejected(reason)`` before emitting anything if the command is illegal, otherwise
    emits events through ``ctx.emit`` and rolls dice through ``ctx.roll``.  A command is
    legal only in steps whose ``commands`` list names it, unless ``anytime`` is true.
    """


@hookspec
def register_choices(register):
    """Contribute what a decider may submit: ``register("CommandType", choices, preview=None)``.

    ``choices(state, actor, step_id)`` returns None when ``actor`` may not submit the
    command now, else the list of ``kernel.choices.Field`` it needs with their legal values
    (see kernel/choices.py).  Every command built from the offered values must be accepted
    by the command's handler: use the same rule functions the handler uses.
    ``preview(state, command)`` (the command model) returns a JSON-ready dict describing
    what the command would do (``path`` and ``cost`` of a move, ``odds`` and ``table`` of an
    attack, ``activities`` it would use) or raises ``Rejected`` with the handler's reason.
    The same functions may instead be given to ``register_commands`` as ``choices=`` and
    ``preview=``.
    """


@hookspec
def register_sequences(register):
    """Contribute sequence-of-play trees: ``register(name, StepSpec)``."""


@hookspec
def register_scenarios(register):
    """Contribute scenarios: ``register(ScenarioSpec)``."""


@hookspec
def register_step_rules(register):
    """Contribute the rule for automatic steps: ``register("full.step.id", fn)``.

    ``fn(ctx, step_id)`` runs when the engine enters that automatic step and emits the
    step's events.  An automatic step nobody registered is skipped with the recorded
    reason "no rule yet".
    """


@hookspec(firstresult=True)
def skip_step(state, step_id, spec):
    """Return a reason (str) to skip this step now, or None.  First answer wins."""


@hookspec(firstresult=True)
def repeat_step(ctx, step_id, spec):
    """A looping container has finished its last child: return True to run it again.

    May roll dice through ``ctx`` (e.g. an end-of-turn roll).  None or False ends the loop.
    """


@hookspec(firstresult=True)
def resolve_deciders(state, step_id, spec, kind):
    """Return the list of powers that must decide in a step whose decider is ``rule:<name>``."""


@hookspec
def player_view(state, player, view):
    """Filter what ``player`` may see: ``view`` is the JSON-ready state dict; mutate it."""


@hookspec
def event_view(event, player, view, state):
    """Filter an event as ``player`` may see it: mutate ``view`` (a dict); set
    ``view["hidden"] = True`` to withhold it entirely.  ``state`` is the game's current
    state (e.g. to tell which side the player is on)."""


@hookspec(firstresult=True)
def describe_event(event, state):
    """Return a one-line description a player understands, or None."""


# ---------------------------------------------------------------- front-end contributions
# Map views, screen layouts and map layers are plugins too (kinds "map-view", "layout",
# "ui"); they do not affect game state and are not recorded in saves.


@hookspec
def register_map_views(register):
    """Contribute named map views: ``register(view)`` with an ``app`` MapView model."""


@hookspec
def register_layouts(register):
    """Contribute screen layouts: ``register(layout)`` with an ``app`` ScreenLayout model."""


@hookspec
def register_map_layers(register):
    """Contribute map layers drawn by the renderer: ``register(layer)``."""


@hookspec
def event_hexes(event, state):
    """Return the map hexes an event touched (list of (col, row)), or None.

    The replay viewer highlights them and centres the map on them; ``state`` is the state
    just before the event."""


@hookspec
def step_ended(ctx, step_id, spec):
    """A leaf step is over (its done set finished, or its automatic rule ran).

    Runs while deciding, so it may emit events, roll dice or push a digression (e.g. an
    end-of-phase over-stacking check); a pushed digression runs before play moves on."""


@hookspec(firstresult=True)
def finish_step_refusal(state, step_id, power):
    """Return a reason (str) why ``power`` may not finish this step yet, or None."""


@hookspec(firstresult=True)
def unit_problem(unit):
    """Return why ``unit`` (a counter as a scenario, the lab or the rig writes it: a dict) is
    not one the loaded rules can play, naming it, or None.  The plugin that owns the counter's
    kind answers (the naval plugin its classes and factors), so a counter of an unknown class
    is refused where it is given, not met later as a missing table entry."""


# ---------------------------------------------------------------- what the game tells players and bots
@hookspec
def objective_hexes(state, power):
    """Return the hexes ``power`` wants to take or hold, as a list of (col, row), or None.

    Bots aim their moves at them; a scenario answers from its victory conditions."""


@hookspec(firstresult=True)
def game_result(state):
    """Return how the game ended, ``{"winner": side, "text": "...", "scores": {side: points}}``
    (``winner`` None for a draw; ``scores`` optional), or None while nobody has won.  The
    victory form and bot tallies read it."""
