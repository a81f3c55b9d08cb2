"""Who may move which unit now: the checks Land Movement and Rail Movement share (the unit,
the phasing side, the power's action and the activities it has left).  The handlers, the
choices and the previews all ask these, so what is offered is what is accepted."""

from __future__ import annotations

from kernel.errors import Rejected
from plugins.rules import core
from plugins.rules.turn import activities

from .events import land, this_impulse

LAND_MOVE = "land-move"  # activity kinds (turn.activities)
RAIL_MOVE = "rail-move"
# kind -> (seed section, phase step id, branches that move in it)
PHASES = {
    # Land Movement: "players on the phasing side that chose a Land or Combined action can
    # move their land units"
    LAND_MOVE: ("Land Movement", "land-movement", ("land",)),
    # Rail Movement: "players on the phasing side that did not choose a Pass or Naval action
    # can move their land and air units along rail lines"
    RAIL_MOVE: ("Rail Movement", "rail-movement", ("land", "air")),
}


def actor_powers(state, actor: str) -> list[str]:
    """The powers a command's actor answers for (a side's powers, or the power itself)."""
    return list(state.kernel.sides.get(actor, [actor]))


def power_problem(state, power: str, kind: str, count: int = 1) -> str | None:
    """Why ``power`` may not make ``count`` activities of ``kind`` now (its action does not
    allow the phase, or too few of them are left: Activity Limits), or None."""
    _phase, step, _ = PHASES[kind]
    return activities.action_problem(state, power, step) or activities.activity_problem(state, power, kind, count)


def unit_problem(state, actor: str, unit, kind: str) -> str | None:
    """Why ``actor`` may not move ``unit`` in this phase now, or None."""
    phase, _, movable = PHASES[kind]
    name = unit.name or unit.id
    if unit.branch not in movable:
        return f"{phase}: {name} is not a {' or '.join(movable)} unit"
    if not unit.on_map:
        return f"{phase}: {name} is not on the map ({unit.where})"
    k = state.kernel
    side = core.side_of(state, unit.power)
    if side != k.active_side:
        return (f"{phase}: only the phasing side's units move; {name} belongs to {unit.power} ({side}), "
                f"the phasing side is {k.active_side}")
    if unit.power not in actor_powers(state, actor):
        return f"{phase}: {actor} cannot move {unit.power}'s unit {name}"
    if not unit.face_up:
        return f"{phase}: {name} is disorganized (face-down) and cannot move"
    moved, now = land(state), this_impulse(state)
    if kind == LAND_MOVE:
        # Land Movement: "Each land unit that moves counts as a land move" (once an impulse)
        if moved.land_moved.get(unit.id) == now:
            return f"{phase}: {name} has already moved this impulse"
        if moved.rail_moved.get(unit.id) == now:
            return f"{phase}: {name} moved by rail this impulse"
    elif moved.rail_moved.get(unit.id) == now:
        return f"{phase}: {name} has already moved by rail this impulse"
    return power_problem(state, unit.power, kind)


def check_mover(state, actor: str, unit_id: str, kind: str):
    """The unit ``actor`` wants to move in this phase, or Rejected naming the rule."""
    unit = state["units"].units.get(unit_id)
    if unit is None:
        raise Rejected(f"{PHASES[kind][0]}: there is no unit {unit_id!r}")
    problem = unit_problem(state, actor, unit, kind)
    if problem:
        raise Rejected(problem)
    return unit


def movers(state, actor: str, kind: str) -> list | None:
    """The units ``actor`` may move in this phase now; None when none of its powers may act."""
    powers = [p for p in actor_powers(state, actor) if power_problem(state, p, kind) is None]
    if not powers:
        return None
    return [u for u in state["units"].units.values()
            if u.power in powers and unit_problem(state, actor, u, kind) is None]
