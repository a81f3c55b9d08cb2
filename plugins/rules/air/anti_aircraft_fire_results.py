"""Anti-aircraft Fire Results (PM 7.8.8): the dice of each hex's fire, then the bombers' owners
apply its effects one by one; the AA units that fired are disorganized.

Seeds: "Anti-aircraft Fire Results (Die Rolls)", "Anti-aircraft Fire Effects", "Anti-aircraft
Combat Results Table" (who fires and the table: anti_aircraft.py).
"""

from __future__ import annotations

from kernel.choices import Field, Option
from kernel.errors import Rejected
from plugins.rules.combat.state import current_combat
from plugins.rules.core import hex_key, key_hex
from plugins.rules.units import UnitFlipped

from .aircraft import destroy, distance, hex_label, name, other_side, units_of
from .anti_aircraft import (ADVANCE_AFTER_COMBAT, AFTER_LAND_COMBAT, DAMAGE_STEPS, RULE, bombers_at, cell_dice,
                            damage_of, firing_side, intrinsic_aa, points_of, table_cell)
from .events import AADamageApplied, AAFireRolled, AAUnitsFired
from .mission_kinds import KINDS
from .state import air


# ---------------------------------------------------------------- Anti-aircraft Fire Results
def roll_aa_fire(ctx, step_id: str) -> None:
    """When a Plot Anti-aircraft Fire step ends: roll each hex's fire (Anti-aircraft Fire Results)."""
    state = ctx.state
    firing = firing_side(state, step_id)
    targets = bombers_at(state, other_side(state, firing))
    totals = dict(air(state).mission.aa_plot)
    for hex_, factors in intrinsic_aa(state, firing).items():
        totals[hex_key(hex_)] = totals.get(hex_key(hex_), 0) + factors
    kind = KINDS.get(air(state).mission.kind)
    for key, factors in sorted(totals.items()):
        hex_ = key_hex(key)
        flights = targets.get(hex_, [])
        if factors <= 0 or not flights:
            continue
        # surprise points spent on this fire (MissionKind.aa_shift: a port attack's)
        shift = kind.aa_shift(state, firing, hex_) if kind is not None and kind.aa_shift is not None else 0
        cell = table_cell(factors, len(flights), shift)
        if cell is None:
            continue  # moved off the table's low end: no fire
        _, count = cell_dice(cell)
        moved = f", {shift:+d} column(s) for surprise" if shift else ""
        dice = ctx.roll(f"anti-aircraft fire at {hex_}: {factors} factors, {len(flights)} bombers, {cell}{moved}",
                        faces=10, count=count)
        points = points_of(cell, dice)
        ctx.emit(AAFireRolled(hex=hex_, side=firing, factors=factors, bombers=[f.unit for f in flights], cell=cell,
                              dice=list(dice), points=points, **damage_of(points)))


def next_effect(state, hex_) -> tuple[str | None, list]:
    """The next anti-aircraft result to apply at ``hex_`` and the bombers it may fall on."""
    m = air(state).mission
    damage = m.aa_damage.get(hex_key(hex_))
    if not damage:
        return None, []
    flights = [f for f in m.flights.values() if tuple(f.hex) == tuple(hex_) and f.role == "bomber"
               and f.unit not in m.aborted and f.side == damage["target"]]
    if damage["destroy"] and flights:
        return "destroy", flights
    if damage["abort"] and flights:
        return "abort", flights
    # the attack factor it reduces: "tactical, strategic or air-to-sea factors as
    # appropriate" (MissionKind.factor); a transport has none
    factor = KINDS[m.kind].factor
    units = units_of(state)
    reducible = [f for f in flights if factor and units[f.unit].factors.get(factor, 0) - f.aa_loss > 0]
    if damage["reduce"] and reducible:
        return "reduce", reducible
    return None, []


def pending_hexes(state, power: str | None = None) -> list[tuple[int, int]]:
    """Hexes whose anti-aircraft damage is not all applied (to ``power``'s bombers, if given)."""
    out = []
    for key in sorted(air(state).mission.aa_damage):
        effect, flights = next_effect(state, key_hex(key))
        if effect and (power is None or any(f.power == power for f in flights)):
            out.append(key_hex(key))
    return out


def recipients(state) -> list[str]:
    """The powers that must apply anti-aircraft damage now ("rule:aa-damage-recipients")."""
    powers = set()
    for h in pending_hexes(state):
        powers |= {f.power for f in next_effect(state, h)[1]}
    return sorted(powers)


def check_damage(state, actor: str, hex_, unit_id: str) -> str:
    effect, flights = next_effect(state, hex_)
    if effect is None:
        raise Rejected(f"{RULE}: no anti-aircraft damage is left to apply at hex {tuple(hex_)}")
    mine = [f.unit for f in flights if f.power == actor]
    if unit_id not in mine:
        raise Rejected(f"{RULE}: the next result at hex {tuple(hex_)} ({effect}) falls on one of "
                       f"{', '.join(mine) or 'nobody of ' + actor}; {unit_id!r} is not one of them")
    return effect


def apply_aa_damage(ctx, cmd) -> None:
    state = ctx.state
    effect = check_damage(state, cmd.actor, cmd.hex, cmd.unit)
    m = air(state).mission
    amount = 1
    if effect == "reduce":
        f = m.flights[cmd.unit]
        left = units_of(state)[cmd.unit].factors.get(KINDS[m.kind].factor, 0) - f.aa_loss
        amount = min(m.aa_damage[hex_key(cmd.hex)]["reduce"], left)
    ctx.emit(AADamageApplied(hex=tuple(cmd.hex), unit=cmd.unit, effect=effect, amount=amount))
    if effect == "destroy":
        destroy(ctx, cmd.unit, "destroyed by anti-aircraft fire")


def damage_choices(state, actor, step_id):
    if step_id not in DAMAGE_STEPS:
        return None
    hexes = pending_hexes(state, actor)
    if not hexes:
        return None

    def units_at(h):
        effect, flights = next_effect(state, h)
        return [Option(f.unit, f"{name(state, f.unit)}: {effect}") for f in flights if f.power == actor]
    return [Field("hex", "hex", [Option(h, hex_label(h), [Field("unit", "unit", lambda h=h: units_at(h))])
                                 for h in hexes], label="hex")]


def damage_preview(state, cmd) -> dict:
    effect = check_damage(state, cmd.actor, cmd.hex, cmd.unit)
    return {"unit": cmd.unit, "hex": list(cmd.hex), "effect": effect,
            "damage_left": {k: v for k, v in air(state).mission.aa_damage[hex_key(cmd.hex)].items() if k != "target"}}


def damage_refusal(state, step_id: str, power: str) -> str | None:
    if step_id in DAMAGE_STEPS and pending_hexes(state, power):
        h = pending_hexes(state, power)[0]
        return f"{RULE}: apply the anti-aircraft damage at hex {h} first ({next_effect(state, h)[0]})"
    return None


def disorganize_fired(ctx) -> None:
    """"If an AA unit uses anti-aircraft fire, it becomes disorganized at the end of the
    phase.  In particular, if firing against aircraft providing ground support, the AA unit
    becomes disorganized after the Advancing after Combat subphase": called when the mission
    is performed; in ground support the units wait in ``aa_after_combat``."""
    m = air(ctx.state).mission
    fired = sorted(m.aa_shots)
    if not fired:
        return
    if m.kind == "ground-support":
        ctx.emit(AAUnitsFired(units=[], after_combat={uid: _aimed_at(ctx.state, uid) for uid in fired}))
        return
    _flip(ctx, fired)


def _aimed_at(state, unit_id: str) -> str:
    """The combat hex an AA unit fired at (the nearest plotted one, if it split its shots)."""
    unit = units_of(state)[unit_id]
    hexes = sorted(air(state).mission.aa_damage, key=lambda k: (distance(unit.hex, key_hex(k)), k))
    return hexes[0] if hexes else hex_key(unit.hex)


def _flip(ctx, unit_ids) -> None:
    units = units_of(ctx.state)
    ctx.emit(AAUnitsFired(units=list(unit_ids)))
    for uid in unit_ids:
        if uid in units and units[uid].on_map and units[uid].face_up:
            ctx.emit(UnitFlipped(unit=uid, face_up=False))


def disorganize_after_combat(ctx, step_id: str) -> None:
    """When Advance After Combat ends, the AA units that fired at that combat's ground
    support; when the Air Rebase or End of Impulse stage begins, any left (their combat was
    cancelled or ended before the advance)."""
    waiting = air(ctx.state).aa_after_combat
    if not waiting:
        return
    if step_id == ADVANCE_AFTER_COMBAT:
        current = current_combat(ctx.state)
        due = sorted(u for u, key in waiting.items() if current is not None and key == current.id)
    elif step_id.startswith(AFTER_LAND_COMBAT):
        due = sorted(waiting)
    else:
        return
    if due:
        _flip(ctx, due)
