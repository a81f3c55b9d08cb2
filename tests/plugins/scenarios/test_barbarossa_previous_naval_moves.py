"""Ships in Flames "16.1.1 Previous Naval Moves" (seed 001 L1125-1133) in Barbarossa's Setup
Tray (seed 000 L6715-6735, naval units placed at sea during setup): a ship sets up in a sea box
section at least 1 below what it could have reached from a port it may set up in (a convoy in
the 0 section), with no cargo, in a sea area of the scenario's partial map."""

from __future__ import annotations

import random

import pytest

from helpers import lab_game, ok, refused, rig
from test_barbarossa_fleets import _to_german_naval_movement
from kernel.game import Game
from plugins.rules.core import world_map
from plugins.rules.naval.naval_movement_moving_naval_units import highest_section
from plugins.rules.naval.ui import naval_review, sea_boxes
from plugins.scenarios.barbarossa import placement_problem, tray_units

M = world_map()
NAVAL_MOVEMENT = "wif.turn.impulse.naval.naval-movement"
SETUP_PLACING = "wif.new-game.setup.set-up-each-major-power.placing-units-on-the-map"


@pytest.fixture
def game(tmp_path):
    g = Game.new("barbarossa", tmp_path / "p.wif", seed=5)
    yield g
    g.close()


def at_sea(g, power="ussr", unit="su-kirov", sea="BA:3"):
    return {"type": "PlaceUnitAtSea", "actor": power, "unit": unit, "sea": sea}


def offered(g, actor=None) -> dict[str, list[str]]:
    """Ship -> the sea boxes ``PlaceUnitAtSea`` offers it now."""
    [choice] = [c for c in g.choices(None).commands() if c.type == "PlaceUnitAtSea" and actor in (None, c.actor)]
    return {o.value: [s.value for f in o.next_fields() for s in f.all_options()] for o in choice.fields[0].all_options()}


def port(name):
    return list(M.port(name).hex)


def test_16_1_1_the_sections_offered_are_at_least_1_below_what_the_ship_could_have_reached(game):
    seas = offered(game)
    # Kirov (speed 5): 1 point into the Baltic from a Baltic port leaves 4, section 4; so 0-3
    assert seas["su-kirov"] == ["BA:0", "BA:1", "BA:2", "BA:3"]
    # Marat (speed 3): section 2 reached, so 0-1 (seed 000: "no higher than" one below)
    assert seas["su-marat"] == ["BA:0", "BA:1"]
    # convoys "remain at sea indefinitely, staying in the zero section box"
    assert seas["su-convoy-1"] == ["BA:0", "BK:0"]
    # the Black Sea fleet's ports open on the Black Sea only; the Baltic is closed beyond Kiel
    assert seas["su-molotov"] == ["BK:0", "BK:1", "BK:2", "BK:3"]
    # the naval plugin's own reach: Kirov from Tallinn reaches section 4 of the Baltic
    kirov = game.state["units"].units["su-kirov"]
    assert highest_section(game.state, kirov, "{},{}".format(*port("Tallinn")), "BA", frozenset({"ussr"})) == 4
    assert all(s.startswith(("BA:", "BK:")) for boxes in seas.values() for s in boxes)  # 16.3's seas only


def test_16_1_1_every_offered_sea_box_is_accepted(game):
    seas = offered(game)
    cmds = [at_sea(game, unit=u, sea=s) for u, boxes in seas.items() for s in boxes]
    for cmd in random.Random(3).sample(cmds, 25):
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)


def test_16_1_1_a_ship_set_up_at_sea_is_in_its_sea_box_and_may_be_placed_again(game):
    g = game
    told = g.preview(at_sea(g))
    assert told["place"] == "At sea: Baltic Sea, section 3" and told["at_sea"] is True
    ok(g, at_sea(g))
    kirov = g.state["units"].units["su-kirov"]
    box = g.state["naval"].at_sea["su-kirov"]
    assert (box.area, box.section) == ("BA", 3) and kirov.where == "map" and kirov.hex is None
    assert "su-kirov" not in tray_units(g.state, "ussr")
    last = g.history(g.state.kernel.seq)[-1]
    assert "placed at sea in Baltic Sea (section 3)" in g.describe(last)
    # placed again this step: elsewhere at sea, then in a port (out of its sea box)
    ok(g, at_sea(g, sea="BA:1"))
    assert g.state["naval"].at_sea["su-kirov"].section == 1
    ok(g, type="PlaceUnit", actor="ussr", unit="su-kirov", hex=port("Riga"))
    assert "su-kirov" not in g.state["naval"].at_sea
    assert M.port_at(tuple(g.state["units"].units["su-kirov"].hex)).name == "Riga"
    ok(g, at_sea(g, sea="BA:2"))  # and at sea once more
    assert g.state["units"].units["su-kirov"].hex is None
    # the window's sea boxes and Naval Review (the naval plugin's front-end hooks) show it at sea
    [box] = sea_boxes(g.state)
    assert box["area"] == "BA" and [(u["id"], u["section"]) for u in box["units"]] == [("su-kirov", 2)]
    review = naval_review(g.state)
    assert review["powers"]["ussr"]["at_sea"] == {"ca": 1}
    assert any(loc["kind"] == "sea" and loc["id"] == "BA" and loc["sections"] == [2] for loc in review["locations"])


def test_16_1_1_a_section_too_high_is_refused(game):
    refused(game, at_sea(game, sea="BA:4"), "16.1.1", "section 4", "at least 1 below", "3 at most")
    refused(game, at_sea(game, unit="su-marat", sea="BA:2"), "16.1.1", "section 2", "1 at most")
    refused(game, at_sea(game, unit="su-convoy-1", sea="BA:1"), "16.1.1", "convoy", "0 section")
    refused(game, at_sea(game, sea="BA:9"), "16.1.1", "sections 0-4")


def test_16_1_1_an_area_out_of_reach_or_out_of_play_is_refused(game):
    # the Black Sea from the Baltic: only round Europe, through sea areas off Barbarossa's map
    refused(game, at_sea(game, sea="BK:0"), "16.1.1", "could not have reached", "Black Sea", "outside its map")
    refused(game, at_sea(game, sea="NS:0"), "16.1.1", "North Sea", "outside its map")
    refused(game, at_sea(game, sea="XX:0"), "16.1.1", "no sea area")
    refused(game, at_sea(game, sea="BA"), "16.1.1", "AREA:section")


def test_16_1_1_another_powers_ship_or_a_land_unit_is_refused(game):
    refused(game, at_sea(game, unit="ge-tirpitz", sea="BA:1"), "Setup Tray", "germany unit")
    land = next(u for u in tray_units(game.state, "ussr") if game.state["units"].units[u].branch == "land")
    refused(game, at_sea(game, unit=land, sea="BA:0"), "only naval units")
    refused(game, at_sea(game, unit="no-such-ship", sea="BA:0"), "no unit")


def test_16_1_1_a_ship_carrying_cargo_is_refused(tmp_path):
    g = lab_game(tmp_path / "lab.wif", scenario="barbarossa", seed=5)
    try:
        ok(g, type="PlaceUnit", actor="ussr", unit="su-trs-black-sea", hex=port("Sevastopol"))
        assert offered(g, "ussr")["su-trs-black-sea"]
        land = next(u for u in tray_units(g.state, "ussr") if g.state["units"].units[u].branch == "land"
                    and placement_problem(g.state, "ussr", u, port("Sevastopol")) is None)
        ok(g, type="PlaceUnit", actor="ussr", unit=land, hex=port("Sevastopol"))
        rig(g, "RigAboard", actor="ussr", ship="su-trs-black-sea", units=[land])
        refused(g, at_sea(g, unit="su-trs-black-sea", sea="BK:0"), "16.1.1", "cannot carry cargoes", "carries")
        assert "su-trs-black-sea" not in offered(g, "ussr")
    finally:
        g.close()


def test_16_1_1_a_ship_set_up_at_sea_is_at_sea_at_the_first_naval_movement(game):
    g = game
    ok(g, type="FinishStep", actor="ussr")  # the USSR's defaults
    ok(g, at_sea(g, power="germany", unit="ge-tirpitz", sea="BA:3"))
    _to_german_naval_movement(g)
    assert g.state["naval"].at_sea["ge-tirpitz"].section == 3
    refused(g, at_sea(g, power="germany", unit="ge-tirpitz", sea="BA:0"), "PlaceUnitAtSea is not allowed now")
    # Naval Movement: from its sea box, to a lower section or back to a port (the usual rules)
    moves = [c for ch in g.choices(None).commands() if ch.type == "MoveNavalGroup" for c in ch.commands()]
    from_sea = [c for c in moves if c["origin"] == "BA:3"]
    assert from_sea and all(c["units"] == ["ge-tirpitz"] for c in from_sea)
    assert {c["section"] for c in from_sea if c["to"] == "BA"} == {0, 1, 2}
    assert any("," in c["to"] for c in from_sea)
