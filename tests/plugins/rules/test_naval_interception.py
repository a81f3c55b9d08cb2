"""Naval Interception (seed 000 L13578-13958): Naval Interception, Naval Interception Search,
Naval Stop or Fight, Naval Interception Combat; a German group sails from Konigsberg into the
Baltic Sea, where a Soviet cruiser waits."""

import random

from helpers import dice, lab_game, ok, play_by_choices, refused, ship
from plugins.rules.core import world_map

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
D = "wif.digressions.naval-interception"


def baltic(tmp_path, german, soviet_section=3, soviet_face_up=True):
    g = lab_game(tmp_path / "g.wif", options={
        "units": german + [ship("r1", power="ussr", hex_=LENINGRAD, attack=5, defense=5, face_up=soviet_face_up)],
        "actions": {"germany": "naval"}, "start_at": "turn.impulse.naval.naval-movement"}, extra_plugins=["naval"])
    ok(g, type="RigShipsAtSea", actor="germany", units=["r1"], area="BA", section=soviet_section)
    return g


def sail(g, units, section=0):
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=section, units=units)


def test_naval_interception_is_offered_on_entering_and_fails_above_the_search_number(tmp_path):
    g = baltic(tmp_path, [ship("g1")])
    sail(g, ["g1"])
    assert g.state.kernel.sequence.current == f"{D}.offer-interception"
    assert g.state["naval"].at_sea.get("g1") is None  # not arrived yet
    refused(g, {"type": "FinishStep", "actor": "ussr"}, "Intercept")
    preview = g.preview({"type": "Intercept", "actor": "ussr", "unit": "r1", "commit_subs": False})
    assert preview["need"] == 3  # the search number of section 3
    dice(g, 4)
    ok(g, type="Intercept", actor="ussr", unit="r1", commit_subs=False)
    assert not g.state["units"].units["r1"].face_up  # the interception unit is disorganized
    # failed: "the moving force continues as if nothing had happened"
    assert g.state["naval"].at_sea["g1"].area == "BA" and g.state["naval"].moving is None
    assert g.state.kernel.sequence.current == "wif.turn.impulse.naval.naval-movement"


def test_naval_stop_or_fight_stop_places_the_group(tmp_path):
    g = baltic(tmp_path, [ship("g1", speed=4)])
    sail(g, ["g1"], section=0)
    dice(g, 2)
    ok(g, type="Intercept", actor="ussr", unit="r1", commit_subs=False)
    assert g.state.kernel.sequence.current == f"{D}.stop-or-fight"
    refused(g, {"type": "StopOrFight", "actor": "germany", "fight": False, "section": 4}, "movement points left")
    ok(g, type="StopOrFight", actor="germany", fight=False, section=3)
    assert g.state["naval"].at_sea["g1"].section == 3 and g.state["naval"].moving is None


def test_naval_interception_combat_fights_through_with_the_moving_group_included(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=8, defense=6, speed=6)])
    sail(g, ["g1"], section=0)
    dice(g, 1)
    ok(g, type="Intercept", actor="ussr", unit="r1", commit_subs=False)
    # fight through in section 0: the moving group is always included in the first round
    dice(g, 9, then_ordinary=True)  # Germany's search roll (the interceptor's roll counts for the USSR)
    ok(g, type="StopOrFight", actor="germany", fight=True, section=0)
    searched = [e.data for e in g.store.records() if e.type == "NavalSearchResolved"][0]
    assert searched["rolls"]["allies"] == 1 and searched["included"]["axis"] == ["g1"]
    play_by_choices(g, random.Random(2), max_commands=60,
                    until=lambda game: game.state["naval"].moving is None
                    or game.state.kernel.sequence.current == f"{D}.continue-moving")
    assert [e for e in g.store.records() if e.type == "NavalCombatBegan"]


def test_naval_interception_not_of_submarines_nor_by_disorganized_units(tmp_path):
    g = baltic(tmp_path, [ship("sub", type_="sub")])
    sail(g, ["sub"])
    assert g.state["naval"].at_sea["sub"].area == "BA"  # SUBs are never intercepted
    g2 = baltic(tmp_path / "b", [ship("g1")], soviet_face_up=False) if (tmp_path / "b").mkdir() is None else None
    sail(g2, ["g1"])
    assert g2.state["naval"].at_sea["g1"].area == "BA"  # no organized unit to intercept with
