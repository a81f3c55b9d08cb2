"""Optional rule Anti-aircraft fire on air supply ("AsA option 3").

Seeds, "Reorganize Units" (By Air), the steps of an air supply mission: "5. fight any air-to-air
combats; 6. AsA option 3: surviving bombers suffer anti-aircraft fire from AA units (see RAC
22.4.2); 7. surviving ATRs provide air supply".  "Anti-Air Fire" lists air supply (RAC 11.18.1)
among the missions AA units fire at.

The air supply mission is the air plugin's Reorganization by Air Transport; its Anti-aircraft
Attacks subphases run the air plugin's Anti-aircraft Fire (plugins/rules/air/anti_aircraft.py),
which skips them on an air supply mission unless a function of ``AIR_SUPPLY_AA`` says yes:
this plugin adds ``fires_on_air_supply`` there on import, so the skip, the choices and the
handlers all ask the same ``air_supply_suffers_aa``.  An ATR that AA fire destroys or aborts
organizes nothing (only flights that got through perform the mission).
"""

from __future__ import annotations

from plugins.optional.framework import is_on
from plugins.rules.air.anti_aircraft import AIR_SUPPLY_AA

RULE_ID = "anti-aircraft-fire-on-air-supply"


def fires_on_air_supply(state) -> bool:
    """With the rule on, AA units fire at the aircraft flying air supply."""
    return is_on(state, RULE_ID)


# once, even when the plugin is imported again (dev reload)
AIR_SUPPLY_AA[:] = [f for f in AIR_SUPPLY_AA if f.__module__ != __name__] + [fires_on_air_supply]
