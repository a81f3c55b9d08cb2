"""Optional rule Supply units (seeds, "Supply Sources and Paths", PM 9.7.27: "an HQ is a
primary supply source for the rest of the turn if you expend an organized supply unit with
which it is stacked"; "Expend Supply Unit": "the selected supply unit will be consumed by this
use"; "the HQ remains a primary supply source through multiple impulses").

The supply counters enter a scenario through its hook (Barbarossa: ``scenario_added_units``;
``data/added_units.json``, authored: see its header).  ``ExpendSupplyUnit {hq, supply_unit}``
(legal at any time: the seeds tie it to no phase) records the supply plugin's
``HQPrimarySupplyGranted``, which makes ``supply`` count the HQ's hex among the primary
sources until the turn ends, and sends the supply unit to the force pool.  Handler, choices
and preview ask ``expend_problem``.
"""

from __future__ import annotations

from pathlib import Path

from kernel.choices import one_of
from kernel.errors import Rejected
from kernel.events import Command
from kernel.hookspecs import hookimpl
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.optional.framework.added_units import scenario_units
from plugins.rules.core import is_hq
from plugins.rules.supply import HQPrimarySupplyGranted
from plugins.rules.units import UnitMoved, units

rules = Registry()

RULE_ID = "supply-units"
RULE = "Supply units"
SUPPLY_TYPES = {"sup", "supply"}
DATA = Path(__file__).resolve().parent / "data" / "added_units.json"


class ExpendSupplyUnit(Command):
    hq: str
    supply_unit: str


def _name(unit) -> str:
    return unit.name or unit.id


def is_supply_unit(unit) -> bool:
    return unit.branch == "land" and unit.type in SUPPLY_TYPES


def hq_problem(state, actor: str, hq_id: str) -> str | None:
    hq = units(state).units.get(hq_id)
    if hq is None:
        return f"{RULE}: there is no unit {hq_id!r}"
    if not is_hq(hq) or not hq.on_map:
        return f"{RULE}: {_name(hq)} is not an HQ on the map"
    if hq.power != actor:
        return f"{RULE}: {_name(hq)} is controlled by {hq.power}, not {actor}"
    if state["supply"].primary_hqs.get(hq.id) == state.kernel.turn:
        return f"{RULE}: {_name(hq)} is a primary supply source for the rest of this turn already"
    return None


def expend_problem(state, actor: str, hq_id: str, supply_id: str) -> str | None:
    """Why ``actor`` may not expend ``supply_id`` to make ``hq_id`` a primary source, or None."""
    if not is_on(state, RULE_ID):
        return f"{RULE}: this optional rule is not in play"
    problem = hq_problem(state, actor, hq_id)
    if problem:
        return problem
    sup = units(state).units.get(supply_id)
    if sup is None or not is_supply_unit(sup):
        return f"{RULE}: {supply_id!r} is not a supply unit"
    if sup.power != actor:
        return f"{RULE}: {_name(sup)} is controlled by {sup.power}, not {actor}"
    hq = units(state).units[hq_id]
    if not sup.on_map or tuple(sup.hex) != tuple(hq.hex):
        return f"{RULE}: {_name(sup)} is not stacked with {_name(hq)}"
    if not sup.face_up:
        return f"{RULE}: {_name(sup)} is disorganized; only an organized supply unit is expended"
    return None


def expend_supply_unit(ctx, cmd: ExpendSupplyUnit) -> None:
    problem = expend_problem(ctx.state, cmd.actor, cmd.hq, cmd.supply_unit)
    if problem:
        raise Rejected(problem)
    sup = units(ctx.state).units[cmd.supply_unit]
    ctx.emit(HQPrimarySupplyGranted(hq=cmd.hq, source=f"expended {_name(sup)}", rule=RULE))
    ctx.emit(UnitMoved(unit=sup.id, to_hex=None, to_where="force-pool"))


def _pairs(state, actor: str) -> dict[str, list[str]]:
    us = units(state).units.values()
    sups = [u for u in us if is_supply_unit(u) and u.power == actor and u.on_map]
    out: dict[str, list[str]] = {}
    for hq in us:
        if hq.power == actor and is_hq(hq) and hq.on_map:
            ids = sorted(s.id for s in sups if expend_problem(state, actor, hq.id, s.id) is None)
            if ids:
                out[hq.id] = ids
    return out


def expend_choices(state, actor: str, step_id: str):
    if not is_on(state, RULE_ID):
        return None
    pairs = _pairs(state, actor)
    if not pairs:
        return None
    us = units(state).units
    return [one_of("hq", "unit", sorted(pairs), label=lambda h: f"HQ {_name(us[h])}",
                   then=lambda h: [one_of("supply_unit", "unit", pairs[h], label=lambda s: _name(us[s]))])]


def expend_preview(state, cmd: ExpendSupplyUnit) -> dict:
    problem = expend_problem(state, cmd.actor, cmd.hq, cmd.supply_unit)
    if problem:
        raise Rejected(problem)
    hq = units(state).units[cmd.hq]
    return {"primary_source": list(hq.hex), "until": f"the end of turn {state.kernel.turn}",
            "consumed": cmd.supply_unit}


rules.command(ExpendSupplyUnit, anytime=True, choices=expend_choices, preview=expend_preview)(expend_supply_unit)


@hookimpl(optionalhook=True)
def scenario_added_units(state, scenario):
    return scenario_units(state, RULE_ID, DATA, scenario)


rules.export(globals())
