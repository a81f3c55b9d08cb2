"""Replay: stepping, bookmarks, seeking, tolerance of missing plugins."""

import json
import random

import pytest

from kernel.errors import WifError
from kernel.game import Game
from kernel.replay import Replay, open_replay
from kernel.verify import verify


def played(path, finishes=40, snapshot_every=25):
    game = Game.new("skirmish", path, seed=9, options={"turns": 3}, snapshot_every=snapshot_every)
    rng = random.Random(1)
    from plugins.scenarios.skirmish import board, neighbours

    for _ in range(finishes):
        k = game.state.kernel
        if k.sequence.finished:
            break
        who = k.sequence.pending[0]
        power = k.acting_power()
        if k.sequence.current.endswith("movement"):
            for cid, c in board(game.state).counters.items():
                if c.power == power:
                    occupied = {x.hex for x in board(game.state).counters.values()}
                    free = [h for h in neighbours(*c.hex) if h not in occupied]
                    if free:
                        game.submit({"type": "MoveCounter", "actor": power, "counter": cid,
                                     "to": list(rng.choice(free))})
        game.submit({"type": "FinishStep", "actor": power})
    return game


def test_forward_n_then_back_n_gives_the_identical_state(tmp_path):
    game = played(tmp_path / "g.wif")
    game.close()
    replay = open_replay(tmp_path / "g.wif")
    replay.seek(20)
    start = replay.state.to_json()
    for _ in range(37):
        replay.forward()
    assert replay.position == 57
    for _ in range(37):
        replay.back()
    assert replay.position == 20 and replay.state.to_json() == start
    replay.game.close()


def test_stepping_matches_the_live_state_at_every_event(tmp_path):
    game = played(tmp_path / "g.wif")
    replay = Replay(game)
    replay.seek(0)
    while replay.position < replay.last:
        replay.forward()
        assert replay.state.to_json() == game.state_at(replay.position).to_json()
    game.close()


def test_bookmarks_land_on_the_first_event_of_their_phase_impulse_turn(tmp_path):
    game = played(tmp_path / "g.wif")
    replay = Replay(game)
    events = {e.seq: e for e in game.history()}
    turns = replay.bookmarks["turn"]
    assert [m.turn for m in turns] == list(range(1, len(turns) + 1))
    for mark in turns:
        prev = events.get(mark.seq - 1)
        assert events[mark.seq].turn == mark.turn and (prev is None or prev.turn == mark.turn - 1)
    for mark in replay.bookmarks["impulse"]:
        assert events[mark.seq].data["counter"] == "impulse"
        assert events[mark.seq - 1].impulse != mark.impulse or events[mark.seq - 1].turn != mark.turn
    for mark in replay.bookmarks["phase"]:
        assert events[mark.seq].type == "StepStarted" and events[mark.seq].data["step"] == mark.step
    game.close()


def test_next_and_previous_bookmark_jumps(tmp_path):
    game = played(tmp_path / "g.wif")
    replay = Replay(game)
    replay.seek(0)
    first = replay.jump_bookmark("turn")
    assert first.turn == 1 and replay.position == first.seq
    second = replay.jump_bookmark("turn")
    assert second.turn == 2 and replay.state.kernel.turn == 2
    back = replay.jump_bookmark("turn", forward=False)
    assert back == first and replay.position == first.seq
    assert replay.turn_start(2) == second.seq
    game.close()


def test_seek_out_of_range_is_refused(tmp_path):
    game = played(tmp_path / "g.wif", finishes=3)
    replay = Replay(game)
    with pytest.raises(WifError, match="no event 99999"):
        replay.seek(99999)
    game.close()


def test_replay_of_a_game_whose_plugin_is_missing_shows_what_it_can(mini, tmp_path, plugin_dir):
    path = tmp_path / "m.wif"
    game = Game.new("mini", path, seed=1, plugin_dirs=mini)
    game.submit({"type": "Note", "actor": "n1", "text": "hello"})
    game.close()
    size = path.stat().st_size
    replay = open_replay(path)  # the mini plugin is not on the default path
    assert replay.game.read_only and "plugin 'mini' (version 1.0.0) is missing" in replay.game.problems[0]
    replay.seek(0)
    lines = []
    while replay.position < replay.last:
        rec = replay.event(replay.position + 1)
        lines.append(replay.describe(rec))
        replay.forward()
    assert any("Noted (not shown" in line for line in lines)
    assert replay.skipped
    replay.game.close()
    assert verify(path, plugin_dirs=mini).ok  # the file is untouched
    assert path.stat().st_size == size


def test_cli_replay_prints_one_line_per_event(tmp_path, capsys):
    from app.cli import main

    game = played(tmp_path / "g.wif", finishes=5)
    last = game.state.kernel.seq
    game.close()
    assert main(["replay", str(tmp_path / "g.wif"), "--from", "2", "--to", "9"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 8 and lines[0].split()[0] == "2"
    assert "r1 (4) placed at (1, 3)" in lines[0]
    assert main(["replay", str(tmp_path / "g.wif"), "--step", "--to", "3"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 3


def test_bench_replay_small_run(capsys):
    from app.cli import main

    assert main(["bench", "replay", "--events", "2000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["events"] >= 2000 and result["turns"] >= 1
    for key in ("step_back_p95_ms", "turn_jump_p95_ms", "play_through_events_per_s"):
        assert result[key] > 0
