"""Retreats (seeds "Land Combat": Retreats, Shatter; "Retreat Units"): the attacker retreats
each surviving defender 1 hex by the four priorities; a unit that can't retreat is
destroyed.

``retreat_options`` is the one judgement of where a unit may retreat: the handler, the
choices, the preview, the automatic retreats and the Shatter result ask it."""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.land.movement import MoveRules, land_stack_ok
from plugins.rules.units import UnitMoved

from . import odds as O
from .events import UnitRetreated
from .labels import hex_label, unit_label
from .state import PROC, Combat, combat_now, cs, current_combat, rules, side_of, units, waiting_combats

RULE = "Land Combat, retreats"
PRIORITIES = {1: "not in an enemy ZOC", 2: "not in an enemy ZOC, over-stacked",
              3: "in an enemy ZOC with a friendly land unit", 4: "in an enemy ZOC with a friendly land unit, over-stacked"}


class RetreatUnit(Command):
    unit: str
    to_hex: tuple[int, int]


def destroy(ctx, unit_id: str) -> None:
    ctx.emit(UnitMoved(unit=unit_id, to_hex=None, to_where="eliminated"))


def stack_ok(state, hex_, unit) -> bool:
    """Over-Stacked Hex (land's rule): would ``hex_`` hold ``unit`` within the land limit?"""
    here = [u for u in O.land_units(state, hex_) if u.id != unit.id] + [unit]
    return land_stack_ok(here)


def retreat_options(state, c: Combat, unit_id: str, from_hex) -> tuple[int, list]:
    """Land Combat, Retreats: the legal hexes of the best priority (1-4) for one unit.

    1 not in an enemy ZOC and not over-stacking; 2 not in an enemy ZOC, over-stacking; 3 in an
    enemy ZOC with a friendly land unit, not over-stacking; 4 the same, over-stacking.  "You
    can't retreat a unit into a hex it couldn't move into" (land's movement rules, ZOC
    aside); never back into the hex the retreat started from (nor, continuing a retreat,
    into a hex the unit has already retreated out of)."""
    unit = units(state)[unit_id]
    rules_ = MoveRules(state, unit)  # its ``zoc`` is the enemy ZOC for the unit's power
    start = O.norm(from_hex)
    left = {core.key_hex(k) for k in c.retreat_trail.get(unit_id, [])}
    best: dict[int, list] = {}
    for n in core.world_map().grid.neighbours(start):
        if n == c.hex or n in left or rules_.step(start, n, O.map_hexside(start, n))[0] is None:
            continue
        over = not stack_ok(state, n, unit)
        if n not in rules_.zoc:
            pr = 2 if over else 1
        elif any(side_of(state, u.power) == side_of(state, unit.power) for u in O.land_units(state, n)):
            pr = 4 if over else 3
        else:
            continue
        best.setdefault(pr, []).append(n)
    if not best:
        return 0, []
    pr = min(best)
    return pr, sorted(best[pr])


def retreat_one(ctx, c: Combat, unit_id: str, to_hex, pr: int) -> None:
    """Move one retreating unit.  Retreats: "If the unit ends in a hex which is still to be
    attacked, or where it is overstacked, continue retreating the unit according to the same
    priorities (or destroy it if this is not possible)" — so a priority 2 or 4 retreat goes
    on from the over-stacked hex instead of destroying the unit at once."""
    state = ctx.state
    start = O.norm(units(state)[unit_id].hex)
    to = O.norm(to_hex)
    still_attacked = any(o.hex == to and o.id != c.id for o in waiting_combats(state))
    over = pr in (2, 4)
    reason = ("over-stacked there: keeps retreating" if over
              else "ends in a hex still to be attacked: keeps retreating" if still_attacked else "")
    ctx.emit(UnitMoved(unit=unit_id, to_hex=to))
    ctx.emit(UnitRetreated(combat=c.id, unit=unit_id, from_hex=start, to_hex=to, priority=pr,
                           done=not (still_attacked or over), reason=reason))


def cannot_retreat(ctx, c: Combat, unit) -> None:
    """Retreats: "Destroy a unit if it can't retreat under any of these priorities" (and "If
    overstacking causes units to be destroyed, retreating units are destroyed") — unless a
    converted S/B result lets the excess survive in the production pool (Shatter)."""
    here = O.norm(unit.hex)
    if c.excess_to_pool:
        ctx.emit(UnitRetreated(combat=c.id, unit=unit.id, from_hex=here, to_hex=None, to_pool=True,
                               reason="only some units could retreat: the excess goes to the production pool"))
        ctx.emit(UnitMoved(unit=unit.id, to_hex=None, to_where="production-pool"))
        return
    over = c.retreat_trail.get(unit.id) and not stack_ok(ctx.state, here, unit)
    ctx.emit(UnitRetreated(combat=c.id, unit=unit.id, from_hex=here, to_hex=None,
                           reason="over-stacked and no hex to retreat on into" if over else "no hex to retreat into"))
    destroy(ctx, unit.id)


def auto_retreats(ctx, c: Combat, every: bool = False) -> None:
    """Retreat Units: "Should there be only one possible retreat hex, then MWIF implements the
    retreat"; a unit that can't retreat is destroyed.  ``every``: retreat the others too, each
    into the first hex of its best priority (the attacker ended the step without choosing)."""
    changed = True
    while changed:
        changed = False
        c = cs(ctx.state).combats[c.id]
        for uid in list(c.retreating):
            unit = units(ctx.state)[uid]
            pr, hexes = retreat_options(ctx.state, c, uid, unit.hex)
            if not hexes:
                cannot_retreat(ctx, c, unit)
                changed = True
            elif len(hexes) == 1 or every:
                retreat_one(ctx, c, uid, hexes[0], pr)
                changed = True
            if changed:
                break


# ---------------------------------------------------------------- the command
def retreat_problem(state, c: Combat, unit_id: str, to_hex) -> tuple[str | None, int]:
    """(why the attacker may not retreat ``unit_id`` into ``to_hex``, or None; its priority)."""
    if unit_id not in c.retreating:
        return f"Retreat Units: {unit_id} is not retreating from this combat", 0
    unit = units(state)[unit_id]
    pr, hexes = retreat_options(state, c, unit_id, unit.hex)
    if O.norm(to_hex) not in hexes:
        return (f"{RULE}: {unit.name or unit.id} must retreat by priority {pr} into one of "
                f"{', '.join(f'{h[0]},{h[1]}' for h in hexes)}"), pr
    return None, pr


def _destinations(state, c: Combat, unit) -> list[Field]:
    pr, hexes = retreat_options(state, c, unit.id, unit.hex)
    return [Field("to_hex", "hex", [Option(list(h), f"{hex_label(h)}, priority {pr}: {PRIORITIES[pr]}")
                                    for h in hexes], label="retreat into")]


def retreat_choices(state, actor: str, step_id: str) -> list[Field] | None:
    c = current_combat(state)
    if c is None or c.stage != "applied" or not c.retreating:
        return None
    return [Field("unit", "unit", [
        Option(uid, unit_label(units(state)[uid]), then=lambda uid=uid: _destinations(state, c, units(state)[uid]))
        for uid in c.retreating], label="defending unit to retreat")]


def retreat_preview(state, cmd: RetreatUnit) -> dict:
    c = combat_now(state, "Retreat Units")
    problem, pr = retreat_problem(state, c, cmd.unit, cmd.to_hex)
    if problem:
        raise Rejected(problem)
    to = O.norm(cmd.to_hex)
    return {"to_hex": list(to), "terrain": O.hex_terrain(state, to), "priority": pr, "why": PRIORITIES[pr],
            "keeps_retreating": pr in (2, 4) or any(o.hex == to and o.id != c.id for o in waiting_combats(state))}


@rules.command(RetreatUnit, choices=retreat_choices, preview=retreat_preview)
def retreat_unit(ctx, cmd: RetreatUnit) -> None:
    c = combat_now(ctx.state, "Retreat Units")
    problem, pr = retreat_problem(ctx.state, c, cmd.unit, cmd.to_hex)
    if problem:
        raise Rejected(problem)
    retreat_one(ctx, c, cmd.unit, cmd.to_hex, pr)
    auto_retreats(ctx, c)
    if not cs(ctx.state).combats[c.id].retreating:
        ctx.finish_decision(cmd.actor)


def retreat_step_ended(ctx) -> None:
    """The attacker ended Retreat Units with units still to retreat: MWIF retreats them (each
    into the first hex of its best priority), so no defender stays in the attacked hex."""
    c = current_combat(ctx.state)
    if c is not None and c.retreating:
        auto_retreats(ctx, c, every=True)
