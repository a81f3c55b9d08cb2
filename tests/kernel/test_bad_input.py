"""Bad input gets a clear error naming the thing, and loses nothing."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from helpers import finish
from kernel.errors import SaveFileError
from kernel.events import chain_hash, EventRecord, canonical_json
from kernel.game import Game
from kernel.store import EventStore
from kernel.verify import verify

ROOT = Path(__file__).resolve().parents[2]


def finish_all(game, n):
    for _ in range(n):
        finish(game)


def test_not_a_sqlite_file(tmp_path):
    path = tmp_path / "notes.wif"
    path.write_text("my shopping list\n" * 100)
    with pytest.raises(SaveFileError, match="notes.wif: not a World in Flames save \\(not an SQLite database\\)"):
        Game.open(path)
    assert path.read_text().startswith("my shopping list")


def test_an_sqlite_file_that_is_not_a_save(tmp_path):
    path = tmp_path / "other.wif"
    sqlite3.connect(path).execute("CREATE TABLE x (y)")
    with pytest.raises(SaveFileError, match="tables meta/events/snapshots missing"):
        Game.open(path)


def test_truncated_file(tmp_path):
    path = tmp_path / "t.wif"
    game = Game.new("skirmish", path, seed=1, options={"turns": 1000})
    finish_all(game, 300)
    game.close()
    data = path.read_bytes()
    assert len(data) > 20000
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(SaveFileError, match="t.wif: the save file is damaged"):
        Game.open(path)


def test_save_from_a_newer_version(save):
    Game.new("skirmish", save, seed=1).close()
    conn = sqlite3.connect(save)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(SaveFileError, match="newer version of the game \\(save schema 99; this build reads up to 3\\)"):
        Game.open(save)


def test_event_edited_behind_the_kernels_back_is_named_by_verify(save):
    game = Game.new("skirmish", save, seed=1)
    finish_all(game, 3)
    game.close()
    assert verify(save).ok
    conn = sqlite3.connect(save)
    conn.execute("DROP TRIGGER events_no_update")  # what a cheat would have to do
    conn.execute("""UPDATE events SET data='{"faces":10,"purpose":"initiative west","results":[10]}' WHERE seq=12""")
    conn.commit()
    conn.close()
    report = verify(save)
    assert not report.ok and report.first_bad_seq == 12
    assert "seq 12: hash chain broken" in report.problems[0]


def test_unknown_event_type_opens_read_only_at_the_last_good_event(save):
    game = Game.new("skirmish", save, seed=1)
    last, prev = game.store.last()
    good = game.state.to_json()
    rec = EventRecord(last + 1, "MartiansLanded", 1, "system", 1, 1, "x", last + 1, {"where": "Berlin"})
    data = canonical_json(rec.data)
    game.store.append([(rec.seq, rec.type, 1, "system", 1, 1, "x", rec.seq, data,
                        chain_hash(prev, rec.header_json(), data))])
    game.close()
    with Game.open(save) as again:
        assert again.read_only
        assert f"event seq {last + 1}: unknown event type 'MartiansLanded'" in again.problems[0]
        assert again.state.to_json() == good
    report = verify(save)
    assert report.first_bad_seq == last + 1


def test_reducer_that_raises_on_replay_names_plugin_and_seq(mini, save, plugin_dir):
    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    assert game.submit({"type": "Note", "actor": "n1", "text": "one"}).accepted
    good = game.state.to_json()
    assert game.submit({"type": "Note", "actor": "n1", "text": "two"}).accepted
    bad_seq = game.state.kernel.seq
    game.close()
    init = plugin_dir.path / "mini" / "__init__.py"
    init.write_text(init.read_text().replace('if event.data["text"] == "poison"', 'if event.data["text"] == "two"'))
    sys.modules.pop("wif_plugin_mini", None)
    with Game.open(save, read_only=True, plugin_dirs=mini) as again:
        err = again.replay_error
        assert err.plugin == "mini" and err.seq == bad_seq
        assert f"plugin 'mini': reducer for Noted raised at event seq {bad_seq}" in str(err)
        assert again.state.to_json() == good
        assert again.state.kernel.seq == bad_seq - 1


TRIPLE = """
from kernel.events import Command, EventData
from kernel.hookspecs import hookimpl
from kernel.plugins import ScenarioSpec
from kernel.sequence import StepSpec

class Ticked(EventData):
    n: int

class Triple(Command):
    pass

def triple(ctx, cmd):
    for n in range(3):
        ctx.emit(Ticked(n=n))

@hookimpl
def register_events(register):
    register(Ticked)

@hookimpl
def register_commands(register):
    register(Triple, triple)

@hookimpl
def register_sequences(register):
    register("tri", StepSpec(id="tri", title="Tri", level="root", children=(
        StepSpec(id="go", title="Go", decides="each-power", commands=("Triple",)),)))

@hookimpl
def register_scenarios(register):
    register(ScenarioSpec(id="tri", name="Tri", sides={"s": ["p"]}, sequence="tri"))
"""

WRITER = """
import sys
sys._called_from_test = True
from kernel.game import Game
game = Game.open(sys.argv[1])
while True:
    out = game.submit({"type": "Triple", "actor": "p"})
    assert out.accepted, out.reason
    print(out.events[-1].seq, flush=True)
"""


def test_kill_9_in_the_middle_of_appends_loses_only_the_uncommitted_command(plugin_dir, save):
    plugin_dir.add("tri", TRIPLE, kind="scenario")
    game = Game.new("tri", save, seed=1, plugin_dirs=[plugin_dir.path])
    base = game.state.kernel.seq
    game.close()
    env = dict(os.environ, WIF_PLUGINS_PATH=str(plugin_dir.path), PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(save)], stdout=subprocess.PIPE, env=env, cwd=ROOT)
    committed = 0
    deadline = time.time() + 60
    while committed < base + 3 * 500 and time.time() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        committed = int(line)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert committed >= base + 3 * 500, "the writer did not get going"
    report = verify(save, plugin_dirs=[plugin_dir.path])
    assert report.ok, report.problems
    with Game.open(save, plugin_dirs=[plugin_dir.path]) as again:
        last = again.state.kernel.seq
        assert last >= committed  # nothing acknowledged was lost
        assert (last - base) % 3 == 0  # no command half-written
        assert again.submit({"type": "Triple", "actor": "p"}).accepted


# ---------------------------------------------------------------- issue 13: one clear line, nothing lost
def wif(*argv):
    """Run the command line in this process: (exit code, stdout, stderr)."""
    import contextlib
    import io

    from app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    if argv[0] == "play":  # the window says its errors on the console it was started from
        return code, "", out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


def skirmish_save(path, commands=6, snapshot_every=None):
    kwargs = {"snapshot_every": snapshot_every} if snapshot_every else {}
    game = Game.new("skirmish", path, seed=1, options={"turns": 1000}, **kwargs)
    finish_all(game, commands)
    state, last = game.state.to_json(), game.store.last()[0]
    game.close()
    return state, last


def tamper(path, *sql, drop_triggers=False):
    conn = sqlite3.connect(path)
    if drop_triggers:  # what a hand edit has to do first
        conn.execute("DROP TRIGGER events_no_update")
    for statement in sql:
        conn.execute(*statement) if isinstance(statement, tuple) else conn.execute(statement)
    conn.commit()
    conn.close()


def cli_commands(save):
    return [("state", save), ("log", save), ("verify", save), ("play", save, "--frames", "1")]


@pytest.mark.parametrize("value, words", [
    ("{not json", "table meta, key 'plugins': the value is not JSON"),
    ("[1, 2]", "table meta, key 'plugins': should be an object, is a list"),
    ('{"kernel": 7}', "table meta, key 'plugins', plugin 'kernel': should be an object"),
])
def test_meta_value_not_json_or_of_the_wrong_shape_is_named(save, value, words):
    skirmish_save(save)
    tamper(save, ("UPDATE meta SET value=? WHERE key='plugins'", (value,)))
    before = save.read_bytes()
    with pytest.raises(SaveFileError, match=f"{save.name}: {words}".replace("(", "\\(").replace("[", "\\[")):
        Game.open(save)
    for argv in cli_commands(save):
        code, _, err = wif(*argv)
        assert code == 1 and words in one_error_line(err), (argv, err)
    assert save.read_bytes() == before  # nothing written, nothing lost


def test_event_data_not_json_opens_read_only_at_the_event_before_naming_table_and_seq(save):
    good_before_last, _ = skirmish_save(save, commands=5)
    last = EventStore.open(save).last()[0]
    good_all, _ = skirmish_save(save.with_name("twin.wif"), commands=6)
    first_of_sixth = sqlite3.connect(save.with_name("twin.wif")).execute("SELECT MAX(seq) FROM events").fetchone()
    assert first_of_sixth[0] > last
    tamper(save, ("UPDATE events SET data='{\"faces\": 10, oops' WHERE seq=?", (last,)), drop_triggers=True)
    with Game.open(save) as game:
        assert game.read_only
        assert f"table events, seq {last}: the data is not JSON" in game.problems[0]
        assert game.state.kernel.seq == last - 1
    code, out, err = wif("log", save)
    assert code == 1 and f"table events, seq {last}: the data is not JSON" in one_error_line(err)
    code, out, err = wif("state", save)
    assert code == 0 and f"read-only: {save}: table events, seq {last}" not in err
    assert f"table events, seq {last}: the data is not JSON" in out
    assert not verify(save).ok  # the chain does not hold the edit
    code, _, err = wif("verify", save)
    assert code == 1 and f"seq {last}" in err and "Traceback" not in err


@pytest.mark.parametrize("blob, words", [
    (b"\x00\xffnot zlib", "not zlib-compressed text"),
    (zlib.compress(b"{this is not json"), "not JSON"),
    (zlib.compress(b'{"kernel": {"seq": "many"}, "sections": {}}'), "section 'kernel' does not match its model"),
])
def test_a_bad_snapshot_is_ignored_with_a_warning_and_the_state_replayed(save, blob, words):
    good, _ = skirmish_save(save, commands=8, snapshot_every=5)
    seqs = [r[0] for r in sqlite3.connect(save).execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert len(seqs) >= 2
    tamper(save, ("UPDATE snapshots SET state=? WHERE seq=?", (blob, seqs[-1])))
    with Game.open(save) as game:
        assert not game.read_only and game.state.to_json() == good
        warning, = game.store.warnings
        assert f"{save}: table snapshots, seq {seqs[-1]}: {words}" in warning and "replayed from the events" in warning
        assert game.submit({"type": "FinishStep", "actor": game.state.kernel.acting_power()}).accepted
    code, out, err = wif("state", save)
    assert code == 0 and f"warning: {save}: table snapshots, seq {seqs[-1]}" in err


def test_a_folder_given_as_a_save_is_named(tmp_path):
    folder = tmp_path / "saves.wif"
    folder.mkdir()
    with pytest.raises(SaveFileError, match="saves.wif: a folder, not a save file"):
        Game.open(folder)
    for argv in cli_commands(folder):
        code, _, err = wif(*argv)
        assert code == 1 and "a folder, not a save file" in one_error_line(err), argv
    assert folder.is_dir()


def test_an_empty_file_given_as_a_save_is_named(tmp_path):
    empty = tmp_path / "empty.wif"
    empty.write_bytes(b"")
    with pytest.raises(SaveFileError, match="empty.wif: an empty file \\(0 bytes\\)"):
        Game.open(empty)
    for argv in cli_commands(empty):
        code, _, err = wif(*argv)
        assert code == 1 and "an empty file (0 bytes)" in one_error_line(err), argv
    assert empty.read_bytes() == b""


def nested(levels: int):
    top = inner = []
    for _ in range(levels - 1):
        inner.append([])
        inner = inner[0]
    return top


def test_a_command_nested_30000_levels_deep_is_refused(save):
    skirmish_save(save, commands=0)
    with Game.open(save) as game:
        head = game.store.last()
        deep = nested(30000)
        for command, words in [
            ({"type": "FinishStep", "actor": "red", "extra": deep}, "FinishStep is malformed"),
            ({"type": "FinishStep", "actor": deep}, "actor: Input should be a valid string"),
            ({"type": deep, "actor": "red"}, 'a command\'s "type" is a name'),
            (deep, 'a command is a JSON object with a "type"'),
        ]:
            outcome = game.submit(command)
            assert not outcome.accepted and words in outcome.reason
        assert game.store.last() == head
    text = '{"type": "FinishStep", "actor": "red", "extra": ' + "[" * 30000 + "]" * 30000 + "}"
    code, _, err = wif("submit", save, text)
    assert code == 1 and err.strip() == "rejected: the command's JSON is nested too deeply"
    code, _, err = wif("submit", save, "[" * 30000 + "]" * 30000)
    assert code == 1 and "nested too deeply" in err and "Traceback" not in err


def test_replay_walks_past_an_event_whose_data_is_not_json(save):
    from kernel.replay import open_replay

    skirmish_save(save, commands=5)
    last = EventStore.open(save).last()[0]
    tamper(save, ("UPDATE events SET data='not json' WHERE seq=?", (last - 1,)), drop_triggers=True)
    replay = open_replay(save)
    replay.seek(0)
    replay.forward(last)
    assert replay.position == last and replay.skipped == [last - 1]
    assert "not shown" in replay.describe(replay.event(last - 1))
    replay.seek(last)
    replay.game.close()


def test_errors_with_their_own_arguments_cross_a_process_pool_intact():
    """A bot tally runs games in a process pool: a save whose plugins changed must come back as
    the error naming them, not as a broken pool (the exception is pickled on the way)."""
    import pickle

    from kernel.errors import PluginSetMismatch, ReducerError

    mismatch = pickle.loads(pickle.dumps(PluginSetMismatch("g.wif", ["plugin 'supply' has changed"])))
    assert mismatch.problems == ["plugin 'supply' has changed"] and "g.wif" in str(mismatch)
    reducer = pickle.loads(pickle.dumps(ReducerError("naval", 7, "ShipMoved", ValueError("bad hex"))))
    assert (reducer.plugin, reducer.seq, reducer.event_type) == ("naval", 7, "ShipMoved") and "bad hex" in str(reducer)
