"""Optional rule Carpet bombing (option 32).

Seeds, "Carpet Bombing": "This is a optional rule and if it has not been selected, the phase
is skipped.  A successful carpet bombing mission destroys enemy land or air units ...
Carpet bombing missions can be made by: (1) land based air units that have strategic
bombing factors and (2) carrier based air units that are at sea ... Bombers may only fly
this mission if there is an enemy unit in the hex."  "Air Attacks" (Carpet bombing
missions): "Add up the strategic factors of your surviving bombers modified by terrain ...
and weather ...  Locate this total on the strategic bombardment table and roll a die.  Add 1
to the die roll if the bombers did not fight any air-to-air combat for this mission.  For
each asterisk result, destroy 1 land or aircraft unit (including its pilot) in the target
hex (chosen randomly).  Ignore the number result."

The mission itself (CAP, escorts, interception, air-to-air combat, anti-aircraft fire, return
to base) is the air plugin's Air Mission sub-machine; this plugin adds the Carpet Bombing
mission kind to it (``plugins.rules.air.mission_kinds.register``, on import) and says what
its performance does.  While the rule is OFF the kind says why the phase is skipped.  Carrier
planes at sea fly it as bombers through the naval plugin (carrier_planes_flying_missions.py).  Not
modelled: A-bombs and V-weapons, the over-stacking check after a success.
"""

from __future__ import annotations

from kernel.events import EventData
from kernel.registry import Registry
from plugins.optional.framework import is_on
from plugins.rules.air.aircraft import destroy as destroy_air_unit
from plugins.rules.air.aircraft import name
from plugins.rules.air.mission_kinds import MissionKind, needs_factor, register
from plugins.rules.air.missions import optional_mission_off
from plugins.rules.air.state import CARPET_BOMBING, air
from plugins.rules.air.strategic_bombardment import bombardment_roll
from plugins.rules.combat.retreat import destroy as destroy_land_unit
from plugins.rules.core import enemies

RULE_ID = "carpet-bombing"
rules = Registry()


@rules.event
class CarpetBombingResolved(EventData):
    hex: tuple[int, int]
    factors: int
    die: int
    modified: int  # +1 when no air-to-air combat was fought at the hex
    asterisks: int
    bombers: list[str]
    destroyed: list[str]


def off_reason(state) -> str | None:
    if is_on(state, RULE_ID):
        return None
    return optional_mission_off("carpet-bombing")


def enemy_units(state, power: str, hex_) -> list:
    """The enemy land and air units on the ground in ``hex_`` (not those flying this mission)."""
    flying = air(state).mission.flights
    return sorted((u for u in state["units"].in_hex(tuple(hex_))
                   if u.branch in ("land", "air") and u.id not in flying and enemies(state, power, u.power)),
                  key=lambda u: u.id)


def targets(state, power: str) -> set[tuple[int, int]]:
    flying = air(state).mission.flights
    return {tuple(u.hex) for u in state["units"].units.values()
            if u.on_map and u.branch in ("land", "air") and u.id not in flying and enemies(state, power, u.power)}


def target_problem(state, unit, hex_, cargo=None) -> str | None:
    # "Bombers may only fly this mission if there is an enemy unit in the hex"
    return None if enemy_units(state, unit.power, hex_) else f"hex {tuple(hex_)} holds no enemy unit"


def perform(ctx, flights) -> None:
    state = ctx.state
    by_hex: dict[tuple, list] = {}
    for f in flights:
        by_hex.setdefault(tuple(f.hex), []).append(f)
    for hex_, group in sorted(by_hex.items()):
        roll = bombardment_roll(ctx, group, hex_, "carpet bombing")
        power = group[0].power
        destroyed = []
        for _ in range(roll["asterisks"]):
            candidates = [u for u in enemy_units(ctx.state, power, hex_) if u.id not in destroyed]
            if not candidates:
                break
            pick = ctx.roll(f"carpet bombing at {hex_}: which of {len(candidates)} units is destroyed",
                            faces=len(candidates), count=1)[0] if len(candidates) > 1 else 1
            destroyed.append(candidates[pick - 1].id)
        ctx.emit(CarpetBombingResolved(hex=hex_, factors=roll["factors"], die=roll["die"], modified=roll["modified"],
                                       asterisks=roll["asterisks"], bombers=roll["bombers"], destroyed=destroyed))
        units = state["units"].units
        for uid in destroyed:
            if units[uid].branch == "air":
                destroy_air_unit(ctx, uid, "destroyed by carpet bombing")
            else:
                destroy_land_unit(ctx, uid)


@rules.describe("CarpetBombingResolved")
def _say_resolved(event, state):
    d = event.data
    lost = ", ".join(name(state, u) for u in d["destroyed"]) or "nothing"
    return (f"Carpet bombing of {tuple(d['hex'])}: {d['factors']} strategic factors, die {d['die']} "
            f"(modified {d['modified']}), {d['asterisks']} asterisks: destroys {lost}")


register(MissionKind(
    id="carpet-bombing", name="Carpet Bombing", step=CARPET_BOMBING, who="organized bombers with a strategic factor",
    flyer=needs_factor("strategic"), targets=targets, target_problem=target_problem, perform=perform,
    factor="strategic", unavailable=off_reason))

rules.export(globals())
