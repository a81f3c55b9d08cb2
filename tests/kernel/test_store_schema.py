"""The coded log of schema 3 (kernel/store_schema.py): what it stores, how a schema-2 save
is read read-only and migrated when opened writable, and the events view SQL readers use."""

import sqlite3

import pytest
import sqlite_utils

from kernel.game import Game
from kernel.store import SCHEMA_VERSION, EventStore
from kernel.store_schema import m001_initial, m002_signed_commands
from kernel.verify import verify
from tests.kernel.test_fair_play import played


def schema_2_copy(save, old):
    """The same game written in the layout of schema 2 (text columns, whole command JSON),
    as a save of the last build would have it."""
    store = EventStore.open(save, writable=False)
    conn = sqlite3.connect(old, isolation_level=None)
    db = sqlite_utils.Database(conn)
    m001_initial(db)
    m002_signed_commands(db)
    db["_migrations"].insert_all([{"name": n, "applied_at": 0.0} for n in ("m001_initial", "m002_signed_commands")])
    conn.executemany("INSERT INTO meta VALUES (?, ?)",
                     [(k, '2' if k == "schema_version" else v) for k, v in store.stored_meta().items()])
    conn.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)", list(store.rows()))
    conn.executemany("INSERT INTO commands VALUES (?,?,?,?,?)", list(store.commands()))
    conn.executemany("INSERT INTO snapshots (seq, plugins_hash, state, player, signature) VALUES (?,?,?,?,?)",
                     store.conn.execute("SELECT seq, plugins_hash, state, player, signature FROM snapshots"))
    conn.close()
    store.close()


def test_a_command_is_stored_without_its_type_and_actor_and_comes_back_as_signed(save):
    game = played(save, 30)
    commands = list(game.store.commands())
    game.close()
    conn = sqlite3.connect(save)
    stored = conn.execute("SELECT type, actor, command FROM command_log ORDER BY first_seq").fetchall()
    assert stored[0][0] is None and '"scenario":"skirmish"' in stored[0][2]  # NewGame has no actor: kept whole
    assert all(t is not None and '"type"' not in c and '"actor"' not in c for t, _, c in stored[1:])
    assert all('"type":' in c and '"actor":' in c for _, _, _, c, _ in commands[1:])
    assert verify(save).ok  # every signature checks against the rebuilt JSON


def test_most_events_store_cmd_as_zero_and_names_once(save):
    played(save, 30).close()
    conn = sqlite3.connect(save)
    names = [n for (n,) in conn.execute("SELECT name FROM names")]
    assert len(names) == len(set(names)) and "skirmish.turn.impulse.movement" in names
    backs = [b for (b,) in conn.execute("SELECT cmd_back FROM event_log")]
    assert backs.count(0) > len(backs) / 2
    view = conn.execute("SELECT * FROM events ORDER BY seq").fetchall()
    assert view == list(EventStore.open(save, writable=False).rows())


def test_a_schema_2_save_reads_read_only_and_migrates_when_opened_writable(save, tmp_path):
    game = played(save, 40)
    state = game.state.to_json()
    game.close()
    old = tmp_path / "old.wif"
    schema_2_copy(save, old)
    with Game.open(old, read_only=True) as game:  # read in its own layout, nothing written
        assert not game.store.coded and game.state.to_json() == state
    assert verify(old).ok
    assert EventStore.open(old, writable=False).meta("schema_version") == 2
    with Game.open(old) as game:
        assert game.store.coded and game.store.meta("schema_version") == SCHEMA_VERSION
        assert game.state.to_json() == state
        assert game.submit({"type": "FinishStep", "actor": game.state.kernel.acting_power()}).accepted
    report = verify(old)
    assert report.ok, report.problems
    assert list(EventStore.open(old, writable=False).commands())[:41] == list(EventStore.open(save, writable=False).commands())


def test_a_read_only_old_save_refuses_to_be_written_naming_the_file(save, tmp_path):
    played(save, 5).close()
    old = tmp_path / "old.wif"
    schema_2_copy(save, old)
    store = EventStore.open(old, writable=False)
    with pytest.raises(Exception, match="older schema opened read-only cannot be written"):
        store.append([])
    store.close()


@pytest.mark.parametrize("sql", ["UPDATE events SET data='{}' WHERE seq=1", "DELETE FROM events WHERE seq=2",
                                 "UPDATE event_log SET data='{}' WHERE seq=1", "DELETE FROM command_log"])
def test_the_view_and_the_tables_refuse_rewrites(save, sql):
    played(save, 5).close()
    conn = sqlite3.connect(save)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(sql)


def test_a_rewrite_through_the_view_with_the_guard_dropped_is_caught_by_verify(save):
    played(save, 10).close()
    conn = sqlite3.connect(save)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor='mallory' WHERE seq=3")
    conn.commit()
    assert conn.execute("SELECT actor FROM events WHERE seq=3").fetchone()[0] == "mallory"
    conn.close()
    assert verify(save).first_bad_seq == 3


def test_a_stored_command_that_is_not_json_is_named_by_verify(save):
    from tests.kernel.test_bad_input import one_error_line, wif

    played(save, 5).close()
    conn = sqlite3.connect(save)
    conn.execute("DROP TRIGGER commands_no_update")
    first = conn.execute("SELECT MAX(first_seq) FROM command_log").fetchone()[0]
    conn.execute("UPDATE command_log SET command='{oops' WHERE first_seq=?", (first,))
    conn.commit()
    conn.close()
    code, _, err = wif("verify", save)
    assert code == 1 and f"table commands, seq {first}: the command is not JSON" in one_error_line(err)
