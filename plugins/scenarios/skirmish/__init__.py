"""Skirmish: the kernel's own small scenario, not World in Flames.

Three powers on two sides move counters on a 10 x 8 board (odd-r offset rows, no wrap),
attack adjacent enemies with a d10, and retreat when beaten.  It exists so every kernel
path (commands, dice, loops, a digression, per-player views, snapshots) runs end to end
before the real rules exist, and it drives the kernel benchmark.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec

from .actions import (
    attack,
    attack_choices,
    attack_preview,
    move_choices,
    move_counter,
    move_preview,
    retreat,
    retreat_choices,
)
from .board import (  # noqa: F401 - the scenario's public names
    COLS,
    ROWS,
    Attack,
    AttackResolved,
    Board,
    Counter,
    CounterEliminated,
    CounterMoved,
    CounterPlaced,
    CounterWeakened,
    InitiativeWon,
    MoveCounter,
    Retreat,
    RetreatRequired,
    board,
    neighbours,
    rules,
)

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


# ---------------------------------------------------------------- automatic steps
@rules.step_rule("skirmish.turn.initiative")
def initiative(ctx, step_id: str) -> None:
    west, east = ctx.roll("initiative west"), ctx.roll("initiative east")
    side = "west" if west[0] >= east[0] else "east"
    ctx.emit(InitiativeWon(side=side))
    ctx.set_active_side(side)


@rules.step_rule("skirmish.turn.impulse.end-of-impulse")
def end_of_impulse(ctx, step_id: str) -> None:
    other = "east" if ctx.state.kernel.active_side == "west" else "west"
    ctx.set_active_side(other)


def setup(ctx) -> None:
    for counter, power, hex_, strength in START:
        ctx.emit(CounterPlaced(counter=counter, power=power, hex=hex_, strength=strength))


# ---------------------------------------------------------------- hooks
rules.command(MoveCounter, choices=move_choices, preview=move_preview)(move_counter)
rules.command(Attack, choices=attack_choices, preview=attack_preview)(attack)
rules.command(Retreat, choices=retreat_choices)(retreat)


@hookimpl
def register_sequences(register):
    register("skirmish", SEQUENCE)


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


@rules.describe("CounterMoved")
def _say_moved(event, state):
    d = event.data
    return f"{event.actor}: {d['counter']} moves {tuple(d['from_hex'])} → {tuple(d['to_hex'])}"


@rules.describe("AttackResolved")
def _say_attack(event, state):
    d = event.data
    return f"{event.actor}: {d['attacker']} attacks {d['defender']}, roll {d['roll']} → {d['result']}"


@rules.describe("CounterPlaced")
def _say_placed(event, state):
    d = event.data
    return f"{d['power']}: {d['counter']} ({d['strength']}) placed at {tuple(d['hex'])}"


rules.export(globals())
