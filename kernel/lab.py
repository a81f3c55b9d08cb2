"""The lab: a game started with ``Game.new(..., lab=True)`` may be rigged.

A lab game says so in its first event (``GameStarted.lab``, so the hash chain covers it and
``wif verify`` reports it).  In a lab game the *rig commands* build any situation: they are
ordinary commands (in the log, with events and reducers, offered by ``Game.choices`` and
previewed), allowed in any step, and refused in a normal game by ``lab_refusal``.  The
kernel's own rig commands are generic: ``RigDice`` (play back a list of dice results),
``RigStep`` (go to any step of the sequence, optionally setting the turn, impulse and
active side) and ``RigEvent`` (record any plugin's event as given, for a situation no other
rig command builds).  Game-specific rig commands live in plugins (plugins/rules/rig).

The dice seam: every die of the game is drawn by ``Context.roll`` from a *dice source*.
``SeededDice`` is the ordinary source; ``PlaybackDice`` plays back the list a lab game's
``RigDice`` gave, in order, and is an error when the list runs out.  A later source (dice
from a key no player holds) is one more class with the same ``draw``.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from pydantic import Field, ValidationError

from .errors import Rejected, WifError
from .events import Command, EventData


class PlaybackDiceError(WifError):
    """A lab game's played-back dice cannot give the roll asked for."""


def lab_refusal(state, command: str) -> str | None:
    """Why ``command`` (a rig command) is refused now: only a lab game may be rigged."""
    if state.kernel.lab:
        return None
    return (f"{command}: the rig builds situations in lab games only, and this game of "
            f"{state.kernel.scenario or 'this scenario'} is a normal game (start a lab game with "
            "Game.new(..., lab=True))")


def rig_offered_to(state, actor: str) -> bool:
    """A rig command acts on the whole game whoever submits it, so ``Game.choices`` offers it
    once per player: to the first power (in the game's order) the actor's player controls.
    Any power may still submit it."""
    k = state.kernel
    player = k.controllers.get(actor)
    return next((p for p in k.powers() if k.controllers.get(p) == player), actor) == actor


# ---------------------------------------------------------------- dice sources
class DiceSource(Protocol):
    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        """``count`` results of dice of ``faces`` sides for ``purpose``."""


class SeededDice:
    """The ordinary dice: a generator seeded per game and per position in the log, so the
    same command at the same point rolls the same (``--seed`` games; see DESIGN "Dice")."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        return [self.rng.randint(1, faces) for _ in range(count)]


class PlaybackDice:
    """A lab game's dice: the results ``RigDice`` gave, in order.  Reads the list from the
    state; the ``DiceRolled`` reducer takes the used results off it, so replay agrees.  When
    the list runs out: an error, or (``RigDice.then_ordinary``) the ``ordinary`` source."""

    def __init__(self, state, ordinary: DiceSource):
        self.state = state
        self.ordinary = ordinary

    def draw(self, purpose: str, faces: int, count: int) -> list[int]:
        k = self.state.kernel
        left = k.dice_playback or []
        if len(left) < count and k.dice_then_ordinary:
            played = self._checked(list(left), purpose, faces)
            return played + self.ordinary.draw(purpose, faces, count - len(played))
        if len(left) < count:
            raise PlaybackDiceError(
                f"Playback dice (RigDice) ran out: the roll for {purpose!r} needs {count} d{faces}, "
                f"{len(left)} result{'' if len(left) == 1 else 's'} left ({left}); give more with RigDice")
        return self._checked(list(left[:count]), purpose, faces)

    @staticmethod
    def _checked(results: list[int], purpose: str, faces: int) -> list[int]:
        for r in results:
            if not 1 <= r <= faces:
                raise PlaybackDiceError(f"Playback dice (RigDice): the next result, {r}, cannot be rolled on "
                                        f"a d{faces} (the roll for {purpose!r})")
        return results


def playback_source(state, ordinary: DiceSource) -> PlaybackDice | None:
    """The playback source when this is a lab game whose rig gave dice, else None."""
    k = state.kernel
    return PlaybackDice(state, ordinary) if k.lab and k.dice_playback is not None else None


# ---------------------------------------------------------------- events
class DicePlaybackSet(EventData):
    """From now on the dice are these results in order (None: the game's ordinary dice);
    ``then_ordinary``: once they are used up, the ordinary dice again (else an error)."""

    results: list[int] | None
    then_ordinary: bool = False


class StepRigged(EventData):
    """The rig moved the game to ``step`` (any open digression is dropped)."""

    step: str
    turn: int | None = None
    impulse: int | None = None


def _dice_playback_set(state, event):
    results = event.data["results"]
    state.kernel.dice_playback = list(results) if results is not None else None
    state.kernel.dice_then_ordinary = bool(event.data.get("then_ordinary")) and results is not None


def dice_used(state, event) -> None:
    """The DiceRolled reducer's part: results played back are taken off the list."""
    k = state.kernel
    if k.dice_playback:
        del k.dice_playback[:len(event.data["results"])]
    if k.dice_then_ordinary and not k.dice_playback:
        k.dice_playback, k.dice_then_ordinary = None, False


def _step_rigged(state, event):
    d = event.data
    k = state.kernel
    seq = k.sequence
    seq.stack.clear()
    seq.finished, seq.waiting, seq.pending, seq.done = False, False, [], []
    if d.get("turn") is not None:
        k.turn = d["turn"]
    if d.get("impulse") is not None:
        k.impulse = d["impulse"]


# ---------------------------------------------------------------- commands
class RigDice(Command):
    """Lab: the next dice are ``results`` in order (an error names the roll when they run
    out, unless ``then_ordinary``: then the game's ordinary dice follow); ``results`` null
    goes back to the game's ordinary dice."""

    results: list[int] | None = Field(default_factory=list)
    then_ordinary: bool = False


class RigStep(Command):
    """Lab: go to ``step`` (full id, or without the sequence's root) and run from there;
    ``turn``, ``impulse`` and ``active_side`` are set first when given."""

    step: str
    turn: int | None = None
    impulse: int | None = None
    active_side: str | None = None


def why_not_rig_dice(state, results) -> str | None:
    refusal = lab_refusal(state, "RigDice")
    if refusal:
        return refusal
    bad = [r for r in results or [] if r < 1]
    return f"RigDice: dice results are 1 or more, not {bad[0]}" if bad else None


def rig_dice(ctx, cmd: RigDice) -> None:
    refusal = why_not_rig_dice(ctx.state, cmd.results)
    if refusal:
        raise Rejected(refusal)
    ctx.emit(DicePlaybackSet(results=cmd.results, then_ordinary=cmd.then_ordinary))


def rig_dice_choices(state, actor, step_id):
    from .choices import Field as ChoiceField, Option

    if lab_refusal(state, "RigDice") or not rig_offered_to(state, actor):
        return None
    # The list itself is typed in by whoever rigs (tests, a modder's script); what can be
    # offered is an empty playback list (every roll is then an error until more are given)
    # or the game's ordinary dice.
    return [ChoiceField("results", "option", [Option([], "play back: no results yet (any roll is an error)"),
                                              Option(None, "the game's ordinary dice")])]


def rig_dice_preview(state, cmd: RigDice):
    refusal = why_not_rig_dice(state, cmd.results)
    if refusal:
        raise Rejected(refusal)
    if cmd.results is None:
        return {"dice": "the game's ordinary dice"}
    return {"dice": list(cmd.results), "left_before": state.kernel.dice_playback}


def why_not_rig_step(state, index, cmd: RigStep) -> str | None:
    refusal = lab_refusal(state, "RigStep")
    if refusal:
        return refusal
    if index is None:
        return "RigStep: this game has no sequence of play"
    try:
        index.resolve(cmd.step)
    except WifError as exc:
        return f"RigStep: {exc}"
    for name in ("turn", "impulse"):
        value = getattr(cmd, name)
        if value is not None and value < 0:
            return f"RigStep: {name} {value} is below 0"
    if cmd.active_side is not None and cmd.active_side not in state.kernel.sides:
        return f"RigStep: no side {cmd.active_side!r} in this game ({', '.join(state.kernel.sides)})"
    return None


def rig_step(ctx, cmd: RigStep) -> None:
    refusal = why_not_rig_step(ctx.state, ctx.index, cmd)
    if refusal:
        raise Rejected(refusal)
    full = ctx.index.resolve(cmd.step)
    if cmd.active_side is not None:
        ctx.set_active_side(cmd.active_side)
    ctx.emit(StepRigged(step=full, turn=cmd.turn, impulse=cmd.impulse))
    ctx.enter(full)


_INDEXES: dict[int, tuple] = {}  # id(root) -> (root, SequenceIndex, flow leaves): built once per tree


def _indexed(state, host):
    """The game's sequence index and the leaves of its flow, or (None, [])."""
    from .engine import SequenceIndex

    tree = host.sequences.get(state.kernel.sequence.tree)
    if not tree:
        return None, []
    root = tree[0]
    found = _INDEXES.get(id(root))
    if found is None or found[0] is not root:
        index = SequenceIndex(root)
        found = _INDEXES[id(root)] = (root, index, [s for s in index.leaves() if _in_flow(index, s)])
    return found[1], found[2]


def _index(state, host):
    return _indexed(state, host)[0]


def rig_step_choices(state, actor, step_id, host):
    from .choices import one_of

    if lab_refusal(state, "RigStep") or not rig_offered_to(state, actor):
        return None
    # the steps of the flow (not the inside of called procedures, which are pushed by rules)
    index, flow = _indexed(state, host)
    if index is None:
        return None
    return [one_of("step", "option", flow, label=lambda s: index.specs[s].title or s)]


def _in_flow(index, step: str) -> bool:
    while step is not None:
        parent = index.parent.get(step)
        if parent is not None and step not in index.flow_children[parent]:
            return False
        step = parent
    return True


def rig_step_preview(state, cmd: RigStep, host):
    index = _index(state, host)
    refusal = why_not_rig_step(state, index, cmd)
    if refusal:
        raise Rejected(refusal)
    full = index.resolve(cmd.step)
    return {"step": full, "title": index.specs[full].title, "turn": cmd.turn, "impulse": cmd.impulse}


class RigEvent(Command):
    """Lab: record ``event`` (an event type a plugin of the game registers) with ``data``, as
    it is: its reducer folds it like any other.  For situations no other rig command builds
    (an air mission's ground support, a grant of supply); the kernel's own events (the
    sequence of play, the dice) are rigged with RigStep and RigDice instead."""

    event: str
    data: dict[str, Any] = Field(default_factory=dict)


def why_not_rig_event(state, host, cmd: RigEvent) -> str | None:
    refusal = lab_refusal(state, "RigEvent")
    if refusal:
        return refusal
    entry = host.events.get(cmd.event)
    if entry is None:
        return f"RigEvent: no plugin of this game registers an event {cmd.event!r}"
    if entry.plugin == "kernel":
        return f"RigEvent: {cmd.event} is the kernel's own event (the sequence of play, the dice): use RigStep or RigDice"
    try:
        entry.model.model_validate(cmd.data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'data'}: {e['msg']}" for e in exc.errors())
        return f"RigEvent: {cmd.event} data does not fit its model: {problems}"
    return None


def rig_event(ctx, cmd: RigEvent) -> None:
    refusal = why_not_rig_event(ctx.state, ctx.host, cmd)
    if refusal:
        raise Rejected(refusal)
    ctx.emit(ctx.host.events[cmd.event].model.model_validate(cmd.data))


def rig_event_choices(state, actor, step_id, host):
    from .choices import one_of

    if lab_refusal(state, "RigEvent") or not rig_offered_to(state, actor):
        return None
    # what can be offered without typing data in: the plugins' events that need none
    bare = sorted(t for t, e in host.events.items()
                  if e.plugin != "kernel" and why_not_rig_event(state, host, RigEvent(actor=actor, event=t)) is None)
    return [one_of("event", "option", bare)] if bare else None


def rig_event_preview(state, cmd: RigEvent, host):
    refusal = why_not_rig_event(state, host, cmd)
    if refusal:
        raise Rejected(refusal)
    return {"event": cmd.event, "plugin": host.events[cmd.event].plugin, "data": cmd.data}


EVENTS = (DicePlaybackSet, StepRigged)
REDUCERS = {"DicePlaybackSet": _dice_playback_set, "StepRigged": _step_rigged}
COMMANDS = ((RigDice, rig_dice, rig_dice_choices, rig_dice_preview),
            (RigStep, rig_step, rig_step_choices, rig_step_preview),
            (RigEvent, rig_event, rig_event_choices, rig_event_preview))


def describe(event) -> str | None:
    d = event.data
    if event.type == "DicePlaybackSet":
        if d["results"] is None:
            return "Lab: the dice are the game's ordinary dice again"
        then = ", then the ordinary dice" if d.get("then_ordinary") else ""
        return f"Lab: the next dice are {d['results']}{then}"
    if event.type == "StepRigged":
        when = "".join(f", {k} {d[k]}" for k in ("turn", "impulse") if d.get(k) is not None)
        return f"Lab: the game goes to {d['step']}{when}"
    return None
