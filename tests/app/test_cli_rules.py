"""`wif rules` lists the optional-rule catalogue, `wif new` takes --rules/--rules-on/--rules-off,
and `wif new-plugin` writes a skeleton of each kind whose own test passes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from kernel.store import EventStore

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))


def test_rules_json_lists_the_catalogue(capsys):
    assert main(["rules", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {r["id"]: r for r in out["rules"]}
    assert len(rows) == 64  # the rules a source names: 74 entries less the 10 no source names ("Air supply" is a base mission)
    assert set(rows["artillery"]) >= {"id", "name", "group", "implemented", "prerequisites", "exclusions"}
    assert rows["artillery"]["prerequisites"] == ["divisions"]
    assert rows["blitz-bonus"]["exclusions"] == ["2d10-land-crt"]
    assert rows["2d10-land-crt"]["name"] == "2D10 Land CRT" and rows["2d10-land-crt"]["group"] == "land"


def test_rules_text_groups_the_catalogue_and_marks_what_is_implemented(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for title in ("Additional units (24)", "Land (8)", "Air (12)", "Naval (6)", "Supply (5)", "Production (5)",
                  "Other (4)"):  # the rules a source names (the catalogue keeps 10 more, unlisted)
        assert title in out
    assert "cannot be switched on yet" in out


def test_rules_show_prints_the_long_description(capsys):
    assert main(["rules", "show", "kamikaze"]) == 0
    out = capsys.readouterr().out
    assert "Kamikaze (kamikaze), air" in out and "except in" in out and "naval" in out


def test_new_with_rules_refuses_an_illegal_choice_and_writes_nothing(tmp_path, capsys):
    save = tmp_path / "s.wif"
    assert main(["new", "skirmish", "--save", str(save), "--rules-on", "artillery"]) == 1
    assert "Artillery needs Divisions ON" in capsys.readouterr().err
    assert not save.exists()
    assert main(["new", "skirmish", "--save", str(save), "--rules-on", "divisions,construction-engineers"]) == 1
    assert "is not implemented" in capsys.readouterr().err
    assert not save.exists()
    assert main(["new", "skirmish", "--save", str(save), "--rules", "nonesuch"]) == 1
    assert "no optional-rule set 'nonesuch'" in capsys.readouterr().err
    assert not save.exists()


def test_new_with_a_preset_records_it(tmp_path, capsys):
    save = tmp_path / "s.wif"
    assert main(["new", "skirmish", "--save", str(save), "--seed", "3", "--rules", "standard"]) == 0
    assert "optional rules ON" in capsys.readouterr().out
    store = EventStore.open(save)
    assert store.meta("options")["rules_preset"] == "standard"
    assert "optional-rules" in store.meta("plugins")
    store.close()


def test_rules_save_and_sets(tmp_path, capsys):
    assert main(["rules", "save", "personal"]) == 0
    assert main(["rules", "sets", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{"):])["sets"] == ["personal"]
    assert main(["new", "skirmish", "--save", str(tmp_path / "p.wif"), "--rules", "personal"]) == 0


def test_rules_game_shows_a_saves_rules(tmp_path, capsys):
    save = tmp_path / "s.wif"
    assert main(["new", "skirmish", "--save", str(save), "--seed", "1"]) == 0
    capsys.readouterr()
    assert main(["rules", "game", str(save), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 64 and not any(r["on"] for r in rows)  # 64: the rules a source names


@pytest.mark.parametrize("kind", ["optional-rule", "rules", "scenario", "map-view", "layout"])
def test_new_plugin_writes_a_skeleton_whose_test_passes(kind, tmp_path, capsys):
    plugin_id = f"my-{kind}"
    assert main(["new-plugin", plugin_id, "--kind", kind, "--dest", str(tmp_path)]) == 0
    folder = tmp_path / plugin_id.replace("-", "_")
    assert (folder / "plugin.toml").exists() and (folder / "__init__.py").exists()
    assert (folder / "rule.toml").exists() == (kind == "optional-rule")
    test_file = tmp_path / "tests" / f"test_{folder.name}.py"
    env = {k: v for k, v in os.environ.items() if k not in ("WIF_PLUGINS_PATH", "WIF_LOAD_PLUGINS")}
    env["WIF_CONFIG_DIR"] = str(tmp_path / "config")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                          "-c", os.devnull, str(test_file)],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "passed" in run.stdout


def test_new_plugin_refuses_a_bad_name_or_an_existing_plugin(tmp_path, capsys):
    assert main(["new-plugin", "Bad Name", "--kind", "rules", "--dest", str(tmp_path)]) == 1
    assert "use lower-case letters" in capsys.readouterr().err
    assert main(["new-plugin", "skirmish", "--kind", "scenario", "--dest", str(tmp_path)]) == 1
    assert "a plugin 'skirmish' exists already" in capsys.readouterr().err


def test_new_guadalcanal_with_kamikaze_on_records_it(tmp_path, capsys):
    """Kamikaze (seeds "Optional Rules"): switched on by name, in a scenario with the naval rules."""
    save = tmp_path / "g.wif"
    assert main(["new", "guadalcanal", "--save", str(save), "--seed", "3", "--rules-on", "kamikaze"]) == 0
    store = EventStore.open(save)
    assert store.meta("options")["optional_rules"] == ["kamikaze"]
    assert {"kamikaze", "naval"} <= set(store.meta("plugins"))
    store.close()


def test_random_rules_draw_only_rules_that_suit_the_scenario():
    """`wif autoplay --random-rules`: Kamikaze needs the naval rules, so a draw for the lab (no
    naval rules) never has it; Guadalcanal plays them, so its draw may; Barbarossa plays them (16.3's
    fleets) but has no Japan, so Kamikaze does not apply there (framework/scope.py)."""
    from app.cli_bots import random_rules

    every = {"preset": "all", "rules_on": [], "rules_off": []}
    assert all("kamikaze" not in random_rules(every, seed, "lab")["rules_on"] for seed in range(1, 9))
    assert any("kamikaze" in random_rules(every, seed, "guadalcanal")["rules_on"] for seed in range(1, 9))
    assert all("kamikaze" not in random_rules(every, seed, "barbarossa")["rules_on"] for seed in range(1, 9))


def test_new_lab_with_all_rules_leaves_kamikaze_off_and_says_why(tmp_path, capsys):
    """A preset leaves OFF a rule whose plugin needs rules the game does not play, with a note
    (the lab plays no naval rules; Barbarossa does since it carries 16.3's fleets)."""
    save = tmp_path / "b.wif"
    assert main(["new", "lab", "--save", str(save), "--seed", "3", "--rules", "all"]) == 0
    out = capsys.readouterr().out
    on = next(line for line in out.splitlines() if "optional rules ON:" in line)
    assert "territorials" in on and "kamikaze" not in on
    assert "note: Kamikaze left OFF: it needs the naval rules, which this game does not play" in out
    store = EventStore.open(save)
    assert "kamikaze" not in store.meta("options")["optional_rules"] and "naval" not in store.meta("plugins")
    store.close()
