"""Naval Interception: a moving group may be intercepted in each sea area it enters that holds
organized enemy units (the Naval Interception Digression).

Seeds: "Naval Interception" (L13578-13690): "You can try to intercept a group of enemy naval
units as soon as it enters a sea area containing at least one of your organized naval ...
units.  You can't try to intercept: SUBs moving individually or in a group; ... units moving
from one section into a lower-numbered section of the same sea-box; or a group containing only
naval units with which you are not at war."  "announce whether you are committing your SUBs
... You must now designate an organized unit (except a convoy) as the interception unit, and
it becomes disorganized"; "As long as that interception unit remains in the sea-box, you can
make further interception attempts in that sea area ... without having to designate another".
"Naval Interception Search": "a die is rolled and compared to the search number in the
highest section containing units you committed ... You succeed if you roll the modified search
number, or less".  "Naval Stop or Fight": stop in a section like any naval move, or fight
through: "put your moving group ... into one section of the sea-box ... start the normal combat
sequence"; in the first round "your opponent's interception roll counts as his/her search
roll", his SUB commitment stands, and "the units in the moving group are always included".
"End of interception": the group may stay or move on with its remaining range and movement
allowance, the latter reduced "by the (unmodified) search number of the section in which you
put them to fight through".
Authored: the moving group may continue only as a whole (splitting, an extra naval move, is
not offered); return-to-base and abort moves are not intercepted yet.
"""

from __future__ import annotations

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.units import UnitFlipped, units

from .naval_combat_events import NavalCombatBegan, SubsCommitted
from .naval_interception_events import (
    InterceptStopOrFight,
    InterceptionAttempted,
    InterceptionDeclined,
    InterceptionSearched,
    NavalMoveFinished,
    NavalMoveInterrupted,
)
from .naval_combat import other, section_search, side_dm, units_in_area
from .naval_movement_moving_naval_units import perform_move
from .naval_units import is_convoy, is_sub, label
from .sea_box_section import area_name, box_hex, search_number, sections_of
from .state import naval, rules, this_impulse

DIGRESSION = "wif.digressions.naval-interception"
OFFER = f"{DIGRESSION}.offer-interception"
SEARCH = f"{DIGRESSION}.interception-search"
STOP_OR_FIGHT = f"{DIGRESSION}.stop-or-fight"
COMBAT = f"{DIGRESSION}.interception-combat"
CONTINUE = f"{DIGRESSION}.continue-moving"
RULE = "Naval Interception"


# ---------------------------------------------------------------- who may intercept where
def interceptors(state, area: str, moving_power: str) -> list:
    """Organized enemy units at sea in ``area`` that may intercept ``moving_power``'s group."""
    side = other(state, state.kernel.side_of(moving_power))
    return [u for u in units_in_area(state, area, side)
            if u.face_up and not is_convoy(u) and core.enemies(state, u.power, moving_power)]


def standing_interceptor(state, area: str, side: str) -> str | None:
    """The side's interception unit designated in ``area`` this impulse and still there."""
    entry = naval(state).interceptors.get(f"{side}:{area}")
    if entry and entry[1:] == this_impulse(state) and entry[0] in naval(state).at_sea \
            and naval(state).at_sea[entry[0]].area == area:
        return entry[0]
    return None


def interceptable(state, area: str, power: str, unit_ids: list[str]) -> bool:
    all_units = units(state).units
    if all(is_sub(all_units[u]) for u in unit_ids):
        return False  # "SUBs moving individually or in a group"
    side = other(state, state.kernel.side_of(power))
    return bool(interceptors(state, area, power)) or standing_interceptor(state, area, side) is not None


def advance(ctx, power: str, unit_ids: list[str], origin: str, to: str, section, path: list[str], start: int,
            reduction: int = 0) -> None:
    """Move on along ``path`` from index ``start``: stop at the first sea area where the enemy
    may intercept (the digression), else finish the move."""
    state = ctx.state
    for i in range(start, len(path)):
        if interceptable(state, path[i], power, unit_ids):
            ctx.emit(NavalMoveInterrupted(power=power, units=list(unit_ids), origin=origin, to=to, section=section,
                                          path=list(path), index=i, reduction=reduction))
            ctx.push("digressions.naval-interception")
            return
    finish(ctx, power, unit_ids, origin, to, section, path)


def finish(ctx, power, unit_ids, origin, to, section, path) -> None:
    live = [u for u in unit_ids if units(ctx.state).units[u].where == "map"]
    if live:
        perform_move(ctx, power, origin, to, section, live, path=path)
    if naval(ctx.state).moving is not None:
        ctx.emit(NavalMoveFinished())


# ---------------------------------------------------------------- Offer Interception
class Intercept(Command):
    unit: str | None = None  # the interception unit (None: the one already designated here)
    commit_subs: bool = False


class DeclineIntercept(Command):
    """Let the moving group go on."""


def _moving(state):
    return naval(state).moving


def why_not_intercept(state, power: str, unit: str | None) -> str | None:
    m = _moving(state)
    if m is None or m.attempted or m.declined:
        return f"{RULE}: no enemy group waits to be intercepted now"
    area = m.path[m.index]
    side = state.kernel.side_of(power)
    if side == state.kernel.side_of(m.power):
        return f"{RULE}: {power} is on the moving side"
    standing = standing_interceptor(state, area, side)
    if unit is None:
        return None if standing else f"{RULE}: designate an organized non-convoy unit in {area_name(area)} as the interception unit"
    if unit not in {u.id for u in interceptors(state, area, m.power)} or units(state).units[unit].power != power:
        return f"{RULE}: {label(state, unit)} is not an organized non-convoy unit of {power} in {area_name(area)}"
    return None


def intercept_choices(state, actor, step_id):
    m = _moving(state)
    if m is None or m.attempted or m.declined or state.kernel.side_of(actor) == state.kernel.side_of(m.power):
        return None
    area = m.path[m.index]
    options = [Option(u.id, label(state, u.id)) for u in interceptors(state, area, m.power) if u.power == actor]
    if why_not_intercept(state, actor, None) is None:
        options.insert(0, Option(None, "the interception unit already designated here"))
    if not options:
        return None
    return [Field("unit", "option", options), yes_no("commit_subs", "commit all your SUBs")]


def intercept_preview(state, cmd: Intercept):
    problem = why_not_intercept(state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    m = _moving(state)
    number = interception_number(state, state.kernel.side_of(cmd.actor), m.path[m.index], cmd.commit_subs)
    return {"area": area_name(m.path[m.index]), "need": number, "chance": max(0, min(10, number)) / 10}


@rules.command(Intercept, choices=intercept_choices, preview=intercept_preview)
def intercept(ctx, cmd: Intercept) -> None:
    problem = why_not_intercept(ctx.state, cmd.actor, cmd.unit)
    if problem:
        raise Rejected(problem)
    m = _moving(ctx.state)
    side = ctx.state.kernel.side_of(cmd.actor)
    unit = cmd.unit or standing_interceptor(ctx.state, m.path[m.index], side)
    if cmd.unit:
        ctx.emit(UnitFlipped(unit=cmd.unit, face_up=False))
    ctx.emit(InterceptionAttempted(area=m.path[m.index], side=side, unit=unit, commit_subs=cmd.commit_subs,
                                   turn=ctx.state.kernel.turn, impulse=ctx.state.kernel.impulse))
    ctx.finish_decision(cmd.actor)


def decline_choices(state, actor, step_id):
    m = _moving(state)
    if m is None or m.attempted or m.declined or state.kernel.side_of(actor) == state.kernel.side_of(m.power):
        return None
    return []


@rules.command(DeclineIntercept, choices=decline_choices, preview=lambda state, cmd: {"moving_group_continues": True})
def decline_intercept(ctx, cmd: DeclineIntercept) -> None:
    if decline_choices(ctx.state, cmd.actor, None) is None:
        raise Rejected(f"{RULE}: {cmd.actor} has no interception to decline now")
    ctx.emit(InterceptionDeclined())
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Naval Interception Search
def interception_number(state, side: str, area: str, commit_subs: bool) -> int:
    weather = core.weather_in(state, box_hex(area))
    committed = [u for u in units_in_area(state, area, side) if commit_subs or not is_sub(u)]
    sections = {naval(state).at_sea[u.id].section for u in committed}
    return max((section_search(state, side, s, weather, committed) for s in sections), default=0)


@rules.step_rule(SEARCH)
def interception_search(ctx, step_id: str) -> None:
    state = ctx.state
    m = _moving(state)
    if m.attempted:
        number = interception_number(state, m.attempt_side, m.path[m.index], m.commit_subs)
        roll = ctx.roll(f"{RULE}: search in {area_name(m.path[m.index])}")[0]
        ctx.emit(InterceptionSearched(roll=roll, number=number, success=roll <= number))
        if roll <= number:
            return
    # "If the interception attempt fails, the moving force continues as if nothing had happened"
    m = _moving(state)
    advance(ctx, m.power, m.units, m.origin, m.to, m.section, m.path, m.index + 1, m.reduction)


# ---------------------------------------------------------------- Naval Stop or Fight
class StopOrFight(Command):
    fight: bool
    section: int


def max_section(state, m) -> int:
    """The highest section the group could stop in: each unit's movement left on entering."""
    all_units = units(state).units
    spent = m.index + 1 + m.reduction
    left = min(all_units[u].factors.get("speed", 0) for u in m.units if all_units[u].where == "map") - spent
    return max(0, int(left))


def why_not_stop_or_fight(state, power: str, fight: bool, section: int) -> str | None:
    m = _moving(state)
    if m is None or not m.success or m.choice:
        return f"{RULE}: no intercepted group waits for its answer"
    if power != m.power:
        return f"{RULE}: {m.power} answers for its intercepted group"
    area = m.path[m.index]
    if section not in sections_of(area):
        return f"{RULE}: {area_name(area)} has no section {section}"
    if any(is_convoy(units(state).units[u]) for u in m.units) and section != 0:
        return "Sea Box Section: convoys \"can only be placed in the zero section box\""
    if search_number(section) > max_section(state, m):
        return f"{RULE}: the group has {max_section(state, m)} movement points left in {area_name(area)}; section {section} needs more"
    return None


def stop_or_fight_choices(state, actor, step_id):
    m = _moving(state)
    if m is None or not m.success or m.choice or actor != m.power:
        return None
    area = m.path[m.index]
    options = [Option(s, f"section {s}") for s in sections_of(area) if why_not_stop_or_fight(state, actor, True, s) is None]
    if not options:
        return None
    return [yes_no("fight", "fight through (no: stop in the sea area)"), Field("section", "option", options)]


def stop_or_fight_preview(state, cmd: StopOrFight):
    problem = why_not_stop_or_fight(state, cmd.actor, cmd.fight, cmd.section)
    if problem:
        raise Rejected(problem)
    return {"fight": cmd.fight, "section": cmd.section, "movement_lost": search_number(cmd.section) if cmd.fight else None}


@rules.command(StopOrFight, choices=stop_or_fight_choices, preview=stop_or_fight_preview)
def stop_or_fight(ctx, cmd: StopOrFight) -> None:
    problem = why_not_stop_or_fight(ctx.state, cmd.actor, cmd.fight, cmd.section)
    if problem:
        raise Rejected(problem)
    m = _moving(ctx.state)
    area = m.path[m.index]
    ctx.emit(InterceptStopOrFight(fight=cmd.fight, section=cmd.section))
    perform_move(ctx, m.power, m.origin, area, cmd.section, list(m.units), path=m.path[:m.index + 1])
    if not cmd.fight:
        ctx.emit(NavalMoveFinished())
    ctx.finish_decision(cmd.actor)


@rules.step_rule(COMBAT)
def interception_combat(ctx, step_id: str) -> None:
    """Fight through: the naval combat sub-machine, the intercepting side initiating."""
    state = ctx.state
    m = _moving(state)
    area = m.path[m.index]
    ctx.emit(NavalCombatBegan(area=area, initiator=m.attempt_side, initiating_unit=None,
                              first_rolls={m.attempt_side: m.roll}, always_included=list(m.units)))
    ctx.emit(SubsCommitted(side=m.attempt_side, commit=m.commit_subs))
    ctx.push("procedures.naval-combat")


# ---------------------------------------------------------------- continue moving
class StopInSeaBox(Command):
    """The intercepted group stays in the section it fought in."""


class ContinueMove(Command):
    """The intercepted group moves on to its destination."""


def survivors(state) -> list[str]:
    m = _moving(state)
    return [u for u in m.units if u in naval(state).at_sea]


def continue_problem(state, power: str) -> str | None:
    m = _moving(state)
    if m is None or m.choice != "fight" or power != m.power:
        return f"{RULE}: no group of {power} fought through here"
    alive = survivors(state)
    if not alive:
        return f"{RULE}: nothing is left of the group"
    all_units = units(state).units
    section = naval(state).at_sea[alive[0]].section
    rest = len(m.path) - m.index - 1 + (1 if "," in m.to else 0)
    for u in alive:
        unit = all_units[u]
        ma_left = unit.factors.get("speed", 0) - (m.index + 1) - m.reduction - search_number(section) - rest
        if "," not in m.to:
            ma_left -= search_number(m.section or 0)
        if unit.factors.get("range", 0) - (m.index + 1) - rest < 0 or ma_left < 0:
            return f"{RULE}: {label(state, u)} has not the range and movement left to reach its destination"
    return None


def continue_choices(state, actor, step_id):
    return [] if continue_problem(state, actor) is None else None


def stay_choices(state, actor, step_id):
    m = _moving(state)
    return [] if m is not None and m.choice == "fight" and actor == m.power and survivors(state) else None


@rules.command(StopInSeaBox, choices=stay_choices, preview=lambda state, cmd: {"stays": survivors(state)})
def stop_in_sea_box(ctx, cmd: StopInSeaBox) -> None:
    if stay_choices(ctx.state, cmd.actor, None) is None:
        raise Rejected(f"{RULE}: {cmd.actor} has no intercepted group to stop")
    ctx.emit(NavalMoveFinished())
    ctx.finish_decision(cmd.actor)


@rules.command(ContinueMove, choices=continue_choices, preview=lambda state, cmd: {"to": naval(state).moving.to})
def continue_move(ctx, cmd: ContinueMove) -> None:
    problem = continue_problem(ctx.state, cmd.actor)
    if problem:
        raise Rejected(problem)
    m = _moving(ctx.state)
    alive = survivors(ctx.state)
    box = naval(ctx.state).at_sea[alive[0]]
    reduction = m.reduction + search_number(box.section)
    origin, to, section, path, start = f"{box.area}:{box.section}", m.to, m.section, m.path, m.index + 1
    ctx.emit(NavalMoveFinished())
    ctx.finish_decision(cmd.actor)
    advance(ctx, cmd.actor, alive, origin, to, section, path, start, reduction)


# ---------------------------------------------------------------- the digression's steps
def skip(state, step_id: str) -> str | None:
    if not step_id.startswith(DIGRESSION + "."):
        return None
    m = _moving(state)
    if m is None:
        return f"{RULE}: the moving group's move is over"
    if step_id == OFFER:
        return None
    if step_id == SEARCH:
        return None
    if step_id == STOP_OR_FIGHT:
        return None if m.success else f"{RULE}: no interception succeeded"
    if step_id == COMBAT:
        return None if m.choice == "fight" else f"{RULE}: the group did not fight through"
    if step_id == CONTINUE:
        return None if m.choice == "fight" and survivors(state) else f"{RULE}: no group is left to move on"
    return None


def deciders(state, step_id: str, kind: str) -> list[str] | None:
    m = _moving(state)
    if not step_id.startswith(DIGRESSION) or m is None:
        return None
    if kind == "rule:intercepting-side-dm":
        side = other(state, state.kernel.side_of(m.power))
        area = m.path[m.index]
        mine = {u.power for u in interceptors(state, area, m.power)}
        if standing_interceptor(state, area, side):
            mine.add(units(state).units[standing_interceptor(state, area, side)].power)
        return [side_dm(state, side, area)] if mine else []
    if kind == "rule:moving-side-dm":
        return [m.power]
    return None


def finish_refusal(state, step_id: str, power: str) -> str | None:
    m = _moving(state)
    if m is None:
        return None
    if step_id == OFFER and not (m.attempted or m.declined):
        return f"{RULE}: intercept (Intercept) or let the group go (DeclineIntercept)"
    if step_id == STOP_OR_FIGHT and m.success and not m.choice:
        return f"{RULE}: stop in the sea area or fight through (StopOrFight)"
    if step_id == CONTINUE and m.choice == "fight":
        return f"{RULE}: stay in the sea box (StopInSeaBox) or move on (ContinueMove)"
    return None

