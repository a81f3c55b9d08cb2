"""A naval counter of a class the naval plugin has no table for ("Naval Unit Classes": CV, BB,
CA, CL, DD, SUB, TRS, AMPH and convoy points), given to a lab game or the rig, is refused where
it is given with the reason naming it (before, the naval choices later failed on a missing table
entry, KeyError 'frigate')."""

from __future__ import annotations

import pytest

from helpers import lab_game, refused, ship
from kernel.errors import WifError


def test_naval_unit_classes_an_unknown_class_in_the_lab_options_is_named(tmp_path):
    with pytest.raises(WifError, match="'units'.*'hms-x'.*type 'frigate' is not a naval class"):
        lab_game(tmp_path / "frigate.wif", options={"units": [ship("hms-x", type_="frigate")]},
                 extra_plugins=["naval"])


def test_naval_unit_classes_an_unknown_class_rigged_is_refused_and_nothing_is_appended(tmp_path):
    g = lab_game(tmp_path / "rig.wif", extra_plugins=["naval"])
    try:
        refused(g, {"type": "RigUnit", "actor": "germany", "unit": ship("hms-x", type_="frigate")},
                "RigUnit", "type 'frigate' is not a naval class")
        refused(g, {"type": "RigUnit", "actor": "germany",
                    "unit": ship("hms-y", factors={}) | {"factors": {"attack": 1}}}, "has no defense")
    finally:
        g.close()
