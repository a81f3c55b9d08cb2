"""Carrier air units in Port Attack: a carrier plane aboard a carrier at sea flies from its sea
area to a port in range, as a bomber or an escort, intercepts over a port attacked, or flies
Combat Air Patrol over a threatened hex, escorts, intercepts or bombs in any air mission phase
(``FlyCarrierAirUnit``; carrier_combat_air_patrol.py, carrier_escort_and_interception.py and
carrier_planes_flying_missions.py).

Seeds: "Port Attack" (L10280-10305): "Port attacks can be made by: (1) land based air units that
have air-to-sea factors and (2) carrier based air units that are at sea.  Provided that there
are bombers conducting a port attack on a port, the phasing side may also fly fighter escorts".
"Carrier Based Air Unit Classes" (L1356-1479): "Each carrier air unit may conduct missions
separately from other carrier air units based on the same carrier, and each carrier air unit
counts separately against air mission activity limits".  Ships in Flames 8.5, Flying Missions:
"Only face-up carrier planes can fly a mission (except naval air), an escort, or an interception
from a CV.  You start the carrier plane's move from any hex dot in the sea area (don't reduce
its movement for the sea box section its CV occupies) and then fly to any hex within range".
Who may fly (at sea, undamaged carrier, face up) is port_attack.grounded; the landing afterwards
is port_attack.land_carrier_planes / land_aborted; the surprise points of the carrier's section
are port_attack_surprise.attacker_search_number.  Interception, air-to-air combat and the ships'
AA are the air plugin's Air Mission, as for land-based bombers (the flight is at the port hex).

Authored: the distance from the sea area to the port is port_attack.distance_from_sea (the hexes
between the port and the area's nearest all-sea hex: the measure an aircraft flying out to that
sea area uses), within the plane's mission range (escort range for an escort); the plane stays
listed aboard its carrier while it flies, and its flight's base is the carrier's sea box.  Ships
in Flames 3.1's die roll "to see if the attack catches anyone in port" is not played: the
computer edition's Surprise Points Used subphase takes its place.  The enemy may fly Combat Air
Patrol over a port only carrier planes threaten (port_attack.carrier_threats).  Either side's
carrier planes at sea intercept ("an interception from a CV", half range as interceptors) in the
interception subphases, once a phasing bomber has flown (so the mission is performed and they
land with the others).  The non-phasing side's carrier planes fly Combat Air Patrol over a
threatened hex in every air mission phase, a port attack's and the seven others' (role "cap", full
range, no activity): carrier_combat_air_patrol.py has that rule.
"""

from __future__ import annotations

from typing import Literal

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.air.aircraft import check_mission_weather, hex_label, reach
from plugins.rules.air.events import AirUnitFlew
from plugins.rules.air.missions import enemy_flight_hexes, escorted_hexes
from plugins.rules.air.mission_kinds import KINDS
from plugins.rules.air.state import AM, air
from plugins.rules.turn.activities import action_problem, activity_problem, charged, use_activity
from plugins.rules.units import units

from .carrier_combat_air_patrol import CAP_STEP, cap_candidates, cap_hexes, cap_problem, cap_target_problem
from .carrier_escort_and_interception import escort_intercept_roles
from .carrier_planes_flying_missions import (
    bomber_preview,
    bomber_roles,
    carrier_bomber_hexes,
    carrier_bomber_problem,
    carrier_bomber_target_problem,
)
from .naval_units import at_sea, carrier_of, is_carrier_air, label
from .port_attack import KIND, carrier_range_problem, distance_from_sea, grounded, target_problem, targets
from .sea_box_section import area_name, box_hex
from .state import rules

RULE = "Port Attack (carrier air units)"
BOMBERS_STEP = f"{AM}.phasing-side-flies-bombers"
# the Air Mission subphases where carrier planes fly, and as what
STEP_ROLES = {CAP_STEP: ("cap",), BOMBERS_STEP: ("bomber", "escort"), f"{AM}.non-phasing-side-flies-interceptors": ("interceptor",),
              f"{AM}.phasing-side-flies-interceptors": ("interceptor",)}
PURPOSE = {"bomber": "mission", "escort": "escort", "interceptor": "intercept", "cap": "cap"}  # the air plugin's ranges
ROLE_LABEL = {"bomber": "as a bomber", "escort": "as an escort", "interceptor": "as an interceptor (half range)",
              "cap": "on combat air patrol (full range)"}


class FlyCarrierAirUnit(Command):
    unit: str
    hex: tuple[int, int]
    role: Literal["bomber", "escort", "interceptor", "cap"] = "bomber"


def roles_now(state, step_id) -> tuple:
    """The roles a carrier plane may fly in ``step_id`` now: every role of a port attack's
    subphases; in the other air mission phases Combat Air Patrol (carrier_combat_air_patrol),
    bomber (carrier_planes_flying_missions), escort and interception
    (carrier_escort_and_interception)."""
    m = air(state).mission
    if not m.kind or m.performed:
        return ()
    if m.kind == KIND:
        return STEP_ROLES.get(step_id, ())
    if step_id == CAP_STEP:
        return ("cap",) if cap_problem(state) is None else ()
    return bomber_roles(state, step_id) + escort_intercept_roles(state, step_id)


def why_not_flyer(state, actor: str, unit_id: str, role: str) -> str | None:
    """May ``actor``'s carrier air unit ``unit_id`` fly from its carrier as ``role`` now?"""
    step = state.kernel.sequence.current
    roles = roles_now(state, step)
    if not roles:
        return (f"{RULE}: carrier air units fly from their carriers only in an air mission phase's Combat Air "
                "Patrol, Flies Bombers & Escorts and Flies Interceptors subphases, as bombers in a port attack, ground "
                "strike, ground support, strategic or carpet bombing (Naval Air flights \"can not be intercepted "
                "while flying out to sea\")")
    if role not in roles:
        return f"{RULE}: {role!r} is not a role in this subphase ({', '.join(roles)})"
    if role in ("bomber", "escort"):
        problem = action_problem(state, actor, air(state).mission.kind)
        if problem:
            return problem
    elif role == "interceptor" and not air(state).mission.bombers_flown.get(state.kernel.active_side):
        # authored (port_attack.carrier_interceptors): so the mission is performed and they land
        return f"{RULE}: carrier planes intercept only once a phasing bomber has flown this mission (authored)"
    elif role == "cap" and state.kernel.side_of(actor) == state.kernel.active_side:
        # Combat Air Patrol (CAP): "lets non-phasing major powers fly fighters"
        return f"{RULE}: only the non-phasing side flies Combat Air Patrol"
    u = units(state).units.get(unit_id)
    if u is None or u.power != actor or not is_carrier_air(u):
        return f"{RULE}: {unit_id!r} is not a carrier air unit of {actor}"
    if unit_id in air(state).mission.flights:
        return f"{RULE}: {label(state, unit_id)} is already flying in this mission"
    problem = grounded(state, u)
    if problem:
        return f"{RULE}: {problem}"
    if role == "bomber" and air(state).mission.kind != KIND:
        return carrier_bomber_problem(state, actor, u)
    if role == "bomber":
        if u.factors.get("naval", 0) <= 0:
            return f"{RULE}: {label(state, unit_id)} has no air-to-sea factor and cannot fly as a bomber"
        # "each carrier air unit counts separately against air mission activity limits"
        return activity_problem(state, actor, "air-mission", mission=KIND)
    return None


def role_hexes(state, actor: str, role: str) -> set:
    """Where a carrier plane of ``actor`` may fly as ``role`` (before range and weather): a port
    with enemy ships; a port a friendly bomber flies to; a hex enemy aircraft flew to; a port
    with ships the phasing side may attack (CAP, checked one by one)."""
    side = state.kernel.side_of(actor)
    if role == "bomber":
        return set(targets(state, actor)) if air(state).mission.kind == KIND else set(carrier_bomber_hexes(state, actor))
    if role == "cap":
        return cap_candidates(state)
    if role == "escort":
        return set(escorted_hexes(state, side))
    return set(enemy_flight_hexes(state, side))


def why_not_fly(state, actor: str, unit_id: str, hex_, role: str, threatened=None) -> str | None:
    """The rule of ``FlyCarrierAirUnit``: its handler, choices and preview all ask it.
    ``threatened``: carrier_combat_air_patrol.threats(state), if the caller has it already."""
    problem = why_not_flyer(state, actor, unit_id, role)
    if problem:
        return problem
    hex_ = tuple(hex_)
    if len(hex_) != 2 or not core.world_map().grid.contains(hex_):
        return f"{RULE}: hex {hex_} is not on the map"
    u = units(state).units[unit_id]
    if role == "cap":
        return cap_target_problem(state, u, hex_, threatened)
    try:
        check_mission_weather(state, hex_, RULE)
    except Rejected as e:
        return str(e)
    if role == "bomber" and air(state).mission.kind != KIND:
        problem = carrier_bomber_target_problem(state, u, hex_)
        if problem:
            return problem
    elif role == "bomber":
        problem = target_problem(state, u, hex_, None)
        if problem:
            return f"Port Attack: {problem}"
    elif role == "escort" and hex_ not in role_hexes(state, actor, role):
        return f"Escort: no friendly bomber is flying to hex {hex_} to escort"
    elif role == "interceptor" and hex_ not in role_hexes(state, actor, role):
        return f"Interception: no enemy aircraft have flown to hex {hex_}"
    problem = carrier_range_problem(state, u, hex_, PURPOSE[role])
    return f"{RULE}: {problem}" if problem else None


def _hexes(state, actor: str, u, role: str) -> list[Option]:
    if role == "cap":  # the threat, weather and range checks of why_not_fly, nearest first
        found = cap_hexes(state, u)
    else:
        limit = reach(u, PURPOSE[role])  # the range first: a ground strike's targets are every enemy unit's hex
        near = [h for h in role_hexes(state, actor, role) if distance_from_sea(state, u.id, h) <= limit]
        found = [tuple(h) for h in sorted(near, key=lambda h: (distance_from_sea(state, u.id, h), h))
                 if why_not_fly(state, actor, u.id, h, role) is None]
    return [Option(h, f"{hex_label(h)}, {distance_from_sea(state, u.id, h)} hexes from the sea area") for h in found]


def fly_choices(state, actor, step_id):
    roles_here = roles_now(state, step_id)
    if not roles_here:
        return None
    planes = [u for u in sorted(units(state).units.values(), key=lambda u: u.id)
              if u.power == actor and u.where == "aboard" and is_carrier_air(u)
              and any(why_not_flyer(state, actor, u.id, role) is None for role in roles_here)]
    if not planes:
        return None
    target = "port" if air(state).mission.kind == KIND else "target hex"

    def roles(u) -> list[Option]:
        out = []
        for role in roles_here:
            if why_not_flyer(state, actor, u.id, role) is None:
                hexes = _hexes(state, actor, u, role)
                if hexes:
                    out.append(Option(role, ROLE_LABEL[role], [Field("hex", "hex", hexes, label=target)]))
        return out

    def options() -> list[Option]:
        out = []
        for u in planes:
            found = roles(u)
            if found:
                box = at_sea(state, carrier_of(state, u.id))
                out.append(Option(u.id, f"{label(state, u.id)} aboard {label(state, carrier_of(state, u.id))}, "
                                        f"{area_name(box.area)} section {box.section}, range {u.factors.get('range', 0)}",
                                  [Field("role", "option", found, label="role")]))
        return out
    return [Field("unit", "unit", options, label="carrier air unit to fly from its carrier")]


def fly_preview(state, cmd: FlyCarrierAirUnit) -> dict:
    problem = why_not_fly(state, cmd.actor, cmd.unit, cmd.hex, cmd.role)
    if problem:
        raise Rejected(problem)
    u = units(state).units[cmd.unit]
    carrier = carrier_of(state, cmd.unit)
    box = at_sea(state, carrier)
    out = {"unit": cmd.unit, "carrier": carrier, "area": box.area, "section": box.section, "hex": list(cmd.hex),
           "role": cmd.role, "distance": distance_from_sea(state, cmd.unit, cmd.hex), "reach": reach(u, PURPOSE[cmd.role]),
           "mission": KINDS[air(state).mission.kind].name, "lands_on": carrier, "disorganized_after": True}
    kind = air(state).mission.kind
    out["activities"] = {"air-mission": 1} if cmd.role == "bomber" and charged("air-mission", kind) else {}
    if cmd.role == "bomber" and kind == KIND:
        out["air_to_sea"] = u.factors.get("naval", 0)
    elif cmd.role == "bomber":
        out.update(bomber_preview(state, u, cmd.hex))
    return out


@rules.command(FlyCarrierAirUnit, choices=fly_choices, preview=fly_preview)
def fly_carrier_air_unit(ctx, cmd: FlyCarrierAirUnit) -> None:
    state = ctx.state
    problem = why_not_fly(state, cmd.actor, cmd.unit, cmd.hex, cmd.role)
    if problem:
        raise Rejected(problem)
    if cmd.role == "bomber":
        use_activity(ctx, cmd.actor, "air-mission", mission=air(state).mission.kind)
    box = at_sea(state, carrier_of(state, cmd.unit))
    # the plane stays aboard its carrier (no UnitMoved): it flies from the carrier's sea box
    ctx.emit(AirUnitFlew(unit=cmd.unit, power=cmd.actor, side=state.kernel.side_of(cmd.actor), role=cmd.role,
                         hex=tuple(cmd.hex), base=box_hex(box.area)))
