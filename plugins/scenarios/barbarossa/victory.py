"""Victory, Barbarossa Special Victory Conditions: no automatic victory; the 8 on-map
objectives and each city of the East European USSR (Bessarabia included) count one
objective each (Leningrad counts 2); whoever controls the most wins."""

from __future__ import annotations

from plugins.rules.core import hex_controller, world, world_map

from . import oob
from .state import POWER_NAMES, VICTORY_CHECK, ObjectivesCounted, VictoryDetermined, rules, victory_rules

TURNS = 5  # May/June 1941 .. January/February 1942
CAPITALS = {"germany": "Berlin", "ussr": "Moscow"}


def count_objectives(state) -> tuple[dict[str, float], list[dict]]:
    """Objectives per major power and the rows of the victory form.  Objectives not held by
    a major power of the game count for the one with the closest home capital (half each
    when equidistant)."""
    m = world_map()
    powers = state.kernel.powers()
    capitals = {}
    for p in powers:
        city = m.city(CAPITALS.get(p, ""))
        if city is not None:
            capitals[p] = city.hex
    counts = {p: 0.0 for p in powers}
    rows = []
    for h, (name, value) in sorted(oob.objective_values().items(), key=lambda kv: (kv[0][1], kv[0][0])):
        owner = hex_controller(state, h)
        if owner in counts:
            credit = {owner: 1.0}
        else:
            dist = {p: m.grid.distance(h, c) for p, c in capitals.items()}
            best = min(dist.values())
            near = [p for p, d in dist.items() if d == best]
            credit = {p: 1.0 / len(near) for p in near}
        for p, share in credit.items():
            counts[p] += share * value
        rows.append({"name": name, "hex": list(h), "value": value, "controller": owner,
                     "credited": {p: share * value for p, share in credit.items()}})
    return counts, rows


@rules.step_rule(VICTORY_CHECK)
def victory_check(ctx, step_id: str) -> None:
    """Victory Check: no automatic victory in Barbarossa; the final count on the last turn."""
    if not victory_rules(ctx.state):
        return
    k = ctx.state.kernel
    counts, rows = count_objectives(ctx.state)
    ctx.emit(ObjectivesCounted(turn=k.turn, objectives=counts, held=rows))
    last = world(ctx.state).last_turn or int(k.options.get("last_turn", TURNS))
    if k.turn < last:
        return
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        winner, side = None, None
        result = f"A draw: {ranked[0][1]:g} objectives each"
    else:
        winner = ranked[0][0]
        side = k.side_of(winner)
        others = ", ".join(f"{p} {v:g}" for p, v in ranked[1:])
        name = POWER_NAMES.get(winner, winner)
        result = f"{name[0].upper() + name[1:]} wins with {ranked[0][1]:g} objectives ({others})"
    ctx.emit(VictoryDetermined(turn=k.turn, objectives=counts, winner=winner, side=side, result=result))
