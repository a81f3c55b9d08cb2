"""Escort and interception by carrier air units from their carriers at sea, in every air mission
phase (``FlyCarrierAirUnit`` with role "escort" or "interceptor"; port_attack_carrier_air.py
runs the command, carrier_combat_air_patrol.py lands the planes).

Seeds: "Phasing Side Flies Bombers & Escorts" (L11840-11880): "the major powers on the phasing
side can also fly escorts to protect the bombers/air transports", and carriers at sea fly "as
fighter escorts (during all air mission phases)" (without the Carrier Planes rule, through a
temporary carrier air unit: with it, the carrier air unit itself flies); "Non-Phasing Side Flies
Bombers & Escorts" (L11882-11894): in the ground support phase the non-phasing side "can perform
the same tasks"; "Non-Phasing Side Flies Interceptors" (L11896-11908): "intercepting fighters to
any hex where their enemies have flown bombers/air transports/escorts", "carriers at sea can fly
as fighter interceptors"; "Phasing Side Flies Interceptors" (L11910-11920): "to any hex where an
enemy has flown bombers or fighters".  Ships in Flames 8.5 Flying Missions: "Only face-up carrier
planes can fly a mission (except naval air), an escort, or an interception from a CV.  You start
the carrier plane's move from any hex dot in the sea area ... and then fly to any hex within
range"; "Carrier Based Air Unit Classes" (L1356-1479): "Treat it as a land based fighter if it
flew as a fighter".  Who may fly is port_attack.grounded; the range is
port_attack.carrier_range_problem (escort range for an escort, half range for an interceptor);
the hexes are the air plugin's (missions.escorted_hexes, missions.enemy_flight_hexes).

Ruled out: Naval Air (L10311-10329): aircraft flying out to sea "can not be intercepted while
flying out to sea", and a naval air combat has no escort or interception subphase of this kind
(its planes "fly into battle"): carrier_combat_air_patrol.NO_CAP_KINDS.

Authored: as for Combat Air Patrol, the carrier plane lands back aboard its carrier face down
once the mission is performed (carrier_combat_air_patrol.land_after_performance), or at once when
aborted; it intercepts only once a phasing bomber has flown (port_attack.carrier_interceptors),
so the mission is performed and it lands with the others.  Carrier planes flying as the
mission's bombers outside the port attack: carrier_planes_flying_missions.py.
"""

from __future__ import annotations

from dataclasses import replace

from plugins.rules.air.aircraft import reach
from plugins.rules.air.mission_kinds import extend_every_kind
from plugins.rules.air.missions import enemy_flight_hexes
from plugins.rules.air.state import AM, air

from .carrier_combat_air_patrol import NO_CAP_KINDS, _naval_game
from .port_attack import carrier_interceptors, distance_from_sea, free_carrier_planes

# the Air Mission subphases of every air mission phase where carrier planes escort or intercept
MISSION_STEP_ROLES = {
    f"{AM}.phasing-side-flies-bombers": ("escort",),
    f"{AM}.non-phasing-side-flies-bombers": ("escort",),  # played only in Ground Support
    f"{AM}.non-phasing-side-flies-interceptors": ("interceptor",),
    f"{AM}.phasing-side-flies-interceptors": ("interceptor",),
}


def escort_intercept_roles(state, step_id: str) -> tuple:
    """The roles ("escort", "interceptor") a carrier plane may fly in ``step_id`` of an air
    mission other than a naval air combat (none while Naval Air flies out to sea)."""
    m = air(state).mission
    if not m.kind or m.performed or m.kind in NO_CAP_KINDS:
        return ()
    return MISSION_STEP_ROLES.get(step_id, ())


def carrier_interceptors_in_reach(state, side: str) -> bool:
    """``MissionKind.interceptors``: ``side`` has carrier planes at sea that may intercept an
    enemy flight in half range of their sea area, once a phasing bomber has flown."""
    if air(state).mission.kind in NO_CAP_KINDS or not carrier_interceptors(state, side):
        return False
    hexes = enemy_flight_hexes(state, side)
    return any(distance_from_sea(state, u.id, h) <= reach(u, "intercept")
               for u in free_carrier_planes(state, side) for h in hexes)


def _interceptors(state, side: str) -> bool:
    return _naval_game(state) and carrier_interceptors_in_reach(state, side)


def _extend(kind):
    """Every air mission kind but a naval air combat and those with interceptors of their own
    (the port attack's): carrier planes at sea intercept in its interception subphases."""
    if kind.id in NO_CAP_KINDS:
        return kind
    if kind.interceptors is not None and getattr(kind.interceptors, "__name__", "") != "_interceptors":
        return kind
    return replace(kind, interceptors=_interceptors)


extend_every_kind("naval: carrier air units escort and intercept", _extend)
