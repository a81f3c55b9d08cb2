"""Ships in Flames 8.5, Flying Missions: "You can rebase a carrier plane, up to double its range,
from its CV to a hex or vice versa (including the cost to get into or out of the sea-box
section).  You can also rebase a carrier plane from a CV to another CV in the same sea-box
section or port.  Each of these counts as a rebase for activities limits"; 3.6.7 'D': "A carrier
plane can land on a damaged CV but can't fly off it"; seed 000 "Air Rebase" (not disorganized);
"Carrier Classes" (what fits).  A German carrier plane at an airfield 8 hexes from Konigsberg and
5 from the Baltic's open sea, range 4 (rebases 8)."""

from helpers import air_unit, go_to, lab_game, offered, ok, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.carrier_air_rebase import section_cost

KONIGSBERG = world_map().port("Konigsberg").hex
RIGA = world_map().port("Riga").hex
AIRFIELD = (205, 44)
AIR_REBASE = "turn.impulse.air-rebase.air-rebase"


def game(tmp_path, action="air", carrier_class=4, plane_class=2, extra=()):
    counters = [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": carrier_class}),
                ship("cv2", type_="cv", attack=1, defense=4, aa=1, factors={"class": 2}),
                air_unit("p1", type_="cvp", hex_=AIRFIELD, air=2, range_=4, factors={"naval": 3, "class": plane_class}),
                *extra]
    g = lab_game(tmp_path / "g.wif", options={
        "units": counters, "hex_control": {f"{AIRFIELD[0]},{AIRFIELD[1]}": "germany"},
        "actions": {"germany": action}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    return g


def rebase(unit="p1", to="cv"):
    return {"type": "RebaseCarrierAirUnit", "actor": "germany", "unit": unit, "to": to}


def every_offered_path_is_accepted(g):
    commands = [cmd for c in offered(g, "RebaseCarrierAirUnit") for cmd in c.commands()]
    assert commands
    for cmd in commands:
        assert g.dry_run(cmd).accepted, cmd
    return commands


def test_air_rebase_carrier_plane_boards_a_carrier_in_port_within_double_its_range(tmp_path):
    g = game(tmp_path)
    go_to(g, AIR_REBASE, active_side="axis")
    commands = every_offered_path_is_accepted(g)
    assert {c["to"] for c in commands if c["unit"] == "p1"} == {"cv", "cv2"}  # both fit a class 2 plane
    preview = g.preview(rebase())
    assert preview["distance"] == 8 and preview["reach"] == 8 and preview["disorganized"] is False and preview["ashore"]
    ok(g, rebase())
    plane = g.state["units"].units["p1"]
    assert plane.where == "aboard" and plane.hex is None and plane.face_up
    assert g.state["naval"].aboard["cv"] == ["p1"]
    assert [e.type for e in g.store.records()][-1] == "UnitsLoaded"
    # from a CV to another CV "in the same ... port"
    ok(g, rebase(to="cv2"))
    assert g.state["naval"].aboard == {"cv2": ["p1"]}


def test_air_rebase_carrier_plane_flies_off_a_carrier_at_sea_counting_the_section(tmp_path):
    g = game(tmp_path)
    rig(g, "RigAboard", ship="cv", units=["p1"])
    rig(g, "RigShipsAtSea", units=["cv"], area="BA", section=2)
    go_to(g, AIR_REBASE, active_side="axis")
    assert section_cost(2) == 3 and section_cost(3) == 6
    every_offered_path_is_accepted(g)
    # 5 hexes to the Baltic's open sea + 3 out of section 2 = 8, its rebase reach
    preview = g.preview(rebase(to="205,44"))
    assert preview["distance"] == 8 and preview["from"] == "cv"
    # cv2 is in Konigsberg, not in the carrier's sea-box section
    refused(g, rebase(to="cv2"), "same sea-box section or port")
    refused(g, rebase(to=f"{RIGA[0]},{RIGA[1]}"), "not a land hex controlled by your side")
    ok(g, rebase(to="205,44"))
    plane = g.state["units"].units["p1"]
    assert plane.where == "map" and tuple(plane.hex) == AIRFIELD and plane.face_up
    assert "cv" not in g.state["naval"].aboard


def test_air_rebase_carrier_plane_bad_input_gets_the_rules_reason_and_nothing_is_appended(tmp_path):
    big = air_unit("p2", type_="cvp", hex_=KONIGSBERG, air=2, range_=4, factors={"naval": 3, "class": 3})
    g = game(tmp_path, extra=[big])
    rig(g, "RigShipsAtSea", units=["cv"], area="BA", section=3)
    go_to(g, AIR_REBASE, active_side="axis")
    # out of range: 5 hexes to the open sea + 6 into section 3 > 8
    refused(g, rebase(to="cv"), "rebases up to 8 hexes", "is 11 away")
    # no room by class: cv2 is class 2, p2 class 3
    refused(g, rebase(unit="p2", to="cv2"), "Carrier Classes", "more than")
    refused(g, rebase(to="nowhere"), "neither a carrier nor a hex")
    refused(g, rebase(to="9999,9999"), "neither a carrier nor a hex", "of the map")  # off the map
    refused(g, rebase(to="3,-4"), "neither a carrier nor a hex", "of the map")
    refused(g, rebase(to="205,45"), "rebases between hexes with RebaseAir")
    refused(g, rebase(unit="cv", to="cv2"), "not a carrier air unit of germany")
    # a damaged carrier takes a plane but none flies off it
    rig(g, "RigNavalDamage", unit="cv2")
    ok(g, rebase(unit="p1", to="cv2"))
    refused(g, rebase(unit="p1", to="205,44"), "damaged", "can't fly off it")


def test_air_rebase_carrier_plane_counts_against_the_activity_limits_and_only_in_its_phase(tmp_path):
    g = game(tmp_path, action="pass")
    refused(g, rebase(), "not allowed now")  # not the Air Rebase phase
    go_to(g, AIR_REBASE, active_side="axis")
    assert not offered(g, "RebaseCarrierAirUnit")
    refused(g, rebase(), "rebase")
