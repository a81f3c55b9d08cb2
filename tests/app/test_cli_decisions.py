"""`wif choices`, `wif steps`, `wif autoplay`, `wif bot` and the choices a refusal prints."""

import json
import re

from app.cli import main


def _new(tmp_path, capsys, *extra):
    path = tmp_path / "g.wif"
    assert main(["new", "barbarossa", "--save", str(path), "--seed", "5", *extra]) == 0
    capsys.readouterr()
    return path


def test_wif_choices_lists_the_deciders_commands(tmp_path, capsys):
    path = _new(tmp_path, capsys)
    assert main(["choices", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ussr decides in 'Placing Units on the Map'" in out and "FinishStep as ussr" in out
    assert main(["choices", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"][0]["decider"] == "ussr"
    assert any(c["type"] == "FinishStep" for c in data["decisions"][0]["commands"])


def test_wif_choices_for_a_player_with_nothing_to_decide_and_an_unknown_player(tmp_path, capsys):
    path = _new(tmp_path, capsys, "--player", "ivan=ussr", "--player", "hans=germany")
    assert main(["choices", str(path), "--as", "hans"]) == 0
    assert "hans has nothing to decide now; the game waits for: ussr" in capsys.readouterr().out
    assert main(["choices", str(path), "--as", "nobody"]) == 1
    assert "'nobody' is not a player of this game (players: hans, ivan)" in capsys.readouterr().err


def test_a_refused_submit_prints_what_the_player_may_do(tmp_path, capsys):
    path = _new(tmp_path, capsys)
    assert main(["submit", str(path), '{"type": "ChooseAction", "actor": "ussr", "action": "land"}']) == 1
    err = capsys.readouterr().err
    assert err.startswith("rejected: ChooseAction is not allowed now") and "ussr decides in" in err


def test_wif_steps_names_the_handler_of_each_step(capsys):
    assert main(["steps"]) == 0
    out = capsys.readouterr().out
    assert "Land Movement" in out and "land: plugins.rules.land" in out
    assert "no rule yet" in out and "steps," in out.splitlines()[-1]
    assert main(["steps", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all({"step", "title", "decides", "handled_by"} <= set(r) for r in rows)
    # every step of Barbarossa's flow is handled: by a rule, or by the reason it is skipped
    # (Declare War in a scenario at war from the start, an optional rule off, no naval units)
    flow = [r for r in rows if r["decides"] != "container" and not r["called"]]
    assert [r["step"] for r in flow if r["handled_by"] == ["no rule yet"]] == []
    by_step = {r["step"]: r for r in rows}
    assert by_step["wif.turn.impulse.new-impulse.declare-war"]["skip_reason"].startswith("Declare War: Germany and")
    assert "optional rule Oil is off" in by_step["wif.turn.end-of-turn.use-oil"]["handled_by"][0]
    # a container skipped takes its leaves with it (Barbarossa has no lend lease)
    assert by_step["wif.new-game.setup.lend-leasing-units.allied-lend-lease"]["skip_reason"].startswith("Setup: no lend lease")


def test_wif_autoplay_skips_counts_each_step_s_skips_and_the_ones_for_want_of_a_rule(tmp_path, capsys):
    assert main(["autoplay", "barbarossa", "--seed", "5", "--skips"]) == 0
    out = capsys.readouterr().out
    assert "skipped steps over 1 games:" in out
    assert "wif.turn.impulse.new-impulse.declare-war: Declare War: Germany and the USSR" in out
    assert "'no rule yet':" in out.splitlines()[-1]


def test_wif_autoplay_plays_barbarossa_to_the_end_and_the_save_verifies(tmp_path, capsys):
    save = tmp_path / "auto.wif"
    assert main(["autoplay", "barbarossa", "--seed", "7", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    policies = re.search(r"seed 7: ([^:]+): ", out)
    # the sides in the state's order (kept since the dict-order change), not a fixed one
    assert policies and sorted(policies.group(1).split(", ")) == ["allies=random", "axis=random"], out
    assert "verify OK" in out
    assert main(["verify", str(save)]) == 0


def test_wif_bot_plays_one_players_pending_decisions(tmp_path, capsys):
    path = _new(tmp_path, capsys, "--player", "ivan=ussr", "--player", "hans=germany")
    assert main(["bot", str(path), "--as", "ivan", "--commands", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ivan: ")
    assert main(["bot", str(path), "--as", "nobody"]) == 1
