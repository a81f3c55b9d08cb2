"""Strategic Bombardment and the strategic bombardment table (Carpet Bombing reads it too).

Seeds: "Strategic Bombardment": "A successful strategic bombing mission destroys enemy
production points, factories, oil resources, saved oil points, or saved build points ...
Bombers may only fly this mission if there is a viable strategic target in the hex.  Here
'viable' means an enemy factory, oil resource, synthetic oil plant, saved oil point, or saved
build point."  "Air Attacks" (Strategic bombardment missions): "total the strategic factors
of all surviving bombers.  These may be affected by weather ... Locate the total on the
strategic bombardment table and roll a die.  The result is the number of points lost by the
target hex.  Add 1 to the die roll if the bombers did not fight any air-to-air combat this
mission ... that number of production points will be lost from the factory owner's
production point total for the turn".

In a game without production (Barbarossa: the scenario has no production phase, and no
plugin of this edition keeps production points, oil or build points yet) a factory or oil
hex holds nothing a bombing could take away, so there is no viable target and the phase is
skipped with that reason (``no_production``).  When a production plugin is in the game
(a state section named ``production``), enemy factory, oil and resource hexes of the map are
targets, and the roll is recorded (``StrategicBombardmentRolled``) for it to take the points
off the owner's production.
"""

from __future__ import annotations

import json
import re
from functools import cache

from plugins.rules.core import enemies, hex_controller, world_map

from .aircraft import DATA, bombing_factor, units_of
from .events import StrategicBombardmentRolled
from .mission_kinds import MissionKind, needs_factor, register
from .state import STRATEGIC_BOMBARDMENT, air

PRODUCTION_SECTION = "production"


@cache
def table() -> dict:
    return json.loads((DATA / "strategic_bombardment_table.json").read_text())


def table_result(factors: int, die: int) -> tuple[int, int]:
    """The strategic bombardment table's (points, asterisks) for ``factors`` strategic factors
    and a modified ``die`` (1-11)."""
    t = table()
    if factors <= 0:
        return 0, 0
    column = next(i for i, (low, high) in enumerate(t["columns"]) if low <= factors <= high)
    cell = t["results"][column][max(1, min(die, 11)) - 1]
    match = re.fullmatch(r"(\d+)(\**)", cell)
    return int(match.group(1)), len(match.group(2))


def bombardment_roll(ctx, flights, hex_, purpose: str) -> dict:
    """Total the surviving bombers' strategic factors at ``hex_`` (after anti-aircraft fire,
    then weather and terrain), roll a die, +1 if no air-to-air combat was fought there."""
    state = ctx.state
    units = units_of(state)
    factors = sum(bombing_factor(state, units[f.unit], hex_, "strategic", f.aa_loss) for f in flights)
    die = ctx.roll(f"{purpose} at {tuple(hex_)}: {factors} strategic factors", faces=10, count=1)[0]
    bonus = 0 if tuple(hex_) in {tuple(h) for h in air(state).mission.fought} else 1
    points, asterisks = table_result(factors, die + bonus)
    return {"hex": tuple(hex_), "factors": factors, "die": die, "modified": die + bonus, "points": points,
            "asterisks": asterisks, "bombers": sorted(f.unit for f in flights)}


def has_production(state) -> bool:
    return PRODUCTION_SECTION in state.sections


def no_production(state) -> str | None:
    if has_production(state):
        return None
    return ("Strategic Bombardment: a viable target is \"an enemy factory, oil resource, synthetic oil plant, saved "
            "oil point, or saved build point\" whose loss comes off its owner's production; this game keeps no "
            "production (its scenario, Barbarossa or Guadalcanal, has no production phase), so no hex holds a target")


def strategic_targets(state, power: str) -> set[tuple[int, int]]:
    """Enemy-controlled map hexes with a factory, oil or resource (with production in play)."""
    if not has_production(state):
        return set()
    wm = world_map()
    out = set()
    for feature in wm.economy:
        hex_ = (feature.col, feature.row)
        owner = hex_controller(state, hex_)
        if owner is not None and enemies(state, power, owner):
            out.add(hex_)
    return out


def target_problem(state, unit, hex_, cargo=None) -> str | None:
    if tuple(hex_) in strategic_targets(state, unit.power):
        return None
    return f"hex {tuple(hex_)} holds no viable strategic target (an enemy factory, oil or resource)"


def perform(ctx, flights) -> None:
    by_hex: dict[tuple, list] = {}
    for f in flights:
        by_hex.setdefault(tuple(f.hex), []).append(f)
    for hex_, group in sorted(by_hex.items()):
        roll = bombardment_roll(ctx, group, hex_, "strategic bombardment")
        ctx.emit(StrategicBombardmentRolled(owner=hex_controller(ctx.state, hex_) or "", **roll))


register(MissionKind(
    id="strategic-bombardment", name="Strategic Bombardment", step=STRATEGIC_BOMBARDMENT,
    who="organized bombers with a strategic factor", flyer=needs_factor("strategic"), targets=strategic_targets,
    target_problem=target_problem, perform=perform, factor="strategic", unavailable=no_production))
