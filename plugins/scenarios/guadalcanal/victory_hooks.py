"""What Guadalcanal tells players and bots about winning (kernel hooks ``game_result`` and
``objective_hexes``), read from the scenario's own victory rule (seeds, "Victory":
Guadalcanal Special Victory Conditions)."""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.rules.core import hex_controller
from plugins.rules.core.scenario import final_result

from . import oob
from .state import SCENARIO, victory_rules


@hookimpl
def game_result(state):
    result = final_result(state, SCENARIO)
    if not result:
        return None
    return {"winner": result.get("winner"), "text": result.get("result", ""),
            "scores": {side: float(pts) for side, pts in (result.get("points") or {}).items()}}


@hookimpl
def objective_hexes(state, power):
    """What ``power`` can score: the objectives and resource hexes in play that its side does
    not hold (its own side's lost ones to take back, the enemy's to capture)."""
    if not victory_rules(state):
        return None
    side = state.kernel.side_of(power)
    hexes = [h for _, h in oob.objectives()] + [h for _, h, _, _ in oob.resources()]
    return [h for h in hexes if state.kernel.side_of(hex_controller(state, h) or "") != side]
