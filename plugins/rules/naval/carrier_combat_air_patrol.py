"""Combat Air Patrol (CAP) by carrier air units from their carriers at sea, in a port attack
(``FlyCarrierAirUnit`` with role "cap"; port_attack_carrier_air.py runs the command).

Seeds: "Combat Air Patrol (CAP)" (L11785-11834): the subphase "lets non-phasing major powers fly
fighters to hexes that are vulnerable to air attack"; "If the optional rule Carrier Planes is not
being used, then carriers at sea can fly CAP" through a temporary carrier air unit, so with the
rule the carrier air unit itself flies it: "Carrier Based Air Unit Classes" (L1356-1479), Carrier
planes as aircraft: "A carrier air unit can fly a mission from a hex just like any other aircraft.
Treat it as a land based fighter if it flew as a fighter"; Ships in Flames 8.1: "A carrier plane
can be used as either a fighter or a bomber"; 8.5 Flying Missions: "Only face-up carrier planes
can fly a mission (except naval air), an escort, or an interception from a CV.  You start the
carrier plane's move from any hex dot in the sea area".  Who may fly is port_attack.grounded (at
sea, undamaged carrier, face up).  "Disable Phases and Combat Air Patrol" (L846-958): "A fighter
flying CAP uses its printed range"; CAP fighters are "automatically disorganized at the end of the
phase regardless of whether an air combat takes place" and "do not count against mission limits";
"CAP may only be flown for hexes where an enemy attack is possible" (the air plugin's
``threat_problem``, which counts the ports the phasing side's carrier planes threaten too).

Authored: carrier planes fly CAP in the Port Attack phase only (the other seven air missions'
targets are land hexes the air plugin's land-based fighters cover); the range is counted from the
carrier's sea area (port_attack.distance_from_sea).  A carrier plane on CAP lands back aboard the
carrier it flew from, face down, with the other carrier planes once the attack is performed
(port_attack.land_carrier_planes) or, when no phasing bomber flew, as soon as the phasing side's
Flies Bombers & Escorts subphase ends (``land_when_no_bomber_flew``): the seeds have CAP fighters
return "during the subphase 'non-phasing side returns to base'", which asks for a land hex.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.errors import Rejected
from plugins.rules.air.aircraft import check_mission_weather
from plugins.rules.air.mission_kinds import KINDS, register
from plugins.rules.air.missions import other_threats, phasing_bombers, threat_problem
from plugins.rules.air.state import AM, air

from .port_attack import KIND, carrier_range_problem, free_carrier_planes, land_carrier_planes, targets

RULE = "Combat Air Patrol (carrier air units)"
CAP_STEP = f"{AM}.combat-air-patrol"
BOMBERS_STEP = f"{AM}.phasing-side-flies-bombers"


def threats(state) -> tuple:
    """What makes a hex threatened this mission (the air plugin's): the phasing bombers on the
    map and the ports the phasing carrier planes threaten; computed once for many checks."""
    return phasing_bombers(state), other_threats(state)


def cap_target_problem(state, unit, hex_, threatened=None) -> str | None:
    """Why the carrier plane ``unit`` may not fly CAP over ``hex_`` (the hex's threat, the
    weather there, the plane's printed range from its carrier's sea area), or None.
    ``threatened``: ``threats(state)`` if the caller has it already."""
    hex_ = tuple(hex_)
    problem = threat_problem(state, hex_, *(threatened or threats(state)))
    if problem:
        return problem
    try:
        check_mission_weather(state, hex_, RULE)
    except Rejected as e:
        return str(e)
    problem = carrier_range_problem(state, unit, hex_, "cap")
    return f"{RULE}: {problem}" if problem else None


def cap_candidates(state) -> set:
    """The ports CAP might cover this port attack (checked one by one by ``cap_target_problem``):
    the ports holding ships some phasing power may attack."""
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    return set().union(*(targets(state, p) for p in phasing)) if phasing else set()


def carrier_cap_flyers(state, side: str) -> bool:
    """``MissionKind.cap_flyers``: ``side``'s carrier planes at sea may fly CAP over some port."""
    if air(state).mission.kind != KIND:
        return False
    planes = free_carrier_planes(state, side)
    if not planes:
        return False
    ports, threatened = cap_candidates(state), threats(state)
    return any(cap_target_problem(state, u, port, threatened) is None for u in planes for port in ports)


def land_when_no_bomber_flew(ctx, step_id: str) -> None:
    """The phasing side flew no bomber: no attack will be performed, so the carrier planes on CAP
    land back aboard now, face down ("automatically disorganized at the end of the phase")."""
    m = air(ctx.state).mission
    if step_id != BOMBERS_STEP or m.kind != KIND or m.bombers_flown.get(ctx.state.kernel.active_side):
        return
    land_carrier_planes(ctx)


# the port attack's carrier planes may fly CAP: its CAP subphase is played for them
register(replace(KINDS[KIND], cap_flyers=carrier_cap_flyers))
