"""Optional rule Bomber ATRs & No-paradrop ATRs (Player's Manual 9.4.13).

Seeds, "Reorganize Units" (By Air): "An air supply mission allows you to organize a unit in any
land hex by flying an air transport unit to that hex.  The optional rule Bomber ATRs &
No-paradrop ATRs ... lets any aircraft with a white range circle can fly an air supply
mission, even if it is not an air transport unit."

The air supply mission is the air plugin's Reorganization by Air Transport
(plugins/rules/air/air_transport.py); this plugin adds ``may_fly_air_supply`` to its
``AIR_SUPPLY_FLYERS`` on import, so choices, preview and handler all ask the same
``air_supply_flyer``.  Approximated (data/white_range_circle.json): the white range circle is
not in our unit data, so the bomber type classes stand for it.

Not modelled: the no-paradrop ATRs.  ``grep -ri paradrop ../shared/seeds`` (both files) and the
digests find them only in the rule's title ("Reorganize Units", By Air, L4982-4983); the seeds
never say which ATRs cannot paradrop, nor what else such an ATR may or may not do, so every
ATR keeps its Paradrop mission with the rule on or off.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from plugins.optional.framework import is_on
from plugins.rules.air.air_transport import AIR_SUPPLY_FLYERS

RULE_ID = "bomber-atrs-and-no-paradrop-atrs"
DATA = Path(__file__).parent / "data" / "white_range_circle.json"


@cache
def white_range_circle_types() -> frozenset[str]:
    return frozenset(json.loads(DATA.read_text())["white_range_circle_types"])


def may_fly_air_supply(state, unit) -> bool:
    """With the rule on, an aircraft with a white range circle flies air supply like an ATR."""
    return is_on(state, RULE_ID) and unit.branch == "air" and unit.type in white_range_circle_types()


# once, even when the plugin is imported again (dev reload)
AIR_SUPPLY_FLYERS[:] = [f for f in AIR_SUPPLY_FLYERS if f.__module__ != __name__] + [may_fly_air_supply]
