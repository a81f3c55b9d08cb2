"""Naval Air (seed 000 L10311-10329) and Sea Box Section for air units (L6350-6402): a German
naval bomber flies from the Baltic coast into the Baltic Sea, searches, and goes home at the
end of the turn."""

from helpers import air_unit, lab_game, ok, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_air import hexes_to_sea, highest_section

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex


def naval_air_game(tmp_path, range_=4, action="naval"):
    return lab_game(tmp_path / "g.wif", options={
        "units": [air_unit("nav", type_="nav", hex_=KONIGSBERG, range_=range_, factors={"naval": 3}),
                  ship("r1", power="ussr", hex_=LENINGRAD)],
        "actions": {"germany": action}, "start_at": "turn.impulse.naval.naval-air"}, extra_plugins=["naval"])


def test_sea_box_section_air_units_reach_sections_by_range_left():
    assert [highest_section(r) for r in (0, 1, 2, 3, 5, 6, 9, 10)] == [0, 1, 1, 2, 2, 3, 3, 4]
    assert highest_section(-1) is None


def test_naval_air_flies_to_a_section_and_stays_organized(tmp_path):
    g = naval_air_game(tmp_path)
    left = 4 - hexes_to_sea(KONIGSBERG, "BA")
    top = highest_section(left)
    refused(g, {"type": "FlyToSeaArea", "actor": "germany", "unit": "nav", "area": "BA", "section": top + 1}, "at most")
    ok(g, type="FlyToSeaArea", actor="germany", unit="nav", area="BA", section=top)
    nav = g.state["units"].units["nav"]
    assert nav.hex is None and nav.face_up and g.state["naval"].at_sea["nav"].section == top
    # "the presence of units in sea areas enable the owning major power to intercept"
    assert g.state["naval"].entered["BA"]
    # told with the aircraft's name, no type code ("Germany flies Germany nav nav …" before)
    told = g.describe([r for r in g.history(1) if r.type == "AirUnitsFlewToSea"][-1])
    assert told.startswith("Germany flies Germany nav to sea in") and " nav nav" not in told, told


def test_naval_air_needs_an_action_other_than_pass(tmp_path):
    g = naval_air_game(tmp_path, action="pass")
    skipped = {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}
    assert "Naval or Air or Land or Combined action (germany: pass)" in skipped["wif.turn.impulse.naval.naval-air"]


def test_naval_air_units_go_home_at_the_end_of_the_turn(tmp_path):
    g = naval_air_game(tmp_path)
    ok(g, type="FlyToSeaArea", actor="germany", unit="nav", area="BA", section=0)
    rig(g, "RigStep", step="turn.end-of-turn.stay-at-sea-phasing")
    refused(g, {"type": "StayAtSea", "actor": "germany", "units": ["nav"]}, "must return")
    ok(g, type="FinishStep", actor="germany")
    nav = g.state["units"].units["nav"]
    assert nav.hex == KONIGSBERG and "nav" not in g.state["naval"].at_sea
