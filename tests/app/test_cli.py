"""The wif command line, end to end on the skirmish scenario."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def game(tmp_path, capsys):
    path = tmp_path / "g.wif"
    code, out, _ = run(capsys, "new", "skirmish", "--save", path, "--seed", "4")
    assert code == 0 and "new game of skirmish, seed 4" in out
    return path


def test_submit_prints_events_as_json(game, capsys):
    code, out, _ = run(capsys, "submit", game, '{"type": "MoveCounter", "actor": "red", "counter": "r1", "to": [2, 3]}')
    assert code == 0
    events = json.loads(out)
    assert events[0]["type"] == "CounterMoved" and events[0]["data"]["to_hex"] == [2, 3]
    assert events[0]["when"]["step"] == "skirmish.turn.impulse.movement"


def test_submit_rejection_exits_1_with_the_reason(game, capsys):
    code, out, err = run(capsys, "submit", game, '{"type": "Attack", "actor": "red", "attacker": "r1", "defender": "b1"}')
    assert code == 1 and out == ""
    assert "rejected: Attack is not allowed now" in err
    code, _, err = run(capsys, "submit", game, "{not json")
    assert code == 1 and "not valid JSON" in err


def test_submit_as_another_player(tmp_path, capsys):
    path = tmp_path / "h.wif"
    run(capsys, "new", "skirmish", "--save", path, "--seed", "4", "--player", "ann=red", "--player", "bo=blue,green")
    code, _, err = run(capsys, "submit", path, '{"type": "FinishStep", "actor": "red"}', "--as", "bo")
    assert code == 1 and "player 'bo' does not control red" in err
    code, _, _ = run(capsys, "submit", path, '{"type": "FinishStep", "actor": "red"}', "--as", "ann")
    assert code == 0


def test_log_text_and_json_with_range(game, capsys):
    code, out, _ = run(capsys, "log", game, "--from", "2", "--to", "4")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 3 and "r1 (4) placed at (1, 3)" in lines[0]
    code, out, _ = run(capsys, "log", game, "--json", "--from", "12", "--to", "12")
    (event,) = json.loads(out)
    assert event["seq"] == 12 and event["type"] == "DiceRolled" and len(event["hash"]) == 64


def test_state_now_at_a_seq_and_as_a_player(game, capsys):
    code, out, _ = run(capsys, "state", game)
    assert code == 0 and "step: skirmish.turn.impulse.movement" in out
    code, out, _ = run(capsys, "state", game, "--at", "5", "--json")
    state = json.loads(out)
    assert state["kernel"]["seq"] == 5 and len(state["sections"]["skirmish.board"]["counters"]) == 4
    code, out, _ = run(capsys, "state", game, "--json", "--as", "solo")
    assert code == 0 and json.loads(out)["sections"]["skirmish.board"]["counters"]["b1"]["strength"] == 3


def test_verify_ok_then_tampered(game, capsys):
    code, out, _ = run(capsys, "verify", game)
    assert code == 0 and out.startswith(f"{game}: OK")
    conn = sqlite3.connect(game)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor='blue' WHERE seq=3")
    conn.commit()
    conn.close()
    code, _, err = run(capsys, "verify", game)
    assert code == 1 and "first bad seq 3" in err


def test_fork(game, tmp_path, capsys):
    new = tmp_path / "f.wif"
    code, out, _ = run(capsys, "fork", game, 10, new)
    assert code == 0 and "(10 events)" in out
    code, out, _ = run(capsys, "verify", new)
    assert code == 0


def test_plugins_and_schema(capsys):
    code, out, _ = run(capsys, "plugins", "--json")
    ids = {p["id"] for p in json.loads(out)["plugins"]}
    assert {"skirmish", "sequence", "barbarossa"} <= ids
    code, out, _ = run(capsys, "schema", "--json")
    schema = json.loads(out)
    assert "MoveCounter" in schema["commands"] and "FinishStep" in schema["commands"]
    assert schema["events"]["DiceRolled"]["x-plugin"] == "kernel"
    assert set(schema["events"]["CounterMoved"]["properties"]) == {"counter", "from_hex", "to_hex"}


def test_bad_save_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "x.wif"
    bad.write_text("hello")
    code, _, err = run(capsys, "state", bad)
    assert code == 1 and "not a World in Flames save" in err


def test_bench_kernel_small_run(capsys):
    code, out, _ = run(capsys, "bench", "kernel", "--events", "3000", "--json")
    result = json.loads(out)
    assert code == 0 and result["events"] >= 3000
    for key in ("append_events_per_s", "commit_p95_ms", "replay_events_per_s", "replay_raw_ratio",
                "seek_p95_ms", "bytes_per_event", "peak_rss_mb"):
        assert result[key] > 0


def test_console_script_runs_in_a_subprocess(tmp_path):
    path = tmp_path / "s.wif"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "app.cli", "new", "skirmish", "--save", str(path)],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "app.cli", "verify", str(path)],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0 and "OK" in proc.stdout


@pytest.mark.parametrize("what", ["rules", "map"])
def test_bench_rules_and_map_report_their_figures(what, capsys):
    code, out, _ = run(capsys, "bench", what, "--json")
    result = json.loads(out)
    assert code == 0 and result
    if what == "rules":
        figures = {k: v for group in result.values() for k, v in group.items()}
        for key in ("reachable_p95_ms", "barbarossa_supply_allies_p95_ms", "end_of_turn_sequence_max_ms"):
            assert figures[key] > 0
    else:
        assert result["hexes"] == 70200 and result["load_best_ms"] > 0
