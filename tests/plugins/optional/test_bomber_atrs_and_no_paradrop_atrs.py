"""Optional rule Bomber ATRs & No-paradrop ATRs (seeds "Reorganize Units", By Air; Player's
Manual 9.4.13), on and off, built with the rig (helpers.lab_game).

Map facts: (201,51) is a German forest hex in supply; (203,52), 2 hexes away, is made German."""

from __future__ import annotations

from helpers import air_unit, lab_game, ok, refused, unit

BASE, FRIENDLY = (201, 51), (203, 52)
REORGANIZE = "turn.impulse.end-of-impulse.reorganization-by-air-transport"
AM = "wif.procedures.air-mission"
HE111 = air_unit("he111", "germany", "lnd", BASE, air=0, tactical=2, range_=6)
BF109 = air_unit("bf109", "germany", "ftr", BASE, air=3, range_=6)
TIRED = unit("g2", "germany", FRIENDLY, face_up=False)
RIFLE = unit("r1", "ussr", (206, 52), combat=3, move=3)


def supply_lab(save, units, rules=("bomber-atrs-and-no-paradrop-atrs",)):
    return lab_game(save, options={"units": units, "actions": {"germany": "land"},
                                   "hex_control": {"203,52": "germany"}, "optional_rules": list(rules),
                                   "start_at": REORGANIZE},
                    extra_plugins=["air", "bomber-atrs-and-no-paradrop-atrs"])


def offered_flyers(game) -> list[str]:
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "FlyMission")
    return [o.value for o in choice.fields[0].all_options()]


def test_reorganize_units_by_air_a_bomber_flies_air_supply_with_the_rule_on(save):
    game = supply_lab(save, [HE111, BF109, TIRED, RIFLE])
    assert game.state.kernel.sequence.current == f"{AM}.phasing-side-flies-bombers"
    assert "he111" in offered_flyers(game)
    # a fighter has no white range circle: it still only escorts
    refused(game, None, "not an air transport", type="FlyMission", actor="germany", unit="bf109",
            hex=list(FRIENDLY), cargo="g2")
    preview = game.preview({"type": "FlyMission", "actor": "germany", "unit": "he111", "hex": list(FRIENDLY),
                            "cargo": "g2"})
    assert preview["legal"]
    ok(game, type="FlyMission", actor="germany", unit="he111", hex=list(FRIENDLY), cargo="g2")
    events = ok(game, type="FinishStep", actor="germany")
    assert next(e for e in events if e.type == "AirCargoDelivered").data["outcome"] == "reorganized"
    assert game.state["units"].units["g2"].face_up


def test_reorganize_units_by_air_only_air_transports_fly_air_supply_with_the_rule_off(save):
    game = supply_lab(save, [HE111, TIRED, RIFLE], rules=())
    skipped = {e.data["step"]: e.data["reason"] for e in game.store.records() if e.type == "StepSkipped"}
    assert "no phasing power has organized air transports (ATR)" in skipped[f"wif.{REORGANIZE}"]
    assert not game.state["units"].units["g2"].face_up
