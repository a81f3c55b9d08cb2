"""Flying an air mission (PM 7.8): the mission phases that push the Air Mission sub-machine,
Combat Air Patrol, bombers and escorts, interceptors, and which subphases are skipped.

Seeds: "Ground Strike", "Ground Support", "Combat Air Patrol (CAP)", "Phasing Side Flies
Bombers & Escorts", "Non-Phasing Side Flies Bombers & Escorts", "Non-Phasing Side Flies
Interceptors", "Phasing Side Flies Interceptors", "Surprise Points Used", "Air-to-air
Combat", "Anti-aircraft Attacks by Non-Phasing Side" and "Air Mission Performed".

Each command has one check per level, shared by its handler, its choices and its preview:
the flyer (``check_*_flyer``: may this unit fly in this role now) and the target
(``check_*_target``: may it fly to this hex).
"""

from __future__ import annotations

from kernel.errors import Rejected
from kernel.position_memo import per_position
from plugins.rules.combat import open_combats
from plugins.rules.core import enemies
from plugins.rules.turn.activities import action_problem, check_action, use_activity
from plugins.rules.units import UnitMoved

from .aircraft import (
    check_activity,
    check_can_fly,
    check_in_range,
    check_mission_weather,
    distance,
    is_fighter,
    name,
    other_side,
    reach,
    side,
    units_of,
)
from .anti_aircraft import why_no_aa
from .events import AirMissionBegan, AirUnitFlew
from .mission_kinds import KINDS
from .state import AM, MISSION_KIND, MISSION_NAME, air, flights_of

PURPOSE = {"bomber": "mission", "escort": "escort", "cap": "cap", "interceptor": "intercept"}


def mission_running(state, rule: str):
    m = air(state).mission
    if not m.kind or m.performed:
        raise Rejected(f"{rule}: no air mission is being flown now")
    return m


# ---------------------------------------------------------------- targets
def attacked_hexes(state) -> set[tuple[int, int]]:
    """Hexes under land attack this impulse (Ground Support targets): the declared attacks."""
    return {tuple(c.hex) for c in open_combats(state)}


def strike_targets(state, power: str, hex_) -> list:
    """Ground Strike: the organized enemy land and air units in the hex (not the flying ones)."""
    flying = air(state).mission.flights
    return sorted((u for u in state["units"].in_hex(tuple(hex_))
                   if u.branch in ("land", "air") and u.face_up and u.id not in flying and enemies(state, power, u.power)),
                  key=lambda u: u.id)


def viable_target(state, power: str, kind: str, hex_) -> bool:
    """Is ``hex_`` a target of this ``kind`` of mission for some bomber of ``power``?"""
    return tuple(hex_) in target_hexes(state, power, kind)  # the set kept once a position (a CAP asks per hex)


def target_hexes(state, power: str, kind: str) -> frozenset[tuple[int, int]]:
    """Every hex where ``viable_target`` may hold for ``power`` (a superset, checked one by one);
    worked out once a position (every fighter offered CAP asks it)."""
    k = KINDS.get(kind)
    if k is None:
        return frozenset()
    return per_position(state, ("air mission targets", power, kind), lambda: frozenset(k.targets(state, power)))


def _fly(ctx, unit, role: str, hex_, cargo: str | None = None, also_organize=()) -> None:
    ctx.emit(AirUnitFlew(unit=unit.id, power=unit.power, side=side(ctx.state, unit.power), role=role,
                         hex=tuple(hex_), base=unit.hex, cargo=cargo, also_organize=list(also_organize)))
    ctx.emit(UnitMoved(unit=unit.id, to_hex=tuple(hex_)))


# ---------------------------------------------------------------- Combat Air Patrol
def check_cap_flyer(state, actor: str, unit_id: str):
    # Combat Air Patrol (CAP): non-phasing fighters, full range, only to a truly threatened hex
    mission_running(state, "Combat Air Patrol")
    unit = check_can_fly(state, actor, unit_id)
    if not is_fighter(unit):
        raise Rejected(f"Combat Air Patrol: only fighters fly CAP; {name(state, unit.id)} is a {unit.type}")
    return unit


def phasing_bombers(state) -> tuple:
    """The phasing side's organized bombers on the ground whose power may fly this mission."""
    return per_position(state, "phasing bombers", lambda: _phasing_bombers(state))


def _phasing_bombers(state) -> tuple:
    m = air(state).mission
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    allowed = {p: not action_problem(state, p, m.kind) for p in phasing}
    kind = KINDS[m.kind]
    return tuple(u for u in units_of(state).values()
                 if allowed.get(u.power) and u.branch == "air" and u.on_map and u.face_up
                 and u.id not in m.flights and kind.flyer(state, u) is None)


def other_threats(state) -> frozenset:
    """Targets of this mission that bombers not on a map hex threaten (``MissionKind.threatened``);
    one object a position (``threat_problem`` tells the position's own by identity)."""
    kind = KINDS[air(state).mission.kind]
    return per_position(state, "other threats",
                        lambda: frozenset(kind.threatened(state)) if kind.threatened is not None else frozenset())


def threat_problem(state, hex_, bombers=None, threats=None) -> str | None:
    """Why CAP may not fly over ``hex_`` in this mission whoever flies it (the naval plugin's
    carrier planes ask it too), or None.  ``bombers``, ``threats``: ``phasing_bombers(state)``,
    ``other_threats(state)`` if the caller has them already."""
    if (bombers is None or bombers is phasing_bombers(state)) and (threats is None or threats is other_threats(state)):
        # the position's own bombers and threats: every fighter offered CAP asks of the same hexes
        return per_position(state, ("CAP threat", tuple(hex_)), lambda: _threat_problem(state, hex_, None, None))
    return _threat_problem(state, hex_, bombers, threats)


def _threat_problem(state, hex_, bombers, threats) -> str | None:
    m = air(state).mission
    # "MWIF deviates from RAW in that major powers are not permitted to fly CAP missions
    # unless the target hex is truly threatened.  There has to be an enemy bomber/air
    # transport capable of flying a mission to the hex, which means there has to be a
    # viable target within the hex."
    if not any(distance(b.hex, hex_) <= reach(b, "mission") and viable_target(state, b.power, m.kind, hex_)
               for b in (phasing_bombers(state) if bombers is None else bombers)) \
            and tuple(hex_) not in (other_threats(state) if threats is None else threats):
        return (f"Combat Air Patrol: hex {tuple(hex_)} is not threatened by this {MISSION_NAME[m.kind]} "
                "mission (no enemy bomber can fly to a target there)")
    return None


def check_cap_target(state, unit, hex_, bombers=None, threats=None) -> None:
    problem = threat_problem(state, hex_, bombers, threats)
    if problem:
        raise Rejected(problem)
    check_in_range(state, unit, hex_, "cap", "Combat Air Patrol")
    check_mission_weather(state, hex_, "Combat Air Patrol")


def fly_cap(ctx, cmd) -> None:
    unit = check_cap_flyer(ctx.state, cmd.actor, cmd.unit)
    check_cap_target(ctx.state, unit, cmd.hex)
    _fly(ctx, unit, "cap", cmd.hex)  # CAP does not count against activity limits


def cap_hexes(state, unit) -> list[tuple[int, int]]:
    bombers, threats = phasing_bombers(state), other_threats(state)
    kind = air(state).mission.kind
    candidates = set().union(threats, *(target_hexes(state, p, kind) for p in {b.power for b in bombers}))
    return _passing(unit, candidates, "cap", lambda h: check_cap_target(state, unit, h, bombers, threats))


# ---------------------------------------------------------------- bombers and escorts
def check_mission_flyer(state, actor: str, unit_id: str, role: str):
    """Phasing / Non-Phasing Side Flies Bombers & Escorts: may ``unit_id`` fly as ``role``?"""
    m = mission_running(state, "Air missions")
    unit = check_can_fly(state, actor, unit_id)
    # Ground Support: "All major powers on both sides can fly ground support missions, except
    # for major powers on the phasing side which chose a Pass action" (the turn plugin's gate)
    check_action(state, actor, m.kind)
    if role == "bomber":
        problem = KINDS[m.kind].flyer(state, unit)
        if problem:
            raise Rejected(f"{MISSION_NAME[m.kind]}: {problem}")
        # Activity Limits: every aircraft that flies is an air mission, except CAP, escort,
        # interception and ground support.
        check_activity(state, actor, "air-mission", mission=m.kind)
    elif not is_fighter(unit):
        raise Rejected(f"Escort: only fighters escort; {name(state, unit.id)} is a {unit.type}")
    return unit


def check_mission_target(state, unit, hex_, role: str, cargo: str | None = None, also_organize=()) -> None:
    m = air(state).mission
    check_mission_weather(state, hex_, MISSION_NAME[m.kind])
    if role == "bomber":
        kind = KINDS[m.kind]
        if cargo is not None and kind.cargo is None:
            raise Rejected(f"{kind.name}: a {kind.name} bomber carries nothing (cargo {cargo!r})")
        if also_organize and kind.further_cargo is None:
            raise Rejected(f"{kind.name}: a {kind.name} bomber organizes nothing (also_organize {list(also_organize)!r})")
        problem = (kind.target_problem(state, unit, hex_, cargo, list(also_organize)) if also_organize
                   else kind.target_problem(state, unit, hex_, cargo))
        if problem:
            raise Rejected(f"{kind.name}: {problem}")
        check_in_range(state, unit, hex_, "mission", kind.name)
        for activity, count in (kind.activities(state, unit, hex_, cargo) if kind.activities else []):
            check_activity(state, unit.power, activity)
        return
    if cargo is not None or also_organize:
        raise Rejected(f"Escort: an escort carries nothing (cargo {cargo!r})")
    # Ground Support: "Escorts may only fly the mission if there is a bomber participating
    # in the attack with which the fighter cooperates"
    if tuple(hex_) not in escorted_hexes(state, side(state, unit.power)):
        raise Rejected(f"Escort: no friendly bomber is flying to hex {tuple(hex_)} to escort")
    check_in_range(state, unit, hex_, "escort", "Escort")


def escorted_hexes(state, side_: str) -> set[tuple[int, int]]:
    return {f.hex for f in air(state).mission.flights.values() if f.role == "bomber" and f.side == side_}


def fly_mission(ctx, cmd) -> None:
    state = ctx.state
    unit = check_mission_flyer(state, cmd.actor, cmd.unit, cmd.role)
    check_mission_target(state, unit, cmd.hex, cmd.role, cmd.cargo, cmd.also_organize)
    if cmd.role == "bomber":
        kind = KINDS[air(state).mission.kind]
        extra = kind.activities(state, unit, cmd.hex, cmd.cargo) if kind.activities else []
        use_activity(ctx, cmd.actor, "air-mission", mission=kind.id)
        for activity, count in extra:
            use_activity(ctx, cmd.actor, activity, count)
    _fly(ctx, unit, cmd.role, cmd.hex, cmd.cargo, cmd.also_organize)


def mission_hexes(state, unit, role: str, cargo: str | None = None) -> list[tuple[int, int]]:
    kind = air(state).mission.kind
    candidates = target_hexes(state, unit.power, kind) if role == "bomber" else escorted_hexes(state, side(state, unit.power))
    return _passing(unit, candidates, PURPOSE[role], lambda h: check_mission_target(state, unit, h, role, cargo))


# ---------------------------------------------------------------- interceptors
def check_intercept_flyer(state, actor: str, unit_id: str):
    # Non-Phasing / Phasing Side Flies Interceptors: fighters at half range, to a hex where
    # the enemy has flown in this mission
    mission_running(state, "Interception")
    unit = check_can_fly(state, actor, unit_id)
    if not is_fighter(unit):
        raise Rejected(f"Interception: only fighters intercept; {name(state, unit.id)} is a {unit.type}")
    return unit


def enemy_flight_hexes(state, side_: str) -> set[tuple[int, int]]:
    return {f.hex for f in air(state).mission.flights.values() if f.side != side_}


def check_intercept_target(state, unit, hex_) -> None:
    if tuple(hex_) not in enemy_flight_hexes(state, side(state, unit.power)):
        raise Rejected(f"Interception: no enemy aircraft have flown to hex {tuple(hex_)}")
    check_in_range(state, unit, hex_, "intercept", "Interception (half range)")
    check_mission_weather(state, hex_, "Interception")


def fly_intercept(ctx, cmd) -> None:
    unit = check_intercept_flyer(ctx.state, cmd.actor, cmd.unit)
    check_intercept_target(ctx.state, unit, cmd.hex)
    _fly(ctx, unit, "interceptor", cmd.hex)


def intercept_hexes(state, unit) -> list[tuple[int, int]]:
    return _passing(unit, enemy_flight_hexes(state, side(state, unit.power)), "intercept",
                    lambda h: check_intercept_target(state, unit, h))


def _passing(unit, candidates, purpose: str, check) -> list[tuple[int, int]]:
    """The candidate hexes in ``unit``'s reach for ``purpose`` that ``check`` accepts, nearest first."""
    limit = reach(unit, purpose)
    out = []
    within = [(d, tuple(h)) for h in candidates if (d := distance(unit.hex, h)) <= limit]
    for _, h in sorted(within):
        try:
            check(h)
        except Rejected:
            continue
        out.append(tuple(h))
    return out


# ---------------------------------------------------------------- the mission phases
def start_mission(ctx, step: str) -> None:
    ctx.emit(AirMissionBegan(kind=MISSION_KIND[step], phase=step))
    ctx.push("procedures.air-mission")


def optional_mission_off(kind_id: str) -> str:
    """Why an optional rule's air mission phase is skipped when the rule is not in play: the
    same words whether its plugin is absent from this game or loaded and OFF (the registry of
    kinds is the process's, so a game must not tell the two apart: the event log would depend
    on which other games the process played)."""
    return (f"{MISSION_NAME[kind_id]}: the optional rule {MISSION_NAME[kind_id]} is not in play; "
            "\"if it has not been selected, the phase is skipped\"")


def mission_phase_skip(state, step_id: str) -> str | None:
    """An air mission phase is skipped when nobody can fly the mission (why, in the seeds' terms)."""
    kind_id = MISSION_KIND[step_id]
    kind = KINDS.get(kind_id)
    if kind is None:  # an optional rule's mission whose plugin is not in this game
        return optional_mission_off(kind_id)
    reason = kind.unavailable(state) if kind.unavailable else None
    if reason:
        return reason
    if kind_id == "ground-support":
        # "Bombers may only fly this mission if there is a land attack being made against the target hex"
        return None if attacked_hexes(state) else "no land attack to support"
    allowed = [p for p in state.kernel.sides.get(state.kernel.active_side, []) if not action_problem(state, p, kind_id)]
    if not allowed:
        return f"no phasing power's action allows {kind.name}"
    if not any(u.power in allowed and u.branch == "air" and u.on_map and u.face_up and kind.flyer(state, u) is None
               for u in units_of(state).values()) \
            and not (kind.bombers_elsewhere is not None and any(kind.bombers_elsewhere(state, p) for p in allowed)):
        return f"{kind.name}: no phasing power has {kind.who} to fly"
    return None


# ---------------------------------------------------------------- the Air Mission subphases
def _no_free_fighters(state, side_: str) -> bool:
    flights = air(state).mission.flights
    return not any(u.power in state.kernel.sides[side_] and u.branch == "air" and u.on_map and u.face_up
                   and is_fighter(u) and u.id not in flights for u in units_of(state).values())


def _no_interceptors(state, side_: str) -> bool:
    """No free fighter on the map, nor one the mission kind knows of (``MissionKind.interceptors``:
    carrier planes aboard carriers at sea, in a port attack)."""
    kind = KINDS.get(air(state).mission.kind)
    return _no_free_fighters(state, side_) and not (kind is not None and kind.interceptors is not None
                                                    and kind.interceptors(state, side_))


def _skip_cap(state, m, ps, nps):
    # ``MissionKind.cap_flyers``: fighters not on a map hex (carrier planes at sea) may fly CAP too
    kind = KINDS.get(m.kind)
    if not _no_free_fighters(state, nps) or (kind is not None and kind.cap_flyers is not None and kind.cap_flyers(state, nps)):
        return None
    return "the non-phasing side has no organized fighters to fly CAP"


def _skip_non_phasing_bombers(state, m, ps, nps):
    # Non-Phasing Side Flies Bombers & Escorts: "skipped for all air mission phases except ground support"
    return None if m.kind == "ground-support" else "the non-phasing side flies bombers only in Ground Support"


def _skip_non_phasing_interceptors(state, m, ps, nps):
    if not m.bombers_flown.get(ps):
        return "no phasing bombers flew"
    return "the non-phasing side has no organized fighters to intercept" if _no_interceptors(state, nps) else None


def _skip_phasing_interceptors(state, m, ps, nps):
    if not flights_of(state, nps):
        return "no non-phasing aircraft flew"
    return "the phasing side has no organized fighters to intercept" if _no_interceptors(state, ps) else None


def _skip_air_to_air(state, m, ps, nps):
    return None if any(m.bombers_flown.values()) else "no bombers flew"


def _skip_aa(container: str):
    def skip(state, m, ps, nps):
        return why_no_aa(state, f"{AM}.{container}")
    return skip


def _skip_performed(state, m, ps, nps):
    if m.performed:
        return "the mission has been performed"
    if not any(m.bombers_flown.values()):
        return "no bomber or air transport flew this mission"
    return None


def _skip_surprise(state, m, ps, nps):
    # Surprise Points Used: "This subphase is skipped except during the port attack phase.
    # Surprise never happens during the other 7 air mission phases."
    kind = KINDS.get(m.kind)
    if kind is not None and kind.surprise is not None:
        return kind.surprise(state)
    return (f"Surprise Points Used: skipped except in the Port Attack phase; surprise never happens in "
            f"{MISSION_NAME.get(m.kind, m.kind)}")


def _skip_rtb(side_attr: str, who: str):
    def skip(state, m, ps, nps):
        side_ = {"ps": ps, "nps": nps}[side_attr]
        return None if flights_of(state, side_) else f"no {who} air units to return"
    return skip


# Air Mission subphase (its id under procedures.air-mission, first part) -> why it is skipped
SUBPHASE_SKIPS = {
    "combat-air-patrol": _skip_cap,
    "non-phasing-side-flies-bombers": _skip_non_phasing_bombers,
    "non-phasing-side-flies-interceptors": _skip_non_phasing_interceptors,
    "phasing-side-flies-interceptors": _skip_phasing_interceptors,
    "surprise-points-used": _skip_surprise,
    "air-to-air-combat": _skip_air_to_air,
    "aa-by-non-phasing-side": _skip_aa("aa-by-non-phasing-side"),
    "aa-by-phasing-side": _skip_aa("aa-by-phasing-side"),
    "air-mission-performed": _skip_performed,
    "return-to-base-phasing": _skip_rtb("ps", "phasing"),
    "return-to-base-non-phasing": _skip_rtb("nps", "non-phasing"),
}


def subphase_skip(state, step_id: str) -> str | None:
    """Why an Air Mission subphase (its first level only: a step inside a subphase that runs
    is not skipped here) is skipped now, or None."""
    ps = state.kernel.active_side
    rest = step_id[len(AM) + 1:]
    if "." in rest:
        return None
    skip = SUBPHASE_SKIPS.get(rest)
    if ps is None or skip is None:
        return None
    return skip(state, air(state).mission, ps, other_side(state, ps))
