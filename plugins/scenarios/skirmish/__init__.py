"""Skirmish: the kernel's own small scenario, not World in Flames.

Three powers on two sides move counters on a 10 x 8 board (odd-r offset rows, no wrap),
attack adjacent enemies with a d10, and retreat when beaten.  It exists so every kernel
path (commands, dice, loops, a digression, per-player views, snapshots) runs end to end
before the real rules exist, and it drives the kernel benchmark.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec

COLS, ROWS = 10, 8
SIDES = {"west": ["red"], "east": ["blue", "green"]}
START = [  # counter id, power, hex, strength
    ("r1", "red", (1, 3), 4), ("r2", "red", (1, 4), 3), ("r3", "red", (2, 5), 2),
    ("b1", "blue", (7, 2), 3), ("b2", "blue", (8, 3), 2),
    ("g1", "green", (7, 5), 3), ("g2", "green", (8, 6), 2),
]

SEQUENCE = StepSpec.model_validate({
    "id": "skirmish", "title": "Skirmish", "level": "root",
    "children": [
        {"id": "turn", "title": "Turn", "level": "stage", "repeat": True, "counter": "turn", "snapshot": True,
         "children": [
             {"id": "initiative", "title": "Initiative", "level": "phase"},
             {"id": "impulse", "title": "Impulse", "level": "stage", "repeat": True, "counter": "impulse",
              "snapshot": True, "children": [
                  {"id": "movement", "title": "Movement", "level": "phase", "decides": "each-active-power",
                   "commands": ["MoveCounter"]},
                  {"id": "combat", "title": "Combat", "level": "phase", "decides": "active-side",
                   "commands": ["Attack"]},
                  {"id": "end-of-impulse", "title": "End of Impulse", "level": "phase"},
              ]},
             {"id": "end-of-turn", "title": "End of Turn", "level": "phase",
              "note": "deliberately without a rule: shows the recorded 'no rule yet' skip"},
         ]},
        {"id": "digressions", "title": "Digressions", "level": "stage", "called": True, "children": [
            {"id": "retreat", "title": "Retreat", "level": "phase", "decides": "rule:defender",
             "commands": ["Retreat"]},
        ]},
    ],
})


# ---------------------------------------------------------------- state
class Counter(BaseModel):
    power: str
    hex: tuple[int, int]
    strength: int


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
class CounterPlaced(EventData):
    counter: str
    power: str
    hex: tuple[int, int]
    strength: int


class CounterMoved(EventData):
    counter: str
    from_hex: tuple[int, int]
    to_hex: tuple[int, int]


class AttackResolved(EventData):
    attacker: str
    defender: str
    roll: int
    result: str  # "defender-retreats", "defender-eliminated", "attacker-weakened", "no-effect"


class CounterEliminated(EventData):
    counter: str


class CounterWeakened(EventData):
    counter: str
    strength: int


class RetreatRequired(EventData):
    counter: str


class InitiativeWon(EventData):
    side: str


def _placed(state, event):
    d = event.data
    board(state).counters[d["counter"]] = Counter(power=d["power"], hex=tuple(d["hex"]), strength=d["strength"])


def _moved(state, event):
    board(state).counters[event.data["counter"]].hex = tuple(event.data["to_hex"])
    if board(state).retreating == event.data["counter"]:
        board(state).retreating = None


def _eliminated(state, event):
    b = board(state)
    b.counters.pop(event.data["counter"])
    if b.retreating == event.data["counter"]:
        b.retreating = None


def _weakened(state, event):
    board(state).counters[event.data["counter"]].strength = event.data["strength"]


def _retreat_required(state, event):
    board(state).retreating = event.data["counter"]


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


def _own_counter(ctx, actor: str, counter_id: str) -> Counter:
    counter = board(ctx.state).counters.get(counter_id)
    if counter is None:
        raise Rejected(f"there is no counter {counter_id!r} on the board")
    if counter.power != actor and ctx.state.kernel.side_of(counter.power) != actor:
        raise Rejected(f"counter {counter_id} belongs to {counter.power}, not {actor}")
    return counter


def _occupied(ctx, hex_) -> bool:
    return any(c.hex == hex_ for c in board(ctx.state).counters.values())


def move_counter(ctx, cmd: MoveCounter) -> None:
    counter = _own_counter(ctx, cmd.actor, cmd.counter)
    to = tuple(cmd.to)
    if to not in neighbours(*counter.hex):
        raise Rejected(f"{cmd.counter} at {counter.hex} can only move to an adjacent hex, not {to}")
    if _occupied(ctx, to):
        raise Rejected(f"hex {to} is occupied")
    ctx.emit(CounterMoved(counter=cmd.counter, from_hex=counter.hex, to_hex=to))


def attack(ctx, cmd: Attack) -> None:
    attacker = _own_counter(ctx, cmd.actor, cmd.attacker)
    defender = board(ctx.state).counters.get(cmd.defender)
    if defender is None:
        raise Rejected(f"there is no counter {cmd.defender!r} on the board")
    if ctx.state.kernel.side_of(defender.power) == ctx.state.kernel.side_of(attacker.power):
        raise Rejected(f"{cmd.defender} is on your own side")
    if defender.hex not in neighbours(*attacker.hex):
        raise Rejected(f"{cmd.defender} is not adjacent to {cmd.attacker}")
    (roll,) = ctx.roll(f"attack {cmd.attacker} on {cmd.defender}")
    total = roll + attacker.strength - defender.strength
    if total >= 9:
        result = "defender-eliminated"
    elif total >= 6:
        result = "defender-retreats"
    elif total <= 2:
        result = "attacker-weakened"
    else:
        result = "no-effect"
    ctx.emit(AttackResolved(attacker=cmd.attacker, defender=cmd.defender, roll=roll, result=result))
    if result == "defender-eliminated":
        ctx.emit(CounterEliminated(counter=cmd.defender))
    elif result == "attacker-weakened":
        if attacker.strength <= 1:
            ctx.emit(CounterEliminated(counter=cmd.attacker))
        else:
            ctx.emit(CounterWeakened(counter=cmd.attacker, strength=attacker.strength - 1))
    elif result == "defender-retreats":
        free = [h for h in neighbours(*defender.hex) if not _occupied(ctx, h)]
        if not free:
            ctx.emit(CounterEliminated(counter=cmd.defender))
        else:
            ctx.emit(RetreatRequired(counter=cmd.defender), actor="system")
            ctx.push("digressions.retreat")  # the defender decides where, then combat goes on


def retreat(ctx, cmd: Retreat) -> None:
    b = board(ctx.state)
    if b.retreating != cmd.counter:
        raise Rejected(f"{cmd.counter} does not have to retreat")
    counter = _own_counter(ctx, cmd.actor, cmd.counter)
    to = tuple(cmd.to)
    if to not in neighbours(*counter.hex) or _occupied(ctx, to):
        raise Rejected(f"{cmd.counter} cannot retreat to {to}: it must be a free adjacent hex")
    ctx.emit(CounterMoved(counter=cmd.counter, from_hex=counter.hex, to_hex=to))
    ctx.emit(DecisionFinishedFor(ctx, cmd.actor))
    ctx.advance()


def DecisionFinishedFor(ctx, actor):  # noqa: N802 - reads as the event it builds
    from kernel.builtin import DecisionFinished

    return DecisionFinished(step=ctx.state.kernel.sequence.current or "", who=ctx.decider_for(actor))


# ---------------------------------------------------------------- automatic steps
def initiative(ctx, step_id: str) -> None:
    west, east = ctx.roll("initiative west"), ctx.roll("initiative east")
    side = "west" if west[0] >= east[0] else "east"
    ctx.emit(InitiativeWon(side=side))
    ctx.set_active_side(side)


def end_of_impulse(ctx, step_id: str) -> None:
    other = "east" if ctx.state.kernel.active_side == "west" else "west"
    ctx.set_active_side(other)


def setup(ctx) -> None:
    for counter, power, hex_, strength in START:
        ctx.emit(CounterPlaced(counter=counter, power=power, hex=hex_, strength=strength))


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("skirmish.board", Board)


@hookimpl
def register_events(register):
    for model in (CounterPlaced, CounterMoved, AttackResolved, CounterEliminated, CounterWeakened,
                  RetreatRequired, InitiativeWon):
        register(model)


@hookimpl
def register_reducers(register):
    register("CounterPlaced", _placed)
    register("CounterMoved", _moved)
    register("CounterEliminated", _eliminated)
    register("CounterWeakened", _weakened)
    register("RetreatRequired", _retreat_required)
    register("InitiativeWon", _initiative)


@hookimpl
def register_commands(register):
    register(MoveCounter, move_counter)
    register(Attack, attack)
    register(Retreat, retreat)


@hookimpl
def register_sequences(register):
    register("skirmish", SEQUENCE)


@hookimpl
def register_step_rules(register):
    register("skirmish.turn.initiative", initiative)
    register("skirmish.turn.impulse.end-of-impulse", end_of_impulse)


@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="skirmish", name="Skirmish", sides=SIDES, sequence="skirmish", setup=setup,
                          description="Kernel test scenario: two sides, three powers, a 10 x 8 board."))


@hookimpl
def repeat_step(ctx, step_id, spec):
    if not step_id.startswith("skirmish."):
        return None
    k = ctx.state.kernel
    if step_id == "skirmish.turn.impulse":
        return k.impulse < int(k.options.get("impulses", 2))
    if step_id == "skirmish.turn":
        return k.turn < int(k.options.get("turns", 3))
    return None


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind == "rule:defender" and step_id.startswith("skirmish."):
        retreating = board(state).retreating
        return [board(state).counters[retreating].power] if retreating else []
    return None


@hookimpl
def player_view(state, player, view):
    """Fog of war: a player sees the strength of enemy counters only when adjacent to one of his."""
    if "skirmish.board" not in view["sections"]:
        return
    mine = {p for p, who in state.kernel.controllers.items() if who == player}
    counters = view["sections"]["skirmish.board"]["counters"]
    own_hexes = [tuple(c["hex"]) for c in counters.values() if c["power"] in mine]
    for counter in counters.values():
        if counter["power"] in mine:
            continue
        near = any(tuple(counter["hex"]) in neighbours(*h) for h in own_hexes)
        if not near:
            counter["strength"] = None


@hookimpl
def describe_event(event, state):
    d = event.data
    if event.type == "CounterMoved":
        return f"{event.actor}: {d['counter']} moves {tuple(d['from_hex'])} → {tuple(d['to_hex'])}"
    if event.type == "AttackResolved":
        return f"{event.actor}: {d['attacker']} attacks {d['defender']}, roll {d['roll']} → {d['result']}"
    if event.type == "CounterPlaced":
        return f"{d['power']}: {d['counter']} ({d['strength']}) placed at {tuple(d['hex'])}"
    return None
