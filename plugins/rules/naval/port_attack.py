"""Port Attack: bombers attack enemy naval units in port, through the air plugin's Air Mission
sub-machine (combat air patrol, escorts, interceptors, air-to-air combat, anti-aircraft fire,
return to base), with the naval combat results as its performance.

Seeds: "Port Attack" (L10280-10305): the phase "runs procedures.air-mission"; "Bombers may only
fly this mission if there is a viable naval target".  "Naval Combat Results Table": "During
port attacks, A and half-A results cannot be applied to units already disorganized"; in the
air-to-sea attack "both sides alternate picking targets ... The attacking player has first
pick".  Ships in Flames 3.1 (where the base text relies on it): the surviving air-to-sea
factors "attack as a naval air combat", "only 1 combat round per port attack".

Who flies: "Port attacks can be made by: (1) land based air units that have air-to-sea factors
and (2) carrier based air units that are at sea" (Port Attack).  A land-based bomber flies with
the air plugin's ``FlyMission``; a carrier air unit aboard a carrier at sea flies from its sea
area with ``FlyCarrierAirUnit`` (port_attack_carrier_air.py; ``grounded`` here says which may).
"Carrier Based Air Unit Classes", Landing: "A carrier air unit that aborts from an air-to-air
combat returns immediately to a carrier.  All other carrier air units that flew from a carrier
must return to base after all results against naval units are implemented"; "If it returns from
any other mission [than a naval air combat], it does become disorganized" (``land_aborted``,
``land_carrier_planes``).  A carrier plane stays listed aboard its carrier while it flies, so it
lands on the carrier it flew from: that carrier is still in the section it flew from (a port
attack fights no ship at sea), it fits, and it is its own power's.

Authored: the bombers' factors, less what anti-aircraft
fire took off (the air plugin's ``aa_loss``: the ships in port fire with any AA units, rolled
on the air plugin's anti-aircraft table, which also destroys and aborts bombers), find the
column on the chart's air-to-sea row and the ships in port the row.  The Air Mission Performed step is automatic, so the picks are
made by rule: the attacker takes the face-up ship with the highest attack, the owner offers
the one with the lowest (an A or half-A only on a face-up ship; a result with no ship left
lapses).  An A turns its ship face down (Ships in Flames: "Each A result lets you turn a
face-up target unit face-down").
"""

from __future__ import annotations

from plugins.rules import core
from plugins.rules.air.events import AirMissionBegan, AirUnitReturned
from plugins.rules.air.mission_kinds import MissionKind, needs_factor, register
from plugins.rules.air.aircraft import reach
from plugins.rules.air.state import air
from plugins.rules.turn.activities import action_problem
from plugins.rules.units import UnitFlipped, units

from . import port_attack_surprise as surprise
from .events import NavalUnitDamaged
from .naval_combat_results import WORSE_TO_LIGHTER, chart_results, column_for, destroy, row_for
from .naval_air import hexes_to_sea
from .naval_units import at_sea, carrier_of, damaged, factor, is_carrier_air, label, ships_of
from .sea_box_section import area_name, box_hex, port_at
from .state import IMPULSE, naval, rules

PORT_ATTACK = f"{IMPULSE}.naval.port-attack"
KIND = "port-attack"


def ships_in_port(state, hex_, power: str) -> list:
    """Enemy naval units of ``power`` in the port at ``hex_``."""
    return [u for u in units(state).in_hex(tuple(hex_))
            if u.branch == "naval" and u.id not in naval(state).at_sea and core.enemies(state, power, u.power)]


def targets(state, power: str) -> set:
    return {tuple(c.hex) for c in core.world_map().ports if ships_in_port(state, c.hex, power)}


def target_problem(state, unit, hex_, cargo) -> str | None:
    if port_at(hex_) is None:
        return f"hex {tuple(hex_)} is not a port"
    if not ships_in_port(state, hex_, unit.power):
        return f"no enemy naval unit is in port at {tuple(hex_)} (\"a viable naval target\")"
    return None


def ships_aa(state, firing: str) -> dict[tuple, float]:
    """"Bombers that get through take anti-aircraft fire from the naval units in the port"
    ("Anti-Air Fire": "Naval units provide anti-aircraft fire during port attacks"): the AA
    factors of ``firing``'s ships in each port attacked, which the air plugin's Anti-aircraft
    Fire Results roll on its table (``MissionKind.intrinsic_aa``)."""
    out: dict[tuple, float] = {}
    for f in air(state).mission.flights.values():
        if f.role != "bomber" or state.kernel.side_of(f.power) == firing:
            continue
        hex_ = tuple(f.hex)
        if hex_ not in out:
            out[hex_] = int(sum(factor(state, u, "aa") for u in ships_in_port(state, hex_, f.power)
                                if state.kernel.side_of(u.power) == firing))
    return out


def unavailable(state) -> str | None:
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    if not any(targets(state, p) for p in phasing):
        return "Port Attack: no port holds an enemy naval unit (\"Bombers may only fly this mission if there is a viable naval target\")"
    return None


def perform(ctx, flights) -> None:
    """Air Mission Performed: one round of air-to-sea attack on the ships in each port attacked."""
    by_hex: dict[tuple, list] = {}
    for f in flights:
        by_hex.setdefault(tuple(f.hex), []).append(f)
    for hex_, group in sorted(by_hex.items()):
        state = ctx.state
        power = group[0].power
        in_port = ships_in_port(state, hex_, power)
        if not in_port:
            continue
        # the ships' AA fire (ships_aa) was rolled and applied in the AA subphase: aa_loss
        pressing = sum(max(0, units(state).units[f.unit].factors.get("naval", 0) - f.aa_loss) for f in group)
        if column_for(pressing) is None:
            continue  # AA left the zero column: no attack, and surprise points cannot make one
        column = column_for(pressing, surprise.chart_shift(state, hex_, group[0].side))
        results = chart_results(column, row_for(sum(ships_of(u) for u in in_port)))
        half: dict[str, int] = {}
        for i, result in enumerate(results):
            _apply(ctx, hex_, power, result, attacker_picks=(i % 2 == 0), half=half)
    land_carrier_planes(ctx)


# ---------------------------------------------------------------- carrier air units
def grounded(state, unit) -> str | None:
    """Why the carrier air unit ``unit`` cannot fly a mission from its carrier now, or None.
    Port Attack: "carrier based air units that are at sea"; Ships in Flames 8.1: "A carrier
    plane on a CV in port cannot fly at all"; "Carrier Based Air Unit Classes": "If a carrier is
    damaged, carrier air units can still land on it but can no longer fly from it"; Ships in
    Flames 8.5: "Only face-up carrier planes can fly a mission (except naval air)"."""
    if not is_carrier_air(unit):
        return f"{label(state, unit.id)} is not a carrier air unit"
    carrier = carrier_of(state, unit.id)
    if carrier is None:
        return f"{label(state, unit.id)} is not aboard a carrier (on a hex it flies like any aircraft)"
    if at_sea(state, carrier) is None:
        return f"{label(state, unit.id)} is aboard {label(state, carrier)} in port (\"A carrier plane on a CV in port cannot fly at all\")"
    if damaged(state, carrier):
        return f"{label(state, carrier)} is damaged: its carrier air units \"can no longer fly from it\""
    if not unit.face_up:
        return f"{label(state, unit.id)} is face down (disorganized) and cannot fly"
    return None


def distance_from_sea(state, unit_id: str, hex_) -> int:
    """Hexes from the sea area of the carrier ``unit_id`` is aboard to ``hex_``: Ships in Flames
    8.5 "You start the carrier plane's move from any hex dot in the sea area (don't reduce its
    movement for the sea box section its CV occupies)"; authored: measured to the area's nearest
    all-sea hex (naval_air.hexes_to_sea, the measure of an aircraft flying out to that area)."""
    return hexes_to_sea(tuple(hex_), at_sea(state, carrier_of(state, unit_id)).area)


def carrier_range_problem(state, unit, hex_, purpose: str = "mission") -> str | None:
    """Why the carrier plane ``unit`` cannot reach ``hex_`` from its carrier's sea area flying a
    ``purpose`` (mission, escort), or None."""
    dist, limit = distance_from_sea(state, unit.id, hex_), reach(unit, purpose)
    if dist > limit:
        area = at_sea(state, carrier_of(state, unit.id)).area
        return (f"{label(state, unit.id)} can fly {limit} hexes from {area_name(area)} for a {purpose}; "
                f"hex {tuple(hex_)} is {dist} hexes from that sea area")
    return None


def carrier_threats(state) -> set:
    """``MissionKind.threatened``: the ports the phasing side's carrier planes at sea can attack
    (so the enemy may fly Combat Air Patrol over them, as over ports land-based bombers reach)."""
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    out = set()
    for power in phasing:
        if action_problem(state, power, KIND):
            continue
        planes = [u for u in units(state).units.values() if u.power == power and u.where == "aboard"
                  and u.factors.get("naval", 0) > 0 and u.id not in air(state).mission.flights and grounded(state, u) is None]
        if not planes:
            continue
        for port in targets(state, power):
            if any(carrier_range_problem(state, u, port) is None for u in planes):
                out.add(tuple(port))
    return out


def free_carrier_planes(state, side: str) -> list:
    """``side``'s carrier planes that may fly from their carriers now and are not flying."""
    powers = state.kernel.sides.get(side, [])
    flying = air(state).mission.flights
    return [u for u in units(state).units.values() if u.power in powers and u.where == "aboard"
            and u.id not in flying and is_carrier_air(u) and grounded(state, u) is None]


def carrier_interceptors(state, side: str) -> bool:
    """``MissionKind.interceptors``: ``side`` has carrier planes at sea that may intercept.
    Authored: only once a phasing bomber has flown, so the mission is performed and the
    interceptors land on their carriers with the other carrier planes (``land_carrier_planes``)."""
    return bool(air(state).mission.bombers_flown.get(state.kernel.active_side)) and bool(free_carrier_planes(state, side))


def _land(ctx, uid: str) -> None:
    """The carrier plane lands back aboard its carrier (it never left ``aboard``): its flight
    ends at its carrier's sea box, or at its port, face down."""
    state = ctx.state
    carrier = carrier_of(state, uid)
    box = at_sea(state, carrier)
    # a carrier in port: its planes flew from the port's hex (the air plugin's FlyMission) and
    # land back on it there
    ctx.emit(AirUnitReturned(unit=uid, hex=box_hex(box.area) if box is not None else tuple(units(state).units[carrier].hex)))
    if units(ctx.state).units[uid].face_up:
        ctx.emit(UnitFlipped(unit=uid, face_up=False))


def land_carrier_planes(ctx) -> None:
    """After the results against the ships in port: every carrier plane still flying lands."""
    for uid in sorted(f.unit for f in air(ctx.state).mission.flights.values()):
        if carrier_of(ctx.state, uid) is not None:
            _land(ctx, uid)


def land_aborted(ctx, unit_ids) -> None:
    """``MissionKind.return_aborted``: a carrier plane aborted in the air-to-air combat lands at
    once; land-based aircraft are left to the Return to Base Digression."""
    for uid in sorted(unit_ids):
        if carrier_of(ctx.state, uid) is not None:
            _land(ctx, uid)


def _apply(ctx, hex_, power: str, result: str, attacker_picks: bool, half: dict) -> None:
    state = ctx.state
    pool = [u for u in ships_in_port(state, hex_, power) if u.where == "map"]
    if result in ("a", "half-a"):
        pool = [u for u in pool if u.face_up]
    if not pool:
        return
    key = (lambda u: (-factor(state, u, "attack"), u.id)) if attacker_picks else (lambda u: (factor(state, u, "attack"), u.id))
    target = min(pool, key=key)
    roll = ctx.roll(f"Port Attack: defence roll for {label(state, target.id)} against {result}")[0]
    final = result if roll <= factor(state, target, "defense") else WORSE_TO_LIGHTER[result]
    if final == "half-a":
        half[target.id] = half.get(target.id, 0) + 1
        final = "a" if half[target.id] >= 2 else "none"
    if final == "x" or (final == "d" and damaged(state, target.id)):
        destroy(ctx, target.id)
    elif final == "d":
        ctx.emit(NavalUnitDamaged(unit=target.id))
    elif final == "a" and target.face_up:
        ctx.emit(UnitFlipped(unit=target.id, face_up=False))


register(MissionKind(
    id=KIND, name="Port Attack", step=PORT_ATTACK, who="organized bombers with an air-to-sea factor",
    flyer=needs_factor("naval"), targets=targets, target_problem=target_problem, perform=perform,
    factor="naval", unavailable=unavailable, intrinsic_aa=ships_aa,
    surprise=surprise.surprise_skip, aa_shift=surprise.aa_shift, return_aborted=land_aborted,
    threatened=carrier_threats, interceptors=carrier_interceptors))


@rules.step_rule(PORT_ATTACK)
def start_port_attack(ctx, step_id: str) -> None:
    ctx.emit(AirMissionBegan(kind=KIND, phase=step_id))
    ctx.emit(surprise.PortSurpriseRolled(ports={}))  # no surprise carries over from another port attack
    ctx.push("procedures.air-mission")


def port_attack_skip(state, step_id: str) -> str | None:
    if step_id != PORT_ATTACK:
        return None
    reason = unavailable(state)
    if reason:
        return reason
    phasing = state.kernel.sides.get(state.kernel.active_side, [])
    if not any(u.power in phasing and u.branch == "air" and u.factors.get("naval", 0) > 0
               and ((u.on_map and u.face_up) or (u.where == "aboard" and grounded(state, u) is None))
               for u in units(state).units.values()):
        return ("Port Attack: no phasing power has organized bombers with an air-to-sea factor to fly "
                "(land-based, or carrier air units aboard undamaged carriers at sea)")
    return None
