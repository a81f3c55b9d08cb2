"""Skirmish's board: counters, their events and the commands players send."""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.events import Command, EventData
from kernel.registry import Registry

# the scenario's registry (kernel.registry): __init__ adds its commands and exports it
rules = Registry()

COLS, ROWS = 10, 8


# ---------------------------------------------------------------- state
class Counter(BaseModel):
    power: str
    hex: tuple[int, int]
    strength: int


@rules.state("skirmish.board")
class Board(BaseModel):
    counters: dict[str, Counter] = Field(default_factory=dict)
    retreating: str | None = None  # a beaten counter that must retreat now
    first_side: str | None = None


def board(state) -> Board:
    return state["skirmish.board"]


def neighbours(col: int, row: int) -> list[tuple[int, int]]:
    odd = row % 2
    deltas = [(1, 0), (-1, 0), (odd, -1), (odd - 1, -1), (odd, 1), (odd - 1, 1)]
    out = [(col + dc, row + dr) for dc, dr in deltas]
    return [(c, r) for c, r in out if 0 <= c < COLS and 0 <= r < ROWS]


# ---------------------------------------------------------------- events
@rules.event
class CounterPlaced(EventData):
    counter: str
    power: str
    hex: tuple[int, int]
    strength: int


@rules.event
class CounterMoved(EventData):
    counter: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int]


@rules.event
class AttackResolved(EventData):
    attacker: str
    defender: str
    roll: int
    result: str  # "defender-retreats", "defender-eliminated", "attacker-weakened", "no-effect"


@rules.event
class CounterEliminated(EventData):
    counter: str


@rules.event
class CounterWeakened(EventData):
    counter: str
    strength: int


@rules.event
class CounterStrengthRestored(EventData):
    """A counter given strength back by a rule outside the skirmish (a mod's repairs): the
    board is the skirmish's section, so only this plugin's reducer writes it."""
    counter: str
    strength: int


@rules.event
class RetreatRequired(EventData):
    counter: str


@rules.event
class InitiativeWon(EventData):
    side: str


@rules.reducer("CounterPlaced")
def _placed(state, event):
    d = event.data
    board(state).counters[d["counter"]] = Counter(power=d["power"], hex=tuple(d["hex"]), strength=d["strength"])


@rules.reducer("CounterMoved")
def _moved(state, event):
    board(state).counters[event.data["counter"]].hex = tuple(event.data["to_hex"])
    if board(state).retreating == event.data["counter"]:
        board(state).retreating = None


@rules.reducer("CounterEliminated")
def _eliminated(state, event):
    b = board(state)
    b.counters.pop(event.data["counter"])
    if b.retreating == event.data["counter"]:
        b.retreating = None


@rules.reducer("CounterWeakened")
def _weakened(state, event):
    board(state).counters[event.data["counter"]].strength = event.data["strength"]


@rules.reducer("CounterStrengthRestored")
def _restored(state, event):
    board(state).counters[event.data["counter"]].strength = event.data["strength"]


@rules.reducer("RetreatRequired")
def _retreat_required(state, event):
    board(state).retreating = event.data["counter"]


@rules.reducer("InitiativeWon")
def _initiative(state, event):
    board(state).first_side = event.data["side"]


# ---------------------------------------------------------------- commands
class MoveCounter(Command):
    counter: str
    to: tuple[int, int]


class Attack(Command):
    attacker: str
    defender: str


class Retreat(Command):
    counter: str
    to: tuple[int, int]
