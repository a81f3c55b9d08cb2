"""Optional rule Anti-aircraft fire on air supply (seeds "Reorganize Units", By Air, step 6: "AsA
option 3: surviving bombers suffer anti-aircraft fire from AA units"), on and off, built with
the rig (helpers.lab_game, playback dice).

Map facts: (201,51) is a German forest hex in supply; (205,52), 4 hexes away, is made German;
(206,52), next to it, is a clear Soviet hex in supply, where a Soviet AA division stands."""

from __future__ import annotations

from helpers import air_unit, dice, lab_game, offered, ok, unit

RULE = "anti-aircraft-fire-on-air-supply"
BASE, FRIENDLY, FLAK_HEX = (201, 51), (205, 52), (206, 52)
REORGANIZE = "turn.impulse.end-of-impulse.reorganization-by-air-transport"
AM = "wif.procedures.air-mission"
JU52 = air_unit("ju52", "germany", "atr", BASE, air=0, range_=6)
TIRED = unit("g2", "germany", FRIENDLY, face_up=False)
FLAK = unit("flak", "ussr", FLAK_HEX, type_="aa", combat=1, move=2, size="division", factors={"aa": 3})
RIFLE = unit("r1", "ussr", (206, 52), combat=3, move=3)


def air_supply(save, rules):
    game = lab_game(save, options={"units": [JU52, TIRED, FLAK, RIFLE], "actions": {"germany": "land"},
                                   "hex_control": {"205,52": "germany"}, "optional_rules": list(rules),
                                   "start_at": REORGANIZE},
                    extra_plugins=["air", RULE])
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g2")
    return game


def test_air_supply_on_aa_units_fire_at_the_atr_and_an_aborted_atr_organizes_nothing(save):
    game = air_supply(save, [RULE])
    ok(game, type="FinishStep", actor="germany")
    assert game.state.kernel.sequence.current == f"{AM}.aa-by-non-phasing-side.plot-aa-fire"
    assert [c.fields[0].values() for c in offered(game, "PlotAAFire")] == [["flak"]]
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(FRIENDLY), shots=4)
    dice(game, 9, 8, 7, 6, 5)  # 12 factors at 1 transport (-1/5): lowest 5 points abort it
    ok(game, type="FinishStep", actor="ussr")
    ok(game, type="ApplyAADamage", actor="germany", hex=list(FRIENDLY), unit="ju52")
    events = ok(game, type="FinishStep", actor="germany")
    # "7. surviving ATRs provide air supply": the aborted one does not
    assert not any(e.type == "AirCargoDelivered" and e.data["outcome"] == "reorganized" for e in events)
    assert not game.state["units"].units["g2"].face_up


def test_air_supply_off_the_anti_aircraft_attacks_are_skipped_with_the_reason(save):
    game = air_supply(save, [])
    events = ok(game, type="FinishStep", actor="germany")
    reasons = {e.data["step"]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    assert "AsA option 3" in reasons[f"{AM}.aa-by-non-phasing-side"]
    assert game.state["units"].units["g2"].face_up  # the ATR got through and organized it
