"""Stay At Sea and Return To Base at the end of the turn (seed 000 L11036-11090, Ships in
Flames 4), and Naval Repair (L11180-11189, L8847-8878, the Guadalcanal scenario's phase)."""

from helpers import lab_game, ok, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_repair import why_not_repair

KONIGSBERG = world_map().port("Konigsberg").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
STAY = "turn.end-of-turn.stay-at-sea-phasing"


def at_sea_game(tmp_path, units, placements):
    g = lab_game(tmp_path / "g.wif", options={"units": units, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    for uid, (area, section) in placements.items():
        rig(g, "RigShipsAtSea", units=[uid], area=area, section=section)
    rig(g, "RigStep", step=STAY)
    return g


def test_stay_at_sea_moves_down_a_section_and_the_zero_section_must_return(tmp_path):
    g = at_sea_game(tmp_path, [ship("high"), ship("low")], {"high": ("BA", 3), "low": ("BA", 0)})
    refused(g, {"type": "StayAtSea", "actor": "germany", "units": ["low"]}, "must return to base")
    ok(g, type="StayAtSea", actor="germany", units=["high"])
    assert g.state["naval"].at_sea["high"].section == 2  # "must immediately move into a lower section"
    ok(g, type="FinishStep", actor="germany")
    # Return To Base: the unit that did not stay goes home before the phase may end
    step = g.state.kernel.sequence.current
    assert step.endswith("return-to-base-phasing"), step
    refused(g, {"type": "FinishStep", "actor": "germany"}, "must first return to base")
    ok(g, type="ReturnNavalToBase", actor="germany", origin="BA:0", to=K, units=["low"])
    assert g.state["units"].units["low"].hex == KONIGSBERG and "low" not in g.state["naval"].at_sea


def test_return_to_base_out_of_reach_is_destroyed(tmp_path):
    g = at_sea_game(tmp_path, [ship("far", speed=1, range_=1)], {"far": ("BA", 0)})
    # movement 1 - section 0 = 1: enough for Konigsberg (1 port entered); make it 0 with a higher box
    assert g.state.kernel.sequence.current.endswith("return-to-base-phasing")
    ok(g, type="ReturnNavalToBase", actor="germany", origin="BA:0", to=K, units=["far"])
    g2 = at_sea_game(tmp_path / "x" if (tmp_path / "x").mkdir() is None else tmp_path,
                     [ship("stuck", type_="trs", attack=0, aa=0, speed=1, range_=1)], {"stuck": ("NO", 0)})
    # from the Norwegian Sea no German port is in reach: it can neither stay (section 0) nor return
    ok(g2, type="FinishStep", actor="germany")
    assert g2.state["units"].units["stuck"].where == "eliminated"


def test_naval_repair_one_unit_per_turn_back_in_two_turns(tmp_path):
    g = lab_game(tmp_path / "g.wif", scenario="guadalcanal")
    power = g.state.kernel.powers()[0]
    major = next(c for c in world_map().ports if c.port == "major")
    rig(g, "RigUnit", unit=ship("hurt", power=power, hex_=major.hex) | {"where": "repair-pool", "hex": None})
    rig(g, "RigUnit", unit=ship("hurt2", power=power, hex_=major.hex) | {"where": "repair-pool", "hex": None})
    rig(g, "RigStep", step="turn.end-of-turn.naval-repair")
    assert g.state.kernel.sequence.current.endswith("naval-repair")
    turn = g.state.kernel.turn
    ok(g, type="RepairNavalUnit", actor=power, unit="hurt")
    assert g.state["naval"].repairs == {"hurt": turn + 2}
    assert "only one naval unit can be repaired per turn" in why_not_repair(g.state, power, "hurt2")
    assert not [c for c in g.choices().commands() if c.type == "RepairNavalUnit" and c.actor == power]


def test_naval_repair_the_repaired_unit_arrives_two_turns_later_in_a_major_port_undamaged(tmp_path):
    """Naval Repair (L8847-8878): "The selected unit will arrive as a reinforcement in 2 turns"
    (authored: at the end of the Naval Repair phase of the turn before, in a major port of its
    power on a sea area in play, face up and undamaged); bad input gets the rule's reason."""
    from helpers import go_to
    from plugins.rules.core import hex_controller

    g = lab_game(tmp_path / "g.wif", scenario="guadalcanal")
    pearl = world_map().port("Pearl Harbor").hex
    rig(g, "RigUnit", unit=ship("hurt", power="usa", hex_=pearl) | {"where": "repair-pool", "hex": None, "face_up": False})
    rig(g, "RigNavalDamage", unit="hurt")
    go_to(g, "turn.end-of-turn.naval-repair", turn=1)
    assert g.state.kernel.sequence.current.endswith("naval-repair")
    refused(g, {"type": "RepairNavalUnit", "actor": "usa", "unit": "us-yorktown"},
            "Naval Repair:", "Yorktown", "is not in usa's repair pool")
    refused(g, {"type": "RepairNavalUnit", "actor": "japan", "unit": "hurt"}, "not in japan's repair pool")
    assert g.preview({"type": "RepairNavalUnit", "actor": "usa", "unit": "hurt"})["arrives_turn"] == 3
    ok(g, type="RepairNavalUnit", actor="usa", unit="hurt")
    go_to(g, "turn.end-of-turn.naval-repair", turn=2)
    assert g.state["units"].units["hurt"].where == "repair-pool"  # not back yet
    while g.state.kernel.sequence.current.endswith("naval-repair"):
        ok(g, type="FinishStep", actor=g.state.kernel.sequence.pending[0])
    hurt = g.state["units"].units["hurt"]
    assert hurt.where == "map" and hurt.face_up and "hurt" not in g.state["naval"].damaged
    assert world_map().port_at(hurt.hex).port == "major" and hex_controller(g.state, hurt.hex) == "usa"
    assert "hurt" not in g.state["naval"].repairs
