"""Combat Air Patrol (CAP) by carrier air units from their carriers at sea, in every air mission
phase (``FlyCarrierAirUnit`` with role "cap"; port_attack_carrier_air.py runs the command).

Seeds: "Combat Air Patrol (CAP)" (L11785-11834): the subphase "lets non-phasing major powers fly
fighters to hexes that are vulnerable to air attack during the current air mission phase (e.g.,
ground strike phase)", and "it might be flown in each of the 8 air mission phases"; "If the
optional rule Carrier Planes is not being used, then carriers at sea can fly CAP" through a
temporary carrier air unit, so with the rule the carrier air unit itself flies it: "Carrier Based
Air Unit Classes" (L1356-1479), Carrier planes as aircraft: "A carrier air unit can fly a mission
from a hex just like any other aircraft.  Treat it as a land based fighter if it flew as a
fighter"; Ships in Flames 8.1: "A carrier plane can be used as either a fighter or a bomber"; 8.5
Flying Missions: "Only face-up carrier planes can fly a mission (except naval air), an escort, or
an interception from a CV.  You start the carrier plane's move from any hex dot in the sea area
... and then fly to any hex within range ... You resolve these missions in the normal way".  Who
may fly is port_attack.grounded (at sea, undamaged carrier, face up).  "Disable Phases and Combat
Air Patrol" (L846-958): "A fighter flying CAP uses its printed range"; CAP fighters are
"automatically disorganized at the end of the phase regardless of whether an air combat takes
place" and "do not count against mission limits"; "CAP may only be flown for hexes where an enemy
attack is possible" (the air plugin's ``threat_problem``: a phasing bomber or air transport on the
map that can fly this mission to a target there, or a port the phasing side's carrier planes
threaten in a port attack).

Ruled out: Naval Air (L10311-10329): aircraft flying to a sea area "can not be intercepted while
flying out to sea", and it is not one of the 8 air mission phases, so nobody flies CAP against
it; a naval air combat has no CAP subphase ("Naval Air-to-air Combat": the planes in the combat
"fly into battle").  FlyCarrierAirUnit is refused outside the Air Mission subphases.

Authored: the range is counted from the carrier's sea area (port_attack.distance_from_sea), the
CAP fighter's full printed range.  A carrier plane on CAP lands back aboard the carrier it flew
from, face down, with the other carrier planes once the mission is performed
(``land_after_performance``; in a port attack port_attack.land_carrier_planes) or, when no
phasing bomber flew, as soon as the phasing side's Flies Bombers & Escorts subphase ends
(``land_when_no_bomber_flew``); one aborted in the air-to-air combat lands at once
(port_attack.land_aborted).  The seeds have CAP fighters return "during the subphase
'non-phasing side returns to base'", which asks for a land hex: a carrier plane has landed by then.
The same landing serves the carrier planes that escort ("Phasing Side Flies Bombers & Escorts",
L11840-11880: "fly as fighter escorts (during all air mission phases)") and intercept
("Non-Phasing Side Flies Interceptors", L11896-11908; "Phasing Side Flies Interceptors",
L11910-11920: "carriers at sea can fly as fighter interceptors") in every air mission phase:
carrier_escort_and_interception.py has that rule.
"""

from __future__ import annotations

from dataclasses import replace

from kernel.errors import Rejected
from plugins.rules.air.aircraft import check_mission_weather, reach
from plugins.rules.air.mission_kinds import extend_every_kind
from plugins.rules.air.missions import other_threats, phasing_bombers, target_hexes, threat_problem
from plugins.rules.air.state import AM, air

from .naval_air_combat import KIND as NAVAL_AIR_COMBAT
from .port_attack import carrier_range_problem, distance_from_sea, free_carrier_planes, land_aborted, land_carrier_planes

RULE = "Combat Air Patrol (carrier air units)"
CAP_STEP = f"{AM}.combat-air-patrol"
BOMBERS_STEP = f"{AM}.phasing-side-flies-bombers"
# fought over a sea area: no Air Mission sub-machine, no CAP (the kind's id is "naval-air": the
# "naval-air-combat" written here before matched no kind, so every extension reached it too)
NO_CAP_KINDS = frozenset({NAVAL_AIR_COMBAT})


def cap_problem(state) -> str | None:
    """Why no carrier plane may fly CAP now whoever it is (the subphase, the mission), or None."""
    m = air(state).mission
    if state.kernel.sequence.current != CAP_STEP or not m.kind or m.performed or m.kind in NO_CAP_KINDS:
        return (f"{RULE}: carrier air units fly Combat Air Patrol only in the Combat Air Patrol subphase of "
                "an air mission phase (Naval Air flights \"can not be intercepted while flying out to sea\")")
    return None


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


def cap_candidates(state, threatened=None) -> set:
    """The hexes CAP might cover this mission (checked one by one by ``cap_target_problem``): the
    targets of the mission for the powers of the phasing bombers, and the ports the phasing
    carrier planes threaten."""
    bombers, others = threatened or threats(state)
    kind = air(state).mission.kind
    return set(others).union(*(target_hexes(state, p, kind) for p in {b.power for b in bombers}))


def cap_hexes(state, unit, threatened=None) -> list:
    """The hexes ``unit`` may fly CAP over now, nearest its carrier's sea area first."""
    threatened = threatened or threats(state)
    limit = reach(unit, "cap")
    near = [h for h in cap_candidates(state, threatened) if distance_from_sea(state, unit.id, h) <= limit]
    return [tuple(h) for h in sorted(near, key=lambda h: (distance_from_sea(state, unit.id, h), h))
            if cap_target_problem(state, unit, h, threatened) is None]


def carrier_cap_flyers(state, side: str) -> bool:
    """``MissionKind.cap_flyers``: ``side``'s carrier planes at sea may fly CAP over some hex."""
    planes = free_carrier_planes(state, side)
    if not planes:
        return False
    threatened = threats(state)
    return any(cap_hexes(state, u, threatened) for u in planes)


def land_when_no_bomber_flew(ctx, step_id: str) -> None:
    """The phasing side flew no bomber: no attack will be performed, so the carrier planes on CAP
    land back aboard now, face down ("automatically disorganized at the end of the phase")."""
    m = air(ctx.state).mission
    if step_id != BOMBERS_STEP or not m.kind or m.bombers_flown.get(ctx.state.kernel.active_side):
        return
    land_carrier_planes(ctx)


def _naval_game(state) -> bool:
    """The game plays the naval rules (the kinds are the process's: a game without the naval
    plugin must play them as if they had no carrier planes, so its log is the same)."""
    return "naval" in state.sections


def _cap_flyers(state, side: str) -> bool:
    return _naval_game(state) and carrier_cap_flyers(state, side)


def _land_aborted(ctx, unit_ids) -> None:
    if _naval_game(ctx.state):
        land_aborted(ctx, unit_ids)


def _extend(kind):
    """Every air mission kind but a naval air combat: carrier planes at sea may fly its CAP
    (``cap_flyers``), land aboard once it is performed and at once when aborted."""
    if kind.id in NO_CAP_KINDS:
        return kind
    perform = getattr(kind.perform, "performed_before_landing", kind.perform)  # a reload extends again

    def land_after_performance(ctx, flights):
        perform(ctx, flights)
        if _naval_game(ctx.state):
            land_carrier_planes(ctx)
    land_after_performance.performed_before_landing = perform
    ours = kind.return_aborted is None or getattr(kind.return_aborted, "__name__", "") in ("land_aborted", "_land_aborted")
    return replace(kind, cap_flyers=_cap_flyers, perform=land_after_performance,
                   return_aborted=_land_aborted if ours else kind.return_aborted)


extend_every_kind("naval: carrier air units on Combat Air Patrol", _extend)
