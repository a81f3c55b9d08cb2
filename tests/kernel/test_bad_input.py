"""Bad input gets a clear error naming the thing, and loses nothing."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
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
    with pytest.raises(SaveFileError, match="newer version of the game \\(save schema 99; this build reads up to 1\\)"):
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
