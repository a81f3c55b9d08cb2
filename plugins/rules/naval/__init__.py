"""Naval rules: naval units in ports and sea-area sections, naval movement, the war at sea.

This module only registers; the rules are in the modules named after the seed sections
they implement (README.md says what each holds and the data format of naval counters):

- ``state``: ``state["naval"]`` (who is at sea in which section, damage, what is aboard);
  ``events``: its events and reducers;
- ``naval_units``: classes (data/naval.json), factors as damage changes them, ships and
  convoy points; ``embark``: transport capacity, carrier air units on carriers;
- ``sea_box_section``: sea areas, sections, ports, distances (read from the world map);
- ``naval_movement``: Naval Movement (``MoveNavalGroup``);
- ``rig_naval``: lab games' ``RigShipsAtSea``, ``RigAboard``, ``RigNavalDamage``; scenario
  setups' ``place_at_sea`` and ``load``.
"""

from __future__ import annotations

# noqa: F401 - they register with ``rules`` (events, reducers, commands)
from . import events, naval_movement, rig_naval  # noqa: F401
from .state import rules

rules.export(globals())
