"""Optional rule Partisans (seeds, "Partisans" L4087-4257; end-of-turn phase "Partisans"
L10930-10959; setup "Placing Partisans on the Map" L10110-10124).

End of turn, step Partisan Rolls (automatic): for each country of the partisan table
(``data/partisan_table.json``, authored: see its header) whose partisans a major power of the
game controls and that "has either been conquered or at least 1 of its hexes contains an
enemy unit", a first die says whether it checks for partisans, a second how many arrive (0-3),
moved by the partisans already there and the enemy garrison ("organized, not in an enemy ZOC,
on the opposite side"), never above the country's maximum.  Each arriving partisan is drawn
from the year's pool and waits (``PartisansArrived``) for its controller.

Step Place Partisans (decided by the powers with partisans waiting): ``PlacePartisan {unit,
hex}`` puts the first waiting partisan ("the program enforces the order") in "any enemy
controlled hex in the partisan's country that is not in an enemy ZOC"; one with no such hex
"does not arrive" (``PartisansLapsed`` when the step ends).  Handler, choices and preview ask
``placement_problem``.  The units are of type ``partisan``, which the base rules already know:
always in supply (supply), a ZOC in their own hex only and no change of hex control (land).
"""

from __future__ import annotations

from .partisan_rolls import (  # noqa: F401 - the rule's public names
    arrivals,
    draw,
    eligible,
    garrison,
    garrison_value,
    maximum,
    partisan_rolls,
    partisans_in,
)
from .place_partisans import (  # noqa: F401 - hookimpls registered with the plugin, and public names
    finish_step_refusal,
    legal_hexes,
    next_waiting,
    placement_problem,
    resolve_deciders,
    skip_step,
    step_ended,
)
from .state import (  # noqa: F401
    PLACE,
    ROLLS,
    RULE_ID,
    SETUP_PLACE,
    PartisanState,
    PlacePartisan,
    country_rows,
    partisan_state,
    rules,
)

rules.export(globals())
