"""Land combat decisions (plugins/rules/combat): what ``Game.choices`` offers for every combat
command and what the previews tell, one test per seed section.

Each test checks the contract (every command built from the offered values is accepted:
``commands()`` and 50 ``sample()``s, each by ``Game.dry_run``), that the choices hold what the
seeds allow and leave out what they forbid, and that a preview's odds are the odds the combat
is then resolved at.  Situations are the base combat tests' (test_combat.py) in the lab
scenario; the steps after the die, and a real Barbarossa game, are in
test_combat_choices_results.py.
"""

from __future__ import annotations

import random

from helpers import offered, ok, refused, unit
from test_combat import DECL, MINSK, T, base_units, new_game, rig_paradrop, step, strong, supply_hq

from plugins.rules.combat import odds as O

SAMPLES = 50


def the_choice(game, type_):
    [choice] = offered(game, type_)
    return choice


def all_accepted(game, choice, samples=SAMPLES) -> list[dict]:
    """Every command of ``choice`` (enumerated, and sampled) is accepted by a dry run.  Built
    before any is tried: a dry run replaces the state object lazy branches were built on."""
    cmds = choice.commands() + [choice.sample(random.Random(i)) for i in range(samples)]
    cmds = [c for c in cmds if c is not None]
    assert cmds, f"{choice.type}: nothing could be built from the choices"
    for cmd in cmds:
        out = game.dry_run(cmd)
        assert out.accepted, (cmd, out.reason)
    return cmds


def values(field) -> list:
    return [tuple(v) if isinstance(v, list) else v for v in field.values()]


def targets(choice) -> dict:
    """hex -> the unit ids offered to attack it."""
    out = {}
    for option in choice.fields[0].all_options():
        [units] = option.next_fields()
        assert units.kind == "units" and units.min == 1
        out[tuple(option.value)] = sorted(units.values())
    return out


def can_finish(game) -> bool:
    return bool(offered(game, "FinishStep"))


def declare_and_finish(game, attacks):
    for hex_, units in attacks:
        ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(hex_), "units": list(units)})
    ok(game, {"type": "FinishStep", "actor": "germany"})


def with_rules(path, on, units, **options):
    """A lab game with the optional rules ``on`` ON (as the Start New Game form makes it)."""
    from plugins.optional.framework import new_game as new_game_with_rules

    options = {"units": units + [supply_hq()], "countries": {"GE": "germany", "SU": "ussr", "PL": "germany"},
               "actions": {"germany": "land"}, "start_at": DECL, **options}
    return new_game_with_rules("lab", path, on=list(on), options=options, extra_plugins=["combat"], seed=1)



# ---------------------------------------------------------------- Land Combat Declaration
def declaration_units():
    return base_units() + [unit("g-dis", "germany", (206, 53), "inf", 4, face_up=False),
                           unit("g-far", "germany", (204, 52), "inf", 4), unit("g-min", "germany", MINSK, "inf", 4),
                           unit("s-x", "ussr", (208, 51), "inf", 1)]


def test_land_combat_declaration_offers_each_attackable_hex_with_the_units_that_may_attack_it(save):
    game = new_game(save, units=declaration_units())
    choice = the_choice(game, "DeclareAttack")
    # not the disorganized unit, nor the one not adjacent; Minsk holds only friendly units
    assert targets(choice) == {T: ["g-arm", "g-inf", "g-min"], (208, 51): ["g-min"]}
    label = next(o.label for o in choice.fields[0].all_options() if tuple(o.value) == T)
    assert "clear" in label and "s-inf" in label
    all_accepted(game, choice)
    # a unit attacks one hex; one already in an attack is not offered for it again
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm"]})
    ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": [208, 51], "units": ["g-min"]})
    choice = the_choice(game, "DeclareAttack")
    assert targets(choice) == {T: ["g-inf"]}
    all_accepted(game, choice)
    assert can_finish(game)  # declaring is never compulsory


def test_land_combat_declaration_activity_limits_leave_only_the_attacks_declared(save):
    # Germany's Combined action allows 3 land attacks (turn plugin's authored table).
    centre, nbrs = (207, 51), [(208, 51), (208, 52), (207, 52), (208, 50)]
    units = [unit(f"g{i}", "germany", centre, "inf", 4) for i in range(4)]
    units += [unit(f"s{i}", "ussr", h, "inf", 1) for i, h in enumerate(nbrs)]
    game = new_game(save, units=units, actions={"germany": "combined"})
    assert set(targets(the_choice(game, "DeclareAttack"))) == set(nbrs)
    for i in range(3):
        ok(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(nbrs[i]), "units": [f"g{i}"]})
    # no 4th land attack: only adding units to the three declared is offered
    choice = the_choice(game, "DeclareAttack")
    assert targets(choice) == {h: ["g3"] for h in nbrs[:3]}
    all_accepted(game, choice)
    refused(game, {"type": "DeclareAttack", "actor": "germany", "hex": list(nbrs[3]), "units": ["g3"]}, "Activity Limits")


def test_land_combat_declaration_preview_tells_the_odds_the_combat_is_resolved_at(tmp_path):
    for seed in (1, 2, 3):
        game = new_game(tmp_path / f"p{seed}.wif", seed=seed)
        cmd = {"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm", "g-inf"]}
        told = game.preview(cmd)
        assert told["legal"] and told["odds"] == 3.0 and told["odds_text"] == "3:1"
        assert told["attack"] == 10 and told["defence"] == 3 and told["chooser"] == "attacker"
        assert told["columns"] == {"blitz": "3:1", "assault": "3:1"} and told["activities"] == {"land-attack": 1}
        assert told["modifiers"] == {"odds_shifts": {}, "die": {}}
        declare_and_finish(game, [(T, ["g-arm", "g-inf"])])
        chosen = game.preview({"type": "ChooseLandCombatType", "actor": "germany", "table": "blitz"})
        assert chosen["table"] == "blitz" and chosen["column"] == "3:1" and chosen["odds_text"] == "3:1"
        ok(game, {"type": "ChooseLandCombatType", "actor": "germany", "table": "blitz"})
        events = ok(game, {"type": "ResolveCombat", "actor": "germany"})
        resolved = next(e for e in events if e.type == "LandCombatResolved").data
        assert resolved["odds"] == told["odds_text"] and resolved["drm"] == told["modifiers"]["die"]
        assert resolved["result"] == O.lookup("blitz", O.odds_level(10, 3), resolved["modified"])
        game.close()
    # refused as the handler refuses
    game = new_game(tmp_path / "r.wif")
    told = game.preview({"type": "DeclareAttack", "actor": "germany", "hex": list(MINSK), "units": ["g-arm"]})
    assert not told["legal"] and "enemy land units" in told["reason"]


def test_land_combat_declaration_preview_has_the_weather_and_terrain_modifiers(save):
    units = base_units() + [unit("s-ter", "ussr", T, "terr", 1, face_up=False)]
    game = new_game(save, units=units, weather={"2": "rain"})
    told = game.preview({"type": "DeclareAttack", "actor": "germany", "hex": list(T), "units": ["g-arm", "g-inf"]})
    assert told["modifiers"]["odds_shifts"] == {"weather (rain)": -1}
    assert told["modifiers"]["die"] == {"disorganized defenders": 1}
    assert told["odds_text"] == "3:2" and told["odds"] == 1.5  # 10 against 4 is 2:1, one level less in rain


# ---------------------------------------------------------------- Ignore Notional
def paradropped(save):
    game = new_game(save, units=[unit("g-para", "germany", (206, 51), "para", 2, size="division")], lab=True)
    rig_paradrop(game, "g-para", T)
    ok(game, {"type": "FinishStep", "actor": "germany"})
    return game


def test_ignore_notional_the_defender_answers_for_each_paradrop(save):
    game = paradropped(save)
    assert step(game).endswith("include-notional-units")
    choice = the_choice(game, "IncludeNotional")
    assert choice.actor == "ussr" and values(choice.fields[0]) == [T]
    [include] = choice.fields[0].all_options()[0].next_fields()
    assert include.kind == "bool"
    all_accepted(game, choice)
    assert not can_finish(game)  # the question must be answered
    refused(game, {"type": "FinishStep", "actor": "ussr"}, "Ignore Notional")
    assert game.preview({"type": "IncludeNotional", "actor": "ussr", "hex": list(T), "include": False})["cancelled"]


# ---------------------------------------------------------------- Defending / Attacking HQ Support
def test_hq_support_offers_the_hqs_in_range_to_the_side_whose_phase_it_is(save):
    units = base_units() + [unit("g-hq", "germany", (205, 51), "hq-a", 4, factors={"reorg": 10}),
                            unit("g-hq-far", "germany", (203, 52), "hq-i", 2, factors={"reorg": 1}),
                            unit("s-hq", "ussr", (208, 52), "hq-i", 2, factors={"reorg": 3})]
    game = new_game(save, units=units, hq_support=True)
    declare_and_finish(game, [(T, ["g-arm"])])
    assert step(game).endswith("defending-hq-support")
    choice = the_choice(game, "DeclareHQSupport")
    assert choice.actor == "ussr" and values(choice.fields[0]) == ["s-hq"]
    all_accepted(game, choice)
    assert game.preview({"type": "DeclareHQSupport", "actor": "ussr", "hq": "s-hq", "hex": list(T)})["needed"] == 3
    ok(game, {"type": "FinishStep", "actor": "ussr"})
    choice = the_choice(game, "DeclareHQSupport")
    # not the HQs beyond their reorganization value (g-hq-far, the supply HQ)
    assert choice.actor == "germany" and values(choice.fields[0]) == ["g-hq"]
    assert [values(f) for f in choice.fields[0].all_options()[0].next_fields()] == [[T]]
    all_accepted(game, choice)
    ok(game, {"type": "DeclareHQSupport", "actor": "germany", "hq": "g-hq", "hex": list(T)})
    assert not offered(game, "DeclareHQSupport")  # one combat per HQ


# ---------------------------------------------------------------- Select Land Combat
def two_attacks(save):
    units = base_units() + [unit("g-x", "germany", MINSK, "inf", 4), unit("s-x", "ussr", (208, 51), "inf", 1)]
    game = new_game(save, units=units)
    declare_and_finish(game, [(T, ["g-arm", "g-inf"]), ((208, 51), ["g-x"])])
    return game


def test_select_land_combat_offers_every_waiting_combat_and_must_be_answered(save):
    game = two_attacks(save)
    assert step(game).endswith("select-land-combat")
    choice = the_choice(game, "SelectLandCombat")
    assert sorted(values(choice.fields[0])) == [(207, 52), (208, 51)]
    all_accepted(game, choice)
    assert not can_finish(game)
    refused(game, {"type": "FinishStep", "actor": "germany"}, "Select Land Combat")
    told = game.preview({"type": "SelectLandCombat", "actor": "germany", "hex": [208, 51]})
    assert told["odds_text"] == "4:1" and told["chooser"] == "defender"


# ---------------------------------------------------------------- Phasing Side Snow Unit Decision
def test_phasing_side_snow_unit_decision_yes_or_no_with_the_odds_of_each(save):
    units = [unit("g-mtn", "germany", (206, 51), "mtn", 6), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 3)]
    game = new_game(save, units=units, weather={"2": "snow"})
    declare_and_finish(game, [(T, ["g-mtn", "g-inf"])])
    choice = the_choice(game, "UseSnowUnits")
    assert choice.fields[0].kind == "bool"
    all_accepted(game, choice)
    use = game.preview({"type": "UseSnowUnits", "actor": "germany", "use": True})
    without = game.preview({"type": "UseSnowUnits", "actor": "germany", "use": False})
    assert use["modifiers"]["odds_shifts"] == {} and without["modifiers"]["odds_shifts"] == {"weather (snow)": -2}
    assert use["odds"] > without["odds"]


def test_phasing_side_snow_unit_decision_asked_when_an_optional_rule_makes_snow_units(tmp_path):
    """Weather Report: "MTN, ski troops (AsA option 65) ..." — with Ski troops ON the attacker
    with a ski division is asked whether to use its snow units; OFF it is not."""
    units = [unit("g-ski", "germany", (206, 51), "ski", 2, size="division"), unit("g-inf", "germany", (206, 52), "inf", 4),
             unit("s-inf", "ussr", T, "inf", 2)]
    for on in (["divisions", "ski-troops"], []):
        game = with_rules(tmp_path / f"s{len(on)}.wif", on, units, weather={"2": "snow"})
        declare_and_finish(game, [(T, ["g-ski", "g-inf"])])
        asked = offered(game, "UseSnowUnits")
        assert bool(asked) == bool(on)
        if asked:
            all_accepted(game, asked[0])
            assert game.preview({**asked[0].base(), "use": True})["odds_text"] == "3:1"
        game.close()


# ---------------------------------------------------------------- Choose Combat Type
def test_choose_combat_type_both_tables_each_with_its_column(save):
    game = new_game(save, units=strong())
    declare_and_finish(game, [(T, ["g-arm", "g-inf"])])
    choice = the_choice(game, "ChooseLandCombatType")
    assert values(choice.fields[0]) == ["blitz", "assault"]
    assert [o.label for o in choice.fields[0].all_options()] == ["Blitz table, 7:1 column", "Assault table, 7:1 column"]
    all_accepted(game, choice)
    assert not can_finish(game)
    refused(game, {"type": "FinishStep", "actor": "germany"}, "Blitz or the Assault")
    for table in ("blitz", "assault"):
        told = game.preview({"type": "ChooseLandCombatType", "actor": "germany", "table": table})
        assert told["table"] == table and told["column"] == "7:1" and told["odds_text"] == "7:1"
    ok(game, {"type": "ChooseLandCombatType", "actor": "germany", "table": "assault"})
    choice = the_choice(game, "ResolveCombat")
    assert choice.fields == []
    assert game.preview({"type": "ResolveCombat", "actor": "germany"})["column"] == "7:1"
    all_accepted(game, choice, samples=1)


def test_choose_combat_type_the_chooser_counts_as_the_optional_rules_say(tmp_path):
    """Land Combat, choosing combat tables: "Each defending anti-tank unit counts as an ARM
    corps" (optional rule Artillery ON): the defender gets the choice, and only it is asked."""
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-arm2", "germany", (206, 52), "arm", 6),
             unit("s-tank", "ussr", T, "arm", 2, size="division"), unit("s-at", "ussr", T, "at", 1, size="division")]
    for on, chooser in ((["divisions", "artillery"], "ussr"), ([], "germany")):
        game = with_rules(tmp_path / f"a{len(on)}.wif", on, units)
        declare_and_finish(game, [(T, ["g-arm", "g-arm2"])])
        assert step(game).endswith("assault-or-blitz") and game.state.kernel.sequence.pending == [chooser]
        choice = the_choice(game, "ChooseLandCombatType")
        assert choice.actor == chooser and game.preview({**choice.base(), "table": "assault"})["chooser"] == (
            "defender" if on else "attacker")
        all_accepted(game, choice)
        game.close()


# ---------------------------------------------------------------- Rolling dice: an optional rule's modifiers
def test_land_combat_rolling_dice_previews_include_the_optional_rules_modifiers(tmp_path):
    """Land Combat, Rolling dice (optional rule Blitz bonus ON): the previews ask the rules'
    hooks, so the die modifiers they tell are those the combat is resolved with."""
    units = [unit("g-arm", "germany", (206, 51), "arm", 6), unit("g-mech", "germany", (206, 52), "mech", 4),
             unit("s-arm", "ussr", T, "arm", 3)]
    game = with_rules(tmp_path / "bb.wif", ["blitz-bonus"], units)
    declare_and_finish(game, [(T, ["g-arm", "g-mech"])])
    chooser = game.state.kernel.sequence.pending[0]
    told = game.preview({"type": "ChooseLandCombatType", "actor": chooser, "table": "blitz"})
    assert told["modifiers"]["die"] == {"blitz bonus: attacking ARM/MECH/HQ-A": 1,
                                        "blitz bonus: defending ARM/MECH/HQ-A": -1}
    ok(game, {"type": "ChooseLandCombatType", "actor": chooser, "table": "blitz"})
    events = ok(game, {"type": "ResolveCombat", "actor": chooser})
    resolved = next(e for e in events if e.type == "LandCombatResolved").data
    assert resolved["drm"] == told["modifiers"]["die"] and resolved["odds"] == told["odds_text"]
