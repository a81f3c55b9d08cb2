"""Naval Combat (seed 000 L2844-2918), Naval Combat Included Units and Naval Combat Type
(L2919-3034), Surprise Points (L6925-7063) and the Naval Combat Results Table (L9650-9745),
fought in the Baltic Sea of the real map: Germany from Konigsberg, the USSR from Leningrad."""

import random

from helpers import dice, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.core import world_map
from plugins.rules.naval.naval_combat_results import chart_results, column_for, row_for

KONIGSBERG = world_map().port("Konigsberg").hex
LENINGRAD = world_map().port("Leningrad").hex
K = f"{KONIGSBERG[0]},{KONIGSBERG[1]}"
ROUND = "wif.procedures.naval-combat.round"


def baltic(tmp_path, german, soviet, soviet_section=2, action="naval"):
    """Soviet ships at sea in the Baltic, German ships in Konigsberg, at Naval Movement."""
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": action},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=[u["id"] for u in soviet], area="BA", section=soviet_section)
    return g


def sail(g, units, section=2):
    """Germany's group sails into the Baltic; the USSR lets it pass (Naval Interception)."""
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=section, units=units)
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")


def skipped(g):
    return {e.data["step"]: e.data["reason"] for e in g.store.records() if e.type == "StepSkipped"}


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def test_naval_combat_chart_columns_rows_and_results():
    assert column_for(0) is None and column_for(1) == 0 and column_for(6) == 2
    assert column_for(6, shift=-3) is None  # moved off the left-hand end: no result
    assert column_for(100, shift=5) == 7  # never off the right-hand end
    assert row_for(1) == "1" and row_for(3) == "2-3" and row_for(9) == "7+" and row_for(0) == "0"
    assert chart_results(3, "1") == ["d", "a"]  # X first, then D, then A


def test_naval_combat_search_includes_sections_at_or_above_the_roll(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=6, defense=4)], [ship("r1", power="ussr", hex_=LENINGRAD)], soviet_section=1)
    sail(g, ["g1"], section=2)
    # axis rolls 3: its section 2 (search number 2) is not included; allies roll 1: section 1 is
    dice(g, 3, 1, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    searched = of_type(g, "NavalSearchResolved")[-1]
    assert searched["found"] == {"axis": False, "allies": True}
    assert searched["included"]["allies"] == ["r1"]
    # Surprise Points: the modified search number of the highest included section + the
    # opponent's unmodified roll: allies 1 + 3 = 4 against axis 0 + 1 = 1; allies spend 3
    assert searched["surprise"]["allies"] == 3
    # only one side found: it must choose at least one enemy section
    assert g.state.kernel.sequence.current == f"{ROUND}.select-included-sea-boxes"
    refused(g, type="FinishStep", actor="ussr")
    refused(g, type="IncludeSeaBoxSections", actor="ussr", sections=[3])
    ok(g, type="IncludeSeaBoxSections", actor="ussr", sections=[2])
    assert g.state["naval"].combat.included["axis"] == ["g1"]


def test_naval_combat_results_defence_roll_damage_and_abort(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=8, defense=4)], [ship("r1", power="ussr", hex_=LENINGRAD, attack=1, defense=5)])
    sail(g, ["g1"])
    dice(g, 1, 1, then_ordinary=True)  # both searches find: section 2 >= 1
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    due = {d["target_side"]: d for d in of_type(g, "NavalResultsDue")}
    assert due["allies"]["column"] == 3 and due["allies"]["row"] == "1"  # attack 8 against 1 ship
    assert due["allies"]["results"] == ["d", "a"]
    # the owner chooses the target; a defence roll above the defence makes D an A
    dice(g, 7, 2, then_ordinary=True)
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="r1")
    applied = of_type(g, "NavalResultApplied")
    assert applied[-1]["result"] == "d" and applied[-1]["final"] == "a" and applied[-1]["roll"] == 7
    assert "r1" not in g.state["naval"].damaged
    # an aborting unit can take no further result, so the A lapses
    assert g.state.kernel.sequence.current != f"{ROUND}.surface-attack-is"


def test_naval_combat_results_damaged_unit_is_halved_and_a_second_d_destroys(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=12, defense=4)], [ship("r1", power="ussr", hex_=LENINGRAD, attack=3, defense=5)])
    rig(g, "RigNavalDamage", unit="r1")
    sail(g, ["g1"])
    dice(g, 1, 1, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    due = {d["target_side"]: d for d in of_type(g, "NavalResultsDue")}
    # a damaged unit's attack is halved (3 -> 2, rounded up): column 0 (attack 1-2), not 1 (3-4)
    assert due["axis"]["column"] == 0
    assert due["allies"]["results"][0] == "x"
    dice(g, 6, then_ordinary=True)  # defence 5 + 1 (damaged) = 6: the X applies
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="r1")
    assert g.state["units"].units["r1"].where == "eliminated"


def test_naval_combat_convoy_points_lose_two_to_an_x(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=17, defense=4)],
               [ship("cp", power="ussr", type_="convoy", hex_=LENINGRAD, factors={"points": 5})], soviet_section=0)
    sail(g, ["g1"], section=2)
    dice(g, 1, 1, then_ordinary=True)  # axis finds (2 >= 1); allies' section 0 does not
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="IncludeSeaBoxSections", actor="germany", sections=[0])
    # surprise: axis 2 (section 2) + 1 (allies' roll) against allies 0 + 1: 2 points, kept
    assert g.state["naval"].combat.surprise["axis"] == 2
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    # 5 convoy points are 3 ships: the 2-3 row; X first
    due = {d["target_side"]: d for d in of_type(g, "NavalResultsDue")}
    assert due["allies"]["results"][0] == "x"
    dice(g, 1, then_ordinary=True)
    ok(g, type="ChooseNavalTarget", actor="ussr", unit="cp")
    assert g.state["units"].units["cp"].factors["points"] == 3


def test_naval_combat_needs_a_naval_air_or_combined_action(tmp_path):
    g = baltic(tmp_path, [], [ship("r1", power="ussr", hex_=LENINGRAD)], action="land")
    rig(g, "RigUnit", unit=ship("g1", hex_=None, where="map") | {"hex": list(KONIGSBERG)})
    rig(g, "RigShipsAtSea", units=["g1"], area="BA", section=2)
    rig(g, "RigStep", step="turn.impulse.naval.phasing-side-naval-combat")
    reasons = skipped(g)
    assert "Naval or Air or Combined action (germany: land)" in reasons["wif.turn.impulse.naval.phasing-side-naval-combat"]


def test_non_phasing_side_naval_combat_only_where_the_enemy_moved_in(tmp_path):
    g = baltic(tmp_path, [ship("g1", attack=1, defense=9)], [ship("r1", power="ussr", hex_=LENINGRAD, attack=9)])
    sail(g, ["g1"])
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="DeclineNavalCombatArea", actor="germany")
    # the USSR may initiate in the Baltic: Germany moved a non-SUB unit in and stopped
    assert g.state.kernel.sequence.current == "wif.procedures.naval-combat.select-sea-area"
    refused(g, {"type": "SelectNavalCombatArea", "actor": "ussr", "area": "BA", "initiating_unit": None}, "organized")
    ok(g, type="SelectNavalCombatArea", actor="ussr", area="BA", initiating_unit="r1")
    assert not g.state["units"].units["r1"].face_up  # the designated unit is disorganized


def test_select_sea_area_for_naval_combat_the_phasing_side_names_no_initiating_unit(tmp_path):
    """Select Sea Area for Naval Combat: only the non-phasing side designates (and disorganizes)
    a unit of its own to initiate; the phasing side naming one, an enemy's or a made-up one, is
    refused and nothing is flipped (it was accepted: an enemy ship turned face down, and an
    unknown id broke the units plugin's reducer)."""
    g = baltic(tmp_path, [ship("g1", attack=6, defense=4)], [ship("r1", power="ussr", hex_=LENINGRAD)])
    sail(g, ["g1"])
    ok(g, type="FinishStep", actor="germany")
    assert g.state.kernel.sequence.current == "wif.procedures.naval-combat.select-sea-area"
    for bad in ("r1", "g1", "BA"):
        refused(g, {"type": "SelectNavalCombatArea", "actor": "germany", "area": "BA", "initiating_unit": bad},
                "the phasing side names no initiating unit", repr(bad))
    assert g.state["units"].units["r1"].face_up and g.state["units"].units["g1"].face_up
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)


def test_naval_combat_every_offered_command_is_accepted(tmp_path):
    for seed in range(4):
        g = baltic(tmp_path / str(seed) if (tmp_path / str(seed)).mkdir() is None else tmp_path,
                   [ship("g1", attack=6, defense=4), ship("g2", type_="dd", attack=2, defense=3),
                    ship("gs", type_="sub", attack=3, defense=2)],
                   [ship("r1", power="ussr", hex_=LENINGRAD, attack=4), ship("r2", power="ussr", type_="sub", hex_=LENINGRAD),
                    ship("cp", power="ussr", type_="convoy", hex_=LENINGRAD, factors={"points": 3})], soviet_section=0)
        sail(g, ["g1", "g2", "gs"], section=1)
        ok(g, type="FinishStep", actor="germany")
        play_by_choices(g, random.Random(seed), max_commands=80,
                        until=lambda game: "naval" not in (game.state.kernel.sequence.current or ""))
        assert of_type(g, "NavalCombatBegan") or of_type(g, "NavalCombatDeclined")


def test_naval_air_combat_carrier_planes_strike_and_targets_alternate(tmp_path):
    from helpers import air_unit

    g = baltic(tmp_path, [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
                          air_unit("p1", type_="cvp", hex_=KONIGSBERG, factors={"naval": 9, "class": 2})],
               [ship("r1", power="ussr", hex_=LENINGRAD, attack=4, defense=5, aa=0),
                ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)])
    rig(g, "RigAboard", ship="cv", units=["p1"])
    sail(g, ["cv"])
    dice(g, 1, 1, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    # an undamaged carrier with carrier air units aboard: naval air comes first in the priority list
    refused(g, {"type": "ChooseNavalCombatType", "actor": "germany", "kind": "surface"}, "not allowed")
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="naval-air")
    # Assign Plane Roles: p1 (air-to-air and air-to-sea factors) may fly either; it stays a bomber
    assert g.state.kernel.sequence.pending == ["germany"]
    ok(g, type="FinishStep", actor="germany")
    due = {d["target_side"]: d for d in of_type(g, "NavalResultsDue")}
    assert set(due) == {"allies"}  # only the side with planes attacks; 9 factors, no AA: column 3 (8-11)
    assert due["allies"]["column"] == 3 and due["allies"]["row"] == "2-3"
    assert g.state.kernel.sequence.current == f"{ROUND}.naval-air-attack-is"
    # the attacker picks the first target, then the owner
    refused(g, {"type": "ChooseNavalTarget", "actor": "ussr", "unit": "r1"}, "no target to pick")
    dice(g, 1, 1, 1, then_ordinary=True)
    ok(g, type="ChooseNavalTarget", actor="germany", unit="r2")
    assert [c.actor for c in g.choices().commands() if c.type == "ChooseNavalTarget"] == ["ussr"]


def test_search_die_rolls_no_combat_when_a_side_commits_nothing(tmp_path):
    """Search Die Rolls: "make sure that both sides have units committed ... one side had only
    submarines and decided to not commit their subs.  In that case, the combat is over" (a bot
    game of Guadalcanal met it: Japanese aircraft against an uncommitted US SUB)."""
    g = baltic(tmp_path, [ship("g1", attack=6, defense=4)], [ship("r1", power="ussr", type_="sub", hex_=LENINGRAD)])
    sail(g, ["g1"])
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="CommitSubs", actor="ussr", commit=False)
    searched = of_type(g, "NavalSearchResolved")[-1]
    assert "allies has no unit committed" in searched["over"] and not searched["rolls"]
    assert of_type(g, "NavalCombatEnded") and g.state["naval"].combat is None
