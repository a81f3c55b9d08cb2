"""Optional rule Divisions: breaking corps and armies down into divisions, and reforming them.

Seeds, "Break Down Units" (L761-845) and "Reform Units" (L4810-4846), played in the end-of-turn
phases "Break Down Corps/Armies" (``BreakDownUnit``, each power) and "Reform Corps/Armies"
(``ReformUnits``, each power); both phases are skipped while the rule is OFF.

- Breakdown: a major power's organized corps or army on the map, not in an enemy ZOC, becomes
  1 division of its own type and 1 INF or MOT division (an SS corps: an SS division of its
  type and an SS or normal INF or MOT division), chosen from the force pool, together at most
  half (rounded up) of the corps' combat factors.  An armoured corps may not use the CW 79th
  or US marine divisions.  The corps goes to the Broken Down pool ("Unit Pools").
- Reform: 2 organized divisions of a power stacked outside enemy ZOCs, 1 of them MOT, become a
  corps or army of the other division's type (INF if the pools hold none of that type), drawn
  at random from the force and Broken Down pools among those with combat factors less than
  twice the divisions' ("keep picking until you find one").  The divisions go back to the
  force pool; the corps takes their place, organized.

The division counters are ``data/division_counters.json`` (authored: see its header); one not
yet in play is created when it is chosen.  Unlimited breakdown changes the choices and the
reform through the variant it registers (``variants.py``).  Modules: ``breakdown.py`` and
``reform.py`` (command, check, handler, choices, preview each), ``common.py``.
"""

from __future__ import annotations

from kernel.hookspecs import hookimpl
from plugins.optional.framework import is_on

from .breakdown import (  # noqa: F401 - the plugin's public names
    BreakDownUnit,
    UnitBrokenDown,
    breakdown_options,
    breakdown_refusal,
    pool_divisions,
)
from .common import (  # noqa: F401
    BREAK_DOWN_STEP,
    BROKEN_DOWN_POOL,
    FORCE_POOL,
    REFORM_STEP,
    RULE,
    RULE_ID,
    DivisionsState,
    name,
    rules,
    section,
)
from .reform import (  # noqa: F401
    DivisionsReformed,
    ReformUnits,
    reform_candidates,
    reform_refusal,
)


@rules.reducer("UnitBrokenDown")
def _broken_down(state, event):
    d = event.data
    s = section(state)
    s.breakdowns += 1
    for div in d["divisions"]:
        s.from_breakdown[div] = d["unit"]


@rules.reducer("DivisionsReformed")
def _reformed(state, event):
    for div in event.data["divisions"]:
        section(state).from_breakdown.pop(div, None)


# ---------------------------------------------------------------- hooks
@hookimpl
def skip_step(state, step_id, spec):
    if step_id not in (BREAK_DOWN_STEP, REFORM_STEP):
        return None
    if not is_on(state, RULE_ID):
        # "This phase only occurs if the optional rule Divisions is in use"
        return "the optional rule Divisions is not in play"
    return None


def _label(state, uid: str) -> str:
    units = state["units"].units
    return name(units[uid]) if uid in units else uid


@rules.describe("UnitBrokenDown")
def _describe_broken_down(event, state) -> str:
    d = event.data
    return f"{event.actor}: {_label(state, d['unit'])} breaks down into divisions ({', '.join(d['divisions'])})"


@rules.describe("DivisionsReformed")
def _describe_reformed(event, state) -> str:
    d = event.data
    divs = " and ".join(_label(state, u) for u in d["divisions"])
    how = "chosen" if d["chosen_by"] == "player" else f"drawn from {len(d['candidates'])}"
    return f"{event.actor}: {divs} reform into {_label(state, d['corps'])} ({how})"


@rules.hexes("UnitBrokenDown", "DivisionsReformed")
def _event_hex(event, state):
    return [tuple(event.data["hex"])]


rules.export(globals())
