"""Air Mission Performed (PM 7.8.10): ground strikes roll, ground support adds its factors.

Seeds: "Air Mission Performed", "Air Attacks" (ground strikes, ground support), "Ground
Support", "Return to Base by Phasing Side" (units unable to return are destroyed).
"""

from __future__ import annotations

from plugins.rules.combat import GroundSupportAdded
from plugins.rules.core import hex_key
from plugins.rules.units import UnitFlipped

from .anti_aircraft_fire_results import disorganize_fired
from plugins.rules.core import enemies

from .aircraft import destroy, has_base_in_reach, tactical_factor, units_of
from .events import AirGroundSupportFlown, AirMissionPerformed, GroundStrikeRolled
from .mission_kinds import KINDS, MissionKind, needs_factor, register
from .missions import attacked_hexes, strike_targets
from .state import GROUND_STRIKE, GROUND_SUPPORT, air


def perform(ctx, step_id: str | None = None) -> None:
    """Air Mission Performed for the bombers that survived air-to-air combat and
    anti-aircraft fire; anti-aircraft units that fired become disorganized."""
    state = ctx.state
    m = air(state).mission
    if m.performed:
        return
    bombers = [f for f in m.flights.values() if f.role == "bomber" and f.unit not in m.aborted]
    KINDS[m.kind].perform(ctx, bombers)
    ctx.emit(AirMissionPerformed(kind=m.kind))
    disorganize_fired(ctx)
    # Return to Base: "some air units will be destroyed because they are unable to return"
    units = units_of(state)
    for f in list(m.flights.values()):
        if not has_base_in_reach(state, units[f.unit]):
            destroy(ctx, f.unit, "no friendly base within range")


def ground_strike(ctx, bombers) -> None:
    # Air Attacks, Ground strike: each bomber attacks each organized enemy land or aircraft
    # unit in the hex; 1d10 <= tactical factor disorganizes the target.
    state = ctx.state
    units = units_of(state)
    for f in sorted(bombers, key=lambda f: f.unit):
        tactical = tactical_factor(state, units[f.unit], f.hex, f.aa_loss)  # AA, weather and terrain (Air Attacks)
        for target in strike_targets(state, f.power, f.hex):
            extra = sum(n or 0 for n in ctx.host.pm.hook.ground_strike_extra_dice(
                state=state, bomber=units[f.unit], target=target))
            dice = ctx.roll(f"ground strike at {f.hex}: {units[f.unit].name or f.unit} vs {target.name or target.id}",
                            faces=10, count=1 + extra)
            die = min(dice)
            ok = die <= tactical
            ctx.emit(GroundStrikeRolled(bomber=f.unit, target=target.id, die=die, tactical=tactical, success=ok,
                                        dice=dice if extra else []))
            if ok:
                ctx.emit(UnitFlipped(unit=target.id, face_up=False))


def ground_support_flown(ctx, bombers) -> None:
    # Ground Support: the mission "simply adds the bombers tactical factors to the land attack"
    state = ctx.state
    units = units_of(state)
    hook = ctx.host.pm.hook
    groups: dict[tuple, list[str]] = {}
    for f in bombers:
        groups.setdefault((f.hex, f.side), []).append(f)
    for (hex_, side), flights in sorted(groups.items(), key=lambda item: item[0]):
        factors = 0
        for f in flights:
            # "An aircraft's tactical factors may be reduced by the weather ... and terrain
            # ... in the target hex" (Air Attacks, Ground support), after anti-aircraft fire
            base = tactical_factor(state, units[f.unit], hex_, f.aa_loss)
            changed = hook.ground_support_factor(state=state, unit=units[f.unit], hex_=hex_, side=side, factor=base)
            factors += base if changed is None else changed
        ctx.emit(AirGroundSupportFlown(hex=hex_, side=side, factors=factors, units=sorted(f.unit for f in flights)))
        role = "attacker" if side == state.kernel.active_side else "defender"
        ctx.emit(GroundSupportAdded(combat=hex_key(hex_), side=role, factors=factors))


# ---------------------------------------------------------------- the two tactical missions
def _enemy_unit_hexes(state, power: str) -> set[tuple[int, int]]:
    return {u.hex for u in units_of(state).values()
            if u.on_map and u.branch in ("land", "air") and u.face_up and enemies(state, power, u.power)}


def _strike_problem(state, unit, hex_, cargo=None) -> str | None:
    return None if strike_targets(state, unit.power, hex_) else f"hex {tuple(hex_)} is not a target (no organized enemy unit there)"


def _support_problem(state, unit, hex_, cargo=None) -> str | None:
    return None if tuple(hex_) in attacked_hexes(state) else f"hex {tuple(hex_)} is not a target (no land attack there)"


register(MissionKind(
    id="ground-strike", name="Ground Strike", step=GROUND_STRIKE, who="organized bombers",
    flyer=needs_factor("tactical"), targets=_enemy_unit_hexes, target_problem=_strike_problem,
    perform=ground_strike, factor="tactical"))
register(MissionKind(
    id="ground-support", name="Ground Support", step=GROUND_SUPPORT, who="organized bombers",
    flyer=needs_factor("tactical"), targets=lambda state, power: attacked_hexes(state),
    target_problem=_support_problem, perform=ground_support_flown, factor="tactical"))
