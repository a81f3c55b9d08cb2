"""Optional rule Emergency HQ supply (seeds, "Supply Sources and Paths", PM 9.6.3: "non-HQ units
that are out of supply can operate as if they were in supply this impulse if they can trace a
basic supply path to an organized HQ with which they co-operate").

``DeclareEmergencyHQSupply {hq, units}`` names the HQ and the units that receive it ("Emergency
Supply Unit": "Select the unit(s) to receive emergency supply (for the impulse)"; no units: all
that may).  It is legal at any time ("Players can declare that an HQ is providing emergency
supply at any time") and is what the non-phasing side decides in the land combat phase
"Emergency HQ Supply", which is skipped while the rule is OFF or when no unit could benefit.

The supply plugin's event ``ImpulseSupplyGranted`` makes ``supply.in_supply`` answer True for
those units until the impulse ends.  The seeds give no cost for the HQ, so none is applied.
"""

from __future__ import annotations

from kernel.choices import Field, Option, one_of
from kernel.errors import Rejected
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules.core import is_hq
from plugins.rules.supply import ImpulseSupplyGranted, in_supply, trace

rules = Registry()

RULE_ID = "emergency-hq-supply"
RULE = "Emergency HQ supply"
STEP = "wif.turn.impulse.land.combat.emergency-hq-supply"


@rules.event
class EmergencyHQSupplyDeclared(EventData):
    hq: str
    units: list[str]


class DeclareEmergencyHQSupply(Command):
    hq: str
    units: list[str] = []  # empty: every unit that may receive it


def _name(unit) -> str:
    return unit.name or unit.id


def traces_to(state, unit, hq) -> bool:
    """A basic supply path (in the unit's supply range, by the weather in its hex) to the HQ;
    the supply engine searches from each HQ once per position (``trace.basic_reach``)."""
    dist = trace.basic_reach(state, unit.power, hq.hex)
    return dist.get(tuple(unit.hex), trace.UNLIMITED) <= trace.tracer_for(state, unit.power).range_at(tuple(unit.hex))


def unit_refusal(state, unit, hq) -> str | None:
    """Why ``unit`` may not receive emergency supply from ``hq``, or None."""
    if unit.branch != "land" or not unit.on_map:
        return f"{_name(unit)} is not a land unit on the map"
    if is_hq(unit):
        return f"{_name(unit)} is an HQ (only non-HQ units receive emergency supply)"
    if state.kernel.side_of(unit.power) != state.kernel.side_of(hq.power):
        return f"{_name(unit)} does not co-operate with {_name(hq)}"
    if in_supply(state, unit.id):
        return f"{_name(unit)} is in supply already"
    if not traces_to(state, unit, hq):
        return f"{_name(unit)} can't trace a basic supply path to {_name(hq)}"
    return None


def hq_refusal(state, hq_id: str, power: str) -> str | None:
    hq = state["units"].units.get(hq_id)
    if hq is None:
        return f"{RULE}: there is no unit {hq_id!r}"
    if not is_hq(hq) or not hq.on_map:
        return f"{RULE}: {_name(hq)} is not an HQ on the map; emergency supply comes from an HQ"
    if hq.power != power:
        return f"{RULE}: {_name(hq)} is controlled by {hq.power}, not {power}"
    if not hq.face_up:
        return f"{RULE}: {_name(hq)} is disorganized; only an organized HQ provides emergency supply"
    return None


def eligible_units(state, hq, candidates=None) -> list[str]:
    """The units that may receive emergency supply from ``hq``; ``candidates``: the units
    to ask about (default: every land unit on the map)."""
    units = state["units"].units.values() if candidates is None else candidates
    side = state.kernel.side_of(hq.power)
    return sorted(u.id for u in units if u.branch == "land" and u.on_map and state.kernel.side_of(u.power) == side
                  and u.id != hq.id and unit_refusal(state, u, hq) is None)


def declaration_problem(state, actor: str, hq_id: str, unit_ids: list[str]) -> tuple[str | None, list[str]]:
    """(why the declaration is refused or None, the units that would receive emergency supply)."""
    if not is_on(state, RULE_ID):
        return f"{RULE}: this optional rule is not in play", []
    reason = hq_refusal(state, hq_id, actor)
    if reason:
        return reason, []
    hq = state["units"].units[hq_id]
    if unit_ids:
        chosen = list(dict.fromkeys(unit_ids))
        for uid in chosen:
            unit = state["units"].units.get(uid)
            why = f"there is no unit {uid!r}" if unit is None else unit_refusal(state, unit, hq)
            if why:
                return f"{RULE}: {why}", []
        return None, chosen
    chosen = eligible_units(state, hq)
    if not chosen:
        return f"{RULE}: no out-of-supply unit can trace a basic supply path to {_name(hq)}", []
    return None, chosen


def declare_emergency_hq_supply(ctx, cmd: DeclareEmergencyHQSupply) -> None:
    reason, chosen = declaration_problem(ctx.state, cmd.actor, cmd.hq, cmd.units)
    if reason:
        raise Rejected(reason)
    hq = ctx.state["units"].units[cmd.hq]
    ctx.emit(EmergencyHQSupplyDeclared(hq=hq.id, units=chosen))
    ctx.emit(ImpulseSupplyGranted(units=chosen, source=_name(hq), rule=RULE))


def declare_choices(state, actor: str, step_id: str):
    """Each organized HQ of the actor that some out-of-supply unit traces to, then any of
    those units (none named: all of them)."""
    if not is_on(state, RULE_ID):
        return None
    units = state["units"].units
    hqs = [u for u in units.values() if u.power == actor and hq_refusal(state, u.id, actor) is None]
    if not hqs:
        return None
    # only units out of supply can receive it: asked once, not once per HQ
    out_of_supply = [u for u in units.values() if u.branch == "land" and u.on_map and not is_hq(u)
                     and not in_supply(state, u.id)]
    found = {hq.id: eligible_units(state, hq, out_of_supply) for hq in hqs}
    found = {hq: ids for hq, ids in found.items() if ids}
    if not found:
        return None

    def receivers(hq_id):
        return [Field("units", "units", [Option(uid, _name(units[uid])) for uid in found[hq_id]], min=0,
                      label="units to supply (none: all of them)")]

    return [one_of("hq", "unit", sorted(found), label=lambda h: f"HQ {_name(units[h])}", then=receivers)]


def declare_preview(state, cmd: DeclareEmergencyHQSupply) -> dict:
    reason, chosen = declaration_problem(state, cmd.actor, cmd.hq, cmd.units)
    if reason:
        raise Rejected(reason)
    return {"in_supply": chosen}


@rules.reducer("EmergencyHQSupplyDeclared")
def _declared(state, event) -> None:
    pass  # the supply plugin's ImpulseSupplyGranted carries the effect; this is the log's fact


def _could_benefit(state) -> bool:
    k = state.kernel
    inactive = [s for s in k.sides if s != k.active_side]
    powers = {p for s in inactive for p in k.sides.get(s, [])}
    units = state["units"].units.values()
    hqs = [u for u in units if u.power in powers and u.on_map and u.face_up and is_hq(u)]
    out_of_supply = [u for u in units if u.branch == "land" and u.on_map and not is_hq(u)
                     and not in_supply(state, u.id)]
    return bool(out_of_supply) and any(eligible_units(state, hq, out_of_supply) for hq in hqs)


rules.command(DeclareEmergencyHQSupply, anytime=True, choices=declare_choices, preview=declare_preview)(
    declare_emergency_hq_supply)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id != STEP:
        return None
    if not is_on(state, RULE_ID):
        return "the optional rule Emergency HQ supply is not in play"
    if not _could_benefit(state):
        # "If there is no reason to invoke emergency supply, this phase is bypassed."
        return "no out-of-supply unit of the non-phasing side can trace to an organized HQ"
    return None


@rules.describe("EmergencyHQSupplyDeclared")
def _say_declared(event, state):
    units = state["units"].units
    hq = units.get(event.data["hq"])
    names = ", ".join(_name(units[u]) if u in units else u for u in event.data["units"])
    return f"{event.actor}: HQ {_name(hq) if hq else event.data['hq']} provides emergency supply to {names}"


rules.export(globals())
