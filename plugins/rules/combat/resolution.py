"""Land Combat Resolution (seeds "Land Combat Resolution", "Select Land Combat", "Phasing Side
Snow Unit Decision", "Choose Combat Type", "Land Combat Die Rolls"): the combats are resolved
one by one in the order the phasing team leader chooses, each through the sub-machine
``procedures.land-combat-resolution``.

The sub-machine loop: the kernel ends a pushed sub-machine after its last child without
asking ``repeat_step``, so each further combat runs in a nested push made when the phasing
team leader selects it (``SelectLandCombat`` while other combats remain); when that nested
combat is over, the outer Select Land Combat step asks again.  The last remaining combat is
resolved in the outermost frame."""

from __future__ import annotations

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.supply import in_supply

from . import odds as O
from .preview import odds_summary
from .events import AttackCancelled, LandCombatResolved, LandCombatSelected, LandCombatTableChosen, SnowUnitsDecided
from .labels import hex_label
from .state import (
    COMBAT,
    PROC,
    Combat,
    attacking_leader,
    combat_now,
    cs,
    current_combat,
    defenders,
    defending_leader,
    depth,
    hook_of,
    living_attackers,
    rules,
    side_of,
    waiting_combats,
)

TABLES = ("blitz", "assault")


class SelectLandCombat(Command):
    hex: tuple[int, int]


class UseSnowUnits(Command):
    use: bool


class ChooseLandCombatType(Command):
    table: str  # "blitz" / "assault"


class ResolveCombat(Command):
    pass


# ---------------------------------------------------------------- which combats are still on
def cancel_reason(state, c: Combat) -> str | None:
    """Land Combat Resolution: "All the land attacks that have been declared have to be
    resolved, unless the resolution of earlier attacks results in zero in-supply land units
    remaining to make the attack" (or no enemy land unit is left to attack)."""
    able = [u for u in living_attackers(state, c)
            if (O.adjacent(u.hex, c.hex) or O.norm(u.hex) == c.hex) and in_supply(state, u.id)]
    if not able:
        return "no in-supply land unit is left to make the attack"
    if not defenders(state, c) and not (c.forced and c.notional):
        return "no enemy land unit is left in the hex"
    return None


def prune(ctx) -> None:
    for c in waiting_combats(ctx.state):
        reason = cancel_reason(ctx.state, c)
        if reason:
            ctx.emit(AttackCancelled(combat=c.id, reason=reason))


def selectable_combats(state) -> list[Combat]:
    """The declared combats the phasing team leader may resolve next."""
    return [c for c in waiting_combats(state) if cancel_reason(state, c) is None]


@rules.step_rule(f"{COMBAT}.land-combat-resolution")
def land_combat_resolution(ctx, step_id: str) -> None:
    """Land Combat Resolution: run the sub-machine until every declared attack is resolved."""
    prune(ctx)
    waiting = waiting_combats(ctx.state)
    if not waiting:
        return
    select(ctx, waiting[0] if len(waiting) == 1 else None, depth(ctx.state) + 1)
    ctx.push("procedures.land-combat-resolution")


def select(ctx, c: Combat | None, at_depth: int) -> None:
    """The combat resolved next in the sub-machine at ``at_depth``, with the side that will
    choose its table and whether snow units may help the attacker, judged now with the rules'
    hooks (optional rules may count a unit otherwise: ``table_choice_weight``, ``snow_unit``)."""
    if c is None:
        ctx.emit(LandCombatSelected(combat=None, depth=at_depth))
        return
    ev = O.evaluate_combat(ctx.state, c, hook=ctx.host.pm.hook)
    ctx.emit(LandCombatSelected(combat=c.id, depth=at_depth, chooser=ev["chooser"],
                                snow_eligible=ev["snow_units_eligible"]))


def snow_eligible(state, c: Combat) -> bool:
    """Phasing Side Snow Unit Decision: "If it is possible for the phasing side to gain a
    benefit by using snow units" (as judged when the combat was selected)."""
    return c.snow_eligible if c.snow_eligible is not None else O.evaluate_combat(state, c)["snow_units_eligible"]


def chooser_power(state, c: Combat) -> str | None:
    """Land Combat, choosing combat tables: the attacker's team leader when the three
    conditions hold, else the defender's decision maker."""
    side = c.chooser or O.evaluate_combat(state, c)["chooser"]
    return attacking_leader(state, c) if side == "attacker" else defending_leader(state, c)


# ---------------------------------------------------------------- Select Land Combat
def select_problem(state, hex_) -> str | None:
    key = core.hex_key(O.norm(hex_))
    choosable = selectable_combats(state)
    if key not in {c.id for c in choosable}:
        left = ", ".join(O.place_name(c.hex) for c in choosable) or "none"
        return f"Select Land Combat: no declared combat waits at {key} (waiting: {left})"
    return None


def select_choices(state, actor: str, step_id: str, host=None) -> list[Field] | None:
    if current_combat(state) is not None:
        return None
    return [Field("hex", "hex", [
        Option(list(c.hex), f"{hex_label(c.hex)}: {O.evaluate_combat(state, c, hook=hook_of(host))['odds']}")
        for c in selectable_combats(state)], label="combat to resolve next")]


def select_preview(state, cmd: SelectLandCombat, host=None) -> dict:
    problem = select_problem(state, cmd.hex)
    if problem:
        raise Rejected(problem)
    c = cs(state).combats[core.hex_key(O.norm(cmd.hex))]
    return odds_summary(O.evaluate_combat(state, c, hook=hook_of(host)))


@rules.command(SelectLandCombat, choices=select_choices, preview=select_preview)
def select_land_combat(ctx, cmd: SelectLandCombat) -> None:
    problem = select_problem(ctx.state, cmd.hex)
    if problem:
        raise Rejected(problem)
    prune(ctx)
    c = cs(ctx.state).combats[core.hex_key(O.norm(cmd.hex))]
    here = depth(ctx.state)
    if len(waiting_combats(ctx.state)) > 1:
        # The sub-machine is run again for this combat (nested); this step then asks again.
        select(ctx, c, here + 1)
        ctx.push("procedures.land-combat-resolution")
        return
    select(ctx, c, here)
    ctx.finish_decision(cmd.actor)


def select_refusal(state) -> str | None:
    left = selectable_combats(state)
    if left:
        return ("Select Land Combat: every declared attack must be resolved; choose the next of "
                + ", ".join(O.place_name(c.hex) for c in left))
    return None


# ---------------------------------------------------------------- snow units
def snow_choices(state, actor: str, step_id: str) -> list[Field] | None:
    c = current_combat(state)
    if c is None or c.stage != "selected" or not snow_eligible(state, c):
        return None
    return [yes_no("use", "use the snow units' benefit (the first loss must then be a snow unit)")]


def snow_preview(state, cmd: UseSnowUnits, host=None) -> dict:
    c = combat_now(state, "Phasing Side Snow Unit Decision")
    return odds_summary(O.evaluate_combat(state, c, hook=hook_of(host), snow_units=cmd.use))


@rules.command(UseSnowUnits, choices=snow_choices, preview=snow_preview)
def use_snow_units(ctx, cmd: UseSnowUnits) -> None:
    c = combat_now(ctx.state, "Phasing Side Snow Unit Decision")
    ctx.emit(SnowUnitsDecided(combat=c.id, use=cmd.use))
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Choose Combat Type
def table_problem(table: str) -> str | None:
    if table.lower() not in TABLES:
        return "Choose Combat Type: the tables are 'blitz' and 'assault'"
    return None


def table_choices(state, actor: str, step_id: str, host=None) -> list[Field] | None:
    """Land Combat: "You must now select one of the two land combat results tables"."""
    c = current_combat(state)
    if c is None or c.stage != "selected":
        return None
    ev = O.evaluate_combat(state, c, hook=hook_of(host))
    return [Field("table", "option", [
        Option(t, f"{t.capitalize()} table" + ("" if ev["automatic"] else f", {O.column(t, ev['level'])} column"))
        for t in TABLES], label="land combat results table")]


def table_preview(state, cmd: ChooseLandCombatType, host=None) -> dict:
    problem = table_problem(cmd.table)
    if problem:
        raise Rejected(problem)
    c = combat_now(state, "Choose Combat Type")
    table = cmd.table.lower()
    return odds_summary(O.evaluate_combat(state, c, table=table, hook=hook_of(host)), table)


@rules.command(ChooseLandCombatType, choices=table_choices, preview=table_preview)
def choose_type(ctx, cmd: ChooseLandCombatType) -> None:
    problem = table_problem(cmd.table)
    if problem:
        raise Rejected(problem)
    c = combat_now(ctx.state, "Choose Combat Type")
    ctx.emit(LandCombatTableChosen(combat=c.id, table=cmd.table.lower(), side=side_of(ctx.state, cmd.actor) or ""))
    ctx.finish_decision(cmd.actor)


def table_refusal(state) -> str | None:
    return "Choose Combat Type: choose the Blitz or the Assault table first"


def resolve_choices(state, actor: str, step_id: str) -> list[Field] | None:
    c = current_combat(state)
    return [] if c is not None and c.stage == "typed" else None


def resolve_preview(state, cmd: ResolveCombat, host=None) -> dict:
    c = combat_now(state, "Choose Combat Type")
    return odds_summary(O.evaluate_combat(state, c, hook=hook_of(host)), c.table)


@rules.command(ResolveCombat, choices=resolve_choices, preview=resolve_preview)
def resolve_combat(ctx, cmd: ResolveCombat) -> None:
    """Choose Combat Type: "MWIF waits for the team leader on the decision maker side to click
    on the Resolve Combat button"."""
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Land Combat Die Rolls
@rules.step_rule(f"{PROC}.land-combat-die-rolls")
def land_combat_die_rolls(ctx, step_id: str) -> None:
    """Land Combat Die Rolls: roll 1D10, add the modifiers, read the table."""
    c = combat_now(ctx.state, "Land Combat Die Rolls")
    hook = ctx.host.pm.hook
    ev = O.evaluate_combat(ctx.state, c, hook=hook)
    table = c.table or "assault"
    losses = None
    drm = ev["drm"]
    crt = "1d10"
    if ev["automatic"]:
        roll = modified = None
        result = "*/2B" if table == "blitz" else "*/2S"
        odds = "auto"
    else:
        # Optional rules: a roll for a better odds column first (Fractional odds), then
        # another results table (2D10 Land CRT); neither: the 1D10 tables.
        better = hook.land_odds_roll(ctx=ctx, combat=c, evaluation=ev)
        if better:
            ev = O.evaluate_combat(ctx.state, c, hook=hook, extra_shifts={better["reason"]: better["shift"]})
            drm = ev["drm"]
        other = hook.land_combat_result(ctx=ctx, combat=c, evaluation=ev, table=table)
        if other:
            roll, modified, result, drm = other["roll"], other["modified"], other["result"], other["drm"]
            losses, crt = other.get("losses"), other.get("crt", "other")
        else:
            (roll,) = ctx.roll(f"land combat at {ev['place']} (combat {c.id}, {ev['odds']} {table})")
            modified = roll + sum(drm.values())
            result = O.lookup(table, ev["level"], modified)
        odds = ev["odds"]
    p = O.parse_result(result)
    ctx.emit(LandCombatResolved(
        combat=c.id, hex=c.hex, place=ev["place"], table=table, attack=ev["attack"], defence=ev["defence"],
        base_odds=ev["base_odds"], shifts=ev["shifts"], odds=odds, drm=drm, roll=roll,
        modified=modified, result=result, crt=crt,
        losses=losses or {"attacker": p["attacker_losses"], "defender": p["defender_losses"]}))
