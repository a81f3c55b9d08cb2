"""Optional rule Anti-aircraft and anti-tank units: anti-aircraft and anti-tank divisions added to Barbarossa.

Sources and what is authored: ``data/added_units.json`` (its header).  The counters enter a
scenario through the scenario's own hook (Barbarossa: ``scenario_added_units``) while the rule
is ON; the rules that read them are the base rules' (see rule.toml): land combat counts a
defending AT unit as an ARM corps, and the air rules' Anti-aircraft Fire fires the AA divisions
by their ``aa`` factor (authored values: I Flak Corps 3, Moscow PVO Division 2; neither is
light AA), up to 4 shots a mission at bombers in or next to their hex.
"""

from __future__ import annotations

from pathlib import Path

from kernel.hookspecs import hookimpl
from plugins.optional.framework.added_units import scenario_units

RULE_ID = "anti-aircraft-and-anti-tank-units"
DATA = Path(__file__).resolve().parent / "data" / "added_units.json"


@hookimpl(optionalhook=True)
def scenario_added_units(state, scenario):
    return scenario_units(state, RULE_ID, DATA, scenario)
