"""Land Combat Declaration (seed "Land Combat Declaration", "Land Combat"): the phasing side's
major powers announce their land attacks; each new attack of a power on a hex is one land
attack activity (Activity Limits).

``attack_problem`` is the one judgement of a declaration: the handler, the choices (every
attackable hex with the units that may attack it) and the preview ask it."""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from kernel.events import Command
from plugins.rules import core
from plugins.rules.turn.activities import action_problem, activity_problem, use_activity

from . import odds as O
from .preview import odds_summary
from .events import AttackDeclared
from .labels import target_label, unit_label
from .state import Combat, cs, fresh_impulse, hook_of, rules, side_of

RULE_DECL = "Land Combat Declaration"
RULE_LC = "Land Combat"
PHASE = "land-combat-declaration"


class DeclareAttack(Command):
    hex: tuple[int, int]
    units: list[str]


# ---------------------------------------------------------------- the checks
def existing_attack(state, key: str) -> Combat | None:
    """The attack already declared on the hex this impulse, if any."""
    return None if fresh_impulse(state) else cs(state).combats.get(key)


def attackers_elsewhere(state, key: str) -> set[str]:
    """Units already attacking another hex this impulse (a unit attacks one hex)."""
    if fresh_impulse(state):
        return set()
    return {u for c in cs(state).combats.values() if c.id != key and c.stage != "cancelled" for u in c.attackers}


def is_new_attack(state, power: str, hex_) -> bool:
    """Activity Limits: a power's first declaration on a hex is a land attack; adding units
    to its attack is not another."""
    existing = existing_attack(state, core.hex_key(O.norm(hex_)))
    return existing is None or power not in existing.powers


def target_problem(state, power: str, hex_) -> str | None:
    """Why ``power`` may not declare an attack on ``hex_`` now, whatever units it names."""
    if power not in state.kernel.powers():
        return f"{RULE_DECL}: attacks are declared by a major power, not {power}"
    problem = action_problem(state, power, PHASE)
    if problem:
        return problem  # "a major power must have taken either a Land or Combined action"
    hex_ = O.norm(hex_)
    if not core.world_map().is_land(hex_):
        return f"{RULE_LC}: {hex_[0]},{hex_[1]} is not a land hex"
    if not O.defenders(state, hex_, power):
        friendly = [u for u in O.land_units(state, hex_) if side_of(state, u.power) == side_of(state, power)]
        what = "holds friendly units" if friendly else "holds no enemy land units"
        return f"{RULE_LC}: your land units can attack enemy land units; hex {hex_[0]},{hex_[1]} {what}"
    existing = existing_attack(state, core.hex_key(hex_))
    if existing is not None and existing.stage != "declared":
        return f"{RULE_DECL}: the attack on {O.place_name(hex_)} has already been resolved this impulse"
    return None


def attacker_problem(state, power: str, unit_id: str, hex_, elsewhere: set[str]) -> str | None:
    """Why this unit may not attack ``hex_`` ("your land units can attack enemy land units
    they are adjacent to"; not across a lake hexside; one attack per unit; organized)."""
    u = state["units"].units.get(unit_id)
    if u is None:
        return f"{RULE_DECL}: there is no unit {unit_id!r}"
    name = u.name or unit_id
    if u.power != power:
        return f"{RULE_DECL}: {name} is controlled by {u.power}, not {power}"
    if u.branch != "land" or not u.on_map:
        return f"{RULE_DECL}: {name} is not a land unit on the map"
    if not u.face_up:
        return (f"{RULE_DECL}: {name} is disorganized and can't attack "
                "(Reorganize Units: organizing units 'will enable them to move and attack again')")
    if not O.adjacent(u.hex, hex_):
        return (f"{RULE_LC}: land units attack enemy land units they are adjacent to; "
                f"{name} at {u.hex[0]},{u.hex[1]} is not next to {hex_[0]},{hex_[1]}")
    if O.hexside_kind(state, u.hex, hex_) == "lake":
        return f"{RULE_LC}: {name} can't attack across a lake hexside"
    if unit_id in elsewhere:
        return f"{RULE_DECL}: {name} is already attacking another hex this impulse"
    return None


def attack_problem(state, power: str, hex_, unit_ids) -> str | None:
    """Why declaring ``unit_ids`` against ``hex_`` would be refused, or None."""
    problem = target_problem(state, power, hex_)
    if problem:
        return problem
    hex_ = O.norm(hex_)
    key = core.hex_key(hex_)
    if not unit_ids:
        return f"{RULE_DECL}: name at least one land unit to attack with"
    existing = existing_attack(state, key)
    new_ids = [u for u in unit_ids if not (existing and u in existing.attackers)]
    elsewhere = attackers_elsewhere(state, key)
    for uid in new_ids or unit_ids:
        problem = attacker_problem(state, power, uid, hex_, elsewhere)
        if problem:
            return problem
    if is_new_attack(state, power, hex_):
        return activity_problem(state, power, "land-attack")
    return None


def attack_targets(state, power: str) -> dict[tuple[int, int], list]:
    """Every hex ``power`` may attack now, with the units that may join the attack (those
    already in it left out): the choices of a declaration."""
    all_units = state["units"].units.values()
    enemy_hexes = {O.norm(u.hex) for u in all_units
                   if u.branch == "land" and u.on_map and O.hostile(state, power, u.power)}
    grid = core.world_map().grid
    candidates: dict[tuple[int, int], list] = {}
    for u in all_units:
        if u.power == power and u.branch == "land" and u.on_map and u.face_up:
            for n in grid.neighbours(O.norm(u.hex)):
                if n in enemy_hexes:
                    candidates.setdefault(n, []).append(u)
    out = {}
    for hex_, units in sorted(candidates.items()):
        if target_problem(state, power, hex_):
            continue
        if is_new_attack(state, power, hex_) and activity_problem(state, power, "land-attack"):
            continue
        key = core.hex_key(hex_)
        existing = existing_attack(state, key)
        elsewhere = attackers_elsewhere(state, key)
        able = [u for u in units if not (existing and u.id in existing.attackers)
                and attacker_problem(state, power, u.id, hex_, elsewhere) is None]
        if able:
            out[hex_] = able
    return out


# ---------------------------------------------------------------- choices, preview, command
def attack_choices(state, actor: str, step_id: str) -> list[Field] | None:
    """The hexes ``actor`` may attack, each with the units that may attack it (any of them,
    at least one)."""
    if actor not in state.kernel.powers() or action_problem(state, actor, PHASE):
        return None
    targets = attack_targets(state, actor)
    return [Field("hex", "hex", [
        Option(list(h), target_label(state, h, actor), then=[
            Field("units", "units", [Option(u.id, unit_label(u)) for u in units], min=1, label="attacking units")])
        for h, units in targets.items()], label="hex to attack")]


def attack_preview(state, cmd: DeclareAttack, host=None) -> dict:
    """The odds after every modifier known now, the table and column the die would read, the
    modifiers and the land attack it would use; Rejected as the handler would refuse."""
    problem = attack_problem(state, cmd.actor, cmd.hex, cmd.units)
    if problem:
        raise Rejected(problem)
    hex_ = O.norm(cmd.hex)
    hook = hook_of(host)
    existing = existing_attack(state, core.hex_key(hex_))
    if existing is not None:
        attackers = existing.attackers + [u for u in cmd.units if u not in existing.attackers]
        ev = O.evaluate_combat(state, existing, hook=hook, attackers=attackers)
    else:
        ev = O.evaluate(state, list(cmd.units), hex_, hook=hook)
    new = is_new_attack(state, cmd.actor, hex_)
    return {**odds_summary(ev), "hex": list(hex_), "place": ev["place"],
            "activities": {"land-attack": 1 if new else 0}}


@rules.command(DeclareAttack, choices=attack_choices, preview=attack_preview)
def declare_attack(ctx, cmd: DeclareAttack) -> None:
    state = ctx.state
    problem = attack_problem(state, cmd.actor, cmd.hex, cmd.units)
    if problem:
        raise Rejected(problem)
    hex_ = O.norm(cmd.hex)
    if is_new_attack(state, cmd.actor, hex_):
        use_activity(ctx, cmd.actor, "land-attack")
    ctx.emit(AttackDeclared(combat=core.hex_key(hex_), hex=hex_, power=cmd.actor, units=list(cmd.units)))


def declare_forced_attack(ctx, power: str, hex_, units: list[str], kind: str) -> None:
    """For the land and air plugins: an invasion or paradrop commits ``units`` to a land
    attack on ``hex_`` (Invasion / Paradrop: "forces a land attack on the hex"); counted as
    a land attack by the caller's activity rules.  The defender may include its notional
    unit (Ignore Notional)."""
    ctx.emit(AttackDeclared(combat=core.hex_key(O.norm(hex_)), hex=O.norm(hex_), power=power,
                            units=list(units), forced=kind))
