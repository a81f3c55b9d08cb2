"""Two writers on one save: the second to store a command decided on an old state is refused
("the game moved on: refresh"), inside the append transaction, and nothing of it is stored."""

import os
import subprocess
import sys
from pathlib import Path

from kernel.game import Game
from kernel.verify import verify

ROOT = Path(__file__).resolve().parents[2]


def test_two_games_on_one_save_the_loser_is_told_to_refresh(mini, save):
    first = Game.new("mini", save, seed=1, plugin_dirs=mini)
    second = Game.open(save, plugin_dirs=mini)
    try:
        assert first.submit({"type": "Note", "actor": "n1", "text": "from the first"}).accepted
        head = first.store.last()
        outcome = second.submit({"type": "Note", "actor": "n1", "text": "from the second"})
        assert not outcome.accepted
        assert outcome.reason.startswith("the game moved on: refresh")
        assert first.store.last() == head  # nothing of the loser's command stored
        # the loser now holds what the store holds, and may decide again
        assert second.state.to_json() == first.state.to_json()
        assert second.submit({"type": "Note", "actor": "n1", "text": "again"}).accepted
        assert first.refresh() > 0 and first.state["mini.notes"].lines == ["from the first", "again"]
    finally:
        first.close()
        second.close()
    assert verify(save, plugin_dirs=mini).ok


RACER = """
import sys
sys._called_from_test = True
from kernel.game import Game
game = Game.open(sys.argv[1], plugin_dirs=[__import__("pathlib").Path(sys.argv[2])])
accepted = refused = 0
for n in range(int(sys.argv[3])):
    out = game.submit({"type": "Note", "actor": "n1", "text": f"{sys.argv[4]} {n}"})
    if out.accepted:
        accepted += 1
    else:
        assert out.reason.startswith("the game moved on: refresh"), out.reason
        refused += 1
        game.refresh()
print(accepted, refused, flush=True)
"""


def test_two_processes_submitting_to_one_save_lose_nothing_and_fork_nothing(mini, save):
    game = Game.new("mini", save, seed=1, plugin_dirs=mini)
    base = game.state.kernel.seq
    game.close()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(save), str(mini[0]), "150", name],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT, text=True)
              for name in ("a", "b")]
    counts = []
    for racer in racers:
        out, err = racer.communicate(timeout=300)
        assert racer.returncode == 0, err
        counts.append([int(x) for x in out.split()])
    accepted = sum(c[0] for c in counts)
    print("accepted, refused per process:", counts)
    assert verify(save, plugin_dirs=mini).ok
    with Game.open(save, plugin_dirs=mini) as again:
        lines = again.state["mini.notes"].lines
        assert len(lines) == accepted  # every acknowledged note stored once, no other
        assert again.state.kernel.seq > base
