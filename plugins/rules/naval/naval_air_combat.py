"""Naval air combat: plane roles, air-to-air combat over the sea area, the ships'
anti-aircraft fire and the air-to-sea attacks that follow.

Seeds: "Naval Air-to-air Combat" (L12316-12342): the carrier air units included "fly into
battle"; "all players, simultaneously, decide which of their engaged air units are flying as
fighters and which are flying as bombers.  Only fighter-bombers and carrier air units have this
flexibility ... the unit must fly as a fighter (e.g., if the unit has an air-to-sea factor of
zero)"; then "a standard air-to-air combat is performed".  "Anti-aircraft Combat by
Non-Initiating Side" / "by Initiating Side" (L12362-12390): the other side's surviving bombers
"are subject to anti-aircraft fire".  "Anti-Air Fire" (L588-620): "Naval units provide
anti-aircraft fire during port attacks and naval air combats"; "Anti-Air Combat Results"
(L699-730): every 10 points destroy a bomber, 5 left abort one, each point left takes one
air-to-sea factor off the attack.  "Naval Air Attack by Initiating Side" (L12391-12435):
"Any aborting land based air units are placed in the Return To Base Stack and returned to a
land hex"; "all carrier air units are returned to their carriers at the end of the naval
combat round".  Ships in Flames 3.6.8: "If a carrier plane which flew from a CV must abort, it
returns to its CV"; the remaining air-to-sea factors "press the attack" on the air-to-sea row.

The air-to-air combat is the air plugin's (``air_to_air``: the ``procedures.air-to-air-combat``
sub-machine, its dice, results table and decisions), fought at the sea area's box hex with the
initiating side as attacker (its ``MissionKind.attacker``); the ships' AA is rolled on the air
plugin's anti-aircraft table (``table_cell``, ``points_of``, ``damage_of``) and applied by the
bombers' owners with its ``ApplyAADamage``.

Ships in Flames 8.3: "Don't turn a face-up carrier plane face-down after it returns from a
naval air combat"; 8.5: "It keeps its original facing if it flew into a naval air combat from a
CV" (an aborted one too: ``keeps_facing``; "An aborted air unit becomes disorganized" is the
land-based aircraft's rule).

Authored (the seeds leave these out): aircraft aborted in air-to-air combat go home at once
(a land-based one to the hex it flew to sea from, disorganized; a carrier plane stays aboard its
carrier, as it was); those aborted by AA go home at the end of the round; a destroy result destroys
one aircraft whatever it is (the seeds' "2 carrier planes" for 10 points is not modelled);
surprise points bought at the start of the combat shift the AA columns and the air-to-air values
(surprise_points.py); the air-to-air combat and the AA
fire of both sides are worked out before either side's air-to-sea attack (as the results of
both attacks are worked out before either is applied in surface combat).
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command, EventData
from plugins.optional.framework import is_on
from plugins.rules.air import anti_aircraft as aa
from plugins.rules.air import anti_aircraft_fire_results as aa_results
from plugins.rules.air import air_to_air
from plugins.rules.air.aircraft import destroy
from plugins.rules.air.events import AirMissionBegan, AirUnitDestroyed, AirUnitFlew, AirUnitReturned, AAFireRolled
from plugins.rules.air.mission_kinds import MissionKind, register
from plugins.rules.air.state import air
from plugins.rules.units import UnitFlipped, units

from .events import NavalUnitLost
from .naval_combat_events import NavalAirStageReached, PlaneRoleSet
from .naval_air import fly_home
from .naval_combat import ROUND, other
from .naval_combat_results import chart_results, column_for, due_for, row_for, ships
from .naval_units import aboard, carrier_of, damaged, factor, is_carrier_air, is_convoy, kind, label
from .sea_box_section import box_hex
from .state import naval, rules

KIND = "naval-air"
RULE = "Naval Air-to-air Combat"
A2A_STEPS = f"{ROUND}.naval-air-to-air-combat"
PLANE_ROLES = f"{A2A_STEPS}.plane-roles"
NAVAL_A2A = f"{A2A_STEPS}.naval-air-to-air"
AA_BY_NIS, AA_BY_IS = f"{ROUND}.aa-by-nis", f"{ROUND}.aa-by-is"
KAMIKAZE_STEP, KAMIKAZE_STAGE = f"{ROUND}.kamikaze", "kamikaze"
aa.DAMAGE_STEPS.update((AA_BY_NIS, AA_BY_IS))  # the bombers' owners apply the ships' AA damage there


# ---------------------------------------------------------------- who flies
def combat_planes(state, side: str) -> list:
    """``side``'s aircraft in this round's naval air combat: the carrier air units aboard its
    included undamaged carriers ("A damaged CV may not fly carrier planes"), organized or not
    ("Carrier Based Air Unit Classes": "A disorganized carrier air unit can take part in a naval
    air combat but only if it is flying from an undamaged carrier in that area": one that flew a
    port attack, say), and its organized aircraft at sea; a plane aborted earlier in this combat
    does not fly again in it (authored)."""
    c = naval(state).combat
    all_units = units(state).units
    out = []
    for uid in c.included.get(side, []):
        u = all_units.get(uid)
        if u is None:
            continue
        if u.branch == "naval" and kind(u) == "carrier" and not damaged(state, uid):
            out += [all_units[p] for p in aboard(state, uid) if is_carrier_air(all_units[p])
                    and p not in c.aborted_planes]
        elif u.branch == "air" and uid in naval(state).at_sea and u.face_up:
            out.append(u)
    return out


@rules.event
class CarrierPlanesAborted(EventData):
    """Carrier planes aborted in this round of a naval air combat: they fly no more in it."""

    units: list[str]


@rules.reducer("CarrierPlanesAborted")
def _planes_aborted(state, event):
    c = naval(state).combat
    c.aborted_planes += [u for u in event.data["units"] if u not in c.aborted_planes]


@rules.describe("CarrierPlanesAborted")
def _describe_aborted(event, state):
    return ", ".join(label(state, u) for u in event.data["units"]) + " aborted: no more flying in this naval combat"


def may_choose_role(unit) -> bool:
    """"Only fighter-bombers and carrier air units have this flexibility": a plane with both an
    air-to-air and an air-to-sea factor."""
    return unit.factors.get("air", 0) > 0 and unit.factors.get("naval", 0) > 0


def default_role(unit) -> str:
    return "bomber" if unit.factors.get("naval", 0) > 0 else "fighter"


def role_of(state, unit) -> str:
    if may_choose_role(unit):
        return "fighter" if unit.id in naval(state).combat.fighters else "bomber"
    return default_role(unit)


# ---------------------------------------------------------------- Assign Plane Roles
class SetPlaneRole(Command):
    unit: str
    role: str  # fighter, bomber


def why_not_role(state, power: str, unit_id: str, role: str) -> str | None:
    c = naval(state).combat
    if c is None or c.kind != KIND or c.air_stage:
        return f"{RULE}: plane roles are chosen only before a naval air combat's air-to-air combat"
    if role not in ("fighter", "bomber"):
        return f"{RULE}: {role!r} is not a role (fighter, bomber)"
    mine = {u.id: u for s in state.kernel.sides for u in combat_planes(state, s) if u.power == power}
    if unit_id not in mine:
        return f"{RULE}: {unit_id!r} is not one of {power}'s aircraft in this naval air combat"
    if not may_choose_role(mine[unit_id]):
        return (f"{RULE}: {label(state, unit_id)} must fly as a {default_role(mine[unit_id])} (only a plane with both "
                "an air-to-air and an air-to-sea factor chooses)")
    return None


def flexible_planes(state, power: str | None = None) -> list:
    c = naval(state).combat
    if c is None or c.kind != KIND or c.air_stage:
        return []
    return [u for s in state.kernel.sides for u in combat_planes(state, s)
            if may_choose_role(u) and (power is None or u.power == power)]


def role_choices(state, actor, step_id):
    planes = flexible_planes(state, actor)
    if not planes:
        return None
    return [Field("unit", "unit", [
        Option(u.id, f"{label(state, u.id)} (air-to-air {u.factors.get('air', 0)}, air-to-sea "
                     f"{u.factors.get('naval', 0)}, now a {role_of(state, u)})",
               [Field("role", "option", [Option("fighter", "fighter"), Option("bomber", "bomber")])])
        for u in planes], label="aircraft")]


def role_preview(state, cmd: SetPlaneRole):
    problem = why_not_role(state, cmd.actor, cmd.unit, cmd.role)
    if problem:
        raise Rejected(problem)
    u = units(state).units[cmd.unit]
    return {"unit": cmd.unit, "role": cmd.role, "was": role_of(state, u),
            "factor": u.factors.get("air" if cmd.role == "fighter" else "naval", 0)}


@rules.command(SetPlaneRole, choices=role_choices, preview=role_preview)
def set_plane_role(ctx, cmd: SetPlaneRole) -> None:
    problem = why_not_role(ctx.state, cmd.actor, cmd.unit, cmd.role)
    if problem:
        raise Rejected(problem)
    ctx.emit(PlaneRoleSet(unit=cmd.unit, role=cmd.role))


# ---------------------------------------------------------------- the air-to-air combat
def _initiator(state) -> str:
    return naval(state).combat.initiator


def return_aborted(ctx, unit_ids) -> None:
    """"If a carrier plane which flew from a CV must abort, it returns to its CV" (it stays
    aboard, its facing kept); a land-based plane goes home to the hex it flew to sea from."""
    state = ctx.state
    c = naval(state).combat
    for uid in unit_ids:
        if carrier_of(state, uid) is not None:
            ctx.emit(AirUnitReturned(unit=uid, hex=box_hex(c.area)))
            continue
        _home(ctx, uid)


def _home(ctx, uid: str) -> None:
    """A land-based plane at sea flies home to the hex it flew from (destroyed if that hex is no
    longer its side's: naval_air.fly_home) and its flight ends."""
    fly_home(ctx, uid)
    u = units(ctx.state).units[uid]
    if u.where == "map":
        ctx.emit(AirUnitReturned(unit=uid, hex=tuple(u.hex)))
    else:
        ctx.emit(AirUnitDestroyed(unit=uid, reason="aborted at sea with no friendly base to return to"))


register(MissionKind(
    id=KIND, name="Naval Air Combat", step=A2A_STEPS, who="carrier air units and aircraft at sea",
    flyer=lambda state, unit: None if unit.branch == "air" else f"{unit.id} is not an aircraft",
    targets=lambda state, power: set(),
    target_problem=lambda state, unit, hex_, cargo: "naval air combat is fought over a sea area, not flown to a hex",
    perform=lambda ctx, flights: None,  # the Naval Air Attack steps attack the ships
    factor="naval", attacker=_initiator, return_aborted=return_aborted,
    keeps_facing=lambda state, unit_id: carrier_of(state, unit_id) is not None))


@rules.step_rule(NAVAL_A2A)
def naval_air_to_air(ctx, step_id: str) -> None:
    """The planes fly into battle with their roles; a standard air-to-air combat where both
    sides fly and one has a fighter; then the ships' anti-aircraft fire."""
    state = ctx.state
    c = naval(state).combat
    hex_ = box_hex(c.area)
    ctx.emit(AirMissionBegan(kind=KIND, phase=step_id))
    for side in (c.initiator, other(state, c.initiator)):
        for u in combat_planes(state, side):
            role = role_of(state, u)
            if role == "fighter":
                role = "escort" if side == c.initiator else "interceptor"
            base = naval(state).air_bases.get(u.id) or hex_
            ctx.emit(AirUnitFlew(unit=u.id, power=u.power, side=side, role=role, hex=hex_, base=tuple(base)))
    if air_to_air.combat_hexes(ctx.state):
        air_to_air.air_to_air_step(ctx, step_id)  # runs procedures.air-to-air-combat
    else:
        after_air_to_air(ctx)


def a2a_over(ctx, step_id: str) -> None:
    """When the air plugin's Both Staying step ends the naval air combat's air-to-air combat."""
    state = ctx.state
    c, m = naval(state).combat, air(state).mission
    if (step_id.endswith("air-to-air-combat.round.both-staying") and c is not None and c.kind == KIND
            and not c.air_stage and m.kind == KIND and m.combat is not None and m.combat.ended):
        after_air_to_air(ctx)


# ---------------------------------------------------------------- anti-aircraft fire and the attacks
def bombers(state, side: str) -> list:
    """``side``'s bombers cleared through (not destroyed, not aborted)."""
    hex_ = box_hex(naval(state).combat.area)
    return aa.bombers_at(state, side).get(hex_, [])


def ships_aa(state, side: str) -> float:
    """The anti-aircraft factors of ``side``'s included naval units still in the combat."""
    all_units = units(state).units
    at_sea = naval(state).at_sea
    return sum(factor(state, all_units[u], "aa") for u in naval(state).combat.included.get(side, [])
               if u in at_sea and all_units[u].branch == "naval" and not is_convoy(all_units[u]))


def fire_aa(ctx, firing: str) -> None:
    """``firing``'s ships fire at the other side's bombers: the AA total finds the column of the
    anti-aircraft table, the number of bombers its row."""
    state = ctx.state
    target = other(state, firing)
    flights = bombers(state, target)
    total = int(ships_aa(state, firing))
    if not flights or total <= 0:
        return
    shift = naval(state).combat.aa_shifts.get(firing, 0)  # surprise points spent on this fire
    cell = aa.table_cell(total, len(flights), shift)
    if cell is None:
        return  # moved off the table's low end by surprise points: no fire
    _, count = aa.cell_dice(cell)
    hex_ = box_hex(naval(state).combat.area)
    moved = f", {shift:+d} column(s) for surprise" if shift else ""
    dice = ctx.roll(f"Anti-aircraft Combat: {firing}'s ships ({total} AA) fire at {len(flights)} bombers, {cell}{moved}",
                    faces=10, count=count)
    points = aa.points_of(cell, dice)
    ctx.emit(AAFireRolled(hex=hex_, side=firing, factors=total, bombers=[f.unit for f in flights], cell=cell,
                          dice=list(dice), points=points, **aa.damage_of(points)))


def pressing_factors(state, side: str) -> int:
    """The air-to-sea factors of ``side``'s bombers that press the attack; a kamikaze's, left
    after the AA fire, are doubled (kamikaze.py)."""
    all_units = units(state).units
    kamikazes = naval(state).combat.kamikazes
    return sum(max(0, all_units[f.unit].factors.get("naval", 0) - f.aa_loss) * (2 if f.unit in kamikazes else 1)
               for f in bombers(state, side))


def kamikaze_candidates(state) -> list:
    """Japanese bombers that came through this naval air combat's air-to-air combat, with the
    optional rule Kamikaze on (kamikaze.py)."""
    c = naval(state).combat
    if c is None or c.kind != KIND or not is_on(state, "kamikaze"):
        return []
    return [f for side in state.kernel.sides for f in bombers(state, side) if f.power == "japan"]


def attack_due(ctx, attacker: str) -> None:
    """The air-to-sea attack of ``attacker``'s surviving bombers: its results are due."""
    state = ctx.state
    c = naval(state).combat
    target = other(state, attacker)
    if not bombers(state, attacker) or not c.included.get(target):
        return
    pressing = pressing_factors(state, attacker)
    if column_for(pressing) is None:
        # "If anti-aircraft fire reduces the attacker's air-to-sea factors to the zero column,
        # then combat is over.  Surprise points may not be used to increase the attack to a
        # positive number" (Surprise Points)
        return
    col = column_for(pressing, c.shifts.get(attacker, 0))
    row = row_for(ships(state, c.included[target]))
    due_for(ctx, target, col, row, chart_results(col, row))


def after_air_to_air(ctx) -> None:
    """The air-to-air combat is over: Japan may declare kamikazes (Kamikaze Attacks by Japan,
    "after air-to-air combat but before anti-aircraft fire"), then the ships fire."""
    if kamikaze_candidates(ctx.state):
        ctx.emit(NavalAirStageReached(stage=KAMIKAZE_STAGE))  # the Kamikaze step waits for Japan
        return
    after_kamikaze(ctx)


def after_kamikaze(ctx) -> None:
    c = naval(ctx.state).combat
    ctx.emit(NavalAirStageReached(stage="aa-by-nis"))
    fire_aa(ctx, other(ctx.state, c.initiator))
    if not aa_results.pending_hexes(ctx.state):
        after_aa(ctx, other(ctx.state, c.initiator))


def after_aa(ctx, firing: str) -> None:
    """``firing``'s AA damage is applied: the other side's attack is worked out; after the
    non-initiating side's fire, the initiating side's ships fire."""
    state = ctx.state
    c = naval(state).combat
    attack_due(ctx, other(state, firing))
    if firing == c.initiator:
        ctx.emit(NavalAirStageReached(stage="done"))
        return
    ctx.emit(NavalAirStageReached(stage="aa-by-is"))
    fire_aa(ctx, c.initiator)
    if not aa_results.pending_hexes(ctx.state):
        after_aa(ctx, c.initiator)


def aa_step_ended(ctx, step_id: str) -> None:
    c = naval(ctx.state).combat
    if c is None or c.kind != KIND:
        return
    if step_id == KAMIKAZE_STEP and c.air_stage == KAMIKAZE_STAGE:
        after_kamikaze(ctx)
    elif step_id == AA_BY_NIS and c.air_stage == "aa-by-nis":
        after_aa(ctx, other(ctx.state, c.initiator))
    elif step_id == AA_BY_IS and c.air_stage == "aa-by-is":
        after_aa(ctx, c.initiator)


def round_over(ctx) -> None:
    """End Naval Combat Round: aircraft aborted by AA fire go home (land-based planes to the hex
    they flew from, disorganized; carrier planes stay aboard as they were, Ships in Flames 8.3)."""
    state = ctx.state
    c, m = naval(state).combat, air(state).mission
    if c is None or c.kind != KIND or m.kind != KIND:
        return
    # "After the air to sea attack is resolved, all kamikazes and their pilots are destroyed"
    for uid in c.kamikazes:
        u = units(state).units.get(uid)
        if u is not None and u.where in ("map", "aboard"):
            destroy(ctx, uid, "flew as a kamikaze")
    aborted_aboard = []
    for uid in sorted(set(m.aborted) - set(m.returning)):
        u = units(state).units.get(uid)
        if u is None or u.where not in ("map", "aboard"):
            continue
        if carrier_of(state, uid) is None and uid in naval(state).at_sea:
            _home(ctx, uid)
        elif carrier_of(state, uid) is not None:
            aborted_aboard.append(uid)
            continue  # "Don't turn a face-up carrier plane face-down after it returns"
        u = units(ctx.state).units[uid]
        if u.where in ("map", "aboard") and u.face_up:
            ctx.emit(UnitFlipped(unit=uid, face_up=False))
    if aborted_aboard:
        ctx.emit(CarrierPlanesAborted(units=aborted_aboard))


def skip(state, step_id: str) -> str | None:
    """Which naval air steps apply now (the round's combat is naval air)."""
    c = naval(state).combat
    if step_id == PLANE_ROLES:
        return None if flexible_planes(state) else \
            f"{RULE}: no aircraft in the combat has both an air-to-air and an air-to-sea factor, so no role is chosen"
    if step_id == NAVAL_A2A:
        return None if not c.air_stage else f"{RULE}: the planes have flown this round"
    if step_id in (AA_BY_NIS, AA_BY_IS):
        stage = "aa-by-nis" if step_id == AA_BY_NIS else "aa-by-is"
        if c.air_stage != stage or not aa_results.pending_hexes(state):
            return "Anti-aircraft Combat: no bomber is left for the ships to fire at, or the fire did no damage"
        return None
    return None


def naval_aircraft_lost(ctx, unit: str) -> None:
    """An aircraft aboard a carrier or at sea was destroyed: it leaves the naval state."""
    n = naval(ctx.state)
    if unit in n.at_sea or carrier_of(ctx.state, unit) is not None:
        ctx.emit(NavalUnitLost(unit=unit))


EOT_REORGANIZATION = "wif.turn.end-of-turn.end-of-turn-reorganization"


def reorganize_aboard(ctx, step_id: str) -> None:
    """End of Turn Reorganization reorganizes "all disorganized units"; the supply plugin's
    rule looks at units on map hexes, so the carrier planes that aborted in naval air combat
    (aboard their carriers, on no hex) are reorganized here."""
    if step_id != EOT_REORGANIZATION:
        return
    all_units = units(ctx.state).units
    refusal = ctx.host.pm.hook.end_of_turn_reorganization_refusal
    for ship in sorted(naval(ctx.state).aboard):
        for uid in naval(ctx.state).aboard[ship]:
            u = all_units[uid]
            if is_carrier_air(u) and not u.face_up and refusal(state=ctx.state, unit=u) is None:
                ctx.emit(UnitFlipped(unit=uid, face_up=True))
