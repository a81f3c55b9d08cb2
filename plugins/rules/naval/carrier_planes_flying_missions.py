"""Carrier planes flying missions: a carrier air unit aboard a carrier at sea flies as the
bomber of a Ground Strike, Ground Support (either side), Strategic Bombardment or Carpet Bombing
(``FlyCarrierAirUnit`` with role "bomber"; port_attack_carrier_air.py runs the command and the
port attack's own bombers).

Seeds: Ships in Flames 8.1: "A carrier plane can be used as either a fighter or a bomber.  Except
in naval air combats, a carrier plane can only be committed to a mission or as an escort if it is
face-up"; 8.5 Flying Missions (L792-796): "Only face-up carrier planes can fly a mission (except
naval air), an escort, or an interception from a CV.  You start the carrier plane's move from any
hex dot in the sea area ... and then fly to any hex within range or into an adjacent land
section.  You resolve these missions in the normal way.  Turn your carrier plane face-down when
it returns from flying to a hex".  "Phasing Side Flies Bombers & Escorts" (L11840-11880): carriers
at sea fly "air missions performed by bombers during the phases: port attacks, strategic
bombing, carpet bombing, ground strikes, and ground support", and "the owning major power needs
to specify whether the air unit is flying as a bomber or as a fighter"; "Non-Phasing Side Flies
Bombers & Escorts" (L11882-11894): in the ground support phase the non-phasing side "can perform
the same tasks"; "Carrier Based Air Unit Classes" (L1356-1479): "each carrier air unit counts
separately against air mission activity limits".

What it reuses: who may fly is the mission kind's own ``flyer`` (a tactical factor for a ground
strike or ground support, a strategic one for a bombing) and port_attack.grounded (at sea, an
undamaged carrier, face up); the targets are the kind's (missions.target_hexes, the kind's
``target_problem``); the range is port_attack.carrier_range_problem (the mission range from the
carrier's sea area); the action gate and the activity are the turn plugin's for that kind.  The
mission then runs "in the normal way": interception, air-to-air combat, anti-aircraft fire and the
kind's ``perform`` count the carrier plane's factor as a land-based bomber's (they read the
flight's hex, never the plane's); it lands back aboard its carrier face down once the mission is
performed, or at once when aborted (carrier_combat_air_patrol.land_after_performance).

Ruled out: Naval Air ("except naval air": a naval air combat has rules of its own,
naval_air_combat.py); the air transport missions (Air Transport, Paradrop, Reorganization by Air
Transport: their "bombers" are air transports with cargo).

Authored: a carrier plane's bomber role is offered only in an air mission phase with a target of
that kind in its range (``carrier_bombers_in_reach``: the phase is played for it, as for a
land-based bomber on the map, and the enemy may fly Combat Air Patrol over the targets it
threatens, ``carrier_bomber_threats``).
"""

from __future__ import annotations

from dataclasses import replace

from plugins.rules.air.aircraft import bombing_factor, reach
from plugins.rules.air.mission_kinds import KINDS, MissionKind, extend_every_kind
from plugins.rules.air.missions import strike_targets, target_hexes
from plugins.rules.air.state import AM, air
from plugins.rules.turn.activities import action_problem, activity_problem

from .carrier_combat_air_patrol import NO_CAP_KINDS, _naval_game
from .port_attack import KIND as PORT_ATTACK_KIND
from .port_attack import distance_from_sea, free_carrier_planes

# the Air Mission subphases where a side flies its bombers (the non-phasing side's only in Ground Support)
BOMBER_STEPS = frozenset({f"{AM}.phasing-side-flies-bombers", f"{AM}.non-phasing-side-flies-bombers"})


def carrier_bombs_in(kind: MissionKind) -> bool:
    """May a carrier plane fly as ``kind``'s bomber through this rule: its bombers carry nothing
    (not an air transport's), and it is neither a naval air combat nor the port attack
    (port_attack_carrier_air.py has the port attack's bombers)."""
    return kind.id not in NO_CAP_KINDS and kind.id != PORT_ATTACK_KIND and kind.cargo is None


def bombing_kind(kind_id: str) -> MissionKind | None:
    """The mission kind ``kind_id`` if a carrier plane may fly as its bomber here, else None."""
    kind = KINDS.get(kind_id)
    return kind if kind is not None and carrier_bombs_in(kind) else None


def bomber_roles(state, step_id: str) -> tuple:
    """("bomber",) in a Flies Bombers & Escorts subphase of a mission a carrier plane may bomb in."""
    m = air(state).mission
    if not m.kind or m.performed or step_id not in BOMBER_STEPS or bombing_kind(m.kind) is None:
        return ()
    return ("bomber",)


def carrier_bomber_problem(state, actor: str, unit) -> str | None:
    """Why ``actor``'s carrier plane ``unit`` (it may fly from its carrier) cannot be this
    mission's bomber: the kind's own flyer (its factor), then the activity it costs ("each carrier
    air unit counts separately against air mission activity limits"), or None."""
    kind = KINDS[air(state).mission.kind]
    problem = kind.flyer(state, unit)
    if problem:
        return f"{kind.name}: {problem}"
    return activity_problem(state, actor, "air-mission", mission=kind.id)


def carrier_bomber_hexes(state, actor: str) -> frozenset:
    """Every hex that may be a target of this mission for ``actor`` (checked one by one)."""
    return target_hexes(state, actor, air(state).mission.kind)


def carrier_bomber_target_problem(state, unit, hex_) -> str | None:
    """Why the carrier plane ``unit`` may not bomb ``hex_`` in this mission (the kind's target
    rule; the weather and the range are the caller's), or None."""
    kind = KINDS[air(state).mission.kind]
    problem = kind.target_problem(state, unit, hex_, None)
    return f"{kind.name}: {problem}" if problem else None


def bomber_preview(state, unit, hex_) -> dict:
    """What a carrier plane's bombing would count, as a land-based bomber's preview says it: the
    kind's factor and its value after the target hex's weather and terrain; a ground strike's
    targets."""
    kind = KINDS[air(state).mission.kind]
    out = {"factor": kind.factor}
    if kind.factor:
        out[kind.factor] = bombing_factor(state, unit, hex_, kind.factor)
    if kind.id == "ground-strike":
        out["targets"] = [u.id for u in strike_targets(state, unit.power, hex_)]
    return out


# ---------------------------------------------------------------- the phase, and CAP against them
def _bombers_by_power(state, kind_id: str, powers) -> dict:
    """``powers``' carrier planes that may fly from their carriers as ``kind_id``'s bombers now."""
    kind = KINDS[kind_id]
    out = {}
    for power in powers:
        if action_problem(state, power, kind_id) or activity_problem(state, power, "air-mission", mission=kind_id):
            continue
        side = state.kernel.side_of(power)
        planes = [u for u in free_carrier_planes(state, side) if u.power == power and kind.flyer(state, u) is None]
        if planes:
            out[power] = planes
    return out


def _reachable(state, kind_id: str, power: str, planes) -> set:
    """The targets of ``kind_id`` for ``power`` that one of ``planes`` reaches from its sea area."""
    # carrier_range_problem's measure and limit, without its words for every hex out of range
    limits = [(u.id, reach(u, "mission")) for u in planes]
    return {tuple(h) for h in target_hexes(state, power, kind_id)
            if any(distance_from_sea(state, uid, h) <= limit for uid, limit in limits)}


def carrier_bombers_in_reach(state, kind_id: str, power: str) -> bool:
    """``MissionKind.bombers_elsewhere``: ``power`` has a carrier plane at sea that may fly as
    ``kind_id``'s bomber to one of its targets in range, so the phase is played."""
    if not _naval_game(state):
        return False
    planes = _bombers_by_power(state, kind_id, [power]).get(power)
    if not planes:
        return False
    return bool(_reachable(state, kind_id, power, planes))


def carrier_bomber_threats(state) -> set:
    """``MissionKind.threatened``: the targets of this mission the phasing side's carrier planes
    at sea may fly to as its bombers (so the enemy may fly Combat Air Patrol over them)."""
    kind_id = air(state).mission.kind
    if not _naval_game(state) or bombing_kind(kind_id) is None:
        return set()
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    out = set()
    for power, planes in _bombers_by_power(state, kind_id, phasing).items():
        out |= _reachable(state, kind_id, power, planes)
    return out


def _extend(kind):
    """A kind carrier planes may bomb in: its phase is played for them and CAP may fly over the
    targets they threaten (a kind with threats of its own keeps them)."""
    if not carrier_bombs_in(kind):
        return kind
    mine = getattr(kind.bombers_elsewhere, "carrier_planes", False)
    if kind.bombers_elsewhere is not None and not mine:
        return kind

    def bombers_elsewhere(state, power, kind_id=kind.id):
        return carrier_bombers_in_reach(state, kind_id, power)
    bombers_elsewhere.carrier_planes = True
    threatened = kind.threatened if kind.threatened is not None and not mine else carrier_bomber_threats
    return replace(kind, bombers_elsewhere=bombers_elsewhere, threatened=threatened)


extend_every_kind("naval: carrier air units fly as bombers", _extend)
