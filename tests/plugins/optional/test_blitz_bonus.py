"""Optional rule Blitz bonus (seeds, "Land Combat", Rolling dice): +1 per two attacking
ARM/MECH/HQ-A in a blitz attack on a non-city clear or desert hex in fine weather, -1 per
defending ARM/MECH/HQ-A there, +1 per paradropping unit; exclusive with 2D10 Land CRT."""

from __future__ import annotations

import pytest

from helpers import unit
from optlab import T, lab, resolved, to_roll

from plugins.optional.framework.catalogue import RulesError


def _armour():
    return [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-mech", "germany", (206, 52), "mech", 4),
            unit("s-arm", "ussr", T, "arm", 3)]


def test_blitz_bonus_off_no_armour_modifiers(save):
    game, events = to_roll(save, units=_armour(), attackers=("g-arm", "g-mech"))
    assert resolved(events).data["drm"] == {}


def test_blitz_bonus_on_blitz_attack_in_the_open(save):
    game, events = to_roll(save, rules=["blitz-bonus"], units=_armour(), attackers=("g-arm", "g-mech"))
    res = resolved(events).data
    assert res["drm"] == {"blitz bonus: attacking ARM/MECH/HQ-A": 1, "blitz bonus: defending ARM/MECH/HQ-A": -1}
    assert res["modified"] == res["roll"]


def test_blitz_bonus_on_assault_keeps_only_the_defending_armour(tmp_path):
    game, events = to_roll(tmp_path / "a.wif", rules=["blitz-bonus"], units=_armour(), attackers=("g-arm", "g-mech"),
                           table="assault")
    assert resolved(events).data["drm"] == {"blitz bonus: defending ARM/MECH/HQ-A": -1}


def test_blitz_bonus_not_in_bad_weather(save):
    game, events = to_roll(save, rules=["blitz-bonus"], units=_armour(), attackers=("g-arm", "g-mech"),
                           weather={"2": "rain"})
    assert not any(k.startswith("blitz bonus") for k in resolved(events).data["drm"])


def test_blitz_bonus_and_2d10_land_crt_are_mutually_exclusive(save):
    with pytest.raises(RulesError, match="mutually exclusive"):
        lab(save, rules=["blitz-bonus", "2d10-land-crt"])
    assert not save.exists()
