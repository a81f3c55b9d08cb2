"""What Barbarossa tells players and bots about winning (kernel hooks ``game_result`` and
``objective_hexes``), read from the scenario's own victory rule (seeds, "Barbarossa":
"Special victory conditions")."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.core import hex_controller
from plugins.rules.core.scenario import final_result

from .state import SCENARIO, victory_rules
from .oob import objective_values


@hookimpl
def game_result(state):
    result = final_result(state, SCENARIO)
    if not result:
        return None
    scores: dict[str, float] = {}
    for power, value in (result.get("objectives") or {}).items():
        side = state.kernel.side_of(power) or power
        scores[side] = scores.get(side, 0.0) + value
    return {"winner": result.get("side"), "text": result.get("result", ""), "scores": scores}


@hookimpl
def objective_hexes(state, power):
    """The objectives ``power`` does not hold: what it must take (or take back)."""
    if not victory_rules(state):
        return None
    return [h for h in objective_values() if hex_controller(state, h) != power]
