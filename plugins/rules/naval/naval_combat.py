"""Naval Combat: the two naval combat phases and the naval combat sub-machine.

Seeds: "Naval Combat" (L2844-2918): "a side can't initiate if it chose a Land or Pass
action"; "The sea area must contain at least one unit from each of two sides at war"; "an
area can't be chosen twice per impulse"; the non-phasing side initiates only "in areas in
which or into which the phasing side moved a non-SUB unit" and stopped, "designating an
organized unit, which becomes disorganized, to initiate".  "Select Sea Area for Naval
Combat" (L12124): declining ends the phase.  "Commit Subs" (L1156-1191): all of a side's SUBs
or none, one decider per side, the initiating side first.  "Naval Combat Included Units and
Naval Combat Type" (L2919-3034): each side rolls a search die against the search numbers of
the sections of its committed units: -1 per 10 enemy convoy points or part, +1 in rain, snow,
storm or blizzard; +1 to a section's number with an undamaged carrier carrying carrier air
units in fine, rain or snow; units in sections whose modified number is at least the roll are
included; if only one side includes units it must pick at least one section of enemy
committed units.  "Surprise Points" (L6925-7063): each side's points are the modified search
number of the highest section with an included unit plus the opponent's unmodified roll; the
side with more spends the difference: 4 to avoid combat, 2 per column.  Combat type: naval air
when a side has an aircraft or undamaged carrier included, else submarine when a side has
SUBs included and the other convoy points, else surface.  "Voluntary Side Abort" and "Next
Naval Combat Round": either side may abort all its units after a round, the initiator first;
the combat goes on while both sides have units there; at its end all damaged units abort.
"""

from __future__ import annotations

import math

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn.activities import action_problem
from plugins.rules.units import UnitFlipped, units

from .naval_combat_events import (
    NavalCombatBegan,
    NavalCombatDeclined,
    NavalCombatPhaseBegan,
    NavalSearchResolved,
    NavalSectionsIncluded,
    SubsCommitted,
)
from .naval_units import aboard, convoy_points, damaged, is_carrier_air, is_convoy, is_sub, kind, label
from .sea_box_section import area_name, box_hex, search_number
from .state import NON_PHASING_NAVAL_COMBAT, PHASING_NAVAL_COMBAT, naval, rules, this_impulse

PROC = "wif.procedures.naval-combat"
ROUND = f"{PROC}.round"
SELECT_AREA = f"{PROC}.select-sea-area"
RULE = "Naval Combat"


def other(state, side: str) -> str:
    return next(s for s in state.kernel.sides if s != side)


def sides_in_order(state) -> list[str]:
    """The combat's sides, the initiating side first: dice and queue numbers follow this
    order, never the order a dict of sides happens to have."""
    c = naval(state).combat
    return [c.initiator, other(state, c.initiator)]


# ---------------------------------------------------------------- who is where
def units_in_area(state, area: str, side: str) -> list:
    """``side``'s units in the sea area that take part in its combat: units waiting in the
    abort queue "are no longer part of any combat in the sea area" (Naval Combat Abort Queue)."""
    waiting = {e.unit for e in naval(state).abort_queue}
    return [units(state).units[u] for u, box in naval(state).at_sea.items()
            if box.area == area and u not in waiting and state.kernel.side_of(units(state).units[u].power) == side]


def sides_at_war_in(state, area: str) -> bool:
    present = {}
    for side in state.kernel.sides:
        present[side] = {u.power for u in units_in_area(state, area, side)}
    sides = [s for s in present if present[s]]
    return len(sides) == 2 and any(core.enemies(state, a, b) for a in present[sides[0]] for b in present[sides[1]])


def eligible_areas(state, initiator: str) -> list[str]:
    """Sea areas where ``initiator`` may start a naval combat now."""
    now = this_impulse(state)
    n = naval(state)
    areas = sorted({box.area for box in n.at_sea.values()})
    out = []
    for area in areas:
        if n.fought.get(area) == now or not sides_at_war_in(state, area):
            continue
        if initiator != state.kernel.active_side and n.entered.get(area) != now:
            continue  # the non-phasing side: only where the phasing side moved in and stopped
        out.append(area)
    return out


def side_dm(state, side: str, area: str | None = None) -> str:
    """One power decides for a side: the one with most units in the area (then the first)."""
    powers = state.kernel.sides[side]
    if area is None:
        return powers[0]
    counts = {p: 0 for p in powers}
    for u in units_in_area(state, area, side):
        counts[u.power] = counts.get(u.power, 0) + 1
    return max(powers, key=lambda p: (counts.get(p, 0), -powers.index(p)))


def initiating_powers(state, side: str) -> list[str]:
    if side != state.kernel.active_side:
        return list(state.kernel.sides[side])
    return [p for p in state.kernel.sides[side] if not action_problem(state, p, PHASING_NAVAL_COMBAT)]


# ---------------------------------------------------------------- the phases
def phase_skip(state, step_id: str) -> str | None:
    initiator = state.kernel.active_side if step_id == PHASING_NAVAL_COMBAT else other(state, state.kernel.active_side)
    if not eligible_areas(state, initiator):
        where = ("no sea area holds units of both sides at war that was not fought in this impulse"
                 if step_id == PHASING_NAVAL_COMBAT else
                 "the phasing side moved no non-SUB unit into a sea area holding units at war with it this impulse")
        return f"{RULE}: {where}"
    return None


@rules.step_rule(PHASING_NAVAL_COMBAT, NON_PHASING_NAVAL_COMBAT)
def naval_combat_phase(ctx, step_id: str) -> None:
    initiator = ctx.state.kernel.active_side
    if step_id == NON_PHASING_NAVAL_COMBAT:
        initiator = other(ctx.state, initiator)
    ctx.emit(NavalCombatPhaseBegan(initiator=initiator))
    ctx.push("procedures.naval-combat")


# ---------------------------------------------------------------- Select Sea Area for Naval Combat
class SelectNavalCombatArea(Command):
    area: str
    initiating_unit: str | None = None  # the non-phasing side's organized unit (disorganized)


class DeclineNavalCombatArea(Command):
    """No (more) naval combat in this phase."""


def why_not_select(state, power: str, area: str, unit: str | None) -> str | None:
    n = naval(state)
    side = state.kernel.side_of(power)
    if n.combat is not None or n.phase_initiator != side:
        return f"{RULE}: {side} does not initiate naval combat now"
    if power not in initiating_powers(state, side):
        return action_problem(state, power, PHASING_NAVAL_COMBAT) or f"{RULE}: {power} may not initiate"
    if area not in eligible_areas(state, side):
        return (f"{RULE}: {area_name(area)} is not a sea area where {side} may initiate now (units of both sides "
                "at war, not fought this impulse; the non-phasing side only where the phasing side moved in)")
    if side != state.kernel.active_side:
        ok = [u.id for u in units_in_area(state, area, side) if u.face_up and not is_convoy(u)]
        if unit not in ok:
            return f"{RULE}: the non-phasing side designates an organized non-convoy unit of its own in {area_name(area)} to initiate"
    elif unit:  # the unit named is disorganized: only the non-phasing side pays that price
        return f"{RULE}: the phasing side names no initiating unit ({unit!r} named)"
    return None


def select_choices(state, actor, step_id):
    side = state.kernel.side_of(actor)
    options = []
    for area in eligible_areas(state, side):
        if side == state.kernel.active_side:
            options.append(Option(area, area_name(area), [Field("initiating_unit", "option", [Option(None, "none")])]))
            continue
        ok = [u for u in units_in_area(state, area, side) if u.face_up and not is_convoy(u)]
        if ok:
            options.append(Option(area, area_name(area), [Field("initiating_unit", "unit", [
                Option(u.id, label(state, u.id)) for u in ok])]))
    if not options or why_not_select(state, actor, options[0].value, _first_unit(options[0])):
        return None
    return [Field("area", "option", options)]


def _first_unit(option):
    return option.then[0].options[0].value


def select_preview(state, cmd: SelectNavalCombatArea):
    problem = why_not_select(state, cmd.actor, cmd.area, cmd.initiating_unit)
    if problem:
        raise Rejected(problem)
    return {"area": area_name(cmd.area), "sides": {s: [u.id for u in units_in_area(state, cmd.area, s)]
                                                   for s in state.kernel.sides}}


@rules.command(SelectNavalCombatArea, choices=select_choices, preview=select_preview)
def select_naval_combat_area(ctx, cmd: SelectNavalCombatArea) -> None:
    problem = why_not_select(ctx.state, cmd.actor, cmd.area, cmd.initiating_unit)
    if problem:
        raise Rejected(problem)
    side = ctx.state.kernel.side_of(cmd.actor)
    if cmd.initiating_unit:
        ctx.emit(UnitFlipped(unit=cmd.initiating_unit, face_up=False))
    ctx.emit(NavalCombatBegan(area=cmd.area, initiator=side, initiating_unit=cmd.initiating_unit))
    ctx.finish_decision(cmd.actor)


def decline_choices(state, actor, step_id):
    n = naval(state)
    return [] if n.combat is None and n.phase_initiator == state.kernel.side_of(actor) else None


@rules.command(DeclineNavalCombatArea, choices=decline_choices,
               preview=lambda state, cmd: {"ends": "the naval combat phase"})
def decline_naval_combat_area(ctx, cmd: DeclineNavalCombatArea) -> None:
    if decline_choices(ctx.state, cmd.actor, None) is None:
        raise Rejected(f"{RULE}: {cmd.actor} has no naval combat to decline now")
    ctx.emit(NavalCombatDeclined(initiator=ctx.state.kernel.side_of(cmd.actor)))
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Commit Subs
class CommitSubs(Command):
    commit: bool


def subs_in(state, side: str) -> list:
    c = naval(state).combat
    return [u for u in units_in_area(state, c.area, side) if is_sub(u)] if c else []


def commit_choices(state, actor, step_id):
    c = naval(state).combat
    side = state.kernel.side_of(actor)
    if c is None or side in c.subs or not subs_in(state, side):
        return None
    return [yes_no("commit", "commit all your SUBs in the area to this round")]


@rules.command(CommitSubs, choices=commit_choices,
               preview=lambda state, cmd: {"subs": [u.id for u in subs_in(state, state.kernel.side_of(cmd.actor))]})
def commit_subs(ctx, cmd: CommitSubs) -> None:
    if commit_choices(ctx.state, cmd.actor, None) is None:
        raise Rejected(f"Commit Subs: {cmd.actor}'s side has no SUBs to commit now, or has decided")
    ctx.emit(SubsCommitted(side=ctx.state.kernel.side_of(cmd.actor), commit=cmd.commit))
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Search Die Rolls
def committed(state, side: str) -> list:
    c = naval(state).combat
    return [u for u in units_in_area(state, c.area, side) if not is_sub(u) or c.subs.get(side)]


def section_search(state, side: str, section: int, weather: str, of_units=None) -> int:
    """A section's search number, +1 with an undamaged carrier with carrier air aboard in fine,
    rain or snow (among ``of_units``, default the side's committed units)."""
    n = search_number(section)
    if weather in ("fine", "rain", "snow"):
        for u in (committed(state, side) if of_units is None else of_units):
            if (u.branch == "air" and u.factors.get("naval", 0) > 0
                    and naval(state).at_sea[u.id].section == section):
                return n + 1  # a NAV in the section
            if (naval(state).at_sea[u.id].section == section and kind(u) == "carrier" and not damaged(state, u.id)
                    and any(is_carrier_air(units(state).units[p]) for p in aboard(state, u.id))):
                return n + 1
    return n


@rules.step_rule(f"{ROUND}.search-die-rolls")
def search_die_rolls(ctx, step_id: str) -> None:
    state = ctx.state
    c = naval(state).combat
    # "make sure that both sides have units committed to the naval combat.  It is possible that
    # one side had only submarines and decided to not commit their subs.  In that case, the
    # combat is over."
    idle = [side for side in sides_in_order(state) if not committed(state, side)]
    if idle:
        ctx.emit(NavalSearchResolved(rolls={}, included={}, found={}, surprise={},
                                     over=f"{idle[0]} has no unit committed (its SUBs were not committed)"))
        return
    weather = core.weather_in(state, box_hex(c.area))
    rolls, included, found, best = {}, {}, {}, {}
    for side in sides_in_order(state):
        if c.round == 1 and side in c.first_rolls:
            rolls[side] = c.first_rolls[side]  # "your opponent's interception roll counts as his/her search roll"
        else:
            rolls[side] = ctx.roll(f"Search Die Rolls: {side} in {area_name(c.area)}")[0]
    for side in state.kernel.sides:
        enemy_cp = sum(convoy_points(u) for u in committed(state, other(state, side)))
        roll = rolls[side] - math.ceil(enemy_cp / 10) + (1 if weather in ("rain", "snow", "storm", "blizzard") else 0)
        mine = []
        for u in committed(state, side):
            number = section_search(state, side, naval(state).at_sea[u.id].section, weather)
            if number >= roll:
                mine.append(u.id)
                best[side] = max(best.get(side, 0), number)
        if c.round == 1:
            # "the units in the moving group are always included"
            mine += [u.id for u in committed(state, side) if u.id in c.always_included and u.id not in mine]
        included[side], found[side] = mine, bool(mine)
    surprise = {}
    if any(found.values()):
        points = {s: best.get(s, 0) + rolls[other(state, s)] for s in state.kernel.sides}
        for s in state.kernel.sides:
            surprise[s] = max(0, points[s] - points[other(state, s)])
    ctx.emit(NavalSearchResolved(rolls=rolls, included=included, found=found, surprise=surprise))


# ---------------------------------------------------------------- Select Included Sea Boxes
class IncludeSeaBoxSections(Command):
    sections: list[int]


def search_winner(state) -> str | None:
    c = naval(state).combat
    if c is None or c.over or not c.found:
        return None
    winners = [s for s, f in c.found.items() if f]
    return winners[0] if len(winners) == 1 else None


def enemy_sections(state, side: str) -> list[int]:
    return sorted({naval(state).at_sea[u.id].section for u in committed(state, other(state, side))})


def include_choices(state, actor, step_id):
    side = state.kernel.side_of(actor)
    if search_winner(state) != side:
        return None
    return [Field("sections", "units", [Option(s, f"section {s}") for s in enemy_sections(state, side)], min=1)]


def why_not_include(state, actor, sections) -> str | None:
    side = state.kernel.side_of(actor)
    if search_winner(state) != side:
        return "Select Included Sea Boxes: only the one side whose search found a section chooses"
    if not sections or any(s not in enemy_sections(state, side) for s in sections):
        return ("Select Included Sea Boxes: choose at least one section holding committed enemy units "
                f"({enemy_sections(state, side)})")
    return None


@rules.command(IncludeSeaBoxSections, choices=include_choices,
               preview=lambda state, cmd: {"sections": cmd.sections})
def include_sea_box_sections(ctx, cmd: IncludeSeaBoxSections) -> None:
    problem = why_not_include(ctx.state, cmd.actor, cmd.sections)
    if problem:
        raise Rejected(problem)
    enemy = other(ctx.state, ctx.state.kernel.side_of(cmd.actor))
    ids = [u.id for u in committed(ctx.state, enemy) if naval(ctx.state).at_sea[u.id].section in cmd.sections]
    ctx.emit(NavalSectionsIncluded(side=enemy, units=ids))
    ctx.finish_decision(cmd.actor)
