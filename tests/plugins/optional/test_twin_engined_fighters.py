"""Optional rule Twin-engined fighters (seeds, "Air-to-air Combat": an orange-rated front fighter
achieves one result less when the enemy front fighter is not orange; DC unaffected)."""

from __future__ import annotations

from types import SimpleNamespace

from helpers import air_unit
from airlab import GE_BASE, SU_BASE, TARGET, air_lab, land_unit

UNITS = [air_unit("me110", "germany", "ftr", GE_BASE, air=4, flags=["twin-engined"]),
         air_unit("pe3", "ussr", "ftr", SU_BASE, air=3, flags=["twin-engined"]),
         air_unit("i16", "ussr", "ftr", SU_BASE, air=3), land_unit("r1", "ussr", TARGET)]


def _result(game, theirs, result):
    combat = SimpleNamespace(lines={"axis": {"fighters": ["me110"], "bombers": []},
                                    "allies": {"fighters": [theirs], "bombers": []}})
    return game.host.pm.hook.air_combat_result(state=game.state, combat=combat, side="axis", result=result)


def test_twin_engined_fighters_off_results_unchanged(save):
    game = air_lab(save, UNITS)
    assert _result(game, "i16", "AX") is None


def test_twin_engined_fighters_on_one_result_less_against_a_single_engined_front(save):
    game = air_lab(save, UNITS, rules=["twin-engined-fighters"])
    assert [_result(game, "i16", r) for r in ("AX", "DX", "AA", "DA")] == ["DX", "AA", "DA", "AC"]
    assert _result(game, "i16", "DC") is None  # "A DC result is unaffected"
    assert _result(game, "pe3", "AX") is None  # both fronts orange: no change
