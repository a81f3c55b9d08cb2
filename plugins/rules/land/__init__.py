"""Land movement: moving land units hex by hex and by rail, zones of control, stacking,
overruns of air and naval units, hex control changes and captured facilities.

Seed sections: "Land Movement", "Rail Movement", "Over-Stacked Hex", "Weather Report"
(effects on terrain and movement), "Captured Facilities", "Rebase Overrun Units
Digression", "Correct Overstacking Digression".  The pure questions (reachable hexes, path
costs, ZOCs, stacking) are in ``movement``; this module holds the commands and events.

Public functions other plugins use (import them lazily):
    reachable(state, unit_id) -> {(col, row): (cost, previous hex)}
    path_cost(state, unit_id, path) -> int          (Rejected naming the rule if illegal)
    stacking_problems(state, hex, adding=(), leaving=()) -> [reason, ...]
    overstacked_hexes(state) -> {hex: [reason, ...]}
    zoc_hexes(state, side) -> {hex, ...}
    check_overstacking(ctx) -> bool                  (pushes the Correct Overstacking digression)
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.builtin import DecisionFinished
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.rules import core
from plugins.rules.units import UnitMoved

from .movement import (  # noqa: F401  (re-exported: the plugin's public functions)
    LAND_LIMIT_TEXT,
    NO_CONTROL_TYPES,
    MoveRules,
    cheapest_path,
    enemy_zoc,
    land_stack_ok,
    movement_allowance,
    norm,
    overstacked_branches,
    overstacked_hexes,
    path_cost,
    rail_moves_for,
    rail_path_check,
    rail_path_to,
    reachable,
    stacking_problems,
    zoc_hexes,
)

Hex = tuple[int, int]
LAND_MOVE = "land-move"  # core ActivityUsed kinds
RAIL_MOVE = "rail-move"
REBASE_DIGRESSION = "digressions.rebase-overrun-units"
OVERSTACK_DIGRESSION = "digressions.correct-overstacking"


# ---------------------------------------------------------------- state
class LandState(BaseModel):
    # unit id -> "turn.impulse" of its last land move / rail move (one of each per impulse)
    land_moved: dict[str, str] = Field(default_factory=dict)
    rail_moved: dict[str, str] = Field(default_factory=dict)
    # "col,row" -> air/naval unit ids overrun there, until they leave the hex
    overrun: dict[str, list[str]] = Field(default_factory=dict)
    # "col,row" -> facilities captured there (Captured Facilities)
    captured: dict[str, list[str]] = Field(default_factory=dict)


def land(state) -> LandState:
    return state["land"]


def _now(state) -> str:
    return f"{state.kernel.turn}.{state.kernel.impulse}"


# ---------------------------------------------------------------- events
class LandUnitMoved(EventData):
    unit: str
    power: str
    from_hex: Hex
    path: list[Hex]  # hexes entered, in order
    cost: int  # movement points spent


class UnitRailMoved(EventData):
    unit: str
    power: str
    from_hex: Hex
    path: list[Hex]
    rail_moves: int


class LandUnitsOverrun(EventData):
    """Enemy land units destroyed by an overrun during land movement."""

    hex: Hex
    units: list[str]
    by: str  # the overrunning unit
    power: str
    odds: float


class UnitsOverrun(EventData):
    hex: Hex
    units: list[str]
    by: str  # the power whose land unit entered the hex


class FacilitiesCaptured(EventData):
    hex: Hex
    power: str
    facilities: list[str]


class OverstackLossChosen(EventData):
    unit: str
    hex: Hex


def _land_moved(state, event):
    land(state).land_moved[event.data["unit"]] = _now(state)


def _rail_moved(state, event):
    land(state).rail_moved[event.data["unit"]] = _now(state)


def _overrun(state, event):
    d = event.data
    land(state).overrun[core.hex_key(d["hex"])] = list(d["units"])


def _captured(state, event):
    d = event.data
    land(state).captured[core.hex_key(d["hex"])] = list(d["facilities"])


def _noop(state, event):
    pass


# ---------------------------------------------------------------- commands
class MoveLandUnit(Command):
    """Move one land unit along ``path`` (the hexes it enters, in order), or to ``to`` by
    the cheapest path."""

    unit: str
    path: list[Hex] | None = None
    to: Hex | None = None


class RailMove(Command):
    """Move one land or air unit by rail along ``path`` (rail hexes entered), or to ``to``."""

    unit: str
    path: list[Hex] | None = None
    to: Hex | None = None


class ChooseOverstackLoss(Command):
    """Over-Stacked Hex: destroy this unit to bring its hex within the stacking limits."""

    unit: str


def _turn_activities():
    try:
        from plugins.rules.turn import activities
    except ImportError:
        return None
    return activities


_ALLOWS = {  # used only while the turn plugin is not installed (rules-c §1.0 table)
    LAND_MOVE: ("land", "combined"),  # Land Movement: "chose a Land or Combined action"
    RAIL_MOVE: ("air", "land", "combined"),  # Rail Movement: "did not choose a Pass or Naval action"
}


def _check_action(state, power: str, kind: str) -> None:
    activities = _turn_activities()
    if activities is not None:
        activities.check_action(state, power, "land-movement" if kind == LAND_MOVE else "rail-movement")
        return
    action = core.action_of(state, power)
    if action not in _ALLOWS[kind]:
        phase = "Land Movement" if kind == LAND_MOVE else "Rail Movement"
        needs = " or ".join(a.capitalize() for a in _ALLOWS[kind])
        raise Rejected(f"{phase}: {power} chose {'no action' if action is None else 'a ' + action.capitalize() + ' action'}; "
                       f"moving needs a {needs} action")


def _use_activity(ctx, power: str, kind: str, count: int = 1) -> None:
    activities = _turn_activities()
    if activities is not None:
        activities.use_activity(ctx, power, kind, count)
        return
    ctx.emit(core.ActivityUsed(power=power, kind=kind, count=count))


def _mover(ctx, cmd, phase: str):
    """The unit, after the checks every move shares (whose it is, action, organized)."""
    state = ctx.state
    unit = state["units"].units.get(cmd.unit)
    if unit is None:
        raise Rejected(f"{phase}: there is no unit {cmd.unit!r}")
    # Rail Movement: "players ... can move their land and air units along rail lines"
    movable = ("land", "air") if phase == "Rail Movement" else ("land",)
    if unit.branch not in movable:
        raise Rejected(f"{phase}: {unit.name or unit.id} is not a {' or '.join(movable)} unit")
    if not unit.on_map:
        raise Rejected(f"{phase}: {unit.name or unit.id} is not on the map ({unit.where})")
    k = state.kernel
    side = core.side_of(state, unit.power)
    actor_powers = k.sides.get(cmd.actor, [cmd.actor])
    if side != k.active_side:
        raise Rejected(f"{phase}: only the phasing side's units move; {unit.name or unit.id} belongs to "
                       f"{unit.power} ({side}), the phasing side is {k.active_side}")
    if unit.power not in actor_powers:
        raise Rejected(f"{phase}: {cmd.actor} cannot move {unit.power}'s unit {unit.name or unit.id}")
    _check_action(state, unit.power, LAND_MOVE if phase == "Land Movement" else RAIL_MOVE)
    if not unit.face_up:
        raise Rejected(f"{phase}: {unit.name or unit.id} is disorganized (face-down) and cannot move")
    return unit


def move_land_unit(ctx, cmd: MoveLandUnit) -> None:
    """Land Movement: "Each land unit that moves counts as a land move." """
    state = ctx.state
    unit = _mover(ctx, cmd, "Land Movement")
    if land(state).land_moved.get(unit.id) == _now(state):
        raise Rejected(f"Land Movement: {unit.name or unit.id} has already moved this impulse")
    if land(state).rail_moved.get(unit.id) == _now(state):
        raise Rejected(f"Land Movement: {unit.name or unit.id} moved by rail this impulse")
    if (cmd.path is None) == (cmd.to is None):
        raise Rejected("Land Movement: give either a path or a destination (to)")
    target = norm(cmd.path[-1] if cmd.path else cmd.to)
    if any(u.branch == "land" and _hostile_to(state, unit.power, u.power) for u in state["units"].in_hex(target)):
        return _overrun_move(ctx, unit, cmd)
    if cmd.path is not None:
        cost = path_cost(state, unit.id, cmd.path)
        path = [norm(h) for h in cmd.path]
        if path[0] == norm(unit.hex):
            path = path[1:]
    else:
        path = cheapest_path(state, unit.id, cmd.to)
        if not path:
            raise Rejected("Land Movement: the unit is already there")
        cost = path_cost(state, unit.id, path)
    dest = path[-1]
    rules = MoveRules(state, unit)
    overrun = [u.id for u in state["units"].in_hex(dest) if u.branch != "land" and rules.hostile(u.power)]
    problems = stacking_problems(state, dest, adding=[unit], leaving=overrun)
    if problems:
        raise Rejected(problems[0] + " (you cannot voluntarily overstack)")
    _use_activity(ctx, unit.power, LAND_MOVE)
    start = norm(unit.hex)
    ctx.emit(LandUnitMoved(unit=unit.id, power=unit.power, from_hex=start, path=path, cost=cost))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=dest))
    overran = _enter_hexes(ctx, unit, path, rules)
    if overran:
        ctx.push(REBASE_DIGRESSION)


def _hostile_to(state, power, other) -> bool:
    return other != power and core.enemies(state, power, other)


def _overrun_move(ctx, unit, cmd: MoveLandUnit) -> None:
    """Overrun (see data/overrun.json for what the seeds say and what is authored): the
    unit moves into a hex of enemy land units whose final odds against it reach the
    overrun odds; they are destroyed and the unit enters."""
    from .overrun import overrun_check

    state = ctx.state
    path, cost, odds, defenders = overrun_check(state, unit, cmd.path, cmd.to)
    dest = path[-1]
    rules = MoveRules(state, unit)
    _use_activity(ctx, unit.power, LAND_MOVE)
    ctx.emit(LandUnitsOverrun(hex=dest, units=defenders, by=unit.id, power=unit.power, odds=odds))
    for uid in defenders:
        ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="eliminated"))
    start = norm(unit.hex)
    ctx.emit(LandUnitMoved(unit=unit.id, power=unit.power, from_hex=start, path=path, cost=cost))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=dest))
    if _enter_hexes(ctx, unit, path, rules):
        ctx.push(REBASE_DIGRESSION)


def _enter_hexes(ctx, unit, path, rules: MoveRules) -> bool:
    """Captured Facilities: "Control of a hex changes when an enemy land unit (except for
    partisans or supply units) enters it"; air and naval units in a hex that passes to
    enemy control are overrun."""
    if unit.type in NO_CONTROL_TYPES:
        return False
    state = ctx.state
    overran = False
    for h in path:
        owner = rules.controller(h)
        if owner is None or not rules.hostile(owner):
            continue
        ctx.emit(core.HexControlChanged(hex=h, power=unit.power))
        facilities = _facilities(h)
        if facilities:
            ctx.emit(FacilitiesCaptured(hex=h, power=unit.power, facilities=facilities))
        caught = [u.id for u in state["units"].in_hex(h) if u.branch != "land" and rules.hostile(u.power)]
        if caught:
            ctx.emit(UnitsOverrun(hex=h, units=caught, by=unit.power))
            overran = True
    return overran


def _facilities(h) -> list[str]:
    m = core.world_map()
    out = []
    city = m.city_at(h)
    if city is not None:
        if city.port == "major":
            out.append(f"major port {city.name} (functions as a minor port until repaired)")
        elif city.port == "minor":
            out.append(f"minor port {city.name}")
        out.append(f"{'capital' if city.is_capital else 'city'} {city.name}")
    for f in m.economy_at(h):
        if f.feature == "factory":
            out.append(f"{f.count} factor{'y' if f.count == 1 else 'ies'} at {f.place}")
        else:
            out.append(f"{f.count} {'oil' if f.kind == 'oil' else ''}{' ' if f.kind == 'oil' else ''}resource"
                       f"{'' if f.count == 1 else 's'} at {f.place}")
    return out


def rail_move(ctx, cmd: RailMove) -> None:
    """Rail Movement: "Each unit that moves by rail counts as a rail move.  But if the
    distance the unit travels is more than 60 hexes, it counts as 2 rail moves." """
    state = ctx.state
    unit = _mover(ctx, cmd, "Rail Movement")
    if land(state).rail_moved.get(unit.id) == _now(state):
        raise Rejected(f"Rail Movement: {unit.name or unit.id} has already moved by rail this impulse")
    if (cmd.path is None) == (cmd.to is None):
        raise Rejected("Rail Movement: give either a path or a destination (to)")
    if cmd.path is not None:
        path = rail_path_check(state, unit, cmd.path)
    else:
        if norm(cmd.to) == norm(unit.hex):
            raise Rejected("Rail Movement: the unit is already there")
        path = rail_path_to(state, unit, cmd.to)
    dest = path[-1]
    problems = stacking_problems(state, dest, adding=[unit])
    if problems:
        raise Rejected(problems[0] + " (you cannot voluntarily overstack)")
    moves = rail_moves_for(len(path))
    _use_activity(ctx, unit.power, RAIL_MOVE, moves)
    ctx.emit(UnitRailMoved(unit=unit.id, power=unit.power, from_hex=norm(unit.hex), path=path, rail_moves=moves))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=dest))


# ---------------------------------------------------------------- over-stacked hexes
def check_overstacking(ctx) -> bool:
    """Over-Stacked Hex: "Stacking applies at the end of every phase".  Pushes the Correct
    Overstacking digression when any hex is overstacked; returns whether it did."""
    if overstacked_hexes(ctx.state):
        ctx.push(OVERSTACK_DIGRESSION)
        return True
    return False


def _overstack_deciders(state) -> list[str]:
    """The owner of each overstacked hex (the power controlling it)."""
    out = []
    for hex_ in overstacked_hexes(state):
        owner = core.hex_controller(state, hex_)
        units = state["units"].in_hex(hex_)
        if owner is None or all(u.power != owner for u in units):
            owner = units[0].power if units else owner
        if owner and owner not in out:
            out.append(owner)
    return out


def choose_overstack_loss(ctx, cmd: ChooseOverstackLoss) -> None:
    state = ctx.state
    unit = state["units"].units.get(cmd.unit)
    if unit is None or not unit.on_map:
        raise Rejected(f"Over-Stacked Hex: there is no unit {cmd.unit!r} on the map")
    hex_ = norm(unit.hex)
    problems = overstacked_hexes(state).get(hex_)
    if not problems:
        raise Rejected(f"Over-Stacked Hex: hex {hex_[0]},{hex_[1]} is not overstacked")
    if cmd.actor not in _overstack_deciders(state):
        raise Rejected(f"Over-Stacked Hex: {cmd.actor} does not own an overstacked hex")
    peers = [u for u in state["units"].in_hex(hex_) if u.branch == unit.branch]
    if unit.branch not in overstacked_branches(state, hex_) and len(problems) == len(overstacked_branches(state, hex_)):
        raise Rejected(f"Over-Stacked Hex: the {unit.branch} units in hex {hex_[0]},{hex_[1]} are within their limit")
    if not unit.face_up and any(p.face_up for p in peers):
        raise Rejected("Over-Stacked Hex: you must destroy organized units before disorganized units")
    ctx.emit(OverstackLossChosen(unit=unit.id, hex=hex_))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where="eliminated"))
    seq = state.kernel.sequence
    if cmd.actor in seq.pending and cmd.actor not in _overstack_deciders(state):
        ctx.emit(DecisionFinished(step=seq.current or "", who=cmd.actor))
        if not state.kernel.sequence.pending:
            ctx.advance()


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("land", LandState)


@hookimpl
def register_events(register):
    for model in (LandUnitMoved, UnitRailMoved, UnitsOverrun, LandUnitsOverrun, FacilitiesCaptured,
                  OverstackLossChosen):
        register(model)


@hookimpl
def register_reducers(register):
    register("LandUnitMoved", _land_moved)
    register("UnitRailMoved", _rail_moved)
    register("UnitsOverrun", _overrun)
    register("FacilitiesCaptured", _captured)
    register("OverstackLossChosen", _noop)


@hookimpl
def register_commands(register):
    register(MoveLandUnit, move_land_unit)
    register(RailMove, rail_move)
    register(ChooseOverstackLoss, choose_overstack_loss)


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    if kind == "rule:overstack-decider":
        return _overstack_deciders(state)
    if kind == "rule:rebasing-power":
        out = []
        for key, ids in land(state).overrun.items():
            units = state["units"].units
            for i in ids:
                u = units.get(i)
                if u is not None and u.on_map and core.hex_key(u.hex) == key and u.power not in out:
                    out.append(u.power)
        return out
    return None


POWER_NAMES = {"ussr": "USSR", "usa": "USA", "cw": "Commonwealth", "china": "China"}


def power_name(power: str) -> str:
    return POWER_NAMES.get(power, power.capitalize())


def place_name(hex_) -> str:
    city = core.world_map().city_at(tuple(hex_))
    return city.name if city else f"{hex_[0]},{hex_[1]}"


def _unit_name(state, unit_id: str) -> str:
    unit = state["units"].units.get(unit_id)
    return (unit.name or unit.type) if unit else unit_id


@hookimpl
def describe_event(event, state):
    d = event.data
    if event.type == "LandUnitMoved":
        return (f"{power_name(d['power'])}: {_unit_name(state, d['unit'])} moves "
                f"{place_name(d['from_hex'])} → {place_name(d['path'][-1])}")
    if event.type == "UnitRailMoved":
        n = d["rail_moves"]
        return (f"{power_name(d['power'])}: {_unit_name(state, d['unit'])} moves by rail "
                f"{place_name(d['from_hex'])} → {place_name(d['path'][-1])} ({n} rail move{'s' if n > 1 else ''})")
    if event.type == "LandUnitsOverrun":
        unit = state["units"].units.get(d["by"])
        who = (unit.name or unit.id) if unit else d["by"]
        return (f"{power_name(d['power'])}: {who} overruns {len(d['units'])} land unit(s) at "
                f"{place_name(d['hex'])} ({d['odds']:g}:1)")
    if event.type == "UnitsOverrun":
        names = ", ".join(_unit_name(state, u) for u in d["units"])
        return f"{power_name(d['by'])} overruns {names} at {place_name(d['hex'])}"
    if event.type == "FacilitiesCaptured":
        return f"{power_name(d['power'])} captures " + "; ".join(d["facilities"])
    if event.type == "OverstackLossChosen":
        return f"{_unit_name(state, d['unit'])} is destroyed: {place_name(d['hex'])} was overstacked"
    return None


@hookimpl
def step_ended(ctx, step_id, spec):
    """Over-Stacked Hex: "Stacking applies at the end of every phase" — checked as each
    phase of play ends (not inside the correction digression itself)."""
    if step_id.startswith("wif.turn.") or step_id.startswith("wif.new-game."):
        check_overstacking(ctx)
