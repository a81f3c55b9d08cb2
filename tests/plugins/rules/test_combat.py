"""Land combat (plugins/rules/combat): one test per seed procedure, built in the lab scenario.

The situation: a Soviet rifle corps in the clear hex 207,52 east of the Niemen (next to
Minsk), German corps in 206,51 and 206,52 (Poland, German controlled), kept in supply by a
German HQ at 204,51 (a secondary source on the railway to Germany: "zero in-supply land units
remaining" would call the attack off).  Dice come from the game's seed; tests that need a
particular result play the combat die back in a lab game (helpers.dice, docs/MODDING.md).
"""

from __future__ import annotations

import pytest

import helpers
from helpers import ok, refused, types, unit
from kernel.game import Game
from plugins.rules.combat import odds as O
from plugins.rules.combat import odds_preview

DECL = "turn.impulse.land.combat.land-combat-declaration"
T = (207, 52)  # clear, USSR
MINSK = (207, 51)
SUPPLY_HQ = (204, 51)


def base_units():
    return [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
            unit("s-inf", "ussr", T, "inf", 3)]


def supply_hq():
    """Supply Sources and Paths: the German attackers' secondary source (out of the way: 3
    hexes from the attacked hex, its ZOC touches none of that hex's neighbours)."""
    return unit("g-supply-hq", "germany", SUPPLY_HQ, "hq-i", 1, factors={"reorg": 1})


def new_game(save, units=None, seed=1, actions=None, start_at=DECL, lab=False, **extra):
    """The situation in the lab scenario; ``lab``: a lab game, which the rig may change."""
    units = units if units is not None else base_units()
    options = {"units": units + [supply_hq()],
               "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": actions or {"germany": "land"}, "start_at": start_at, **extra}
    if lab:
        return helpers.lab_game(save, seed=seed, options=options, extra_plugins=["combat"])
    return Game.new("lab", save, seed=seed, options=options, extra_plugins=["combat"])


def rig_paradrop(game, unit_id, hex_):
    """A lab game's unit paradropped into ``hex_`` as the air rules leave it (Paradrop: it
    "forces a land attack on the hex", combat's declare_forced_attack), built with the rig."""
    dropped = game.state["units"].units[unit_id].model_dump(mode="json")
    helpers.place(game, {**dropped, "hex": list(hex_)})
    helpers.event(game, "AttackDeclared", combat=f"{hex_[0]},{hex_[1]}", hex=list(hex_), power=dropped["power"],
                  units=[unit_id], forced="paradrop")


def step(game):
    return game.state.kernel.sequence.current


def to_resolve(save, seed=1, table="blitz", units=None, target=T, attackers=("g-arm", "g-inf"), lab=False, **kw):
    """Declare the attack, finish declaration and choose the table: the game, and the
    ResolveCombat command that rolls."""
    game = new_game(save, units=units, seed=seed, lab=lab, **kw)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(target), "units": list(attackers)})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    chooser = game.state.kernel.sequence.pending[0]
    ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": table})
    return game, {"type": "ResolveCombat", "actor": chooser}


def to_roll(save, seed, table="blitz", units=None, target=T, attackers=("g-arm", "g-inf"), die=None, **kw):
    """Up to the combat die, and roll it: the game and the events of the roll.  ``die``: the
    combat die, played back in a lab game (the game's ordinary dice follow)."""
    game, resolve = to_resolve(save, seed, table, units, target, attackers, lab=die is not None, **kw)
    if die is not None:
        helpers.dice(game, die, then_ordinary=True)
    return game, ok(game, resolve)


def find(tmp_path, want, table="blitz", **kw):
    """The combat rolled with the first die (1 to 10, played back) whose result satisfies
    ``want(result_code)``: each die is tried by a dry run of the same game."""
    game, resolve = to_resolve(tmp_path / "find.wif", table=table, lab=True, **kw)
    for die in range(1, 11):
        helpers.dice(game, die, then_ordinary=True)
        trial = game.dry_run(resolve)
        assert trial.accepted, trial.reason
        if want(next(e for e in trial.events if e.type == "LandCombatResolved").data["result"]):
            events = ok(game, resolve)
            return game, events, next(e for e in events if e.type == "LandCombatResolved")
    game.close()
    raise AssertionError("no die gives that result")


# ---------------------------------------------------------------- declaration
def test_land_combat_declaration_counts_each_attack_as_a_land_attack(save):
    game = new_game(save, actions={"germany": "combined"})
    events = ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    assert types(events) == ["ActivityUsed", "AttackDeclared"]
    assert events[0].data == {"power": "germany", "kind": "land-attack", "count": 1}
    # adding a unit to the same attack is not another attack
    events = ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-inf"]})
    assert types(events) == ["AttackDeclared"]
    c = game.state["combat"].combats["207,52"]
    assert c.attackers == ["g-arm", "g-inf"] and c.powers == ["germany"]
    assert "declares an attack on hex 207,52" in game.describe(events[0])


def test_land_combat_declaration_bad_input(save):
    units = base_units() + [unit("g-far", "germany", (204, 52), "inf", 4), unit("g-min", "germany", MINSK, "inf", 4)]
    game = new_game(save, units=units, actions={"germany": "air"})
    skipped = {e.data["step"]: e.data["reason"] for e in game.history() if e.type == "StepSkipped"}
    assert "Land Combat Declaration" in skipped[f"wif.{DECL}"] and "Land or Combined" in skipped[f"wif.{DECL}"]
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]}, "not allowed now")
    game.close()
    save2 = save.with_name("b.wif")
    game = new_game(save2, units=units)
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-far"]}, "adjacent")
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(MINSK), "units": ["g-arm"]},
            "friendly units")
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["s-inf"]}, "controlled by ussr")
    refused(game, {"type": "DeclareAttack", "actor": "ussr", "hex": [206, 51], "units": ["s-inf"]})
    game.close()


def test_land_combat_declaration_over_the_activity_limit(save):
    # Germany's Combined action allows 3 land attacks (turn plugin's authored table).
    centre = (207, 51)
    nbrs = [(208, 51), (208, 52), (207, 52), (208, 50)]
    units = [unit(f"g{i}", "germany", centre, "inf", 4) for i in range(4)]
    units += [unit(f"s{i}", "ussr", h, "inf", 1) for i, h in enumerate(nbrs)]
    game = new_game(save, units=units, actions={"germany": "combined"})
    for i in range(3):
        ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(nbrs[i]), "units": [f"g{i}"]})
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(nbrs[3]), "units": ["g3"]},
            "Activity Limits", "3 land attacks")


def test_land_combat_declaration_in_the_wrong_phase(save):
    game = new_game(save)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert step(game).endswith("assault-or-blitz")  # declarations are over
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-inf"]}, "not allowed now")


# ---------------------------------------------------------------- odds and tables
def test_odds_are_rounded_in_the_defenders_favour():
    assert O.level_name(O.odds_level(10, 3)) == "3:1"
    assert O.level_name(O.odds_level(5, 2)) == "2:1"
    assert O.level_name(O.odds_level(3.9, 2)) == "3:2"
    assert O.level_name(O.odds_level(2.9, 2)) == "1:1"
    assert O.level_name(O.odds_level(2, 2)) == "1:1"
    assert O.level_name(O.odds_level(2, 3)) == "1:2"
    assert O.level_name(O.odds_level(1, 3)) == "1:3"
    assert O.level_name(O.odds_level(3, 7)) == "1:3"
    # Weather Report examples: 3:2 -1 -> 1:1; 3:1 -2 -> 3:2; 12:1 -1 -> 11:1
    assert O.level_name(O.odds_level(3, 2) - 1) == "1:1"
    assert O.level_name(O.odds_level(3, 1) - 2) == "3:2"
    assert O.level_name(O.odds_level(12, 1) - 1) == "11:1"


def test_land_combat_chart_tables_are_complete():
    crt = O.crt()
    assert crt["source"] and crt["approximations"]
    for table, last in (("blitz", "7:1"), ("assault", "10:1")):
        cols = crt["tables"][table]["columns"]
        assert cols[0] == "1:2" and cols[-1] == last
        for row in crt["rows"]:
            for col in cols:
                O.parse_result(crt["tables"][table]["cells"][row][col])
    assert O.lookup("blitz", 50, 99) == "*/2B" and O.lookup("assault", 50, 99) == "*/2S"
    assert O.parse_result("1/2R") == {"attacker_losses": 1, "asterisk": False, "defender_losses": 2,
                                      "retreat": True, "shatter": False, "breakthrough": False}


def test_choosing_combat_tables_by_the_three_conditions(save):
    game = new_game(save)
    prev = odds_preview(game.state, ["g-arm", "g-inf"], T)
    assert prev["chooser"] == "attacker" and prev["odds"] == "3:1" and prev["attack"] == 10 and prev["defence"] == 3
    assert odds_preview(game.state, ["g-inf"], T)["chooser"] == "defender"  # no ARM: defender chooses
    game.close()
    # A city (Minsk) is never the attacker's choice.
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("s-inf", "ussr", MINSK, "inf", 3)]
    game = new_game(save.with_name("m.wif"), units=units)
    assert odds_preview(game.state, ["g-arm"], MINSK)["chooser"] == "defender"
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(MINSK), "units": ["g-arm"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert step(game).endswith("assault-or-blitz") and game.state.kernel.sequence.pending == ["ussr"]
    refused(game, {"type": "ChooseLandCombatType", "actor": "germany", "table": "blitz"}, "nothing")
    events = ok(game, {"type": "ChooseLandCombatType", "actor": "ussr", "table": "assault"})
    assert events[0].type == "LandCombatTableChosen" and events[0].data["table"] == "assault"
    # An anti-tank defender counts as an ARM corps: 1 ARM is no longer more.
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("s-at", "ussr", T, "at", 2)]
    game2 = new_game(save.with_name("a.wif"), units=units)
    assert odds_preview(game2.state, ["g-arm"], T)["chooser"] == "defender"


@pytest.mark.parametrize("weather, shift, odds", [("fine", 0, "3:1"), ("rain", -1, "2:1"), ("snow", -2, "3:2"),
                                                  ("blizzard", -3, "1:1")])
def test_weather_odds_shifts(save, weather, shift, odds):
    game = new_game(save, weather={"2": weather})
    prev = odds_preview(game.state, ["g-arm", "g-inf"], T)
    assert sum(prev["shifts"].values()) == shift and prev["odds"] == odds


def test_weather_odds_shift_lessened_by_mountain_ski_and_elite_units(save):
    units = [unit("g-mtn", "germany", (206, 51), "mtn", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 3)]
    game = new_game(save, units=units, weather={"2": "blizzard"})
    prev = odds_preview(game.state, ["g-mtn", "g-inf"], T)  # half the attackers are MTN
    assert prev["snow_units_eligible"] and prev["shifts"] == {"weather (blizzard)": -1} and prev["odds"] == "2:1"
    game.close()
    game = new_game(save.with_name("b.wif"), weather={"2": "snow"})
    assert not odds_preview(game.state, ["g-arm", "g-inf"], T)["snow_units_eligible"]


def test_die_roll_modifiers(save):
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("s-inf", "ussr", T, "inf", 3, face_up=False),
             unit("s-ter", "ussr", T, "terr", 1)]
    game = new_game(save, units=units)
    assert odds_preview(game.state, ["g-arm"], T)["drm"] == {"disorganized defenders": 1}
    game.close()
    units = [unit("g-ter", "germany", (206, 51), "terr", 1), unit("s-ter", "ussr", T, "terr", 4)]
    game = new_game(save.with_name("b.wif"), units=units)
    prev = odds_preview(game.state, ["g-ter"], T)
    assert prev["odds"] == "1:2" and prev["base_odds"] == "1:4"
    assert prev["drm"] == {"odds below 1:2": -2, "only territorials attack": -1, "only territorials defend": 1}


# ---------------------------------------------------------------- resolution
def test_land_combat_die_rolls(tmp_path):
    game, events, res = find(tmp_path, lambda r: True)
    dice = next(e for e in events if e.type == "DiceRolled")
    assert "land combat at hex 207,52" in dice.data["purpose"] and dice.data["faces"] == 10
    d = res.data
    assert d["odds"] == "3:1" and d["table"] == "blitz" and d["roll"] == dice.data["results"][0]
    assert d["result"] == O.lookup("blitz", O.odds_level(10, 3), d["modified"])
    text = game.describe(res)
    assert text.startswith("Land combat at hex 207,52") and f"roll {d['roll']}" in text and d["result"] in text


def test_automatic_result_against_zero_defending_factors(save):
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("s-sup", "ussr", T, "sup", 0)]
    game, events = to_roll(save, 1, units=units, attackers=("g-arm",))
    res = next(e for e in events if e.type == "LandCombatResolved")
    assert res.data["result"] == "*/2B" and res.data["roll"] is None
    assert "DiceRolled" not in types(events)


def test_assign_losses_chosen_by_the_owner(tmp_path):
    game, events, res = find(tmp_path, lambda r: O.parse_result(r)["attacker_losses"] == 1)
    assert step(game).endswith("choose-losses") and game.state.kernel.sequence.pending == ["germany"]
    refused(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-arm", "g-inf"]}, "exactly 1")
    refused(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["s-inf"]}, "exactly 1")
    events = ok(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-inf"]})
    assert events[0].type == "LandLossesTaken" and events[0].data == {"combat": "207,52", "side": "attacker",
                                                                     "units": ["g-inf"]}
    assert game.state["units"].units["g-inf"].where == "eliminated"
    # Disorganization step: the surviving attacker is disorganized (no asterisk).
    flips = [e for e in events if e.type == "UnitFlipped"]
    assert any(e.data == {"unit": "g-arm", "face_up": False} for e in flips)


def test_retreat_units(tmp_path):
    game, events, res = find(tmp_path, lambda r: r.endswith("/R") and not O.parse_result(r)["attacker_losses"])
    assert step(game).endswith("retreat-units") and game.state.kernel.sequence.pending == ["germany"]
    c = game.state["combat"].combats["207,52"]
    assert c.retreating == ["s-inf"]
    pr, hexes = O.__dict__ and __import__("plugins.rules.combat", fromlist=["x"]).retreat_options(
        game.state, c, "s-inf", T)
    assert pr == 1 and hexes == [(207, 53), (208, 52)]
    # Minsk is in the German ZOC with no Soviet unit: not a retreat hex; nor back into 207,52.
    refused(game, {"type": "RetreatUnit", "actor": "germany", "unit": "s-inf", "to_hex": list(MINSK)}, "priority 1")
    events = ok(game, {"type": "RetreatUnit", "actor": "germany", "unit": "s-inf", "to_hex": [208, 52]})
    assert types(events)[:2] == ["UnitMoved", "UnitRetreated"]
    s = game.state["units"].units["s-inf"]
    assert s.hex == (208, 52) and not s.face_up  # defenders that retreat are disorganized
    assert step(game).endswith("advance-after-combat")
    events = ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    assert types(events) == ["UnitMoved", "UnitAdvanced", "HexControlChanged"]
    refused(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]}, "enemy land units")
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert "land-combat-resolution" not in (step(game) or "")


def strong():
    return [unit("g-arm", "germany", (206, 51), "arm", 10), unit("g-inf", "germany", (206, 52), "inf", 4),
            unit("s-inf", "ussr", T, "inf", 1), unit("s-2", "ussr", T, "inf", 1)]


def test_convert_shattered_results_to_retreats(tmp_path):
    game, events, res = find(tmp_path, lambda r: r == "*/1B", units=strong())
    assert res.data["odds"] == "7:1"
    assert step(game).endswith("convert-shattered-results")
    events = ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": False})
    assert events[0].type == "ShatterConverted"
    assert step(game).endswith("choose-losses") and game.state.kernel.sequence.pending == ["ussr"]
    refused(game, {"type": "AssignLandLosses", "actor": "germany", "units": ["g-inf"]}, "nothing")
    events = ok(game, {"type": "AssignLandLosses", "actor": "ussr", "units": ["s-2"]})
    out = next(e for e in events if e.type == "LandCombatOutcome")
    assert out.data["shattered"] == ["s-inf"] and out.data["breakthrough"]  # could retreat: production pool
    assert game.state["units"].units["s-inf"].where == "production-pool"
    # Breakthrough: ARM advances into the defending hex (clear, 1 MP) and then a second hex.
    ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    refused(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-inf", "to_hex": [208, 52]}, "first hex")
    events = ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]})
    adv = next(e for e in events if e.type == "UnitAdvanced")
    assert adv.data["second"] and adv.data["disorganized"]  # forest costs 2: disorganized


def test_convert_to_retreat_keeps_the_units(tmp_path):
    game, events, res = find(tmp_path, lambda r: r == "*/1B", units=strong())
    ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": True})
    events = ok(game, {"type": "AssignLandLosses", "actor": "ussr", "units": ["s-2"]})
    out = next(e for e in events if e.type == "LandCombatOutcome")
    assert out.data["retreating"] == ["s-inf"] and not out.data["breakthrough"]


def test_select_land_combat_order_chosen_by_the_attacker(save):
    units = base_units() + [unit("g-x", "germany", MINSK, "inf", 4), unit("s-x", "ussr", (208, 51), "inf", 1)]
    game = new_game(save, units=units)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm", "g-inf"]})
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": [208, 51], "units": ["g-x"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert step(game).endswith("select-land-combat")
    refused(game, {"type": "SelectLandCombat", "actor": "germany", "hex": [200, 50]}, "no declared combat")
    ok(game, {"type": "SelectLandCombat", "actor": "germany", "hex": [208, 51]})
    assert game.state["combat"].combats["208,51"].stage == "selected"
    # resolve it to the end (the defender chooses: no ARM attacks)
    while game.state["combat"].combats["208,51"].stage != "applied" or not step(game).endswith("select-land-combat"):
        cur, pending = step(game), game.state.kernel.sequence.pending
        if cur.endswith("assault-or-blitz"):
            ok(game, {"type": "ChooseLandCombatType", "actor": pending[0], "table": "assault"})
        elif cur.endswith("resolve-combat"):
            ok(game, {"type": "ResolveCombat", "actor": pending[0]})
        elif cur.endswith("choose-losses"):
            c = game.state["combat"].combats["208,51"]
            side = "attacker" if pending[0] == "germany" else "defender"
            pool = ["g-x"] if side == "attacker" else ["s-x"]
            ok(game, {"type": "AssignLandLosses", "actor": pending[0], "units": pool[:c.losses[side]]})
        elif cur.endswith("convert-shattered-results"):
            ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": False})
        elif cur.endswith("retreat-units"):
            c = game.state["combat"].combats["208,51"]
            u = c.retreating[0]
            _, hexes = __import__("plugins.rules.combat", fromlist=["x"]).retreat_options(
                game.state, c, u, game.state["units"].units[u].hex)
            ok(game, {"type": "RetreatUnit", "actor": "germany", "unit": u, "to_hex": list(hexes[0])})
        else:
            ok(game, {"type": "FinishStep", "actor": pending[0]})
    # back in the outer Select Land Combat: the other combat waits
    assert game.state["combat"].combats["207,52"].stage == "declared"
    ok(game, {"type": "SelectLandCombat", "actor": "germany", "hex": list(T)})
    assert step(game).endswith("assault-or-blitz") and game.state.kernel.sequence.pending == ["germany"]


def test_ground_support_added_by_the_air_plugin(save):
    game = new_game(save, lab=True)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-inf"]})
    # two ground support missions as the air plugin records them
    helpers.event(game, "GroundSupportAdded", combat="207,52", side="attacker", factors=3)
    helpers.event(game, "GroundSupportAdded", combat="207,52", side="attacker", factors=2.5)
    assert game.state["combat"].ground_support == {"207,52": {"attacker": 5.5}}
    prev = odds_preview(game.state, ["g-inf"], T)
    assert prev["attack"] == 8 and prev["odds"] == "2:1"  # 4 + min(5.5, 4) = 8


def test_hq_support(save):
    units = base_units() + [unit("g-hq", "germany", (205, 51), "hq-a", 4, factors={"reorg": 10})]
    game = new_game(save, units=units, hq_support=True)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert step(game).endswith("defending-hq-support")
    refused(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-hq", "hex": list(T)}, "nothing")
    ok(game, {"type": "FinishStep", "actor": "ussr"})
    assert step(game).endswith("attacking-hq-support")
    refused(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-inf", "hex": list(T)}, "not an HQ")
    ok(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-hq", "hex": list(T)})
    refused(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-hq", "hex": list(T)}, "already")
    events = ok(game, {"type": "FinishStep", "actor": "germany"})
    dice = next(e for e in events if e.type == "DiceRolled")
    rolled = next(e for e in events if e.type == "HQSupportRolled")
    assert "HQ support by g-hq" in dice.data["purpose"] and rolled.data["success"]  # reorg 10: always
    assert odds_preview(game.state, ["g-arm"], T)["shifts"] == {"attacking HQ support": 1}


def test_hq_support_skipped_without_the_optional_rule(save):
    game = new_game(save)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    events = ok(game, {"type": "FinishStep", "actor": "germany"})
    skipped = {e.data["step"].rsplit(".", 1)[-1]: e.data["reason"] for e in events if e.type == "StepSkipped"}
    assert "option 13" in skipped["defending-hq-support"] and "option 13" in skipped["attacking-hq-support"]


def test_include_notional_units(save):
    units = [unit("g-para", "germany", (206, 51), "para", 2, size="division")]
    game = new_game(save, units=units, lab=True)
    rig_paradrop(game, "g-para", T)
    ok(game, {"type": "FinishStep", "actor": "germany"})
    assert step(game).endswith("include-notional-units") and game.state.kernel.sequence.pending == ["ussr"]
    events = ok(game, {"type": "IncludeNotional", "actor": "ussr", "hex": list(T), "include": False})
    assert types(events)[:2] == ["NotionalDecided", "AttackCancelled"]
    assert game.state["units"].units["g-para"].hex == T


def test_notional_unit_factors(save):
    game = new_game(save, units=[])
    assert O.notional_factors(game.state, MINSK, []) == 3  # 1 + city + USSR home country
    assert O.notional_factors(game.state, T, []) == 2


def test_land_combat_replays_to_the_same_state(tmp_path):
    game, events, res = find(tmp_path, lambda r: r.endswith("/R") and not O.parse_result(r)["attacker_losses"])
    ok(game, {"type": "RetreatUnit", "actor": "germany", "unit": "s-inf", "to_hex": [207, 53]})
    ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-inf", "to_hex": list(T)})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    before, path = game.state.to_json(), game.path
    game.close()
    with Game.open(path) as again:
        assert again.state.to_json() == before
        assert again.state["units"].units["g-inf"].hex == T


def test_phasing_side_snow_unit_decision(save):
    units = [unit("g-mtn", "germany", (206, 51), "mtn", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 3)]
    game = new_game(save, units=units, weather={"2": "snow"})
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-mtn", "g-inf"]})
    events = ok(game, {"type": "FinishStep", "actor": "germany"})
    skipped = {e.data["step"].rsplit(".", 1)[-1] for e in events if e.type == "StepSkipped"}
    assert "non-phasing-snow-decision" in skipped
    assert step(game).endswith("phasing-snow-decision") and game.state.kernel.sequence.pending == ["germany"]
    ok(game, {"type": "UseSnowUnits", "actor": "germany", "use": False})
    c = game.state["combat"].combats["207,52"]
    assert c.snow_units is False
    prev = odds_preview(game.state, ["g-mtn", "g-inf"], T)
    assert prev["snow_units_eligible"] and not prev["snow_units_used"] and prev["shifts"] == {"weather (snow)": -2}


def test_land_combat_events_name_the_hexes_they_touched(tmp_path):
    """Replay highlights the defending hex of every combat event (its id is the hex key)."""
    from kernel.replay import Replay

    game, events, res = find(tmp_path, lambda r: True)
    replay = Replay(game)
    assert replay.touched_hexes(res) == [T]
    declared = next(e for e in game.history() if e.type == "AttackDeclared")
    assert replay.touched_hexes(declared) == [T]


# ---------------------------------------------------------------- Retreats: over-stacking and the production pool
def _retreat_situation(save, soviets_south, blockers=(), arm=6, division=False):
    """Germans attack T from 206,51/206,52, one more holds 208,52; ``soviets_south`` Soviet
    armies stand in 207,53, the only hex T's defenders can retreat into; ``blockers`` are
    German units on the hexes beyond it.  ``division``: a Soviet division joins T's two armies.
    A lab game: its dice are played back (helpers.dice)."""
    units = [unit("g-arm", "germany", (206, 51), "arm", arm), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 3), unit("s-2", "ussr", T, "inf", 3),
             unit("g-blk", "germany", (208, 52), "inf", 4)]
    units += [unit("s-div", "ussr", T, "inf", 1, size="division")] if division else []
    units += [unit(f"s-south{i}", "ussr", (207, 53), "inf", 3) for i in range(soviets_south)]
    units += [unit(f"g-beyond{i}", "germany", h, "inf", 4) for i, h in enumerate(blockers)]
    game = new_game(save, units=units, lab=True)
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm", "g-inf"]})
    return game


def _resolve(game, die, losses=(), convert=None):
    """Resolve the combat on the Blitz table with the die ``die`` (played back); ``losses``:
    (power, unit) each side chooses to lose; ``convert``: the attacker's answer to
    Convert Shattered Results to Retreats."""
    helpers.dice(game, die)
    ok(game, {"type": "FinishStep", "actor": "germany"})
    ok(game, {"type": "ChooseLandCombatType", "actor": "germany", "table": "blitz"})
    resolved = next(e for e in ok(game, {"type": "ResolveCombat", "actor": "germany"})
                    if e.type == "LandCombatResolved")
    if convert is not None:
        ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": convert})
    for power, lost in losses:
        ok(game, {"type": "AssignLandLosses", "actor": power, "units": [lost]})
    return resolved.data["result"]


def test_retreat_units_over_stacked_hex_continues_the_retreat(save):
    """Retreats: "If the unit ends in a hex ... where it is overstacked, continue retreating the
    unit according to the same priorities" — not destroyed outright."""
    from plugins.rules.combat import retreat_options

    game = _retreat_situation(save, soviets_south=2)
    # 10 against 6 is 3:2: a 5 gives 1/1R; the USSR loses s-2, Germany g-arm (g-inf's ZOC stays)
    assert _resolve(game, 5, losses=[("ussr", "s-2"), ("germany", "g-arm")]) == "1/1R"
    s = game.state["units"].units["s-inf"]
    assert s.where == "map" and s.hex == (207, 53)  # priority 4, the only hex: it went in, over-stacked
    c = game.state["combat"].combats["207,52"]
    assert c.retreating == ["s-inf"]  # and keeps retreating from there
    pr, hexes = retreat_options(game.state, c, "s-inf", (207, 53))
    assert hexes and (207, 53) not in hexes and T not in hexes
    game.close()


def test_shatter_only_one_unit_could_retreat_the_rest_go_to_the_production_pool(save):
    """Shatter: "If it is possible for only 1 unit to retreat and there are 2 or more units to
    retreat, then all the units will survive and the excess placed in the production pool"
    (the attacker converted the S/B to a retreat); without that, the excess is destroyed."""
    beyond = [(208, 53), (208, 54), (207, 54), (206, 53)]
    # 44 against 7 is 6:1: an 8 gives */1B, converted to a retreat; the USSR loses its division
    game = _retreat_situation(save, soviets_south=1, blockers=beyond, arm=40, division=True)
    assert _resolve(game, 8, losses=[("ussr", "s-div")], convert=True) == "*/1B"
    units = game.state["units"].units
    assert units["s-inf"].hex == (207, 53)  # the one that could retreat
    assert units["s-2"].where == "production-pool"
    assert game.state["combat"].combats["207,52"].retreating == []
    game.close()
    # a 2 gives -/1R, an ordinary retreat: the excess is destroyed
    game = _retreat_situation(save.with_name("plain.wif"), soviets_south=1, blockers=beyond, arm=40, division=True)
    assert _resolve(game, 2, losses=[("ussr", "s-div")]) == "-/1R"
    assert game.state["units"].units["s-inf"].hex == (207, 53)
    assert game.state["units"].units["s-2"].where == "eliminated"
    game.close()


def test_advancing_after_combat_overrun_in_the_second_hex(tmp_path):
    """Advancing after combat: "You can conduct an overrun (see RAC 11.11.6) in the second
    hex" — judged by the land plugin's overrun check; without enough odds it is refused."""
    weak = unit("s-div", "ussr", (208, 52), "inf", 1, size="division")
    units = [unit("g-arm", "germany", (206, 51), "arm", 30, move=6), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 1), weak, supply_hq()]
    options = {"units": units, "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": {"germany": "land"}, "start_at": DECL}
    game = helpers.lab_game(tmp_path / "g.wif", options=options, extra_plugins=["combat", "land"])
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm", "g-inf"]})
    ok(game, {"type": "FinishStep", "actor": "germany"})
    chooser = game.state.kernel.sequence.pending[0]
    ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": "blitz"})
    helpers.dice(game, 10)  # 34 against 1, the 7:1 column: a 10 is */2B
    events = ok(game, {"type": "ResolveCombat", "actor": chooser})
    assert next(e for e in events if e.type == "LandCombatResolved").data["result"] == "*/2B"
    helpers.dice(game, None)
    ok(game, {"type": "ConvertToRetreat", "actor": "germany", "convert": False})
    ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": list(T)})
    before = game.state.kernel.seq
    events = ok(game, {"type": "AdvanceUnit", "actor": "germany", "unit": "g-arm", "to_hex": [208, 52]})
    assert types(events)[:3] == ["LandUnitsOverrun", "UnitMoved", "UnitMoved"]
    assert events[0].data["units"] == ["s-div"] and game.state.kernel.seq > before
    assert game.state["units"].units["s-div"].where == "eliminated"
    assert game.state["units"].units["g-arm"].hex == (208, 52)
    game.close()
