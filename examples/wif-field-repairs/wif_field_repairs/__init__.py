"""Field repairs: an example optional rule shipped as a pip package.

It adds one command (RepairCounter) and one event (CounterRepaired, kept in its own
section).  The counter's new strength is the skirmish's own CounterStrengthRestored event: a
reducer writes only its own plugin's sections, so the board is changed by the board's owner.  The command is
registered for every game that loads the plugin, but it is refused while the rule is OFF:
the framework's ``is_on`` reads the rules ON from the event log, so switching the rule
during play (ToggleOptionalRule) takes effect at once and replays the same way.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on
from plugins.scenarios.skirmish.board import CounterStrengthRestored

RULE_ID = "field-repairs"
SECTION = "field-repairs.used"
REPAIR_POINTS = 1
FULL_STRENGTH = 4


class RepairsUsed(BaseModel):
    # counter id -> "turn.impulse" of its last repair (one repair per counter per impulse)
    last: dict[str, str] = Field(default_factory=dict)


class CounterRepaired(EventData):
    counter: str
    strength: int
    impulse: str


class RepairCounter(Command):
    counter: str


def repair_counter(ctx, cmd: RepairCounter) -> None:
    state = ctx.state
    if not is_on(state, RULE_ID):
        raise Rejected("Field repairs is OFF in this game (switch it on with ToggleOptionalRule)")
    k = state.kernel
    if not (k.sequence.current or "").endswith(".movement") or cmd.actor not in k.sequence.pending:
        raise Rejected("Field repairs: a power repairs in its own movement step only")
    counter = state["skirmish.board"].counters.get(cmd.counter)
    if counter is None or counter.power != cmd.actor:
        raise Rejected(f"Field repairs: {cmd.actor} has no counter {cmd.counter!r}")
    impulse = f"{k.turn}.{k.impulse}"
    if state[SECTION].last.get(cmd.counter) == impulse:
        raise Rejected(f"Field repairs: {cmd.counter} was repaired this impulse already")
    if counter.strength >= FULL_STRENGTH:
        raise Rejected(f"Field repairs: {cmd.counter} is at full strength ({counter.strength})")
    strength = min(FULL_STRENGTH, counter.strength + REPAIR_POINTS)
    ctx.emit(CounterRepaired(counter=cmd.counter, strength=strength, impulse=impulse))
    ctx.emit(CounterStrengthRestored(counter=cmd.counter, strength=strength))


def _repaired(state, event) -> None:
    state[SECTION].last[event.data["counter"]] = event.data["impulse"]


@hookimpl
def register_state(register):
    register(SECTION, RepairsUsed)


@hookimpl
def register_events(register):
    register(CounterRepaired)


@hookimpl
def register_reducers(register):
    register("CounterRepaired", _repaired)


@hookimpl
def register_commands(register):
    # anytime: the movement step's command list belongs to the scenario; the handler checks the step.
    register(RepairCounter, repair_counter, anytime=True)


@hookimpl
def describe_event(event, state):
    if event.type == "CounterRepaired":
        return f"{event.actor}: field repairs bring {event.data['counter']} to strength {event.data['strength']}"
    return None
