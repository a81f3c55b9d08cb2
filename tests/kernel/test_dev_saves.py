"""Saves played with ``--dev`` (hot reload): a save records the plugin versions it was played
under (meta ``plugin_history``), so once an edit is reverted the save opens again normally;
code it was never played under still makes it refuse, and read-only opens it anyway."""

import sys
from pathlib import Path

import pytest

from kernel.errors import PluginSetMismatch
from kernel.game import Game
from kernel.hotreload import PluginReloader
from kernel.verify import verify

UPPER = ('state["mini.notes"].lines.append(event.data["text"])',
         'state["mini.notes"].lines.append(event.data["text"].upper())')


@pytest.fixture
def played(mini, save, plugin_dir):
    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    for text in ("alpha", "beta"):
        assert game.submit({"type": "Note", "actor": "n1", "text": text}).accepted
    init = plugin_dir.path / "mini" / "__init__.py"
    yield game, PluginReloader(game, debounce=0.05), init, mini
    game.close()


def new_process(folder: Path) -> None:
    """Forget the plugin's imported modules, as a new ``wif play`` would start without them."""
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if where and folder in Path(where).resolve().parents:
            del sys.modules[name]


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_save_reopens_normally_after_the_reloaded_edit_is_reverted(played):
    game, reloader, init, dirs = played
    original = init.read_text()
    edit(init, *UPPER)
    assert reloader.reload("mini").ok
    assert game.submit({"type": "Note", "actor": "n1", "text": "gamma"}).accepted
    path = game.path
    game.close()  # the window was closed before the edit was undone
    init.write_text(original)
    new_process(init.parent.resolve())
    assert verify(path, plugin_dirs=dirs).ok, verify(path, plugin_dirs=dirs).problems
    new_process(init.parent.resolve())
    with Game.open(path, plugin_dirs=dirs) as again:
        assert not again.read_only and again.problems == []
        # the whole log is folded under the code as it is now
        assert again.state["mini.notes"].lines == ["alpha", "beta", "gamma"]
        assert again.submit({"type": "Note", "actor": "n1", "text": "delta"}).accepted
        history = again.store.meta("plugin_history")
        assert history[-1]["plugin"] == "mini" and history[-1]["to"] == history[0]["from"]
        assert history[-1]["reopened"] is True
    new_process(init.parent.resolve())
    with Game.open(path, plugin_dirs=dirs) as third:  # and again, now recorded as it is
        assert third.state["mini.notes"].lines[-1] == "delta"


def test_a_revert_seen_while_the_window_is_open_reopens_too(played):
    game, reloader, init, dirs = played
    original = init.read_text()
    edit(init, *UPPER)
    assert reloader.reload("mini").ok
    init.write_text(original)
    assert reloader.reload("mini").ok
    path = game.path
    game.close()
    with Game.open(path, plugin_dirs=dirs) as again:
        assert not again.read_only
        assert again.state["mini.notes"].lines == ["alpha", "beta"]


def test_code_the_save_was_never_played_under_still_refuses_and_read_only_opens_it(played):
    game, reloader, init, dirs = played
    edit(init, *UPPER)
    assert reloader.reload("mini").ok
    path = game.path
    game.close()
    edit(init, UPPER[1], 'state["mini.notes"].lines.append(event.data["text"] + "?")')
    new_process(init.parent.resolve())
    with pytest.raises(PluginSetMismatch, match="plugin 'mini'.*has changed.*--read-only"):
        Game.open(path, plugin_dirs=dirs)
    with Game.open(path, read_only=True, plugin_dirs=dirs) as look:
        assert look.read_only
        assert look.state["mini.notes"].lines == ["alpha?", "beta?"]
        assert not look.submit({"type": "Note", "actor": "n1", "text": "x"}).accepted


def test_editor_swap_and_backup_files_do_not_change_the_recorded_plugin(played):
    """An editor's swap file present at the reload and gone afterwards (vim's .swp, emacs'
    backup~ and #lock#) is no change of the plugin."""
    game, reloader, init, dirs = played
    folder = init.parent
    leftovers = [folder / ".__init__.py.swp", folder / "__init__.py~", folder / "#__init__.py#",
                 folder / "__init__.py.orig"]
    for leftover in leftovers:
        leftover.write_text("editor state")
    edit(init, *UPPER)
    assert reloader.reload("mini").ok
    path = game.path
    game.close()
    for leftover in leftovers:
        leftover.unlink()
    new_process(folder.resolve())
    with Game.open(path, plugin_dirs=dirs) as again:  # the edit kept, the editor closed
        assert not again.read_only
        assert again.state["mini.notes"].lines == ["ALPHA", "BETA"]


def test_a_plugin_folder_hashed_again_once_a_file_of_it_changes(tmp_path):
    """kernel/plugin_discovery.py keeps a folder's hash while its files' names, sizes and times
    stay the same (every game opened in a process hashes every plugin); an edit, a new file or a
    removed one is seen at once."""
    import os

    from kernel.plugin_discovery import content_hash

    folder = tmp_path / "mod"
    folder.mkdir()
    rules = folder / "rules.py"
    rules.write_text("A = 1\n")
    first = content_hash(folder)
    assert content_hash(folder) == first
    rules.write_text("A = 2\n")  # the same size: the time tells
    os.utime(rules, ns=(rules.stat().st_atime_ns, rules.stat().st_mtime_ns + 1_000_000))
    edited = content_hash(folder)
    assert edited != first
    (folder / "more.py").write_text("B = 1\n")
    added = content_hash(folder)
    assert added not in (first, edited)
    (folder / "more.py").unlink()
    assert content_hash(folder) == edited
    (folder / ".rules.py.swp").write_text("editor")  # an editor's leftover changes nothing
    assert content_hash(folder) == edited
