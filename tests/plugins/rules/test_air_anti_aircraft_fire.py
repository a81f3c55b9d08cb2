"""Anti-Air Fire: Plot Anti-aircraft Fire, the anti-aircraft table, Anti-aircraft Fire Effects
and the Weather Report's "apply this halving after the AA results are applied", built with
the rig (helpers.lab_game, playback dice).

Map facts: (206,52) is a clear Soviet hex in supply for the USSR; (203,52), 3 hexes away, is
made German for the bombers' base."""

from __future__ import annotations

import pytest

from helpers import air_unit, dice, lab_game, ok, play_by_choices, refused, types, unit, weather
from plugins.rules import air as air_plugin
from plugins.rules.air import anti_aircraft as aa
from plugins.rules.core import world_map

AM = "wif.procedures.air-mission"
PLOT = f"{AM}.aa-by-non-phasing-side.plot-aa-fire"
RESULTS = f"{AM}.aa-by-non-phasing-side.aa-fire-results"
TARGET, GE_BASE = (206, 52), (203, 52)
STUKA = air_unit("stuka", "germany", "tac", GE_BASE, air=1, tactical=3)
JU88 = air_unit("ju88", "germany", "lnd", GE_BASE, air=0, tactical=4)
RIFLE = unit("r1", "ussr", TARGET, combat=3, move=3)


def flak(aa_factor=3, hex_=TARGET, **extra):
    return unit("flak", "ussr", hex_, type_="aa", combat=1, move=2, size="division",
                factors={"aa": aa_factor}, **extra)


def strike(save, units, seed=3, **options):
    """A lab game at Germany's Ground Strike (Air action) with ``units``; the bombers named
    ``fly`` fly to TARGET and Germany finishes the step."""
    fly = options.pop("fly", ["stuka"])
    game = lab_game(save, options={"units": units, "actions": {"germany": "air"}, "hex_control": {"203,52": "germany"},
                                   "start_at": "turn.impulse.independent-air.ground-strike", **options},
                    extra_plugins=["air"], seed=seed)
    for bomber in fly:
        ok(game, type="FlyMission", actor="germany", unit=bomber, hex=list(TARGET))
    return game


def current(game):
    return game.state.kernel.sequence.current


def mission(game):
    return air_plugin.air(game.state).mission


def test_anti_aircraft_table_cell_matches_the_seed_example_and_sums_kept_dice():
    # "Using the anti-aircraft column with 5 ASW factors against 2 submarines gives the Allies
    # the worst of 6 rolls"
    assert aa.table_cell(5, 2) == "-1/6"
    assert aa.points_of("-2/4", [3, 5, 5, 7]) == 8  # the seed's "lowest 2 of 4" example
    assert aa.points_of("3/5", [1, 9, 4, 8, 2]) == 21
    # more factors or more bombers never make the fire weaker; the best cell scores 50
    ladder = aa.table()["ladder"]  # the cells, weakest first
    rank = [[ladder.index(aa.table_cell(f, b)) for f in (1, 4, 8, 15, 30, 60)] for b in (1, 2, 4, 6)]
    assert all(row == sorted(row) for row in rank) and all(list(col) == sorted(col) for col in zip(*rank))
    assert aa.table_cell(60, 6) == "5/5"
    # Anti-aircraft Fire Effects: 10 points destroy, 5 left abort, the rest reduce factors
    assert aa.damage_of(27) == {"destroy": 2, "abort": 1, "reduce": 2}
    assert aa.damage_of(4) == {"destroy": 0, "abort": 0, "reduce": 4}


def test_aa_division_fires_its_shots_and_the_owner_aborts_the_bomber(save):
    game = strike(save, [STUKA, RIFLE, flak(3)])
    ok(game, type="FinishStep", actor="germany")
    assert current(game) == PLOT
    choice = next(c for d in game.choices().decisions for c in d.commands if c.type == "PlotAAFire")
    assert choice.fields[0].values() == ["flak"]
    refused(game, None, "only AA divisions", type="PlotAAFire", actor="ussr", unit="r1", hex=list(TARGET), shots=4)
    refused(game, None, "1 to 4 shots", type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=5)
    preview = game.preview({"type": "PlotAAFire", "actor": "ussr", "unit": "flak", "hex": list(TARGET), "shots": 4})
    assert preview["legal"] and preview["hex_total"] == 12 and preview["cell"] == "-1/5"
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=4)
    dice(game, 9, 8, 7, 6, 5)  # lowest 1 of 5: 5 points, one bomber aborts
    events = ok(game, type="FinishStep", actor="ussr")
    rolled = next(e for e in events if e.type == "AAFireRolled")
    assert rolled.data["points"] == 5 and rolled.data["abort"] == 1 and rolled.data["cell"] == "-1/5"
    assert current(game) == RESULTS
    # Anti-aircraft Fire Effects: "the owner chooses which aircraft will be ... aborted"
    refused(game, None, "apply the anti-aircraft damage", type="FinishStep", actor="germany")
    events = ok(game, type="ApplyAADamage", actor="germany", hex=list(TARGET), unit="stuka")
    assert "stuka" in mission(game).aborted
    rest = ok(game, type="FinishStep", actor="germany")
    # the aborted bomber does not attack; the AA unit that fired is disorganized
    assert "GroundStrikeRolled" not in types(rest) and "AirMissionPerformed" in types(rest)
    assert not game.state["units"].units["flak"].face_up


def test_aa_points_come_off_the_factor_before_the_weather_halves_it(save):
    zone = world_map().weather_zone(TARGET)
    game = strike(save, [STUKA, RIFLE, flak(1)], weather={str(zone): "rain"})
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=1)
    dice(game, *([1] * 10))  # 1 factor, 1 bomber: lowest 1 of 10 = 1 point
    ok(game, type="FinishStep", actor="ussr")
    assert mission(game).aa_damage["206,52"]["reduce"] == 1
    ok(game, type="ApplyAADamage", actor="germany", hex=list(TARGET), unit="stuka")
    assert mission(game).flights["stuka"].aa_loss == 1
    dice(game, 1, 1)  # the ground strike dice (on the flak and on r1)
    events = ok(game, type="FinishStep", actor="germany")
    rolled = next(e for e in events if e.type == "GroundStrikeRolled")
    # (3 - 1) halved in rain = 1, not 3 halved (1) less 1 = 0
    assert rolled.data["tactical"] == 1 and rolled.data["success"]


def test_ten_points_destroy_a_bomber_of_the_owners_choice(save):
    game = strike(save, [STUKA, JU88, RIFLE, flak(3)], fly=["stuka", "ju88"])
    ok(game, type="FinishStep", actor="germany")
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=4)
    cell = aa.table_cell(12, 2)
    kept, rolled = aa.cell_dice(cell)
    dice(game, *([10] * rolled))
    events = ok(game, type="FinishStep", actor="ussr")
    points = next(e for e in events if e.type == "AAFireRolled").data["points"]
    assert points == 10 * abs(kept)
    events = ok(game, type="ApplyAADamage", actor="germany", hex=list(TARGET), unit="ju88")
    assert "AirUnitDestroyed" in types(events) and game.state["units"].units["ju88"].hex is None


def test_without_an_aa_unit_in_range_the_subphase_says_why(save):
    far = flak(3, hex_=(209, 53))  # 3 hexes from the target
    game = strike(save, [STUKA, RIFLE, far])
    events = ok(game, type="FinishStep", actor="germany")
    skipped = {e.data["step"]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    assert "no anti-aircraft unit can fire" in skipped[f"{AM}.aa-by-non-phasing-side"]
    assert "no city" in skipped[f"{AM}.aa-by-non-phasing-side"]
    assert "except ground support" in skipped[f"{AM}.aa-by-phasing-side"]
    assert "Port Attack" in skipped[f"{AM}.surprise-points-used"]


@pytest.mark.parametrize("face_up", [False])
def test_a_disorganized_aa_unit_does_not_fire(save, face_up):
    game = strike(save, [STUKA, RIFLE, flak(3, face_up=face_up)])
    events = ok(game, type="FinishStep", actor="germany")
    assert PLOT not in [e.data.get("step") for e in events if e.type == "StepStarted"]


def test_every_offered_anti_aircraft_command_is_accepted_to_the_end_of_the_mission(tmp_path):
    """THE CONTRACT for PlotAAFire and ApplyAADamage: commands sampled from Game.choices are
    accepted, whatever shots are split between hexes and whichever bomber takes the damage."""
    seen = set()
    other = (205, 52)  # next to the flak too: it may split its shots
    for seed in range(1, 9):
        units = [STUKA, JU88, RIFLE, unit("r2", "ussr", other, combat=3, move=3), flak(3), flak(2, hex_=other, id="flak2")]
        game = strike(tmp_path / f"{seed}.wif", units, seed=seed, fly=[])
        for bomber, hex_ in (("stuka", TARGET), ("ju88", other)):
            ok(game, type="FlyMission", actor="germany", unit=bomber, hex=list(hex_))
        ok(game, type="FinishStep", actor="germany")

        def mission_over(g):
            return not g.state.kernel.sequence.current.startswith(AM + ".aa-")
        play_by_choices(game, seed, max_commands=60, until=mission_over, prefer=("PlotAAFire", "ApplyAADamage"),
                        finish_weight=0.2)
        seen |= {e.type for e in game.store.records()}
        assert mission_over(game)
    assert {"AAFirePlotted", "AAFireRolled", "AADamageApplied"} <= seen


def test_aa_firing_at_ground_support_is_disorganized_only_after_the_land_combat(save):
    # Anti-Air Fire: "if firing against aircraft providing ground support, the AA unit becomes
    # disorganized after the Advancing after combat step"
    attacker = unit("g1", "germany", (205, 52), combat=4, move=3)
    game = lab_game(save, options={"units": [STUKA, attacker, RIFLE, flak(3)], "actions": {"germany": "land"},
                                   "hex_control": {"203,52": "germany", "205,52": "germany"},
                                   "start_at": "turn.impulse.land.combat.land-combat-declaration"},
                    extra_plugins=["air"], seed=4)
    ok(game, type="DeclareAttack", actor="germany", hex=list(TARGET), units=["g1"])
    ok(game, type="FinishStep", actor="germany")
    play_by_choices(game, 1, max_commands=20, until=lambda g: current(g).startswith(AM + ".phasing-side-flies"))
    ok(game, type="FlyMission", actor="germany", unit="stuka", hex=list(TARGET))
    play_by_choices(game, 2, max_commands=20, until=lambda g: current(g) == PLOT)
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=4)
    play_by_choices(game, 3, max_commands=20, prefer=("ApplyAADamage",),
                    until=lambda g: air_plugin.air(g.state).mission.performed)
    # performed: the flak still defends organized in the land combat
    assert game.state["units"].units["flak"].face_up
    assert air_plugin.air(game.state).aa_after_combat == {"flak": "206,52"}
    play_by_choices(game, 4, max_commands=80,
                    until=lambda g: current(g).startswith(("wif.turn.impulse.air-rebase", "wif.turn.impulse.end-of-impulse")))
    play_by_choices(game, 5, max_commands=5, until=lambda g: not air_plugin.air(g.state).aa_after_combat)
    flak_now = game.state["units"].units["flak"]
    assert not air_plugin.air(game.state).aa_after_combat
    assert flak_now.hex is None or not flak_now.face_up


# ---------------------------------------------------------------- light AA against 4-turn bombers
HEAVY = air_unit("he177", "germany", "lnd", GE_BASE, air=0, tactical=4, flags=["four-turn-build"])


def test_light_aa_fire_is_halved_at_a_hex_of_only_four_turn_land_bombers(save):
    # Anti-Air Fire: "Halve the AA factors fired by light AA units at a hex containing only LND
    # that took 4 or more turns to produce"
    game = strike(save, [HEAVY, RIFLE, flak(3, flags=["light-aa"])], fly=["he177"])
    ok(game, type="FinishStep", actor="germany")
    preview = game.preview({"type": "PlotAAFire", "actor": "ussr", "unit": "flak", "hex": list(TARGET), "shots": 3})
    assert preview["legal"] and preview["factors"] == 5  # 3 x 3 = 9, halved, rounded up
    events = ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=3)
    assert next(e for e in events if e.type == "AAFirePlotted").data["factors"] == 5


def test_light_aa_fire_is_whole_when_another_bomber_is_there_or_the_aa_is_heavy(save):
    game = strike(save, [HEAVY, STUKA, RIFLE, flak(3, flags=["light-aa"])], fly=["he177", "stuka"])
    ok(game, type="FinishStep", actor="germany")
    preview = game.preview({"type": "PlotAAFire", "actor": "ussr", "unit": "flak", "hex": list(TARGET), "shots": 3})
    assert preview["factors"] == 9  # a dive bomber is there too: not "only LND that took 4 or more turns"
    heavy_flak = strike(save.parent / "heavy.wif", [HEAVY, RIFLE, flak(3)], fly=["he177"])
    ok(heavy_flak, type="FinishStep", actor="germany")
    assert heavy_flak.preview({"type": "PlotAAFire", "actor": "ussr", "unit": "flak", "hex": list(TARGET),
                               "shots": 3})["factors"] == 9


def test_surprise_points_used_is_skipped_outside_port_attack_and_aa_fire_is_never_halved_for_surprise(save):
    """Seeds, "Surprise Points Used": "This subphase is skipped except during the port attack
    phase. Surprise never happens during the other 7 air mission phases"; so "Anti-Air Fire"'s
    halving for a surprised power never applies to a land air mission (Barbarossa starts at war)."""
    game = strike(save, [STUKA, RIFLE, flak(3)])
    events = ok(game, type="FinishStep", actor="germany")
    skipped = {e.data["step"]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    reason = skipped[f"{AM}.surprise-points-used"]
    assert "skipped except in the Port Attack phase" in reason and reason.endswith("Ground Strike")
    assert current(game) == PLOT  # the AA fire is plotted whole: the USSR fires its 4 shots of 3
    ok(game, type="PlotAAFire", actor="ussr", unit="flak", hex=list(TARGET), shots=4)
    events = ok(game, type="FinishStep", actor="ussr")
    assert next(e for e in events if e.type == "AAFireRolled").data["factors"] == 12
