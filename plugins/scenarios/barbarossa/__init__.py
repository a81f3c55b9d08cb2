"""Barbarossa: the introductory scenario (seed section "Barbarossa").

What is here now: who plays (Germany for the Axis, the USSR for the Allies) and the
scenario's length, 5 turns from May/June 1941.  The unit setup, the land and air rules
and the victory conditions come with the Barbarossa issue (#5).
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec

SIDES = {"axis": ["germany"], "allies": ["ussr"]}
TURNS = 5  # May/June 1941 .. January/February 1942


@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="barbarossa", name="Barbarossa", sides=SIDES, sequence="wif",
                          description="Germany against the USSR, May/June 1941 to Jan/Feb 1942."))


@hookimpl
def repeat_step(ctx, step_id, spec):
    if ctx.state.kernel.scenario != "barbarossa":
        return None
    if step_id == "wif.turn":
        return ctx.state.kernel.turn < TURNS
    return None
