"""Mods: the example mod installed with pip plays a command that shows its effect; a mod
with a malformed manifest, a conflicting id, or that raises while loading is refused or
isolated with a clear message, and games and saves are unaffected."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernel.errors import PluginError
from kernel.game import Game
from kernel.verify import verify
from plugins.optional.framework import is_on
from plugins.optional.framework.catalogue import RulesError, build_catalogue
from plugins.optional.framework.presets import new_game

from conftest import EXAMPLE_MOD, REPO, write_rule_plugin


def _pending(game):
    return game.state.kernel.sequence.pending[0]


# ---------------------------------------------------------------- the example mod
PLAY_WITH_THE_MOD = textwrap.dedent('''
    import json, sys
    from plugins.optional.framework.catalogue import build_catalogue
    from plugins.optional.framework.presets import new_game

    catalogue = build_catalogue()
    rule = catalogue.get("field-repairs")
    game = new_game("skirmish", sys.argv[1], seed=5, on=["field-repairs"])
    actor = game.state.kernel.sequence.pending[0]
    counter = min((c for c, v in game.state["skirmish.board"].counters.items() if v.power == actor),
                  key=lambda c: game.state["skirmish.board"].counters[c].strength)
    before = game.state["skirmish.board"].counters[counter].strength
    outcome = game.submit({"type": "RepairCounter", "actor": actor, "counter": counter})
    print(json.dumps({"origin": rule.origin, "implemented": rule.implemented, "accepted": outcome.accepted,
                      "reason": outcome.reason, "before": before,
                      "after": game.state["skirmish.board"].counters[counter].strength,
                      "plugins": sorted(game.plugin_set)}))
''')


def test_example_mod_installs_with_pip_and_its_rule_changes_play(tmp_path):
    target = tmp_path / "site"
    source = tmp_path / "src"  # a copy, so the build leaves nothing in examples/
    shutil.copytree(EXAMPLE_MOD, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input", "--disable-pip-version-check",
           "--target", str(target), str(source)]
    run = None
    for extra in ([], ["--no-build-isolation"]):  # isolated build first; the venv's setuptools if offline
        try:
            run = subprocess.run(pip[:4] + extra + pip[4:], capture_output=True, text=True, timeout=90)
        except subprocess.TimeoutExpired:
            continue
        if run.returncode == 0:
            break
    if run is None or run.returncode != 0:
        pytest.skip(f"pip cannot build the example mod offline here: {(run.stderr if run else 'timeout')[-300:]}")
    assert (target / "wif_field_repairs" / "plugin.toml").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("WIF_PLUGINS_PATH", "WIF_LOAD_PLUGINS")}
    env.update(PYTHONPATH=os.pathsep.join([str(target), str(REPO)]), WIF_ENTRY_POINTS="1",
               WIF_CONFIG_DIR=str(tmp_path / "config"))
    play = subprocess.run([sys.executable, "-c", PLAY_WITH_THE_MOD, str(tmp_path / "mod.wif")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert play.returncode == 0, play.stderr
    result = json.loads(play.stdout.strip().splitlines()[-1])
    assert result["origin"] == "entry-point" and result["implemented"]
    assert result["accepted"], result["reason"]
    assert result["after"] == result["before"] + 1
    assert "field-repairs" in result["plugins"]  # the save records the mod
    listing = subprocess.run([sys.executable, "-m", "app.cli", "rules", "--json"], cwd=REPO, env=env,
                             capture_output=True, text=True, timeout=60)
    rows = {r["id"]: r for r in json.loads(listing.stdout)["rules"]}
    assert rows["field-repairs"]["origin"] == "entry-point" and rows["field-repairs"]["group"] == "other"


def test_example_rule_off_keeps_the_base_game_and_on_changes_it(field_repairs, tmp_path):
    off = new_game("skirmish", tmp_path / "off.wif", seed=5, plugin_dirs=[field_repairs],
                   extra_plugins=["field-repairs"])
    refused = off.submit({"type": "RepairCounter", "actor": _pending(off), "counter": "r3"})
    assert not refused.accepted and "Field repairs is OFF" in refused.reason
    # switched on during play: a command and an event, then the repair works
    actor = _pending(off)
    own = [c for c, v in off.state["skirmish.board"].counters.items() if v.power == actor and v.strength < 4]
    assert off.submit({"type": "ToggleOptionalRule", "actor": actor, "rule": "field-repairs", "on": True}).accepted
    before = off.state["skirmish.board"].counters[own[0]].strength
    assert off.submit({"type": "RepairCounter", "actor": actor, "counter": own[0]}).accepted
    assert off.state["skirmish.board"].counters[own[0]].strength == before + 1
    again = off.submit({"type": "RepairCounter", "actor": actor, "counter": own[0]})
    assert not again.accepted and "repaired this impulse already" in again.reason
    off.close()


# ---------------------------------------------------------------- bad mods
def test_mod_with_a_malformed_manifest_is_reported_and_cannot_be_switched_on(tmp_path, save):
    base = tmp_path / "mods"
    folder = write_rule_plugin(base, "good-rule", "other")
    bad = base / "broken-manifest"
    bad.mkdir()
    (bad / "plugin.toml").write_text('id = "broken-manifest"\nkind = "optional-rule"\nversion = [1\n')
    (bad / "__init__.py").write_text("")
    catalogue = build_catalogue(plugin_dirs=[base])
    assert any("broken-manifest" in e and "bad plugin manifest" in e for e in catalogue.errors)
    assert catalogue.get("good-rule").implemented  # the other mod is unaffected
    with pytest.raises(RulesError, match="no optional rule 'broken-manifest'"):
        new_game("skirmish", save, on=["broken-manifest"], plugin_dirs=[base])
    assert not save.exists()
    assert folder.exists()


def test_mod_with_malformed_rule_metadata_is_named_and_left_out(tmp_path):
    base = tmp_path / "mods"
    folder = write_rule_plugin(base, "odd-rule", "other")
    (folder / "rule.toml").write_text('id = "odd-rule"\nname = "Odd"\ngroup = "cavalry"\ndescription = "x"\n')
    catalogue = build_catalogue(plugin_dirs=[base])
    assert "odd-rule" not in catalogue.rules
    assert any("odd-rule" in e and "rule.toml: bad optional-rule metadata" in e for e in catalogue.errors)


def test_mods_with_conflicting_ids_keep_the_first_and_say_so(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    write_rule_plugin(first, "chinese-attack-weakness", "land", description="first")
    write_rule_plugin(second, "chinese-attack-weakness", "land", description="second")
    catalogue = build_catalogue(plugin_dirs=[first, second])
    assert catalogue.get("chinese-attack-weakness").description == "first"
    assert any("'chinese-attack-weakness' found twice" in e for e in catalogue.errors)
    # a plugin whose rule.toml claims another plugin's rule is refused too
    third = tmp_path / "c"
    folder = write_rule_plugin(third, "sneaky", "land")
    (folder / "rule.toml").write_text((folder / "rule.toml").read_text().replace('id = "sneaky"', 'id = "chinese-attack-weakness"'))
    catalogue = build_catalogue(plugin_dirs=[first, third])
    assert any("sneaky" in e and "the plugin id must be the rule id" in e for e in catalogue.errors)
    # and a mod that puts a catalogue rule in another group
    fourth = tmp_path / "d"
    write_rule_plugin(fourth, "night-missions", "land")
    catalogue = build_catalogue(plugin_dirs=[fourth])
    assert not catalogue.get("night-missions").implemented
    assert any("belongs to group 'air'" in e for e in catalogue.errors)


def test_mod_that_raises_while_loading_is_isolated(tmp_path, save, monkeypatch):
    base = tmp_path / "mods"
    write_rule_plugin(base, "explosive", "other", code="raise RuntimeError('boom at import')\n")
    write_rule_plugin(base, "calm", "other")
    # listing the catalogue never imports a mod, so the list still works
    catalogue = build_catalogue(plugin_dirs=[base])
    assert catalogue.get("explosive").implemented and catalogue.errors == []
    with pytest.raises(PluginError, match=r"plugin 'explosive' failed to import: .*__init__.py, line 1: RuntimeError"):
        new_game("skirmish", save, on=["explosive"], plugin_dirs=[base])
    assert not save.exists()
    # a game without it is unaffected, and its save verifies
    game = new_game("skirmish", save, seed=1, on=["calm"], plugin_dirs=[base])
    assert is_on(game.state, "calm")
    assert game.submit({"type": "FinishStep", "actor": _pending(game)}).accepted
    game.close()
    monkeypatch.setenv("WIF_PLUGINS_PATH", str(base))
    assert verify(save).ok
    for name in [n for n in sys.modules if n.startswith("wif_plugin_")]:
        del sys.modules[name]


def test_a_save_that_needs_a_missing_mod_says_which(field_repairs, tmp_path):
    path = tmp_path / "m.wif"
    game = new_game("skirmish", path, seed=5, on=["field-repairs"], plugin_dirs=[field_repairs])
    game.close()
    with pytest.raises(Exception, match="field-repairs"):
        Game.open(path)
    with Game.open(path, plugin_dirs=[field_repairs]) as again:
        assert is_on(again.state, "field-repairs")
