"""The event store's contracts: schema, WAL, append-only triggers, gapless seq, migrations."""

import sqlite3

import pytest

from kernel.game import Game
from kernel.store import SCHEMA_VERSION, EventStore


def test_save_file_has_meta_events_snapshots_and_wal(save):
    Game.new("skirmish", save, seed=5).close()
    conn = sqlite3.connect(save)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"meta", "event_log", "command_log", "names", "snapshots", "_migrations"} <= tables
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # the events view keeps the old columns for SQL readers (store_schema.py)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(events)")]
    assert cols == ["seq", "type", "v", "actor", "turn", "impulse", "step", "cmd", "data", "hash"]
    assert [r[0] for r in conn.execute("SELECT name FROM _migrations")] == [
        "m001_initial", "m002_signed_commands", "m003_coded_log"]


def test_meta_records_seed_scenario_schema_and_plugin_set(save):
    Game.new("skirmish", save, seed=5).close()
    store = EventStore.open(save)
    meta = store.all_meta()
    assert meta["schema_version"] == SCHEMA_VERSION
    assert meta["seed"] == 5 and meta["scenario"] == "skirmish"
    assert set(meta["plugins"]) == {"kernel", "skirmish"}
    assert meta["plugins"]["skirmish"]["version"] == "1.0.0"
    assert len(meta["plugins"]["skirmish"]["hash"]) == 16
    store.close()


@pytest.mark.parametrize("sql", ["UPDATE events SET data='{}' WHERE seq=1", "DELETE FROM events WHERE seq=2"])
def test_triggers_refuse_update_and_delete(save, sql):
    Game.new("skirmish", save, seed=5).close()
    conn = sqlite3.connect(save)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(sql)


def test_insert_with_a_gap_is_refused(save):
    game = Game.new("skirmish", save, seed=5)
    last, h = game.store.last()
    with pytest.raises(sqlite3.IntegrityError, match="next seq"):
        game.store.append([(last + 2, "DiceRolled", 1, "system", 0, 0, "", last + 2, "{}", h)])
    assert game.store.last()[0] == last
    game.close()


def test_each_event_row_carries_the_envelope(save):
    game = Game.new("skirmish", save, seed=5)
    rows = list(game.store.rows())
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    started = [r for r in rows if r[1] == "StepStarted" and '"skirmish.turn.impulse"' in r[8]][0]
    assert started[4:7] == (1, 1, "skirmish.turn.impulse")  # turn, impulse, step after it
    assert all(len(r[9]) == 32 for r in rows)
    game.close()


def test_one_command_is_one_transaction_and_cmd_groups_its_events(save):
    game = Game.new("skirmish", save, seed=5)
    out = game.submit({"type": "FinishStep", "actor": "red"})
    assert out.accepted and len(out.events) > 1
    assert {e.cmd for e in out.events} == {out.events[0].seq}
    game.close()


def test_snapshots_every_n_events_and_at_impulse_boundaries(save):
    game = Game.new("skirmish", save, seed=5, snapshot_every=10)
    while not game.state.kernel.sequence.finished:  # everyone finishes: impulses and turns go by
        k = game.state.kernel
        who = k.sequence.pending[0]
        assert game.submit({"type": "FinishStep", "actor": k.acting_power()}).accepted
    seqs = game.store.snapshot_seqs(game.plugins_hash)
    impulse_starts = [e.seq for e in game.history() if e.type == "StepStarted" and e.data["snapshot"]]
    assert set(impulse_starts) <= set(seqs)
    assert any(s not in impulse_starts for s in seqs)  # the every-N ones
    assert max(b - a for a, b in zip(seqs, seqs[1:])) <= 10 + 2
    game.close()
