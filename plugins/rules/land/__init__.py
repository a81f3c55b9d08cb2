"""Land movement: moving land units hex by hex and by rail, zones of control, stacking,
overruns, hex control changes and captured facilities.

Seed sections: "Land Movement", "Rail Movement", "Over-Stacked Hex", "Weather Report"
(effects on terrain and movement), "Captured Facilities", "Rebase Overrun Units
Digression", "Correct Overstacking Digression".  Modules:

- ``movement``: the pure questions (terrain and weather costs, zones of control, stacking,
  reachable hexes, path costs), the one home of those rules for every plugin;
- ``movers``: who may move which unit now (phase, action, activities, moved already);
- ``land_movement``, ``rail_movement``, ``over_stacked_hex``: the commands, each with its
  choices and preview judged by the same functions as its handler;
- ``overrun``: overruns, asking the odds and supply through the hooks in ``hooks``.

Public functions other plugins use:
    reachable(state, unit_id) -> {(col, row): (cost, previous hex)}
    path_cost(state, unit_id, path) -> int          (Rejected naming the rule if illegal)
    stacking_problems(state, hex, adding=(), leaving=()) -> [reason, ...]
    overstacked_hexes(state) -> {hex: [reason, ...]}
    zoc_hexes(state, side) -> {hex, ...};  enemy_zoc(state, power) -> {hex, ...}
    check_overstacking(ctx) -> bool                  (pushes the Correct Overstacking digression)
    overrun.overrun_check(state, unit, path=None, to=None, hook=None)
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules import core

from . import land_movement, over_stacked_hex, rail_movement  # noqa: F401  (their commands join ``rules``)
from .events import (  # noqa: F401  (re-exported)
    FacilitiesCaptured,
    LandState,
    LandUnitMoved,
    LandUnitsOverrun,
    OverstackLossChosen,
    UnitRailMoved,
    UnitsOverrun,
    land,
    rules,
)
from .hooks import HOOKSPECS  # noqa: F401  (published hooks, see hooks.py)
from .land_movement import REBASE_DIGRESSION, MoveLandUnit  # noqa: F401
from .movement import (  # noqa: F401  (re-exported: the plugin's public functions)
    LAND_LIMIT_TEXT,
    NO_CONTROL_TYPES,
    MoveRules,
    cheapest_path,
    enemy_zoc,
    land_stack_ok,
    movement_allowance,
    norm,
    overstacked_branches,
    overstacked_hexes,
    path_cost,
    reachable,
    stacking_breaches,
    stacking_problems,
    zoc_hexes,
)
from .movers import LAND_MOVE, RAIL_MOVE  # noqa: F401
from .over_stacked_hex import (  # noqa: F401
    OVERSTACK_DIGRESSION,
    ChooseOverstackLoss,
    check_overstacking,
    overstack_deciders,
    overstack_refusal,
)
from .rail_movement import RailMove  # noqa: F401
from .weather_report import WEATHER_STEP, UnitsLostOnThawedLake, destroy_on_thawed_lakes, thawed_lake_losses  # noqa: F401


def _rebasing_powers(state) -> list[str]:
    """Rebase Overrun Units Digression: the powers with air or naval units still in a hex
    where they were overrun."""
    out = []
    units = state["units"].units
    for key, ids in land(state).overrun.items():
        for i in ids:
            u = units.get(i)
            if u is not None and u.on_map and core.hex_key(u.hex) == key and u.power not in out:
                out.append(u.power)
    return out


DECIDERS = {"rule:overstack-decider": overstack_deciders, "rule:rebasing-power": _rebasing_powers}


@hookimpl
def resolve_deciders(state, step_id, spec, kind):
    find = DECIDERS.get(kind)
    return find(state) if find else None


@hookimpl
def finish_step_refusal(state, step_id, power):
    return overstack_refusal(state, step_id or "", power)


# A combat moves units only in these subphases; each ends with every unit where it stays.  The
# Land Combat phase itself often ends without a step_ended of its own (its rule pushed the
# combat, which waited for decisions), so its stacking is checked as each combat ends.
COMBAT_MOVES = ("wif.procedures.land-combat-resolution.retreat-units",
                "wif.procedures.land-combat-resolution.advance-after-combat")


@hookimpl
def step_ended(ctx, step_id, spec):
    """Over-Stacked Hex: "Stacking applies at the end of every phase" — checked as each
    phase of play ends, and as a combat's retreats and advances end (not inside the
    correction digression itself)."""
    if step_id == WEATHER_STEP:
        destroy_on_thawed_lakes(ctx)
    if step_id.startswith("wif.turn.") or step_id.startswith("wif.new-game.") or step_id in COMBAT_MOVES:
        check_overstacking(ctx)


@hookimpl
def skip_step(state, step_id, spec):
    if step_id == "wif." + REBASE_DIGRESSION and not _rebasing_powers(state):
        return "Rebase Overrun Units: no overrun air or naval unit is left in an enemy hex"
    return None


rules.export(globals())
