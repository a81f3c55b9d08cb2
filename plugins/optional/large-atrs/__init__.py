"""Optional rule Large ATRs (Player's Manual 9.4.12).

Seeds, "Reorganize Units" (By Air): "Each surviving ATR gives you 1 reorganization point you
can use to organize disorganized units in the target hex.  The optional rule Large ATRs ...
give you 2 reorganization points if the ATR has not flown over half its range to the target
hex."

The air supply mission is the air plugin's Reorganization by Air Transport
(plugins/rules/air/air_transport.py); this plugin adds ``large_atr_points`` to its
``REORGANIZATION_POINTS`` on import, and the ATR names its second unit in
``FlyMission.also_organize`` (choices, preview and handler all ask ``reorganization_problem``).
Each point organizes one unit (the seeds give no other cost for a unit).  Only air transports
(ATR) get the second point: an aircraft flying air supply under Bomber ATRs is not an ATR.
"""

from __future__ import annotations

from plugins.optional.framework import is_on
from plugins.rules.air.air_transport import REORGANIZATION_POINTS, is_transport
from plugins.rules.air.aircraft import distance, reach

RULE_ID = "large-atrs"


def large_atr_points(state, atr, hex_) -> int:
    """2 reorganization points for an ATR that "has not flown over half its range to the target hex"."""
    if not (is_on(state, RULE_ID) and is_transport(atr) and atr.on_map):
        return 1
    # its range: how far it may fly a mission (the air plugin's ``reach``)
    return 2 if 2 * distance(atr.hex, hex_) <= reach(atr, "mission") else 1


# once, even when the plugin is imported again (dev reload)
REORGANIZATION_POINTS[:] = [f for f in REORGANIZATION_POINTS if f.__module__ != __name__] + [large_atr_points]
