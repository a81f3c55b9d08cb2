"""Optional rule Territorials: territorial corps added to the order of battle; the land combat rolls' territorial modifiers apply to them.

Sources and what is authored: ``data/added_units.json`` (its header).  The counters enter a
scenario through the scenario's own hook (Barbarossa: ``scenario_added_units``) while the rule
is ON; the rules that read them are the base rules' (see rule.toml).
"""

from __future__ import annotations

from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework.added_units import scenario_units

RULE_ID = "territorials"
DATA = Path(__file__).resolve().parent / "data" / "added_units.json"


@hookimpl(optionalhook=True)
def scenario_added_units(state, scenario):
    return scenario_units(state, RULE_ID, DATA, scenario)
