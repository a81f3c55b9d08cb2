"""Optional rule Fighter-bombers (seeds, "Air-to-air Combat": "Reduce the air-to-air rating of
the front bomber by 1 if it is a FTR")."""

from __future__ import annotations

from helpers import air_unit
from airlab import GE_BASE, TARGET, air_lab, land_unit

from plugins.rules import air

UNITS = [air_unit("me110", "germany", "ftr", GE_BASE, air=4, tactical=2), land_unit("r1", "ussr", TARGET)]
LINE = {"fighters": [], "bombers": ["me110"]}


def test_fighter_bombers_off_the_front_bomber_keeps_its_rating(save):
    game = air_lab(save, UNITS)
    assert air.strength(game.state, LINE, hook=game.host.pm.hook) == (4, True)


def test_fighter_bombers_on_a_fighter_as_front_bomber_loses_one(save):
    game = air_lab(save, UNITS, rules=["fighter-bombers"])
    hook = game.host.pm.hook
    assert air.strength(game.state, LINE, hook=hook) == (3, True)
    # as a fighter it keeps its rating; a true bomber in front is not reduced
    assert air.strength(game.state, {"fighters": ["me110"], "bombers": []}, hook=hook) == (4, True)
