"""The results of a land combat (seeds "Land Combat": Results, Shatter, Disorganization step;
"Convert Shattered Results to Retreats"; "Assign Losses"): the attacker may turn an S or B
into an R, the owners choose their losses, then losses, shatter, retreats and
disorganization are applied.

``loss_problem`` is the one judgement of a choice of losses (handler, choices, preview, and
the losses taken for a side that ends the step without choosing)."""

from __future__ import annotations

from itertools import combinations

from kernel.choices import Field, Option, yes_no
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules.units import UnitFlipped, UnitMoved

from . import odds as O
from .events import LandCombatOutcome, LandLossesTaken, ShatterConverted
from .labels import unit_label
from .retreat import auto_retreats, destroy, retreat_options
from .state import (
    PROC,
    Combat,
    attacking_leader,
    combat_now,
    current_combat,
    defenders,
    defending_leader,
    hook_of,
    living_attackers,
    rules,
)

RULE = "Assign Losses"
MAX_LOSS_SETS = 200  # loss sets offered one by one (when a snow-unit rule applies)


class ConvertToRetreat(Command):
    convert: bool


class AssignLandLosses(Command):
    units: list[str]


# ---------------------------------------------------------------- Convert Shattered Results to Retreats
def shatter_result(c: Combat) -> bool:
    """An S or B result not yet applied (Shatter: "The attacker can choose to treat an 'S' or
    a 'B' result as a retreat result ('R') instead")."""
    p = O.parse_result(c.result["result"]) if c.result else {}
    return c.stage == "rolled" and bool(p.get("shatter") or p.get("breakthrough"))


def convert_choices(state, actor: str, step_id: str) -> list[Field] | None:
    c = current_combat(state)
    if c is None or not shatter_result(c):
        return None
    return [yes_no("convert", f"treat the {c.result['result']} result as a retreat (R)")]


def convert_preview(state, cmd: ConvertToRetreat) -> dict:
    c = combat_now(state, "Convert Shattered Results to Retreats")
    return {"result": c.result["result"] if c.result else None, "treated_as": "R" if cmd.convert else "kept"}


@rules.command(ConvertToRetreat, choices=convert_choices, preview=convert_preview)
def convert_to_retreat(ctx, cmd: ConvertToRetreat) -> None:
    c = combat_now(ctx.state, "Convert Shattered Results to Retreats")
    if not shatter_result(c):
        raise Rejected("Convert Shattered Results to Retreats: only an S or B result can be converted")
    ctx.emit(ShatterConverted(combat=c.id, convert=cmd.convert))
    ctx.finish_decision(cmd.actor)


# ---------------------------------------------------------------- Assign Losses
def loss_pool(state, c: Combat, side: str) -> list:
    return living_attackers(state, c) if side == "attacker" else defenders(state, c)


def loss_choosers(state, c: Combat) -> dict[str, str]:
    """side -> the power that chooses its losses (only where there is a real choice): "The
    owning player always chooses losses in a land combat." """
    out = {}
    if c.stage != "rolled":
        return out
    for side in ("attacker", "defender"):
        n = c.losses.get(side, 0)
        if 0 < n < len(loss_pool(state, c, side)):
            leader = attacking_leader(state, c) if side == "attacker" else defending_leader(state, c)
            if leader:
                out[side] = leader
    return out


def _first_loss_ok(state, c: Combat, unit, hook) -> bool:
    """Weather Report: having used the snow units' benefit, the first loss must be one of
    them (an optional rule may allow another unit: ``first_loss_eligible``)."""
    if O.is_snow_unit(unit, state, hook):
        return True
    return hook is not None and bool(hook.first_loss_eligible(state=state, unit=unit, combat=c))


def loss_problem(state, c: Combat, side: str, unit_ids, hook=None) -> str | None:
    """Why ``side`` may not lose ``unit_ids`` in combat ``c``, or None."""
    need = c.losses.get(side, 0)
    pool = {u.id: u for u in loss_pool(state, c, side)}
    chosen = list(dict.fromkeys(unit_ids))
    if len(chosen) != need or any(u not in pool for u in chosen):
        return (f"Land Combat: the result destroys {need} {side} land unit(s); choose exactly {need} "
                f"of your units in this combat ({', '.join(pool)})")
    if side == "attacker" and c.snow_units and not any(_first_loss_ok(state, c, pool[u], hook) for u in chosen):
        return "Weather Report: having used the snow units' benefit, your first loss must be one of those units"
    return None


def legal_loss_sets(state, c: Combat, side: str, hook=None) -> list[list[str]] | None:
    """The sets of units ``side`` may lose when only some are legal (the snow-unit rule), or
    None when any ``need`` of its units will do."""
    if not (side == "attacker" and c.snow_units):
        return None
    pool = [u.id for u in loss_pool(state, c, side)]
    out = []
    for combo in combinations(pool, c.losses.get(side, 0)):
        if loss_problem(state, c, side, combo, hook) is None:
            out.append(list(combo))
            if len(out) >= MAX_LOSS_SETS:
                break
    return out


def _side_of_actor(state, c: Combat, actor: str) -> str | None:
    return next((s for s, p in loss_choosers(state, c).items() if p == actor), None)


def losses_choices(state, actor: str, step_id: str, host=None) -> list[Field] | None:
    """Any ``need`` of the side's units; only the legal sets, whole, when the first loss must
    be a snow unit."""
    c = current_combat(state)
    side = _side_of_actor(state, c, actor) if c is not None else None
    if side is None:
        return None
    units = {u.id: u for u in loss_pool(state, c, side)}
    need = c.losses[side]
    sets = legal_loss_sets(state, c, side, hook_of(host))
    if sets is None:
        return [Field("units", "units", [Option(u.id, unit_label(u)) for u in units.values()], min=need, max=need,
                      label=f"{need} {side} unit(s) to lose")]
    return [Field("units", "option", [Option(s, ", ".join(unit_label(units[i]) for i in s)) for s in sets],
                  label=f"{need} {side} unit(s) to lose (one a snow unit)")]


def _check_losses(state, actor: str, unit_ids, hook=None) -> tuple[Combat, str]:
    c = combat_now(state, RULE)
    side = _side_of_actor(state, c, actor)
    if side is None:
        raise Rejected(f"{RULE}: {actor} has no losses to choose in this combat")
    problem = loss_problem(state, c, side, unit_ids, hook)
    if problem:
        raise Rejected(problem)
    return c, side


def losses_preview(state, cmd: AssignLandLosses, host=None) -> dict:
    _c, side = _check_losses(state, cmd.actor, cmd.units, hook_of(host))
    return {"side": side, "destroyed": list(dict.fromkeys(cmd.units))}


@rules.command(AssignLandLosses, choices=losses_choices, preview=losses_preview)
def assign_losses(ctx, cmd: AssignLandLosses) -> None:
    c, side = _check_losses(ctx.state, cmd.actor, cmd.units, ctx.host.pm.hook)
    chosen = list(dict.fromkeys(cmd.units))
    ctx.emit(LandLossesTaken(combat=c.id, side=side, units=chosen))
    for u in chosen:
        destroy(ctx, u)
    if not _side_of_actor(ctx.state, c, cmd.actor):
        ctx.finish_decision(cmd.actor)


def default_losses(state, c: Combat, side: str, hook=None) -> list[str]:
    """The losses of a side that did not choose (all its units when the result takes them
    all): the first legal set ("If players on a side can not agree on which unit(s) to lose,
    choose from all eligible units")."""
    n = c.losses.get(side, 0)
    pool = [u.id for u in loss_pool(state, c, side)]
    if n >= len(pool):
        return pool
    sets = legal_loss_sets(state, c, side, hook)
    return sets[0] if sets else pool[:n]


# ---------------------------------------------------------------- Apply Losses
@rules.step_rule(f"{PROC}.assign-losses.apply-losses")
def apply_losses(ctx, step_id: str) -> None:
    """Apply Losses, then shatter, retreat stack and disorganization ("Land Combat": Retreats,
    Shatter, Disorganization step)."""
    state = ctx.state
    c = combat_now(state, "Apply Losses")
    hook = ctx.host.pm.hook
    for side in ("attacker", "defender"):
        if c.losses.get(side, 0) > 0:
            gone = default_losses(state, c, side, hook)
            ctx.emit(LandLossesTaken(combat=c.id, side=side, units=gone))
            for u in gone:
                destroy(ctx, u)
    p = O.parse_result(c.result["result"])
    shatter = (p["shatter"] or p["breakthrough"]) and not c.converted
    retreat = p["retreat"] or ((p["shatter"] or p["breakthrough"]) and bool(c.converted))
    survivors = defenders(state, c)
    shattered, destroyed, retreating = [], [], []
    if shatter:
        for u in survivors:
            # Partisans: "Shattered partisans are destroyed instead of being shattered."
            if retreat_options(state, c, u.id, c.hex)[1] and u.type != "partisan":
                shattered.append(u.id)  # "put each surviving defending land unit in the production pool"
            else:
                destroyed.append(u.id)  # "Destroy any units that could not have retreated."
    elif retreat:
        retreating = [u.id for u in survivors]
    disorganized = []
    if not p["asterisk"]:
        organized = [u.id for u in living_attackers(state, c) if u.face_up]
        chosen = hook.land_combat_disorganized(state=state, combat=c, side="attacker", units=organized, result=c.result)
        disorganized += organized if chosen is None else list(chosen)
    losses = c.result["losses"]
    if retreating or losses["defender"] > losses["attacker"]:
        disorganized += [u.id for u in survivors if u.face_up and u.id not in shattered + destroyed]
    for uid in shattered:
        ctx.emit(UnitMoved(unit=uid, to_hex=None, to_where="production-pool"))
    for uid in destroyed:
        destroy(ctx, uid)
    for uid in disorganized:
        ctx.emit(UnitFlipped(unit=uid, face_up=False))
    # Advancing after combat: "If the combat leaves the target hex empty of enemy land units
    # (except supply units), you can advance"
    empty = not [u for u in O.land_units(state, c.hex) if u.id not in retreating
                 and O.hostile(state, c.powers[0], u.power) and O.unit_type(u) not in O.SUPPLY_TYPES]
    advance = (empty or bool(retreating)) and bool(living_attackers(state, c))
    # Shatter: "If it is possible for only 1 unit to retreat and there are 2 or more units to
    # retreat, then all the units will survive and the excess placed in the production pool
    # ... provided the attacker changes the S/B result to a retreat."
    converted_sb = (p["shatter"] or p["breakthrough"]) and bool(c.converted)
    excess_to_pool = (converted_sb and len(retreating) >= 2
                      and any(retreat_options(state, c, uid, c.hex)[1] for uid in retreating))
    ctx.emit(LandCombatOutcome(combat=c.id, retreating=retreating, shattered=shattered, destroyed=destroyed,
                               disorganized=disorganized, advance=advance,
                               breakthrough=p["breakthrough"] and not c.converted, excess_to_pool=excess_to_pool))
    auto_retreats(ctx, c)
