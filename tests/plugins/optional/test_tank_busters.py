"""Optional rule Tank busters (seeds, "Air Attacks"): a red-circled tactical factor doubles in
ground support against armour and rolls an extra ground-strike die against MECH, ARM, HQ-A."""

from __future__ import annotations

from helpers import air_unit, ok
from airlab import GE_BASE, TARGET, air_lab, land_unit

STUKA = air_unit("stuka", "germany", "tac", GE_BASE, air=1, tactical=3, flags=["tank-buster"])
SUPPORT = "turn.impulse.land.combat.ground-support.ground-support-mission"


def _support(save, rules):
    units = [STUKA, land_unit("s-arm", "ussr", TARGET, type_="arm"), land_unit("g1", "germany", (202, 53))]
    game = air_lab(save, units, rules=rules, actions={"germany": "land"}, start=SUPPORT)
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    events = ok(game, type="FinishStep", actor="germany")
    while not any(e.type == "AirGroundSupportFlown" for e in events):
        events = ok(game, type="FinishStep", actor=game.state.kernel.sequence.pending[0])
    return next(e for e in events if e.type == "AirGroundSupportFlown").data["factors"]


def test_tank_busters_off_ground_support_is_the_tactical_factor(save):
    assert _support(save, []) == 3


def test_tank_busters_on_doubles_ground_support_against_armour(save):
    assert _support(save, ["tank-busters"]) == 6


def _strike(save, rules, target_type):
    game = air_lab(save, [STUKA, land_unit("t", "ussr", TARGET, type_=target_type)], rules=rules, seed=5)
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    events = ok(game, type="FinishStep", actor="germany")
    roll = next(e for e in events if e.type == "DiceRolled" and "ground strike" in e.data["purpose"])
    strike = next(e for e in events if e.type == "GroundStrikeRolled").data
    return roll.data["results"], strike


def test_tank_busters_off_one_ground_strike_die(save):
    dice, strike = _strike(save, [], "mech")
    assert len(dice) == 1 and strike["dice"] == []


def test_tank_busters_on_an_extra_die_against_mech_not_against_infantry(tmp_path):
    dice, strike = _strike(tmp_path / "a.wif", ["tank-busters"], "mech")
    assert len(dice) == 2 and strike["die"] == min(dice) and strike["success"] == (min(dice) <= 3)
    dice, _ = _strike(tmp_path / "b.wif", ["tank-busters"], "inf")
    assert len(dice) == 1
