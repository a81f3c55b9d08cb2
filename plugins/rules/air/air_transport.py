"""Missions flown by air transports (ATR): Air Transport, Paradrop and Reorganization by Air
Transport.  Each runs the Air Mission sub-machine like a bombing mission, the ATR in the
bomber's place (CAP, escorts, interceptors, air-to-air combat and anti-aircraft fire apply).

Seeds:
- "Air Transport": "A successful air transport places a land unit in a friendly controlled
  hex ... This mission may only be flown to hexes controlled by a friendly country"; "Air
  Attacks" (Air transport missions): "The ATR becomes disorganized after completing the
  mission.  However, the cargo only becomes disorganized if it commenced the impulse out of
  supply, or the ATR was aborted in either air combat"; "Air-to-air Combat Results", AX:
  "Any unit being air transported by the destroyed unit is also destroyed".
- "Paradrop": "A successful paradrop places an attacking land unit in an enemy controlled
  hex ... Each land unit that paradrops counts as a land move.  In addition, paradropping
  into a hex means that the paradropping major power must conduct a land attack on the hex";
  "Air Attacks": "PARAs can only fly a paradrop mission if they start the mission in supply
  and stacked with an ATR"; "A unit which paradrops into an enemy controlled hex must attack
  the defending land units (even if only a notional unit)" (the combat plugin's
  ``declare_forced_attack``, Ignore Notional).
- Paradrop under an action that allows no land attack (Air, Naval): refused, and the phase
  skipped when no phasing power with a PARA may attack, since the forced attack needs a land
  combat phase that only a Land or Combined action runs (``paradrop_action_problem``).
- Stacking at the target hex ("Over-Stacked Hex"): an air transported unit may not overstack
  it; paradropping units have their own limit (``landing_stack_problem``).
- Activity Limits: "Moving a land unit during the ... air transport ... or paradrop ... step
  counts as a land move"; "All land attacks, including an invasion and/or paradrop, count as
  a land attack"; the ATR that flies is an air mission.
- "Reorganization by Air Transport" / "Reorganize Units" (By Air): "Each surviving ATR gives
  you 1 reorganization point you can use to organize disorganized units in the target hex"
  (the unit is chosen when the ATR flies: ``FlyMission.cargo``; with more points, as the
  optional rule Large ATRs gives, the further units: ``FlyMission.also_organize``).

Not modelled (said in data/air.json): keeping the cargo aboard to land at the ATR's base
("Air Transport Landing"), the air-landing divisions that may paradrop with a PARA, a
paradropped unit disorganized by the hex's movement cost.  Optional rules extend who flies air
supply through ``AIR_SUPPLY_FLYERS`` (Bomber ATRs) and its reorganization points through
``REORGANIZATION_POINTS`` (Large ATRs).
"""

from __future__ import annotations

from typing import Callable

from plugins.rules.combat import declare_forced_attack
from plugins.rules.combat.declaration import is_new_attack
from plugins.rules.combat.retreat import destroy as destroy_land_unit
from plugins.rules.core import enemies, hex_controller, world_map
from plugins.rules.land.events import land, this_impulse
from plugins.rules.land.movement import land_stack_ok, stacking_breaches
from plugins.rules.supply import began_impulse_out_of_supply, in_supply
from plugins.rules.turn.activities import action_problem
from plugins.rules.units import UnitFlipped, UnitMoved

from .aircraft import friendly_base, name, reach, rules_data, side, units_of
from .events import AirCargoDelivered
from .mission_kinds import MissionKind, register
from .state import AIR_REORGANIZATION, AIR_TRANSPORT, PARADROP, air


def is_transport(unit) -> bool:
    return unit.type in rules_data()["transport_types"]


def is_para(unit) -> bool:
    return unit.type in rules_data()["paradrop_types"]


def transport_flyer(state, unit) -> str | None:
    return None if is_transport(unit) else f"{name(state, unit.id)} is not an air transport (ATR)"


# Extension point: an optional rule that lets other aircraft fly air supply (Reorganization by
# Air Transport) appends ``may_fly(state, unit) -> bool`` here ("Reorganize Units", By Air: the
# optional rule Bomber ATRs & No-paradrop ATRs; plugins/optional/bomber-atrs-and-no-paradrop-atrs).
AIR_SUPPLY_FLYERS: list[Callable] = []


def air_supply_flyer(state, unit) -> str | None:
    if is_transport(unit) or any(may_fly(state, unit) for may_fly in AIR_SUPPLY_FLYERS):
        return None
    return transport_flyer(state, unit)


def _aboard(state) -> set[str]:
    """Units already carried or chosen by a flight of this mission."""
    flights = air(state).mission.flights.values()
    return {f.cargo for f in flights if f.cargo} | {u for f in flights for u in f.also_organize}


def _moved_this_impulse(state, unit) -> bool:
    moved, now = land(state), this_impulse(state)
    return moved.land_moved.get(unit.id) == now or moved.rail_moved.get(unit.id) == now


def carried_units(state, atr, paradrop: bool = False) -> list:
    """The land units ``atr`` may carry: organized, stacked with it, of a power of its side
    (the seeds' "co-operate"), not moved this impulse nor aboard another transport; for a
    paradrop only PARA units in supply ("start the mission in supply and stacked with an ATR")."""
    aboard = _aboard(state)
    out = []
    for u in sorted(state["units"].in_hex(tuple(atr.hex)), key=lambda u: u.id):
        if (u.branch != "land" or not u.face_up or u.id in aboard or side(state, u.power) != side(state, atr.power)
                or _moved_this_impulse(state, u)):
            continue
        if paradrop and not (is_para(u) and in_supply(state, u.id)):
            continue
        out.append(u)
    return out


def _in_reach_of_transports(state, power: str, wanted, flyer=transport_flyer) -> set[tuple[int, int]]:
    """Land hexes within mission range of ``power``'s air transports (aircraft ``flyer`` accepts)
    that ``wanted(hex)`` accepts."""
    grid, wm = world_map().grid, world_map()
    out: set[tuple[int, int]] = set()
    for u in units_of(state).values():
        if u.power == power and u.on_map and u.branch == "air" and flyer(state, u) is None:
            out |= {h for h in grid.within(u.hex, reach(u, "mission")) if wm.is_land(h) and wanted(h)}
    return out


def _cargo_problem(state, atr, cargo, paradrop: bool) -> str | None:
    if cargo is None:
        return f"{name(state, atr.id)} must carry a land unit{' (a PARA)' if paradrop else ''}"
    if cargo not in {u.id for u in carried_units(state, atr, paradrop)}:
        what = "an organized PARA unit in supply" if paradrop else "an organized land unit that has not moved"
        return f"{name(state, cargo)} is not {what} stacked with {name(state, atr.id)}"
    return None


def _landing(state, hex_, cargo) -> list:
    """The land units this mission's flights land at ``hex_`` (those already flying and ``cargo``)."""
    units = state["units"].units
    ids = [f.cargo for f in air(state).mission.flights.values() if f.cargo and tuple(f.hex) == tuple(hex_)]
    return [units[uid] for uid in sorted(set(ids) | {cargo}) if uid in units]


def landing_stack_problem(state, hex_, cargo, paradrop: bool) -> str | None:
    """Stacking at the target hex ("Over-Stacked Hex": "You cannot voluntarily overstack").

    Air Transport: the cargo joins the hex's friendly units under the land limit (2, or 3 if
    the third is a division, artillery or supply unit) and units that can't co-operate can't
    stack together.  Paradrop: "Units invading ... and paradropping ... have a stacking limit
    in addition to the defending units' limit.  This limit is applied to the combined number
    of invading and paradropping units" (no invasion happens in these rules: no ships)."""
    landing = _landing(state, hex_, cargo)
    where = f"{tuple(hex_)[0]},{tuple(hex_)[1]}"
    if paradrop:
        if land_stack_ok(landing):
            return None
        return (f"Over-Stacked Hex: paradropping units stack at most 2 in a hex (3 if the third is a division, "
                f"artillery or supply unit); {len(landing)} would drop into hex {where}")
    breaches = stacking_breaches(state, hex_, adding=landing, leaving=[u.id for u in landing])
    problems = [breaches[k] for k in ("land", "sides") if k in breaches]
    return f"{problems[0]} with {name(state, cargo)} air transported there" if problems else None


# ---------------------------------------------------------------- Air Transport
def transport_problem(state, atr, hex_, cargo) -> str | None:
    if not friendly_base(state, atr.power, hex_):
        return f"hex {tuple(hex_)} is not controlled by a friendly country"
    return _cargo_problem(state, atr, cargo, paradrop=False) or landing_stack_problem(state, hex_, cargo, False)


def land_move(state, atr, hex_, cargo) -> list[tuple[str, int]]:
    return [("land-move", 1)]


def perform_transport(ctx, flights) -> None:
    _deliver(ctx, flights, paradrop=False)


# ---------------------------------------------------------------- Paradrop
PARADROP_ATTACK = ("Paradrop: \"paradropping into a hex means that the paradropping major power must conduct a "
                   "land attack on the hex\", and an attack is declared only under a Land or Combined action (Land "
                   "Combat Declaration; an Air action allows no land attacks, Activity Limits)")


def paradrop_action_problem(state, power: str) -> str | None:
    """Why ``power`` may not paradrop under the action it chose: the forced land attack must be
    one its action allows, or no land combat phase would ever resolve it."""
    problem = action_problem(state, power, "land-attack")
    return f"{PARADROP_ATTACK}: {problem}" if problem else None


def paradrop_flyer(state, unit) -> str | None:
    return transport_flyer(state, unit) or paradrop_action_problem(state, unit.power)


def paradrop_problem(state, atr, hex_, cargo) -> str | None:
    owner = hex_controller(state, hex_)
    if owner is None or not enemies(state, atr.power, owner):
        return f"hex {tuple(hex_)} is not controlled by an enemy"
    return _cargo_problem(state, atr, cargo, paradrop=True) or landing_stack_problem(state, hex_, cargo, True)


def paradrop_activities(state, atr, hex_, cargo) -> list[tuple[str, int]]:
    # the forced land attack is a new one unless this power already attacks the hex (or
    # another of its paradrops in this mission goes there)
    dropping = any(f.power == atr.power and tuple(f.hex) == tuple(hex_) and f.cargo
                   for f in air(state).mission.flights.values())
    new = is_new_attack(state, atr.power, hex_) and not dropping
    return [("land-move", 1)] + ([("land-attack", 1)] if new else [])


def no_para(state) -> str | None:
    phasing = set(state.kernel.sides.get(state.kernel.active_side, []))
    with_para = {u.power for u in units_of(state).values() if u.power in phasing and u.on_map and is_para(u)}
    if not with_para:
        return ("Paradrop: no phasing power has a paradrop (PARA) unit on the map (\"Paradrops can be made by air "
                "transport units that transport a paradrop unit\")")
    problems = [paradrop_action_problem(state, p) for p in sorted(with_para)]
    return None if not all(problems) else problems[0]


def perform_paradrop(ctx, flights) -> None:
    dropped = _deliver(ctx, flights, paradrop=True)
    by_attack: dict[tuple, list[str]] = {}
    for f in dropped:
        by_attack.setdefault((f.power, tuple(f.hex)), []).append(f.cargo)
    for (power, hex_), units in sorted(by_attack.items()):
        declare_forced_attack(ctx, power, hex_, units, "paradrop")


def cargo_powers(state) -> list[str]:
    """The powers whose land units' supply when the impulse begins ``_deliver`` may ask about:
    every phasing power (cargo may be of any power of the ATR's side, ``carried_units``), if a
    phasing power whose action allows Air Transport has an ATR on the map; else none.  The
    supply plugin traces only these powers' supply at the impulse's start
    (``record_impulse_supply``): a whole-map trace per power is the dearest part of it."""
    k = state.kernel
    phasing = list(k.sides.get(k.active_side, [])) if k.active_side else []
    flyers = {u.power for u in units_of(state).values() if u.on_map and u.branch == "air" and is_transport(u)}
    if any(p in flyers and action_problem(state, p, "air-transport") is None for p in phasing):
        return sorted(phasing)
    return []


def _deliver(ctx, flights, paradrop: bool) -> list:
    """Land the cargo of the transports that got through; an aborted transport's cargo stays
    at its base disorganized; a destroyed transport's cargo is destroyed with it."""
    state = ctx.state
    m = air(state).mission
    units = units_of(state)
    delivered = []
    for f in sorted(flights, key=lambda f: f.unit):
        if not f.cargo:
            continue
        ctx.emit(AirCargoDelivered(transport=f.unit, unit=f.cargo, hex=tuple(f.hex), outcome="landed"))
        ctx.emit(UnitMoved(unit=f.cargo, to_hex=tuple(f.hex)))
        if not paradrop and began_impulse_out_of_supply(state, f.cargo):
            ctx.emit(UnitFlipped(unit=f.cargo, face_up=False))
        delivered.append(f)
    for uid in sorted(m.stranded_cargo):
        if units[uid].on_map and units[uid].face_up:
            ctx.emit(AirCargoDelivered(transport="", unit=uid, hex=tuple(units[uid].hex), outcome="aborted"))
            ctx.emit(UnitFlipped(unit=uid, face_up=False))
    for uid in sorted(m.lost_cargo):
        if units[uid].on_map:
            ctx.emit(AirCargoDelivered(transport="", unit=uid, hex=tuple(units[uid].hex), outcome="destroyed"))
            destroy_land_unit(ctx, uid)
    return delivered


# ---------------------------------------------------------------- Reorganization by Air Transport
def disorganized_units(state, atr, hex_) -> list:
    aboard = _aboard(state)
    return [u for u in sorted(state["units"].in_hex(tuple(hex_)), key=lambda u: u.id)
            if u.branch in ("land", "air") and not u.face_up and u.id not in aboard
            and side(state, u.power) == side(state, atr.power)]


# Extension point: "Each surviving ATR gives you 1 reorganization point"; an optional rule that
# gives more appends ``points(state, atr, hex_) -> int`` here (Large ATRs: 2 within half range;
# plugins/optional/large-atrs).  The flight organizes its cargo and up to points - 1 more units.
REORGANIZATION_POINTS: list[Callable] = []


def reorganization_points(state, atr, hex_) -> int:
    return max([1] + [points(state, atr, hex_) for points in REORGANIZATION_POINTS])


def further_reorganization(state, atr, hex_, cargo) -> tuple[list, int]:
    """The other disorganized units ``atr`` may also organize at ``hex_`` and how many."""
    others = [u for u in disorganized_units(state, atr, hex_) if u.id != cargo]
    return others, reorganization_points(state, atr, hex_) - 1


def reorganization_problem(state, atr, hex_, cargo, also_organize=()) -> str | None:
    candidates = {u.id for u in disorganized_units(state, atr, hex_)}
    if not candidates:
        return f"no disorganized friendly unit is at hex {tuple(hex_)}"
    if cargo is None:
        return f"{name(state, atr.id)} must name the disorganized unit it organizes at hex {tuple(hex_)}"
    if cargo not in candidates:
        return f"{name(state, cargo)} is not a disorganized friendly unit at hex {tuple(hex_)}"
    if not also_organize:
        return None
    points = reorganization_points(state, atr, hex_)
    if len(also_organize) > points - 1:
        return (f"{name(state, atr.id)} has {points} reorganization point{'s' if points > 1 else ''} at hex "
                f"{tuple(hex_)}: it organizes at most {points} unit{'s' if points > 1 else ''}")
    if len(set(also_organize)) != len(also_organize) or cargo in also_organize:
        return f"{name(state, atr.id)} names a unit to organize twice"
    for uid in also_organize:
        if uid not in candidates:
            return f"{name(state, uid)} is not a disorganized friendly unit at hex {tuple(hex_)}"
    return None


def perform_reorganization(ctx, flights) -> None:
    for f in sorted(flights, key=lambda f: f.unit):
        for uid in [f.cargo or "", *f.also_organize]:
            unit = units_of(ctx.state).get(uid)
            if unit is not None and not unit.face_up and unit.on_map and tuple(unit.hex) == tuple(f.hex):
                ctx.emit(AirCargoDelivered(transport=f.unit, unit=unit.id, hex=tuple(f.hex), outcome="reorganized"))
                ctx.emit(UnitFlipped(unit=unit.id, face_up=True))


def _friendly_disorganized_hexes(state, power: str) -> set[tuple[int, int]]:
    mine = side(state, power)
    hexes = {tuple(u.hex) for u in units_of(state).values()
             if u.on_map and u.branch in ("land", "air") and not u.face_up and side(state, u.power) == mine}
    return _in_reach_of_transports(state, power, lambda h: h in hexes, flyer=air_supply_flyer)


# ---------------------------------------------------------------- the three kinds
register(MissionKind(
    id="air-transport", name="Air Transport", step=AIR_TRANSPORT, who="organized air transports (ATR)",
    flyer=transport_flyer, targets=lambda state, power: _in_reach_of_transports(
        state, power, lambda h: friendly_base(state, power, h)),
    target_problem=transport_problem, perform=perform_transport,
    cargo=lambda state, atr, hex_: carried_units(state, atr), activities=land_move))
register(MissionKind(
    id="paradrop", name="Paradrop", step=PARADROP, who="organized air transports (ATR)",
    flyer=paradrop_flyer, targets=lambda state, power: _in_reach_of_transports(
        state, power, lambda h: (o := hex_controller(state, h)) is not None and enemies(state, power, o)),
    target_problem=paradrop_problem, perform=perform_paradrop, unavailable=no_para,
    cargo=lambda state, atr, hex_: carried_units(state, atr, paradrop=True), activities=paradrop_activities))
register(MissionKind(
    id="air-reorganization", name="Reorganization by Air Transport", step=AIR_REORGANIZATION,
    who="organized air transports (ATR)", flyer=air_supply_flyer, targets=_friendly_disorganized_hexes,
    target_problem=reorganization_problem, perform=perform_reorganization,
    cargo=disorganized_units, cargo_at_target=True, further_cargo=further_reorganization))
