"""Naval Movement (seed 000 L13538-13572), Sea Box Section (L6350-6402) and the naval unit
model, on the real map's Baltic Sea: Konigsberg (major port) and Stettin (minor port) open
on the Baltic, which is adjacent to the North Sea only."""

import random

import pytest

from helpers import lab_game, ok, refused, rig, ship
from plugins.rules.core import world_map

KONIGSBERG = world_map().port("Konigsberg").hex
STETTIN = world_map().port("Stettin").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
S = f"{STETTIN[0]},{STETTIN[1]}"


def naval_game(tmp_path, units, action="naval", start="turn.impulse.naval.naval-movement", **options):
    return lab_game(tmp_path / "g.wif", options={"units": units, "actions": {"germany": action},
                                                 "start_at": start, **options}, extra_plugins=["naval"])


def move(game, origin, to, units, section=None, actor="germany"):
    return {"type": "MoveNavalGroup", "actor": actor, "origin": origin, "to": to, "section": section, "units": units}


def test_naval_movement_from_port_into_a_section_by_movement_points_left(tmp_path):
    g = naval_game(tmp_path, [ship("ca", speed=3, range_=3), ship("dd", type_="dd", speed=5, range_=5)])
    # Baltic: 1 sea area entered, so 2 movement points left for the CA: sections 0-2
    preview = g.preview(move(g, K, "BA", ["ca", "dd"], section=2))
    assert preview["legal"] and preview["path"] == ["Baltic Sea"] and preview["range_used"] == 1
    reason = refused(g, move(g, K, "BA", ["ca", "dd"], section=3), "search number is at most 2")
    assert "ca" in reason
    ok(g, move(g, K, "BA", ["ca", "dd"], section=2))
    naval = g.state["naval"]
    assert naval.at_sea["ca"].area == "BA" and naval.at_sea["ca"].section == 2
    assert g.state["units"].units["ca"].hex is None  # a sea box is no hex
    # one group moved: one naval move; each unit moves once per impulse
    refused(g, move(g, "BA:2", K, ["ca"]), "only 1 naval move per impulse")


def test_naval_movement_range_and_the_north_sea(tmp_path):
    g = naval_game(tmp_path, [ship("short", speed=6, range_=1)])
    refused(g, move(g, K, "NS", ["short"], section=0), "range 1")


def test_naval_movement_needs_a_naval_or_combined_action(tmp_path):
    g = naval_game(tmp_path, [ship("ca")], action="land")
    skipped = {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}
    assert "Naval or Combined action" in skipped["wif.turn.impulse.naval.naval-movement"]
    assert "MoveNavalGroup" not in g.choices().types()


def test_naval_movement_at_sea_only_to_a_port_or_a_lower_section(tmp_path):
    g = naval_game(tmp_path, [ship("ca", speed=4, range_=4)])
    rig(g, "RigShipsAtSea", units=["ca"], area="BA", section=2)
    refused(g, move(g, "BA:2", "NS", ["ca"], section=0), "never move to a different sea area")
    refused(g, move(g, "BA:2", "BA", ["ca"], section=3), "lower-numbered section")
    ok(g, move(g, "BA:2", S, ["ca"]))
    unit = g.state["units"].units["ca"]
    # Ships in Flames 3.2.2: a unit that ends a naval move in a port turns face down
    assert unit.hex == STETTIN and not unit.face_up and "ca" not in g.state["naval"].at_sea


def test_naval_movement_into_an_enemy_port_or_over_land_is_refused(tmp_path):
    g = naval_game(tmp_path, [ship("ca", speed=6, range_=6)])
    refused(g, move(g, K, f"{LENINGRAD[0]},{LENINGRAD[1]}", ["ca"]), "not a port of germany's side")
    refused(g, move(g, K, "204,52", ["ca"]), "not a port")  # a land hex
    refused(g, move(g, K, "ZZ", ["ca"], section=0), "neither a sea area nor a port")
    assert g.state["naval"].at_sea == {}


def test_sea_box_section_convoys_only_in_the_zero_section(tmp_path):
    g = naval_game(tmp_path, [ship("cp", type_="convoy", factors={"points": 3})])
    refused(g, move(g, K, "BA", ["cp"], section=1), "zero section")
    ok(g, move(g, K, "BA", ["cp"], section=0))


def test_naval_stacking_a_minor_port_holds_four(tmp_path):
    ships = [ship(f"s{i}", hex_=STETTIN) for i in range(4)] + [ship("extra")]
    g = naval_game(tmp_path, ships)
    reason = refused(g, move(g, K, S, ["extra"]), "minor port holds 4")
    assert "Stettin" in reason


def test_naval_stacking_a_full_minor_port_is_not_offered(tmp_path):
    """A port with no room for any unit of the group is no destination (a bot game was offered
    one with no section or units to choose, and its command was refused)."""
    ships = [ship(f"s{i}", hex_=STETTIN) for i in range(4)] + [ship("extra")]
    g = naval_game(tmp_path, ships)
    offered = [c for c in g.choices().commands() if c.type == "MoveNavalGroup"]
    destinations = {cmd["to"] for c in offered for cmd in c.commands() if cmd["origin"] == K}
    assert destinations and S not in destinations


def test_naval_movement_every_offered_move_is_accepted(tmp_path):
    g = naval_game(tmp_path, [ship("ca", speed=3, range_=3), ship("dd", type_="dd", speed=6, range_=5),
                              ship("cp", type_="convoy", factors={"points": 2}),
                              ship("st", hex_=STETTIN, speed=2, range_=2)])
    offered = [c for c in g.choices().commands() if c.type == "MoveNavalGroup"]
    commands = [cmd for c in offered for cmd in c.commands()]
    assert len(commands) > 20
    for cmd in random.Random(3).sample(commands, 25):
        outcome = g.dry_run(cmd)
        assert outcome.accepted, (cmd, outcome.reason)


@pytest.mark.parametrize("bad, words", [
    ({"units": []}, "no unit named"),
    ({"units": ["nobody"]}, "not a naval unit in play"),
])
def test_naval_movement_bad_input_names_the_thing(tmp_path, bad, words):
    g = naval_game(tmp_path, [ship("ca")])
    cmd = {**move(g, K, "BA", ["ca"], section=0), **bad}
    before = g.state.kernel.seq
    refused(g, cmd, words)
    assert g.state.kernel.seq == before


def test_naval_movement_activity_limits_each_group_is_one_naval_move(tmp_path):
    """Activity Limits: "each group of naval units that moves = 1 naval move"; Germany's Combined
    action allows 2 (turn plugin, data/activity_limits.json): a third group is refused with the
    limit's reason, nothing appended, and no longer offered."""
    g = naval_game(tmp_path, [ship("a"), ship("b"), ship("c")], action="combined")
    ok(g, move(g, K, "BA", ["a"], section=0))
    preview = g.preview(move(g, K, "BA", ["b"], section=0))
    assert preview["legal"] and preview["naval_moves"] == 1
    ok(g, move(g, K, "BA", ["b"], section=0))
    refused(g, move(g, K, "BA", ["c"], section=0), "Activity Limits", "Combined action allows 2 naval moves")
    assert "MoveNavalGroup" not in g.choices().types()
