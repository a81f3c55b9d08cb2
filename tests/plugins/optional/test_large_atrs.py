"""Optional rule Large ATRs (seeds "Reorganize Units", By Air; Player's Manual 9.4.12), on and
off, built with the rig (helpers.lab_game).

Map facts: (201,51) is a German forest hex in supply; (203,52), 2 hexes away, is made German."""

from __future__ import annotations

from helpers import air_unit, lab_game, ok, refused, unit

BASE, FRIENDLY = (201, 51), (203, 52)
REORGANIZE = "turn.impulse.end-of-impulse.reorganization-by-air-transport"
AM = "wif.procedures.air-mission"
JU52 = air_unit("ju52", "germany", "atr", BASE, air=0, range_=6)  # 2 hexes: within half its range
SHORT_JU52 = air_unit("ju52s", "germany", "atr", BASE, air=0, range_=3)  # 2 hexes: over half its range
TIRED = [unit("g2", "germany", FRIENDLY, face_up=False), unit("g3", "germany", FRIENDLY, face_up=False),
         unit("g4", "germany", FRIENDLY, face_up=False)]
RIFLE = unit("r1", "ussr", (206, 52), combat=3, move=3)


def supply_lab(save, units, rules=("large-atrs",)):
    return lab_game(save, options={"units": units, "actions": {"germany": "land"},
                                   "hex_control": {"203,52": "germany"}, "optional_rules": list(rules),
                                   "start_at": REORGANIZE},
                    extra_plugins=["air", "large-atrs"])


def unit_to_organize(game, atr: str):
    """The 'unit to organize' field offered to ``atr`` at FRIENDLY."""
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "FlyMission")
    flyer = next(o for o in choice.fields[0].all_options() if o.value == atr)
    bomber = flyer.next_fields()[0].all_options()[0]
    target = next(o for o in bomber.next_fields()[0].all_options() if tuple(o.value) == FRIENDLY)
    return target.next_fields()[0]


def organized(game) -> set[str]:
    return {uid for uid in ("g2", "g3", "g4") if game.state["units"].units[uid].face_up}


def test_reorganize_units_by_air_a_large_atr_within_half_range_organizes_two_units(save):
    game = supply_lab(save, [JU52, *TIRED, RIFLE])
    assert game.state.kernel.sequence.current == f"{AM}.phasing-side-flies-bombers"
    cargo = unit_to_organize(game, "ju52")
    further = cargo.all_options()[0].next_fields()[0]
    assert further.name == "also_organize" and further.max == 1 and further.min == 0
    refused(game, None, "at most 2 units", type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY),
            cargo="g2", also_organize=["g3", "g4"])
    refused(game, None, "twice", type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY),
            cargo="g2", also_organize=["g2"])
    preview = game.preview({"type": "FlyMission", "actor": "germany", "unit": "ju52", "hex": list(FRIENDLY),
                            "cargo": "g2", "also_organize": ["g3"]})
    assert preview["legal"] and preview["also_organize"] == ["g3"]
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g2", also_organize=["g3"])
    events = ok(game, type="FinishStep", actor="germany")
    assert sorted(e.data["unit"] for e in events if e.type == "AirCargoDelivered") == ["g2", "g3"]
    assert organized(game) == {"g2", "g3"}


def test_reorganize_units_by_air_an_atr_over_half_its_range_has_one_point(save):
    game = supply_lab(save, [SHORT_JU52, *TIRED, RIFLE])
    assert unit_to_organize(game, "ju52s").all_options()[0].next_fields() == []
    refused(game, None, "1 reorganization point", type="FlyMission", actor="germany", unit="ju52s",
            hex=list(FRIENDLY), cargo="g2", also_organize=["g3"])


def test_reorganize_units_by_air_large_atrs_off_gives_one_point(save):
    game = supply_lab(save, [JU52, *TIRED, RIFLE], rules=())
    assert unit_to_organize(game, "ju52").all_options()[0].next_fields() == []
    refused(game, None, "at most 1 unit", type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY),
            cargo="g2", also_organize=["g3"])
    ok(game, type="FlyMission", actor="germany", unit="ju52", hex=list(FRIENDLY), cargo="g2")
    ok(game, type="FinishStep", actor="germany")
    assert organized(game) == {"g2"}
