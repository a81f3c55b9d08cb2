"""The supply plugin's state and events: HQ reorganization points spent this impulse, units
put in supply for an impulse by a rule, and the units that began the impulse out of supply.

``rules`` is the plugin's registry (kernel.registry): the other modules add to it and
``__init__`` exports its hookimpls."""

from __future__ import annotations

from pydantic import BaseModel, Field

from kernel.events import EventData
from kernel.registry import Registry

rules = Registry()


@rules.state("supply")
class SupplyState(BaseModel):
    # HQ id -> [turn, impulse, reorganization points used then] (a half point when a rule halves
    # the cost: the hook ``reorganization_cost``)
    hq_points: dict[str, list[int | float]] = Field(default_factory=dict)
    # unit id -> [turn, impulse, points spent towards reorganizing it then]
    partial: dict[str, list[int | float]] = Field(default_factory=dict)
    # unit id -> [turn, impulse] it is in supply for, whatever its path (ImpulseSupplyGranted)
    impulse_supply: dict[str, list[int]] = Field(default_factory=dict)
    # [turn, impulse] and the land units out of supply when that impulse began
    began_out_of_supply_at: list[int] = Field(default_factory=list)
    began_out_of_supply: list[str] = Field(default_factory=list)
    # HQ id -> the turn it is a primary supply source for (HQPrimarySupplyGranted)
    primary_hqs: dict[str, int] = Field(default_factory=dict)


def supply_state(state) -> SupplyState:
    return state["supply"]


def now(state) -> tuple[int, int]:
    return state.kernel.turn, state.kernel.impulse


@rules.event
class HQReorganized(EventData):
    """An HQ spent reorganization points on a disorganized unit (Reorganize Units, By HQ)."""

    hq: str
    unit: str
    points: int | float  # a half point when a rule halves the cost (hook ``reorganization_cost``)
    points_left: int | float
    organized: bool


@rules.event
class EndOfTurnReorganized(EventData):
    units: list[str]


@rules.event
class ImpulseSupplyGranted(EventData):
    """A rule put these units in supply for the rest of this impulse (the hook point of rules
    such as Emergency HQ supply: ``in_supply`` answers True for them until the impulse ends)."""

    units: list[str]
    source: str  # the unit or rule that supplies them, for the log
    rule: str


@rules.event
class HQPrimarySupplyGranted(EventData):
    """A rule made this HQ a primary supply source for the rest of the turn (the hook point of
    the optional rule Supply units: "an HQ is a primary supply source for the rest of the turn
    if you expend an organized supply unit with which it is stacked")."""

    hq: str
    source: str  # what made it one, for the log
    rule: str


@rules.event
class ImpulseSupplyRecorded(EventData):
    """The land units on the map that began this impulse out of supply."""

    out_of_supply: list[str]


@rules.reducer("HQReorganized")
def _hq_reorganized(state, event):
    d = event.data
    s = supply_state(state)
    turn, impulse = now(state)
    used = s.hq_points.get(d["hq"])
    spent = used[2] if used and tuple(used[:2]) == (turn, impulse) else 0
    s.hq_points[d["hq"]] = [turn, impulse, spent + d["points"]]
    if d["organized"]:
        s.partial.pop(d["unit"], None)
    else:
        got = s.partial.get(d["unit"])
        before = got[2] if got and tuple(got[:2]) == (turn, impulse) else 0
        s.partial[d["unit"]] = [turn, impulse, before + d["points"]]


@rules.reducer("ImpulseSupplyGranted")
def _impulse_supply(state, event):
    s = supply_state(state)
    current = list(now(state))
    # Grants of earlier impulses are over: drop them so the section stays small.
    s.impulse_supply = {u: t for u, t in s.impulse_supply.items() if t == current}
    for unit_id in event.data["units"]:
        s.impulse_supply[unit_id] = current


@rules.reducer("HQPrimarySupplyGranted")
def _hq_primary(state, event):
    s = supply_state(state)
    turn = state.kernel.turn
    s.primary_hqs = {hq: t for hq, t in s.primary_hqs.items() if t == turn}  # earlier turns are over
    s.primary_hqs[event.data["hq"]] = turn


@rules.reducer("ImpulseSupplyRecorded")
def _impulse_supply_recorded(state, event):
    s = supply_state(state)
    s.began_out_of_supply_at = list(now(state))
    s.began_out_of_supply = list(event.data["out_of_supply"])


@rules.reducer("EndOfTurnReorganized")
def _eot_reorganized(state, event):
    supply_state(state).partial.clear()
    supply_state(state).hq_points.clear()
