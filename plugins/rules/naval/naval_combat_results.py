"""Naval Combat Results: the naval combat chart, the results each side inflicts, the target
each result falls on and its defence roll, damage and destruction (aborting units wait in the abort queue, naval_combat_abort_queue).

Seeds: "Naval Combat Results Table" (L9650-9745): attack totals on the surface row give the
column ("each included Sub's attack factor is reduced by 1"); 2 surprise points per column;
off the right-hand end is not possible, off the left-hand end inflicts nothing; the row is
"the number of ships your opponent has taking part in the round.  A ship is a naval unit, or
2 convoy points"; results X (destroyed with its cargo), D (damaged; a damaged unit damaged
again is destroyed), A (aborts at the end of the round into the Naval Abort Queue,
disorganized), half-A (two in a round make an A); "the owner selects a target to suffer that
result"; "Roll a die for each target.  If you roll the target's defense value or less, it
suffers the result.  If you roll more ... the next worse result - an X becomes a D; a D
becomes an A and an A becomes a half-A"; "implement all X results first, then all D results
and, finally, all A results"; a unit "already destroyed or [that] has suffered an A result"
cannot be chosen.  Convoys: "An X result destroys 2 convoy points; a D result destroys 1
convoy point and an A result aborts 1 convoy point".  Submarine combat: the non-SUB side's
ASW factors (2 per SCS, 1 per CV, ...) attack the SUBs on the ASW row; the SUBs attack the
convoy points ("the 0 ships row" without them).
The chart's cells are authored (data/naval.json ``chart``, its header says how).
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.units import UnitCreated, UnitFactorsChanged, UnitMoved, units

from .naval_combat_abort_queue import queue_aborts
from .events import NavalUnitDamaged, NavalUnitLost, ShipsPlacedAtSea
from .naval_combat_events import NavalResultApplied, NavalResultsDue
from .naval_units import (
    aboard,
    is_carrier_air,
    asw,
    convoy_points,
    damaged,
    factor,
    is_convoy,
    is_sub,
    label,
    ships_of,
)
from .naval_units import kind as kind_of
from .state import data, naval, rules

RULE = "Naval Combat Results Table"
ORDER = {"x": 0, "d": 1, "a": 2, "half-a": 3}
WORSE_TO_LIGHTER = {"x": "d", "d": "a", "a": "half-a", "half-a": "none"}
NAMES = {"x": "X (destroyed)", "d": "D (damaged)", "a": "A (abort)", "half-a": "half-A", "none": "no effect"}


# ---------------------------------------------------------------- the chart
def column_for(total: float, shift: int = 0) -> int | None:
    """The chart column for an attack total, moved ``shift`` columns; None off the left end."""
    bounds = data()["chart"]["columns"]
    col = None
    for i, low in enumerate(bounds):
        if total >= low:
            col = i
    if col is None:
        return None if shift <= 0 else min(shift - 1, len(bounds) - 1)
    col += shift
    if col < 0:
        return None  # "If you are moved off the left-hand end, you inflict no result"
    return min(col, len(bounds) - 1)  # "You can't move off the right-hand end"


def row_for(ships: int, zero_row: bool = False) -> str:
    if zero_row or ships <= 0:
        return "0"
    if ships == 1:
        return "1"
    if ships <= 3:
        return "2-3"
    if ships <= 6:
        return "4-6"
    return "7+"


def chart_results(column: int | None, row: str) -> list[str]:
    if column is None:
        return []
    return sorted(data()["chart"]["results"][column][row], key=ORDER.get)


# ---------------------------------------------------------------- who fights whom
def surface_attack(state, unit_ids: list[str]) -> float:
    all_units = units(state).units
    total = 0.0
    for uid in unit_ids:
        u = all_units[uid]
        if is_convoy(u):
            continue
        a = factor(state, u, "attack")
        total += max(0, a - 1) if is_sub(u) else a  # "each included Sub's attack factor is reduced by 1"
    return total


def flying_planes(state, unit_ids: list[str]) -> list:
    """Carrier air units that fly from the included carriers: "A damaged CV may not fly
    carrier planes"."""
    out = []
    for uid in unit_ids:
        ship = units(state).units[uid]
        if kind_of(ship) == "carrier" and not damaged(state, uid):
            out += [units(state).units[p] for p in aboard(state, uid) if is_carrier_air(units(state).units[p])]
        elif ship.branch == "air" and ship.factors.get("naval", 0) > 0:
            out.append(ship)  # an aircraft flown to sea in the Naval Air phase
    return out


def ships(state, unit_ids: list[str]) -> int:
    all_units = units(state).units
    return sum(ships_of(all_units[u]) for u in unit_ids)


def asw_total(state, unit_ids: list[str], year: int = 0) -> float:
    """The non-SUB side's ASW factors (submarine combat): 2 per SCS, 1 per CV; US/CW convoys
    add 1, 2 or 3 per 2 convoy points from 1942, 1943, 1944 on."""
    all_units = units(state).units
    total = 0.0
    for uid in unit_ids:
        u = all_units[uid]
        if is_convoy(u):
            if u.power in ("usa", "commonwealth") and year >= 1942:
                total += min(3, year - 1941) * (convoy_points(u) // 2)
        elif not is_sub(u):
            total += asw(state, u)
    return total


def results_due(state, attacking: list[str], defending: list[str], kind: str, shift: int, year: int = 0):
    """What the side with ``attacking`` units inflicts on ``defending`` this round:
    (column, row, results) by the combat type's row of the chart (naval air: naval_air_combat.attack_due)."""
    all_units = units(state).units
    if kind == "surface":
        col = column_for(surface_attack(state, attacking), shift)
        return col, row_for(ships(state, defending)), chart_results(col, row_for(ships(state, defending)))
    if kind == "submarine-subs":
        subs = [u for u in attacking if is_sub(all_units[u])]
        convoys = [u for u in defending if is_convoy(all_units[u])]
        col = column_for(surface_attack(state, subs) + len(subs), shift) if subs else None  # full attack on convoys
        row = row_for(ships(state, convoys), zero_row=not convoys)
        return col, row, chart_results(col, row)
    if kind == "submarine-asw":
        subs = [u for u in defending if is_sub(all_units[u])]
        col = column_for(asw_total(state, attacking, year), shift) if subs else None
        row = row_for(ships(state, subs))
        return col, row, chart_results(col, row)
    raise ValueError(f"unknown naval combat kind {kind!r}")


def due_for(ctx, target_side: str, column, row, results) -> None:
    ctx.emit(NavalResultsDue(target_side=target_side, results=results, column=column, row=row))


# ---------------------------------------------------------------- targets
def eligible_targets(state, target_side: str) -> list[str]:
    """The units of ``target_side`` the next due result may fall on."""
    c = naval(state).combat
    if c is None or not c.due.get(target_side):
        return []
    result = c.due[target_side][0]
    all_units = units(state).units
    # Submarine combat: "any losses inflicted by the non-SUB side can only be taken on the SUBs
    # that attacked them ... any losses inflicted by the SUB side can only be taken on convoys"
    # (Surprise Points); which attack this is: the attacker's SUBs (start_attacks)
    attacker = next((s for s in state.kernel.sides if s != target_side), None)
    subs_attack = any(is_sub(all_units[u]) for u in c.included.get(attacker, []) if u in all_units)
    out = []
    for uid in c.included.get(target_side, []):
        u = all_units.get(uid)
        if u is None or u.where != "map" or uid not in naval(state).at_sea or u.branch != "naval":
            continue  # destroyed or gone; aircraft at sea are not naval targets
        if uid in c.aborting:
            continue  # "unless it is already destroyed or has suffered an A result"
        if c.kind == "submarine" and target_side not in c.target_picks:
            # the SUBs' losses on the convoys, the ASW's on the SUBs ("unless someone spends 3
            # surprise points to inflict them on another target")
            if (subs_attack and not is_convoy(u)) or (not subs_attack and not is_sub(u)):
                continue
        out.append(uid)
    return out


def chooser(state, target_side: str) -> str:
    """The side that picks the unit for ``target_side``'s next result: the owner; in naval air
    combat "both sides alternate picking targets ... The attacking player has first pick"."""
    c = naval(state).combat
    if target_side in c.target_picks:
        return c.target_picks[target_side]  # bought with 3 surprise points (surprise_points)
    if c.kind != "naval-air" or c.applied.get(target_side, 0) % 2 == 1:
        return target_side
    return next(s for s in state.kernel.sides if s != target_side)


def target_side_for(state, power: str) -> str | None:
    """The side whose next due result ``power``'s side picks a target for now, or None."""
    c = naval(state).combat
    if c is None:
        return None
    mine = state.kernel.side_of(power)
    for side in sorted(c.due):
        if c.due[side] and eligible_targets(state, side) and chooser(state, side) == mine:
            return side
    return None


def why_not_target(state, power: str, unit_id: str) -> str | None:
    c = naval(state).combat
    if c is None:
        return f"{RULE}: no naval combat is being fought"
    side = target_side_for(state, power)
    if side is None:
        return f"{RULE}: {power}'s side has no target to pick now"
    if unit_id not in eligible_targets(state, side):
        return (f"{RULE}: {label(state, unit_id)} cannot take the {NAMES[c.due[side][0]]} result (it is not an "
                "included unit of the side, or it is destroyed or already aborting)")
    return None


class ChooseNavalTarget(Command):
    """The owner picks the unit that suffers the next due result (X first, then D, then A)."""

    unit: str


def target_choices(state, actor, step_id):
    side = target_side_for(state, actor)
    c = naval(state).combat
    if side is None:
        return None
    options = [Option(u, f"{label(state, u)} (defence {factor(state, units(state).units[u], 'defense'):g}"
                         f"{', damaged' if damaged(state, u) else ''})") for u in eligible_targets(state, side)]
    return [Field("unit", "unit", options, label=f"the unit that suffers {NAMES[c.due[side][0]]}")] if options else None


def target_preview(state, cmd: ChooseNavalTarget):
    problem = why_not_target(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    c = naval(state).combat
    result = c.due[target_side_for(state, cmd.actor)][0]
    u = units(state).units[cmd.unit]
    defence = factor(state, u, "defense") if not is_convoy(u) else data()["convoy_defense"]
    return {"result": result, "defence": defence,
            "chance_full_result": min(10, max(0, int(defence))) / 10,
            "else": WORSE_TO_LIGHTER[result]}


@rules.command(ChooseNavalTarget, choices=target_choices, preview=target_preview)
def choose_naval_target(ctx, cmd: ChooseNavalTarget) -> None:
    problem = why_not_target(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    apply_result(ctx, target_side_for(ctx.state, cmd.actor), cmd.unit)
    if target_side_for(ctx.state, cmd.actor) is None and cmd.actor in _pending_powers(ctx.state):
        ctx.finish_decision(cmd.actor)


def _pending_powers(state) -> list[str]:
    k = state.kernel
    return [p for who in k.sequence.pending for p in (k.sides.get(who) or [who])]


def apply_result(ctx, target_side: str, unit_id: str) -> None:
    """The defence roll and the result's effect on ``unit_id``."""
    state = ctx.state
    c = naval(state).combat
    result = c.due[target_side][0]
    u = units(state).units[unit_id]
    defence = data()["convoy_defense"] if is_convoy(u) else factor(state, u, "defense")
    roll = ctx.roll(f"{RULE}: defence roll for {label(state, unit_id)} against {NAMES[result]}")[0]
    final = result if roll <= defence else WORSE_TO_LIGHTER[result]
    ctx.emit(NavalResultApplied(target_side=target_side, unit=unit_id, result=result, roll=roll, final=final))
    if is_convoy(u):
        return _convoy_result(ctx, u, final)
    if final == "x" or (final == "d" and damaged(state, unit_id)):
        destroy(ctx, unit_id)
    elif final == "d":
        ctx.emit(NavalUnitDamaged(unit=unit_id))


def _convoy_result(ctx, u, final: str) -> None:
    points = convoy_points(u)
    side = ctx.state.kernel.side_of(u.power)
    if final == "a":
        # "an A result aborts 1 convoy point": split off into the abort queue (a single
        # point aborts whole)
        if points <= 1:
            return queue_aborts(ctx, [u.id], side, "result")
        box = naval(ctx.state).at_sea[u.id]
        new_id = f"{u.id}-a{ctx.state.kernel.seq}"
        ctx.emit(UnitFactorsChanged(unit=u.id, factors={"points": points - 1}))
        ctx.emit(UnitCreated(unit=u.model_copy(update={"id": new_id, "factors": {**u.factors, "points": 1},
                                                       "face_up": False})))
        ctx.emit(ShipsPlacedAtSea(units=[new_id], area=box.area, section=box.section))
        return queue_aborts(ctx, [new_id], side, "result")
    lost = {"x": 2 if points > 1 else 1, "d": 1}.get(final, 0)
    if points - lost <= 0:
        destroy(ctx, u.id)
    elif lost:
        ctx.emit(UnitFactorsChanged(unit=u.id, factors={"points": points - lost}))


def destroy(ctx, unit_id: str) -> None:
    """X result: the unit and any cargo (and carrier air units aboard) are destroyed."""
    for passenger in aboard(ctx.state, unit_id):
        ctx.emit(UnitMoved(unit=passenger, to_hex=None, to_where="eliminated"))
    ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="eliminated"))
    ctx.emit(NavalUnitLost(unit=unit_id))


def to_repair_pool(ctx, unit_id: str) -> None:
    for passenger in aboard(ctx.state, unit_id):
        ctx.emit(UnitMoved(unit=passenger, to_hex=None, to_where="production-pool"))
    ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="repair-pool"))
    ctx.emit(NavalUnitLost(unit=unit_id))
