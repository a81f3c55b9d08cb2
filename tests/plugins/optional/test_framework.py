"""The optional-rule framework: the catalogue of the seeds' "Optional Rules" sections, the
prerequisites and the exclusion, presets and saved sets, new games recording their rules,
and toggling during play as a command and an event."""

from __future__ import annotations

import json

import pytest

from kernel.game import Game
from kernel.plugins import discover
from kernel.state import DigressionFrame, GameState, KernelState
from plugins.optional.framework import is_on, rules_on, rules_view, toggle_window_refusal
from plugins.optional.framework.catalogue import (
    SEED_GROUP_COUNTS,
    UNNAMED_IN_SOURCES,
    RulesError,
    build_catalogue,
)
from plugins.optional.framework.presets import (
    choose_rules,
    fits_scenario,
    game_plugins,
    load_rule_set,
    new_game,
    save_rule_set,
)


# ---------------------------------------------------------------- the catalogue
def test_optional_rules_catalogue_lists_the_named_rules_in_the_seeds_7_groups():
    catalogue = build_catalogue()
    # 81 in the seeds, less the 6 "other" rules no source names and the one air rule named only
    # "Air supply" by mistake: air supply is a base mission (BASE_RULES_NOT_OPTIONAL)
    assert len(catalogue.rules) == 74
    assert SEED_GROUP_COUNTS == {"additional-units": 27, "land": 8, "air": 16, "naval": 7,
                                 "supply": 5, "production": 5, "other": 13}
    entries = {g: sum(1 for r in catalogue.rules.values() if r.group == g) for g in SEED_GROUP_COUNTS}
    assert entries == {g: n - UNNAMED_IN_SOURCES.get(g, 0) for g, n in SEED_GROUP_COUNTS.items()}
    # shown to players: the 64 whose name a source gives (10 entries carry a name we chose)
    shown = {g: len(rules) for g, rules in catalogue.by_group().items()}
    assert shown == {"additional-units": 24, "land": 8, "air": 12, "naval": 6, "supply": 5, "production": 5,
                     "other": 4}
    assert len(catalogue.listed()) == 64
    assert catalogue.errors == []


def test_optional_rules_air_supply_is_a_base_mission_not_a_switch():
    """Seeds, "Reorganize Units" (By Air) and "Air Missions": air supply (RAC 11.18.1) is a mission
    of every game, played by the air rules; the player's list offers no switch for it."""
    from plugins.optional.framework.catalogue import BASE_RULES_NOT_OPTIONAL

    catalogue = build_catalogue()
    assert "air-supply" not in catalogue.rules
    assert not [r for r in catalogue.rules.values() if r.name.lower() == "air supply"]
    assert "air_transport.py" in BASE_RULES_NOT_OPTIONAL["Air supply"]
    assert UNNAMED_IN_SOURCES == {"other": 6, "air": 1}


def test_optional_rules_a_rule_our_sources_do_not_name_is_not_listed():
    names = [r.name for r in build_catalogue().rules.values()]
    assert not [n for n in names if n.lower().startswith("other optional rule")]


UNNAMED_ENTRIES = {"guards-banner-armies", "warlords", "volunteers", "extended-range-fighters", "dive-bombers",
                   "strategic-bomber-escorts", "convoy-escorts", "japanese-command-conflict", "chinese-cooperation",
                   "limited-lend-lease"}


def test_optional_rules_entries_no_source_names_are_kept_out_of_every_players_list(tmp_path):
    """Issue 12: "A catalogue entry whose name our sources do not give is not shown to players as a
    rule".  The catalogue keeps it, with the reason; the Start New Game list (the catalogue hook,
    also `wif rules`), the preset All and Ctrl+O leave it out."""
    from plugins.optional.framework.ui import optional_rules_catalogue

    catalogue = build_catalogue()
    unlisted = {r.id for r in catalogue.rules.values() if not r.listed}
    assert unlisted == UNNAMED_ENTRIES
    for rule_id in unlisted:
        rule = catalogue.get(rule_id)
        assert rule.unlisted and "not shown to players" in rule.status()
        assert "Provisional" not in rule.description
    # no listed entry keeps a name we made up
    assert not [r.id for r in catalogue.listed() if r.source == "authored" or "Provisional" in r.description]
    assert not unlisted & {row["id"] for row in optional_rules_catalogue()["rules"]}
    assert not unlisted & set(choose_rules(catalogue, "all").rules)
    game = new_game("barbarossa", tmp_path / "g.wif", preset="all", seed=1)
    assert not unlisted & {row["id"] for row in rules_view(game)}


def test_optional_rules_an_unlisted_rule_is_chosen_by_id_only_and_never_toggled(tmp_path):
    catalogue = build_catalogue()
    with pytest.raises(RulesError, match="no rule our sources name"):
        choose_rules(catalogue, "none", on=["dive-bombers"])
    # an implemented one may still be switched on by its id when a game starts (tests, mods)
    game = new_game("barbarossa", tmp_path / "g.wif", on=["guards-banner-armies"], seed=1)
    assert is_on(game.state, "guards-banner-armies")
    rows = {row["id"]: row for row in rules_view(game)}
    assert rows["guards-banner-armies"]["on"] and not rows["guards-banner-armies"]["may_toggle_now"]
    assert "no rule our sources name" in rows["guards-banner-armies"]["why_not"]


def test_optional_rules_names_found_in_the_seeds_replace_the_provisional_ones():
    """Seeds: "End of Turn Reorganization" (L11112-11115: "the optional rule for reorganizing isolated
    units"), "Swap Siberians" (L9001-9026), militia (L5059-5062, L6641) and motorized infantry
    (L6027-6030) units."""
    catalogue = build_catalogue()
    assert catalogue.get("isolated-units").name == "Reorganizing isolated units"
    assert "isolated units are not reorganized" in catalogue.get("isolated-units").description.lower()
    for rule_id in ("isolated-units", "siberians", "militia", "motorized-infantry"):
        rule = catalogue.get(rule_id)
        assert rule.listed and rule.source.startswith("seeds") and "Provisional" not in rule.description


def test_rule_ids_are_rule_names_in_kebab_case():
    catalogue = build_catalogue()
    for rule_id, name in (("2d10-land-crt", "2D10 Land CRT"), ("blitz-bonus", "Blitz bonus"),
                          ("artillery", "Artillery"), ("emergency-hq-supply", "Emergency HQ supply"),
                          ("twin-engined-fighters", "Twin-engined fighters")):
        assert catalogue.get(rule_id).name == name


def test_optional_rules_prerequisites_are_the_seeds_complete_list():
    catalogue = build_catalogue()
    prerequisites = {r.id: r.prerequisites for r in catalogue.rules.values() if r.prerequisites}
    assert prerequisites == {
        "artillery": ["divisions"], "combat-engineers": ["divisions"], "construction-engineers": ["divisions"],
        "ski-troops": ["divisions"], "unlimited-breakdown": ["divisions"], "partisan-hqs": ["partisans"],
        "rough-seas": ["cruisers-in-flames"], "oil-tankers": ["convoys-in-flames"],
        "variable-carrier-plane-searching": ["carrier-planes"], "naval-offensive-chit": ["offensive-chits"],
    }
    exclusions = {r.id: r.exclusions for r in catalogue.rules.values() if r.exclusions}
    assert exclusions == {"2d10-land-crt": ["blitz-bonus"], "blitz-bonus": ["2d10-land-crt"]}


def test_rules_not_implemented_are_described_but_cannot_be_switched_on():
    catalogue = build_catalogue()
    night = catalogue.get("night-missions")
    assert not night.implemented and night.description
    assert "not implemented yet" in night.status()
    with pytest.raises(RulesError, match="Night missions .* is not implemented yet"):
        choose_rules(catalogue, on=["night-missions"])


def test_rules_the_seeds_leave_out_say_why_they_cannot_be_implemented():
    """Intelligence and Construction engineers: the seeds give too little of them to play."""
    catalogue = build_catalogue()
    intelligence, engineers = catalogue.get("intelligence"), catalogue.get("construction-engineers")
    assert not intelligence.implemented and "how many points" in intelligence.status()
    assert not engineers.implemented and "prerequisite Divisions" in engineers.status()
    with pytest.raises(RulesError, match="Intelligence .* cannot be switched on: the seeds"):
        choose_rules(catalogue, on=["intelligence"])
    assert all(not r.cannot_implement for r in catalogue.implemented())


def test_unknown_rule_id_is_named_with_a_suggestion():
    with pytest.raises(RulesError, match="no optional rule 'blitz-bonsu'; did you mean blitz-bonus"):
        choose_rules(build_catalogue(), on=["blitz-bonsu"])


def test_rules_that_add_units_may_never_be_toggled_during_play():
    catalogue = build_catalogue()
    assert {r.toggle for r in catalogue.by_group()["additional-units"]} == {"never"}
    assert catalogue.get("2d10-land-crt").toggle == "in-play"


# ---------------------------------------------------------------- bad choices at the start
def test_enabling_a_rule_without_its_prerequisite_is_refused(stand_ins, save):
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    with pytest.raises(RulesError, match="Artillery needs Divisions ON: Divisions is its prerequisite"):
        choose_rules(catalogue, on=["artillery"])
    with pytest.raises(RulesError, match="Artillery needs Divisions"):
        new_game("skirmish", save, on=["artillery"], plugin_dirs=[stand_ins])
    assert not save.exists()
    assert choose_rules(catalogue, on=["artillery", "divisions"]).rules == ["divisions", "artillery"]


def test_enabling_both_excluded_rules_is_refused(stand_ins, save):
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    with pytest.raises(RulesError, match="Blitz bonus and 2D10 Land CRT are mutually exclusive"):
        choose_rules(catalogue, on=["blitz-bonus", "2d10-land-crt"])
    with pytest.raises(RulesError, match="mutually exclusive"):
        new_game("skirmish", save, on=["blitz-bonus", "2d10-land-crt"], plugin_dirs=[stand_ins])
    assert not save.exists()


# ---------------------------------------------------------------- presets and saved sets
def test_preset_none_and_all(stand_ins):
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    assert choose_rules(catalogue, "none").rules == []
    everything = choose_rules(catalogue, "all")
    # every implemented rule (built in or stand-in) players are shown (not Guards banner armies,
    # which no source names), but of the exclusive pair only the first listed (2D10 Land CRT)
    implemented = {r.id for r in catalogue.implemented()}
    assert {"divisions", "artillery", "unlimited-breakdown", "2d10-land-crt", "kamikaze"} <= implemented
    assert set(everything.rules) == implemented - {"blitz-bonus", "guards-banner-armies"}
    assert any("Blitz bonus left OFF" in n for n in everything.notes)


def test_presets_novice_standard_advanced_keep_only_what_can_be_on(stand_ins):
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    standard = choose_rules(catalogue, "standard")
    implemented = [r.id for r in catalogue.implemented()]
    assert {"divisions", "artillery", "blitz-bonus", "kamikaze"} <= set(standard.rules) <= set(implemented)
    assert any("not implemented yet" in n for n in standard.notes)
    advanced = choose_rules(catalogue, "Advanced")
    assert "2d10-land-crt" in advanced.rules and "blitz-bonus" not in advanced.rules
    novice = set(choose_rules(catalogue, "novice").rules)
    assert {"fractional-odds", "hq-support", "pilots"} <= novice <= {
        "fractional-odds", "hq-support", "carrier-planes", "pilots", "saving-oil-resources-and-build-points"}
    # a preset then switches: --rules-off divisions drops Artillery's prerequisite: refused
    with pytest.raises(RulesError, match="Artillery needs Divisions"):
        choose_rules(catalogue, "standard", off=["divisions"])


def test_personal_set_and_named_sets_are_saved_and_restored(stand_ins, private_config, tmp_path):
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    path = save_rule_set("personal", ["divisions", "artillery"], catalogue)
    assert path.parent == private_config / "optional-rules"
    assert choose_rules(catalogue, "personal").rules == ["divisions", "artillery"]
    save_rule_set("eastfront", ["blitz-bonus"], catalogue)
    assert choose_rules(catalogue, "eastfront", on=["divisions"]).rules == ["divisions", "blitz-bonus"]
    elsewhere = save_rule_set(str(tmp_path / "mine.json"), ["kamikaze"], catalogue)
    assert load_rule_set(str(elsewhere)) == ["kamikaze"]
    # a set that breaks the rules is not saved
    with pytest.raises(RulesError, match="mutually exclusive"):
        save_rule_set("bad", ["blitz-bonus", "2d10-land-crt"], catalogue)
    assert not (private_config / "optional-rules" / "bad.json").exists()


def test_missing_or_malformed_rule_set_files_are_named(private_config):
    with pytest.raises(RulesError, match="no optional-rule set 'personal'"):
        load_rule_set("personal")
    folder = private_config / "optional-rules"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{not json")
    with pytest.raises(RulesError, match="broken.json: not a readable optional-rule set"):
        load_rule_set("broken")
    (folder / "wrong.json").write_text(json.dumps({"rules": "divisions"}))
    with pytest.raises(RulesError, match="wrong.json: not an optional-rule set"):
        load_rule_set("wrong")


# ---------------------------------------------------------------- a new game records its rules
def test_new_game_records_its_optional_rules_in_options_event_and_meta(stand_ins, save):
    # Barbarossa, not the skirmish: a preset leaves OFF rules whose plugins need rules the game
    # does not play (the skirmish plays none), so their choice is made with the same `fits`
    game = new_game("barbarossa", save, seed=2, preset="standard", off=["kamikaze"], plugin_dirs=[stand_ins])
    discovery = discover([stand_ins])
    chosen = choose_rules(build_catalogue(discovery), "standard", off=["kamikaze"],
                          fits=fits_scenario(discovery, "barbarossa")).rules
    assert {"divisions", "artillery", "blitz-bonus"} <= set(chosen) and "kamikaze" not in chosen
    assert rules_on(game.state) == chosen
    started = game.history(1, 1)[0]
    assert started.type == "GameStarted"
    assert started.data["options"]["optional_rules"] == chosen
    assert started.data["options"]["rules_preset"] == "standard"
    assert game.store.meta("options")["optional_rules"] == chosen
    # the rules ON and the framework are part of the recorded plugin set; a mod's rule OFF is not
    assert {"optional-rules", "divisions", "artillery", "blitz-bonus"} <= set(game.plugin_set)
    game.close()


def test_built_in_rules_that_may_be_toggled_are_loaded_even_when_off():
    catalogue = build_catalogue()
    loaded = game_plugins(catalogue, [])
    assert loaded[0] == "optional-rules" and "2d10-land-crt" in loaded and "hq-support" in loaded
    # a built-in rule that may never be toggled (it adds units) is loaded only when ON
    assert all(catalogue.rules[p].toggle == "in-play" for p in loaded[1:])


# ---------------------------------------------------------------- toggling during play
def _pending(game):
    return game.state.kernel.sequence.pending[0]


def test_toggling_is_a_command_and_an_event_and_replays(stand_ins, save):
    game = new_game("skirmish", save, seed=2, on=["blitz-bonus"], plugin_dirs=[stand_ins],
                    extra_plugins=["unlimited-breakdown", "divisions"])
    actor = _pending(game)
    before = game.state.kernel.seq
    outcome = game.submit({"type": "ToggleOptionalRule", "actor": actor, "rule": "blitz-bonus", "on": False})
    assert outcome.accepted, outcome.reason
    [event] = outcome.events
    assert event.type == "OptionalRuleToggled" and event.data == {"rule": "blitz-bonus", "on": False}
    assert "blitz-bonus switched OFF" in game.describe(event)
    assert not is_on(game.state, "blitz-bonus")
    assert is_on(game.state_at(before), "blitz-bonus")  # replay knows when it changed
    game.close()
    with Game.open(save, plugin_dirs=[stand_ins]) as again:
        assert not is_on(again.state, "blitz-bonus")
        assert again.state["optional.rules"].changes[0]["rule"] == "blitz-bonus"


def test_toggling_respects_prerequisites_and_the_exclusion(stand_ins, save):
    game = new_game("skirmish", save, seed=2, on=["blitz-bonus"], plugin_dirs=[stand_ins],
                    extra_plugins=["unlimited-breakdown", "2d10-land-crt"])
    actor = _pending(game)
    seq = game.state.kernel.seq

    def toggle(rule, on):
        return game.submit({"type": "ToggleOptionalRule", "actor": actor, "rule": rule, "on": on})

    refused = toggle("2d10-land-crt", True)
    assert not refused.accepted and "mutually exclusive: switch Blitz bonus OFF first" in refused.reason
    refused = toggle("unlimited-breakdown", True)
    assert not refused.accepted and "needs Divisions ON first" in refused.reason
    refused = toggle("blitz-bonus", True)
    assert not refused.accepted and "ON already" in refused.reason
    assert game.state.kernel.seq == seq  # nothing recorded
    assert toggle("blitz-bonus", False).accepted and toggle("2d10-land-crt", True).accepted
    assert rules_on(game.state) == ["2d10-land-crt"]
    game.close()


def test_toggling_a_rule_that_adds_units_is_refused(stand_ins, save):
    game = new_game("skirmish", save, seed=2, on=["divisions"], plugin_dirs=[stand_ins])
    outcome = game.submit({"type": "ToggleOptionalRule", "actor": _pending(game), "rule": "divisions", "on": False})
    assert not outcome.accepted
    assert "Divisions cannot be switched on or off during play" in outcome.reason
    game.close()


def test_toggling_a_rule_whose_plugin_is_not_in_the_game_is_refused(stand_ins, save):
    game = new_game("skirmish", save, seed=2, plugin_dirs=[stand_ins])
    outcome = game.submit({"type": "ToggleOptionalRule", "actor": _pending(game), "rule": "kamikaze", "on": True})
    # the skirmish has no Japan: Kamikaze does not apply there (framework/scope.py), said first
    assert not outcome.accepted and "Kamikaze does not apply in this scenario" in outcome.reason
    assert game.state.kernel.seq == game.store.last()[0]
    outcome = game.submit({"type": "ToggleOptionalRule", "actor": _pending(game), "rule": "pilots", "on": True})
    assert not outcome.accepted and "Pilots cannot be switched on or off in this game" in outcome.reason
    assert "was not part of the game when it was created" in outcome.reason
    game.close()


def _state_at_step(current: str, resume: list[str] = ()) -> GameState:
    kernel = KernelState()
    kernel.sequence.current = current
    for step in resume:
        kernel.sequence.stack.append(DigressionFrame(step="wif.digressions.x", resume=step, waiting=False))
    return GameState(kernel, {})


@pytest.mark.parametrize("step, refused", [
    ("wif.turn.impulse.land.movement.land-movement", True),
    ("wif.turn.impulse.land.combat.land-combat-declaration", True),
    ("wif.procedures.land-combat-resolution.land-combat-die-rolls", True),
    ("wif.turn.impulse.air.air-missions", False),
    ("wif.turn.impulse.naval.naval-air", False),
])
def test_2d10_land_crt_may_not_be_toggled_during_land_movement_or_land_combat(step, refused):
    rule = build_catalogue().get("2d10-land-crt")
    reason = toggle_window_refusal(rule, _state_at_step(step))
    assert (reason is not None) is refused
    if refused:
        assert "2D10 Land CRT cannot be switched on or off now" in reason


@pytest.mark.parametrize("step, refused", [
    ("wif.procedures.naval-combat.round.naval-air-attack-is", True),
    ("wif.procedures.naval-combat.round.kamikaze", True),
    ("wif.turn.impulse.naval.naval-air", True),
    ("wif.procedures.naval-combat.round.surface-attack-is", False),
    ("wif.turn.impulse.land.combat.land-combat-declaration", False),
])
def test_kamikaze_may_be_toggled_any_time_except_during_naval_air_combat(step, refused):
    rule = build_catalogue().get("kamikaze")
    assert (toggle_window_refusal(rule, _state_at_step(step)) is not None) is refused


def test_a_digression_keeps_the_interrupted_step_in_force():
    rule = build_catalogue().get("2d10-land-crt")
    state = _state_at_step("wif.digressions.naval-combat-abort.move-aborting-units",
                           resume=["wif.turn.impulse.land.combat.land-combat-declaration"])
    assert toggle_window_refusal(rule, state) is not None


def test_the_ctrl_o_view_marks_rules_on_and_what_may_toggle_now(stand_ins, save):
    game = new_game("skirmish", save, seed=2, on=["divisions", "blitz-bonus"], plugin_dirs=[stand_ins])
    rows = {r["id"]: r for r in rules_view(game)}
    assert rows["blitz-bonus"]["label"] == "Blitz bonus (ON)" and rows["blitz-bonus"]["may_toggle_now"]
    assert rows["divisions"]["on"] and not rows["divisions"]["may_toggle_now"]
    assert not rows["pilots"]["implemented"] and "not implemented yet" in rows["pilots"]["why_not"]
    assert not rows["blitz-bonus"]["why_not"]
    game.close()


def test_a_saved_set_keeps_only_the_rules_that_suit_the_game(stand_ins, private_config, save):
    """A Personal Set saved for Guadalcanal, with Kamikaze ON, chosen for the lab (no naval
    rules): Kamikaze is left OFF with a note (it needs the naval rules), so the game does not
    load them; the rest of the set is ON.  Named one by one (--rules-on), Kamikaze is taken as
    it is refused (no Japan in the lab).  Barbarossa plays the naval rules (16.3's fleets) but has no
Japan: Kamikaze is left OFF there too; in Guadalcanal the whole set is ON."""
    catalogue = build_catalogue(plugin_dirs=[stand_ins])
    save_rule_set("personal", ["territorials", "kamikaze"], catalogue)
    discovery = discover([stand_ins])
    choice = choose_rules(catalogue, "personal", fits=fits_scenario(discovery, "lab"))
    assert choice.rules == ["territorials"]
    assert any(n.startswith("Kamikaze left OFF: it needs the") for n in choice.notes)
    game = new_game("lab", save, seed=2, preset="personal", plugin_dirs=[stand_ins])
    assert "naval" not in game.plugin_set and rules_on(game.state) == ["territorials"]
    # named one by one it is refused: the lab's powers (Germany, the USSR) have no Japan (scope.py)
    with pytest.raises(RulesError, match="Kamikaze does not apply in this scenario"):
        choose_rules(catalogue, "none", on=["kamikaze"], fits=fits_scenario(discovery, "lab"))
    barbarossa = choose_rules(catalogue, "personal", fits=fits_scenario(discovery, "barbarossa"))
    assert barbarossa.rules == ["territorials"]
    guadalcanal = choose_rules(catalogue, "personal", fits=fits_scenario(discovery, "guadalcanal"))
    assert set(guadalcanal.rules) == {"territorials", "kamikaze"}
