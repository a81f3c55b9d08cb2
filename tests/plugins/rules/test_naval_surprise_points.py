"""Surprise Points (seed 000 L6925-7063; "Anti-Air Fire" L603-608): the side with more surprise
points spends them as the combat goes on; in a naval air combat, at its start (Assign Plane
Roles), on the air-to-air combat values and the anti-aircraft columns.  A German carrier meets
a Soviet carrier group in the Baltic; the Soviet search fails, so Germany has 12 points."""

import random

from helpers import air_unit, dice, lab_game, ok, play_by_choices, refused, rig, ship
from plugins.rules.air import anti_aircraft as aa
from test_naval_air_combat import K, KONIGSBERG, LENINGRAD

ROUND = "wif.procedures.naval-combat.round"
PLANE_ROLES = f"{ROUND}.naval-air-to-air-combat.plane-roles"


def of_type(g, type_):
    return [e.data for e in g.store.records() if e.type == type_]


def surprised_in_the_baltic(tmp_path, planes_air=(2, 1)):
    german = [ship("cv", type_="cv", attack=1, defense=4, aa=1, factors={"class": 4}),
              air_unit("p1", type_="cvp", hex_=KONIGSBERG, air=planes_air[0], factors={"naval": 9, "class": 2})]
    soviet = [ship("r1", power="ussr", hex_=LENINGRAD, attack=4, defense=5, aa=3),
              ship("rcv", power="ussr", type_="cv", hex_=LENINGRAD, attack=1, defense=4, aa=1, factors={"class": 4}),
              air_unit("q1", power="ussr", type_="cvp", hex_=LENINGRAD, air=planes_air[1],
                       factors={"naval": 4, "class": 2})]
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["r1", "rcv"], area="BA", section=2)
    rig(g, "RigAboard", ship="rcv", units=["q1"])
    rig(g, "RigAboard", ship="cv", units=["p1"])
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["cv"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    dice(g, 1, 10, then_ordinary=True)  # the Axis finds (1), the Allies do not (10): 3 + 10 against 1
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    assert of_type(g, "NavalSearchResolved")[-1]["surprise"] == {"allies": 0, "axis": 12}
    ok(g, type="IncludeSeaBoxSections", actor="germany", sections=[2])
    assert g.state.kernel.sequence.current == f"{ROUND}.naval-combat-surprise"
    return g


def offered_benefits(g, actor="germany"):
    found = [c for c in g.choices(None).commands() if c.type == "SpendSurprise" and c.actor == actor]
    return [o.value for o in found[0].fields[0].options] if found else []


def to_plane_roles(g):
    ok(g, type="FinishStep", actor="germany")  # nothing spent at Naval Combat Surprise
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="naval-air")
    assert g.state.kernel.sequence.current == PLANE_ROLES


def test_surprise_points_naval_combat_surprise_offers_the_benefits_of_that_time(tmp_path):
    g = surprised_in_the_baltic(tmp_path)
    assert offered_benefits(g) == ["avoid-combat", "own-column", "enemy-column"]
    refused(g, {"type": "SpendSurprise", "actor": "germany", "benefit": "own-air-to-air"},
            "start of a naval air combat")
    refused(g, {"type": "SpendSurprise", "actor": "ussr", "benefit": "own-column"}, "nothing (more) to decide")
    refused(g, {"type": "SpendSurprise", "actor": "germany", "benefit": "bribe"}, "not a benefit")


def test_surprise_points_at_the_start_of_naval_air_combat_air_to_air_and_anti_aircraft(tmp_path):
    g = surprised_in_the_baltic(tmp_path)
    to_plane_roles(g)
    assert "germany" in g.state.kernel.sequence.pending  # the side with points decides here too
    assert offered_benefits(g) == ["own-column", "enemy-column", "own-air-to-air", "enemy-air-to-air",
                                   "own-aa-column", "enemy-aa-column"]
    refused(g, {"type": "SpendSurprise", "actor": "germany", "benefit": "avoid-combat"},
            "avoid combat is bought at Naval Combat Surprise, not now")
    preview = g.preview({"type": "SpendSurprise", "actor": "germany", "benefit": "own-air-to-air"})
    assert preview["cost"] == 2 and preview["left"] == 10 and preview["air_to_air_value_change"] == {"axis": 1}
    ok(g, type="SpendSurprise", actor="germany", benefit="own-air-to-air")
    ok(g, type="SpendSurprise", actor="germany", benefit="enemy-aa-column")
    c = g.state["naval"].combat
    assert c.air_values == {"axis": 1} and c.aa_shifts == {"allies": -1} and c.surprise["axis"] == 8
    assert g.describe(g.history()[-1]) == "The Axis spend 2 surprise points to shift the enemy's anti-aircraft fire 1 column down"
    # the German plane flies as a fighter, the Soviet one as a bomber: air-to-air combat with the
    # Axis combat value 2 (front fighter) - 1 (front bomber) + 1 (surprise points)
    ok(g, type="SetPlaneRole", actor="germany", unit="p1", role="fighter")
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="FinishStep", actor="ussr")
    started = of_type(g, "AirCombatRoundStarted")
    assert started and started[0]["value"] == {"allies": -1.0, "axis": 2.0}


def test_surprise_points_anti_aircraft_column_moves_the_ships_fire(tmp_path):
    g = surprised_in_the_baltic(tmp_path)
    to_plane_roles(g)
    ok(g, type="SpendSurprise", actor="germany", benefit="enemy-aa-column")
    ok(g, type="SpendSurprise", actor="germany", benefit="own-aa-column")
    ok(g, type="FinishStep", actor="germany")  # p1 flies as a bomber (its default)
    ok(g, type="FinishStep", actor="ussr")
    # the Germans apply the Soviet fire's damage (ApplyAADamage), then the German carrier fires
    play_by_choices(g, random.Random(2), max_commands=40, finish_weight=0,
                    until=lambda game: len(of_type(game, "AAFireRolled")) == 2 or game.state["naval"].combat is None)
    fired = {f["side"]: f for f in of_type(g, "AAFireRolled")}
    # the Soviet ships' 4 AA factors fire at 1 bomber one column down; the German carrier's 1 one up
    assert fired["allies"]["cell"] == aa.table_cell(4, 1, -1) != aa.table_cell(4, 1)
    assert fired["axis"]["cell"] == aa.table_cell(1, 1, +1) != aa.table_cell(1, 1)
    rolls = [e.data["purpose"] for e in g.history() if e.type == "DiceRolled" and "Anti-aircraft" in e.data["purpose"]]
    assert any("-1 column(s) for surprise" in r for r in rolls) and any("+1 column(s) for surprise" in r for r in rolls)
    # Kamikaze Attacks by Japan: skipped, the optional rule being off (with it: test_naval_kamikaze)
    skipped = [e.data["reason"] for e in g.history() if e.type == "StepSkipped" and e.data["step"] == f"{ROUND}.kamikaze"]
    assert skipped == ["Kamikaze Attacks by Japan: the optional rule Kamikaze is not in play"]


def test_anti_aircraft_table_off_its_low_end_no_fire():
    assert aa.table_cell(1, 1, -1) is None and aa.table_cell(1, 1) is not None
    assert aa.table_cell(999, 99, +5) == aa.table()["ladder"][-1]  # no cell beyond the high end


def test_surprise_points_every_offered_command_is_accepted(tmp_path):
    g = surprised_in_the_baltic(tmp_path)
    play_by_choices(g, random.Random(11), max_commands=150, prefer=("SpendSurprise",),
                    until=lambda game: game.state["naval"].combat is None)
    spent = of_type(g, "SurpriseSpent")
    assert spent and sum(s["points"] for s in spent) <= 12


def test_surprise_points_assign_plane_roles_waits_for_the_side_with_points_even_with_no_role_to_choose(tmp_path):
    """No plane has an air-to-air factor (no role to choose, no air-to-air combat): the start of
    the naval air combat is still where the AA columns are bought."""
    g = surprised_in_the_baltic(tmp_path, planes_air=(0, 0))
    to_plane_roles(g)
    assert g.state.kernel.sequence.pending == ["germany"]
    assert offered_benefits(g) == ["own-column", "enemy-column", "own-aa-column", "enemy-aa-column"]
    ok(g, type="SpendSurprise", actor="germany", benefit="enemy-aa-column")
    ok(g, type="FinishStep", actor="germany")
    assert of_type(g, "AAFireRolled")[0]["cell"] == aa.table_cell(4, 1, -1)


def test_surprise_points_select_enemy_naval_target_for_3_points(tmp_path):
    """"Select enemy or friendly naval target", 3 per target: "you can select the target instead
    of your opponent": a German battleship's surface attack; Germany buys the pick of the Soviet
    unit that suffers the next result."""
    german = [ship("bb", type_="bb", attack=14, defense=6, aa=1)]
    soviet = [ship("r1", power="ussr", hex_=LENINGRAD, attack=2, defense=5, aa=0),
              ship("r2", power="ussr", type_="dd", hex_=LENINGRAD, attack=1, defense=2, aa=0)]
    g = lab_game(tmp_path / "g.wif", options={"units": german + soviet, "actions": {"germany": "naval"},
                                              "start_at": "turn.impulse.naval.naval-movement"},
                 extra_plugins=["naval"])
    rig(g, "RigShipsAtSea", units=["r1", "r2"], area="BA", section=2)
    ok(g, type="MoveNavalGroup", actor="germany", origin=K, to="BA", section=2, units=["bb"])
    if g.state.kernel.sequence.current == "wif.digressions.naval-interception.offer-interception":
        ok(g, type="DeclineIntercept", actor="ussr")
    dice(g, 1, 10, then_ordinary=True)
    ok(g, type="FinishStep", actor="germany")
    ok(g, type="SelectNavalCombatArea", actor="germany", area="BA", initiating_unit=None)
    ok(g, type="IncludeSeaBoxSections", actor="germany", sections=[2])
    ok(g, type="FinishStep", actor="germany")  # nothing spent at Naval Combat Surprise
    ok(g, type="ChooseNavalCombatType", actor="germany", kind="surface")
    assert g.state.kernel.sequence.current == f"{ROUND}.surface-attack-is"
    assert g.state["naval"].combat.due["allies"]
    assert sorted(g.state.kernel.sequence.pending) == ["germany", "ussr"]  # the owner, and the buyer
    assert offered_benefits(g) == ["select-target"]
    preview = g.preview({"type": "SpendSurprise", "actor": "germany", "benefit": "select-target"})
    assert preview["cost"] == 3
    ok(g, type="SpendSurprise", actor="germany", benefit="select-target")
    assert g.state["naval"].combat.target_picks == {"allies": "axis"}
    assert not [c for c in g.choices(None).commands() if c.type == "ChooseNavalTarget" and c.actor == "ussr"]
    refused(g, {"type": "ChooseNavalTarget", "actor": "ussr", "unit": "r2"}, "no target to pick")
    ok(g, type="ChooseNavalTarget", actor="germany", unit="r1")
    assert of_type(g, "NavalResultApplied")[-1]["unit"] == "r1"
    assert g.state["naval"].combat is None or g.state["naval"].combat.target_picks == {}
    # every command offered from here on is accepted
    play_by_choices(g, random.Random(2), max_commands=80, prefer=("SpendSurprise",),
                    until=lambda game: game.state["naval"].combat is None)
