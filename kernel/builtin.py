"""The kernel's own plugin: game start, dice, the sequence engine's events, FinishStep.

These are generic to any game on this kernel; nothing here knows World War II.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from . import lab
from .errors import Rejected
from .events import Command, EventData
from .hookspecs import hookimpl

KERNEL_VERSION = "1.0.0"


# ---------------------------------------------------------------- events
class GameStarted(EventData):
    """The game's identity, under the chain from its first link (docs/FAIRPLAY.md): its id,
    how its dice are made (``seeded``: from ``seed``, replayable and not fair; ``host``: from
    a key kept outside the save, whose hash is ``dice_commitment``) and the players' public
    keys that sign every command."""

    scenario: str
    seed: int | None = None  # only in a seeded game: a fair game has no seed anywhere
    sides: dict[str, list[str]]
    controllers: dict[str, str]
    sequence: str
    options: dict[str, Any] = Field(default_factory=dict)
    lab: bool = False  # a lab game: rig commands and playback dice are allowed (kernel/lab.py)
    game_id: str = ""
    dice: str = "seeded"
    dice_commitment: str = ""
    # blinds the heads a player signs (kernel/fairplay.py signed_head); shown to no player
    head_salt: str = ""
    keys: dict[str, str] = Field(default_factory=dict)  # player -> Ed25519 public key (hex)


class DiceRolled(EventData):
    purpose: str
    faces: int
    results: list[int]


class StepStarted(EventData):
    step: str
    title: str = ""
    level: str = "step"
    deciders: list[str] = Field(default_factory=list)  # empty: an automatic step
    counter: str | None = None
    repeat: int = 0
    snapshot: bool = False


class StepSkipped(EventData):
    step: str
    title: str = ""
    reason: str


class DecisionFinished(EventData):
    step: str
    who: str  # the power or side that finished


class DigressionStarted(EventData):
    step: str
    resume: str | None
    waiting: bool


class DigressionEnded(EventData):
    step: str
    resume: str | None


class ActiveSideSet(EventData):
    side: str | None


class SequenceFinished(EventData):
    reason: str = ""


# ---------------------------------------------------------------- reducers
def _game_started(state, event):
    d = event.data
    k = state.kernel
    k.scenario, k.seed, k.sides, k.controllers = d["scenario"], d.get("seed") or 0, d["sides"], d["controllers"]
    k.sequence.tree = d["sequence"]
    k.options = d.get("options", {})
    k.lab = bool(d.get("lab"))


def _dice_rolled(state, event):
    k = state.kernel
    k.dice_rolled += len(event.data["results"])
    k.last_roll = event.data
    if k.dice_playback is not None:  # a lab game playing dice back: these results are used
        lab.dice_used(state, event)


def _step_started(state, event):
    d = event.data
    k = state.kernel
    seq = k.sequence
    seq.current = d["step"]
    seq.pending = list(d["deciders"])
    seq.done = []
    seq.waiting = bool(d["deciders"])
    k.step = d["step"]
    counter = d.get("counter")
    if counter == "turn":
        k.turn += 1
        k.impulse = 0
    elif counter == "impulse":
        k.impulse += 1
    if d.get("repeat"):
        seq.repeats[d["step"]] = d["repeat"]


def _step_skipped(state, event):
    seq = state.kernel.sequence
    seq.current = event.data["step"]
    seq.pending, seq.done, seq.waiting = [], [], False
    state.kernel.step = event.data["step"]


def _decision_finished(state, event):
    seq = state.kernel.sequence
    who = event.data["who"]
    seq.pending.remove(who)
    seq.done.append(who)
    if not seq.pending:
        seq.waiting = False


def _digression_started(state, event):
    from .state import DigressionFrame

    seq = state.kernel.sequence
    seq.stack.append(
        DigressionFrame(
            step=event.data["step"],
            resume=event.data["resume"],
            waiting=event.data["waiting"],
            pending=list(seq.pending),
            done=list(seq.done),
        )
    )
    seq.pending, seq.done, seq.waiting = [], [], False


def _digression_ended(state, event):
    seq = state.kernel.sequence
    frame = seq.stack.pop()
    seq.current = frame.resume
    seq.waiting = frame.waiting
    seq.pending, seq.done = frame.pending, frame.done
    state.kernel.step = frame.resume or ""


def _active_side_set(state, event):
    state.kernel.active_side = event.data["side"]


def _sequence_finished(state, event):
    seq = state.kernel.sequence
    seq.finished, seq.waiting, seq.pending = True, False, []


# ---------------------------------------------------------------- commands
class FinishStep(Command):
    """The actor has made all its decisions in the current step ("End of Phase")."""


def finish_step(ctx, command: FinishStep) -> None:
    seq = ctx.state.kernel.sequence
    ctx.decider_for(command.actor)  # refuses an actor with nothing to decide
    refusal = ctx.host.pm.hook.finish_step_refusal(state=ctx.state, step_id=seq.current, power=command.actor)
    if refusal:
        raise Rejected(refusal)
    ctx.finish_decision(command.actor)


@hookimpl
def register_events(register):
    for model in (
        GameStarted,
        DiceRolled,
        StepStarted,
        StepSkipped,
        DecisionFinished,
        DigressionStarted,
        DigressionEnded,
        ActiveSideSet,
        SequenceFinished,
        *lab.EVENTS,
    ):
        register(model)


@hookimpl
def register_reducers(register):
    register("GameStarted", _game_started)
    register("DiceRolled", _dice_rolled)
    register("StepStarted", _step_started)
    register("StepSkipped", _step_skipped)
    register("DecisionFinished", _decision_finished)
    register("DigressionStarted", _digression_started)
    register("DigressionEnded", _digression_ended)
    register("ActiveSideSet", _active_side_set)
    register("SequenceFinished", _sequence_finished)
    for event_type, fn in lab.REDUCERS.items():
        register(event_type, fn)


@hookimpl
def register_commands(register):
    # Legal in any step that waits for decisions; the engine checks the done set.
    register(FinishStep, finish_step, anytime=True)
    # The lab's rig: any step, lab games only (kernel/lab.py)
    for model, handler, choices, preview in lab.COMMANDS:
        register(model, handler, anytime=True, choices=choices, preview=preview)


@hookimpl
def describe_event(event, state):
    d = event.data
    t = event.type
    if t == "DiceRolled":
        return f"{event.actor}: rolled {d['results']} on d{d['faces']} for {d['purpose']}"
    if t == "StepStarted":
        who = f" ({', '.join(d['deciders'])} to decide)" if d["deciders"] else ""
        return f"{d.get('title') or d['step']} begins{who}"
    if t == "StepSkipped":
        return f"{d.get('title') or d['step']} skipped: {d['reason']}"
    if t == "DecisionFinished":
        return f"{d['who']} finished {d['step']}"
    if t == "GameStarted":
        dice = f"seed {d['seed']}, not fair" if d.get("seed") is not None else "fair dice"
        return f"New {'lab ' if d.get('lab') else ''}game of {d['scenario']} ({dice})"
    if t == "SequenceFinished":
        return f"The game is over{': ' + d['reason'] if d['reason'] else ''}"
    return lab.describe(event)

