"""Supply and reorganization.

Public functions other plugins call (import them lazily, inside functions):

- ``in_supply(state, unit_id) -> bool`` — the seeds check it before a unit moves, flies,
  sails or reorganizes others, for both sides before an overrun and at the moment of
  combat, and for the attackers at land combat declaration ("Supply Sources and Paths");
- ``supply_map(state, side) -> set[hex]`` — hexes where a unit of the side's major powers
  is in supply (a Soviet or German counter; minor-country units may use more cities);
- ``out_of_supply(state, side) -> list[unit id]`` and ``in_supply_units(state, ids)``;
- ``has_basic_supply_path(state, unit_id)`` — a basic supply path of any length to a
  source (the notional unit's "-1 if it cannot trace a basic supply path of any length");
- ``hex_has_basic_supply_path(state, power, hex)`` — the same for a notional unit in a hex;
- ``supply_range(state, hex)`` — 4/3/2 hexes by the weather in the hex (Weather Report);
- ``can_reorganize(state, hq_id, unit_id)`` — why an HQ may not reorganize a unit, or None;
- ``began_impulse_out_of_supply(state, unit_id)`` — the unit was out of supply when the
  impulse began (recorded by ``ImpulseSupplyRecorded`` once the actions are chosen, before
  any unit moves): "the cargo only becomes disorganized if it commenced the impulse out of
  supply" (Air Transport; the air plugin has no air transport yet);
- ``supplied_this_impulse(state, unit_id)`` — put in supply for this impulse by a rule: the
  event ``ImpulseSupplyGranted`` (emitted by e.g. Emergency HQ supply) is the hook point, and
  ``in_supply`` answers True for those units until the impulse ends.

Effects of being out of supply that the seeds state, for the plugins that own them:
an out-of-supply unit that embarks becomes disorganized (naval transport); air-transport
cargo that began the impulse out of supply is disorganized; a paradrop must start in
supply; AA must be organized and in supply to fire; an attack is resolved unless no
in-supply land unit able to make it remains; victory needs an in-supply land unit in a
factory hex; a notional unit that cannot trace a basic supply path of any length has 1
combat factor less (combat's ``notional_factors``); an overrun needs the overrunning unit
in supply (land's overrun, see its data file).  The seeds state no effect on land movement
(it is only checked before a unit moves) and none on reorganization ("Lack of supply does
not stop an HQ from reorganizing units, or a unit from being reorganized").  Partisans and
units at sea are always in supply.

Steps run here: "Reorganization by HQ" (End of Impulse, each phasing major power:
``HQReorganize``) and "End of Turn Reorganization" (automatic: every disorganized unit on
the map is reorganized, the Oil and isolated-units options not being in play).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from plugins.rules import core
from plugins.rules.units import UnitFlipped

from . import trace
from .trace import REORG_COST, is_hq

HQ_STEP = "wif.turn.impulse.end-of-impulse.reorganization-by-hq"
IMPULSE_BEGUN_STEP = "wif.turn.impulse.new-impulse.choose-action"  # the last step before anything moves
EOT_STEP = "wif.turn.end-of-turn.end-of-turn-reorganization"
AT_SEA = ("sea", "at-sea", "sea-box")


# ---------------------------------------------------------------- public questions
def _unit(state, unit_id: str):
    unit = state["units"].units.get(unit_id)
    if unit is None:
        raise KeyError(f"no unit {unit_id!r}")
    return unit


def in_supply(state, unit_id: str) -> bool:
    """Supply Sources and Paths: can the unit trace a supply path to a primary source
    (directly, or through secondary and tertiary sources)?"""
    unit = _unit(state, unit_id)
    if unit.where in AT_SEA:
        return True  # "Units at sea are always in supply."
    if not unit.on_map:
        return False
    if supplied_this_impulse(state, unit_id):
        return True  # e.g. optional rule Emergency HQ supply ("as if they were in supply this impulse")
    hex_ = tuple(unit.hex)
    if core.world_map().is_sea(hex_):
        return True
    if unit.type in trace.ALWAYS_SUPPLIED_TYPES:
        return True
    extra = trace.country_of_nationality(unit.nationality) if unit.nationality not in ("", unit.power) else None
    return hex_ in trace.result_for(state, unit.power, extra).supplied


def supply_map(state, side: str) -> set:
    """Hexes in supply for a unit of any major power of ``side``."""
    out: set = set()
    for power in state.kernel.sides.get(side, []):
        out |= trace.result_for(state, power).supplied
    return out


def supply_sources(state, power: str) -> dict:
    """Active secondary and tertiary source hexes of a power -> "secondary"/"tertiary"."""
    return dict(trace.result_for(state, power).active)


def in_supply_units(state, unit_ids) -> list[str]:
    return [u for u in unit_ids if in_supply(state, u)]


def out_of_supply(state, side: str) -> list[str]:
    powers = set(state.kernel.sides.get(side, []))
    return sorted(u.id for u in state["units"].units.values()
                  if u.power in powers and u.on_map and not in_supply(state, u.id))


def supply_range(state, hex_) -> int:
    """Weather Report: 4 hexes in fine, 3 in snow, 2 in rain, storm or blizzard."""
    weather = core.weather_in(state, hex_)
    if core.world_map().terrain(tuple(hex_)) in trace.DESERTS:
        weather = trace.DESERT_WEATHER.get(weather, weather)
    return trace.RANGE.get(weather, trace.MAX_RANGE)


def has_basic_supply_path(state, unit_id: str) -> bool:
    """A basic supply path of any length to a primary or an active secondary/tertiary source."""
    unit = _unit(state, unit_id)
    if in_supply(state, unit_id):
        return True
    if not unit.on_map:
        return False
    extra = trace.country_of_nationality(unit.nationality) if unit.nationality not in ("", unit.power) else None
    result = trace.result_for(state, unit.power, extra)
    dist = trace.Tracer(state, unit.power).search(result.sources, railway=False, limit=trace.UNLIMITED)
    return tuple(unit.hex) in dist


def hex_has_basic_supply_path(state, power: str, hex_) -> bool:
    """A basic supply path of any length from ``hex_`` for ``power`` (the notional unit's
    "-1 if it cannot trace a basic supply path of any length", Ignore Notional)."""
    result = trace.result_for(state, power)
    dist = trace.Tracer(state, power).search(result.sources, railway=False, limit=trace.UNLIMITED)
    return tuple(hex_) in dist


def began_impulse_out_of_supply(state, unit_id: str) -> bool:
    """Air Transport: did the unit commence this impulse out of supply?"""
    s = supply_state(state)
    return tuple(s.began_out_of_supply_at) == _now(state) and unit_id in s.began_out_of_supply


def supplied_this_impulse(state, unit_id: str) -> bool:
    """Has a rule put the unit in supply for the current impulse (``ImpulseSupplyGranted``)?"""
    granted = supply_state(state).impulse_supply.get(unit_id)
    return bool(granted) and tuple(granted) == _now(state)


# ---------------------------------------------------------------- state
class SupplyState(BaseModel):
    # HQ id -> [turn, impulse, reorganization points used then]
    hq_points: dict[str, list[int]] = Field(default_factory=dict)
    # unit id -> [turn, impulse, points spent towards reorganizing it then]
    partial: dict[str, list[int]] = Field(default_factory=dict)
    # unit id -> [turn, impulse] it is in supply for, whatever its path (ImpulseSupplyGranted)
    impulse_supply: dict[str, list[int]] = Field(default_factory=dict)
    # [turn, impulse] and the land units out of supply when that impulse began
    began_out_of_supply_at: list[int] = Field(default_factory=list)
    began_out_of_supply: list[str] = Field(default_factory=list)


def supply_state(state) -> SupplyState:
    return state["supply"]


# ---------------------------------------------------------------- events and commands
class HQReorganized(EventData):
    """An HQ spent reorganization points on a disorganized unit (Reorganize Units, By HQ)."""

    hq: str
    unit: str
    points: int
    points_left: int
    organized: bool


class EndOfTurnReorganized(EventData):
    units: list[str]


class ImpulseSupplyGranted(EventData):
    """A rule put these units in supply for the rest of this impulse (the hook point of rules
    such as Emergency HQ supply: ``in_supply`` answers True for them until the impulse ends)."""

    units: list[str]
    source: str  # the unit or rule that supplies them, for the log
    rule: str


class ImpulseSupplyRecorded(EventData):
    """The land units on the map that began this impulse out of supply."""

    out_of_supply: list[str]


class HQReorganize(Command):
    hq: str
    unit: str
    points: Literal["all", "one"] = "all"


def reorg_value(hq) -> int:
    return int(hq.factors.get("reorg", hq.factors.get("combat", 0)))


def _now(state) -> tuple[int, int]:
    return state.kernel.turn, state.kernel.impulse


def hq_points_left(state, hq) -> int:
    used = supply_state(state).hq_points.get(hq.id)
    spent = used[2] if used and tuple(used[:2]) == _now(state) else 0
    return max(0, reorg_value(hq) - spent)


def _partial(state, unit_id: str) -> int:
    got = supply_state(state).partial.get(unit_id)
    return got[2] if got and tuple(got[:2]) == _now(state) else 0


def _hq_in_use(state, hq) -> bool:
    used = supply_state(state).hq_points.get(hq.id)
    return bool(used) and tuple(used[:2]) == _now(state)


def can_reorganize(state, hq_id: str, unit_id: str) -> str | None:
    """Why the HQ may not reorganize the unit now (a reason naming the rule), or None."""
    units = state["units"].units
    hq, unit = units.get(hq_id), units.get(unit_id)
    if hq is None:
        return f"Reorganization by HQ: no unit {hq_id!r}"
    if unit is None:
        return f"Reorganization by HQ: no unit {unit_id!r}"
    if not is_hq(hq) or not hq.on_map:
        return f"Reorganization by HQ: {hq.name or hq.id} is not an HQ on the map"
    if not hq.face_up and not _hq_in_use(state, hq):
        return f"Reorganization by HQ: only an organized HQ can reorganize units ({hq.name or hq.id} is disorganized)"
    if hq_points_left(state, hq) <= 0:
        return f"Reorganization by HQ: {hq.name or hq.id} has no reorganization points left"
    if unit.id == hq.id:
        return "Reorganization by HQ: an HQ cannot reorganize itself"
    if unit.face_up:
        return f"Reorganization by HQ: {unit.name or unit.id} is not disorganized"
    if not unit.on_map or unit.branch == "naval":
        return f"Reorganization by HQ: {unit.name or unit.id} is not a land or air unit on the map"
    if state.kernel.side_of(unit.power) != state.kernel.side_of(hq.power):
        return f"Reorganization by HQ: {unit.name or unit.id} does not co-operate with {hq.name or hq.id}"
    costs = trace.reorganization_costs(state, hq, reorg_value(hq))
    if tuple(unit.hex) not in costs:
        return (f"Reorganization by HQ: {unit.name or unit.id} is beyond the HQ's reorganization range "
                f"({reorg_value(hq)} motorized movement points, traced like a basic supply path)")
    return None


def hq_reorganize(ctx, cmd: HQReorganize) -> None:
    state = ctx.state
    hq = state["units"].units.get(cmd.hq)
    if hq is not None and hq.power != cmd.actor and state.kernel.side_of(hq.power) != cmd.actor:
        raise Rejected(f"Reorganization by HQ: {hq.name or hq.id} belongs to {hq.power}, not {cmd.actor}")
    reason = can_reorganize(state, cmd.hq, cmd.unit)
    if reason:
        raise Rejected(reason)
    unit = state["units"].units[cmd.unit]
    left = hq_points_left(state, hq)
    needed = REORG_COST - _partial(state, unit.id)
    spend = min(left, needed) if cmd.points == "all" else 1
    organized = spend >= needed
    was_organized = hq.face_up
    ctx.emit(HQReorganized(hq=hq.id, unit=unit.id, points=spend, points_left=left - spend, organized=organized))
    if organized:
        ctx.emit(UnitFlipped(unit=unit.id, face_up=True))
    if was_organized:
        # "The HQ becomes disorganized after it reorganizes other units."
        ctx.emit(UnitFlipped(unit=hq.id, face_up=False))


def _hq_reorganized(state, event):
    d = event.data
    s = supply_state(state)
    turn, impulse = _now(state)
    used = s.hq_points.get(d["hq"])
    spent = used[2] if used and tuple(used[:2]) == (turn, impulse) else 0
    s.hq_points[d["hq"]] = [turn, impulse, spent + d["points"]]
    if d["organized"]:
        s.partial.pop(d["unit"], None)
    else:
        got = s.partial.get(d["unit"])
        before = got[2] if got and tuple(got[:2]) == (turn, impulse) else 0
        s.partial[d["unit"]] = [turn, impulse, before + d["points"]]


def _impulse_supply(state, event):
    s = supply_state(state)
    now = list(_now(state))
    # Grants of earlier impulses are over: drop them so the section stays small.
    s.impulse_supply = {u: t for u, t in s.impulse_supply.items() if t == now}
    for unit_id in event.data["units"]:
        s.impulse_supply[unit_id] = now


def _impulse_supply_recorded(state, event):
    s = supply_state(state)
    s.began_out_of_supply_at = list(_now(state))
    s.began_out_of_supply = list(event.data["out_of_supply"])


def record_impulse_supply(ctx) -> None:
    """Record which land units begin the impulse out of supply (Air Transport's cargo rule)."""
    state = ctx.state
    lacking = [uid for side in state.kernel.sides for uid in out_of_supply(state, side)
               if state["units"].units[uid].branch == "land"]
    ctx.emit(ImpulseSupplyRecorded(out_of_supply=sorted(lacking)))


def _eot_reorganized(state, event):
    supply_state(state).partial.clear()
    supply_state(state).hq_points.clear()


# ---------------------------------------------------------------- steps
def end_of_turn_reorganization(ctx, step_id) -> None:
    """End of Turn Reorganization: "If the optional oil rule is not being used, then all
    disorganized units are reorganized" (the isolated-units option is not in play)."""
    flipped = sorted(u.id for u in ctx.state["units"].units.values() if u.on_map and not u.face_up)
    for unit_id in flipped:
        ctx.emit(UnitFlipped(unit=unit_id, face_up=True))
    ctx.emit(EndOfTurnReorganized(units=flipped))


def _anything_to_reorganize(state) -> bool:
    k = state.kernel
    powers = set(k.sides.get(k.active_side, [])) if k.active_side else set(k.powers())
    units = state["units"].units.values()
    hqs = [u for u in units if u.power in powers and is_hq(u) and u.on_map
           and (u.face_up or _hq_in_use(state, u)) and hq_points_left(state, u) > 0]
    if not hqs:
        return False
    waiting = [u for u in units if not u.face_up and u.on_map and u.branch != "naval"]
    for hq in hqs:
        side = k.side_of(hq.power)
        targets = {tuple(u.hex) for u in waiting if u.id != hq.id and k.side_of(u.power) == side}
        if targets and targets & set(trace.reorganization_costs(state, hq, reorg_value(hq))):
            return True
    return False


# ---------------------------------------------------------------- hooks
@hookimpl
def register_state(register):
    register("supply", SupplyState)


@hookimpl
def register_events(register):
    register(HQReorganized)
    register(EndOfTurnReorganized)
    register(ImpulseSupplyGranted)
    register(ImpulseSupplyRecorded)


@hookimpl
def register_reducers(register):
    register("HQReorganized", _hq_reorganized)
    register("EndOfTurnReorganized", _eot_reorganized)
    register("ImpulseSupplyGranted", _impulse_supply)
    register("ImpulseSupplyRecorded", _impulse_supply_recorded)


@hookimpl
def register_commands(register):
    register(HQReorganize, hq_reorganize)


@hookimpl
def register_step_rules(register):
    register(EOT_STEP, end_of_turn_reorganization)


@hookimpl
def step_ended(ctx, step_id, spec):
    if step_id == IMPULSE_BEGUN_STEP:
        record_impulse_supply(ctx)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id == HQ_STEP and not _anything_to_reorganize(state):
        return "no HQ of the phasing side can reorganize a disorganized unit"
    return None


@hookimpl
def describe_event(event, state):
    d = event.data
    if event.type == "HQReorganized":
        units = state["units"].units
        hq, unit = units.get(d["hq"]), units.get(d["unit"])
        hq_name = (hq.name or hq.id) if hq else d["hq"]
        unit_name = (unit.name or unit.id) if unit else d["unit"]
        done = "reorganizes" if d["organized"] else "spends a point towards reorganizing"
        return f"{event.actor}: HQ {hq_name} {done} {unit_name} ({d['points']} point(s), {d['points_left']} left)"
    if event.type == "ImpulseSupplyGranted":
        return f"{d['rule']}: {len(d['units'])} unit(s) in supply this impulse from {d['source']}"
    if event.type == "ImpulseSupplyRecorded":
        n = len(d["out_of_supply"])
        return f"The impulse begins with {n} land unit{'s' if n != 1 else ''} out of supply"
    if event.type == "EndOfTurnReorganized":
        n = len(d["units"])
        return f"End of Turn Reorganization: {n} disorganized unit{'s' if n != 1 else ''} reorganized"
    return None
