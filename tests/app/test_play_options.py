"""`wif play` options of issue 11: ``--read-only`` opens a save whose plugins differ (item 11),
and the quick start (``--scenario``) has the optional-rule framework, so Ctrl+O lists the rules
(item 12).  Real pygame events on the real window (SDL_VIDEODRIVER=dummy)."""

from types import SimpleNamespace

import pygame
import pytest

from app import play
from app.cli import build_parser
from kernel.game import Game
from kernel.store import EventStore


def args(**given):
    base = dict(save=None, scenario=None, dev=False, read_only=False, frames=2, screenshot=None)
    return SimpleNamespace(**(base | given))


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))


def played_with_other_plugins(path):
    """A save whose recorded 'units' plugin is not the one installed."""
    Game.new("barbarossa", path, seed=1).close()
    store = EventStore.open(path)
    plugins = store.meta("plugins")
    plugins["units"] = plugins["units"] | {"hash": "0000000000000000"}
    store.set_meta("plugins", plugins)
    store.close()


def test_read_only_opens_a_save_whose_plugins_differ(tmp_path, config, capsys):
    save = tmp_path / "other.wif"
    played_with_other_plugins(save)
    assert play.main(args(save=str(save))) == 1
    assert "--read-only" in capsys.readouterr().out  # the refusal says how to look at it
    assert build_parser().parse_args(["play", "--read-only", str(save)]).read_only
    shot = tmp_path / "shot.png"
    assert play.main(args(save=str(save), read_only=True, screenshot=str(shot))) == 0
    out = capsys.readouterr().out
    assert "read-only: plugin 'units'" in out and "has changed" in out
    assert pygame.image.load(str(shot)).get_size() == (1024, 768)


def test_the_read_only_window_says_why_and_refuses_commands(tmp_path, config, monkeypatch):
    from app import scenes

    save = tmp_path / "other.wif"
    played_with_other_plugins(save)
    seen = {}
    monkeypatch.setattr(scenes.SceneStack, "run", lambda stack, **kw: seen.update(window=stack.top.window))
    assert play.main(args(save=str(save), read_only=True)) == 0
    window = seen["window"]
    assert any(text.startswith("read-only: plugin 'units'") for text, _ in window.messages)
    assert not window.game.submit({"type": "FinishStep", "actor": "germany"}).accepted


def test_ctrl_o_in_a_quick_start_game_lists_the_rules(tmp_path, config, monkeypatch):
    """`wif play --scenario barbarossa`: the game has the optional-rule framework, so Ctrl+O
    (a real key event on the window) opens the rules list."""
    from app import scenes

    monkeypatch.setattr(play, "new_save_path", lambda scenario: tmp_path / f"{scenario}.wif")
    seen = {}

    def run(stack, **kw):  # the main loop's first frames, then look at the window
        window = stack.top.window
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=pygame.KMOD_CTRL, unicode="o",
                                             scancode=18))
        for event in pygame.event.get():
            stack.top.handle(event)
        window.draw()
        form = window.rules_form
        seen.update(in_play=form.in_play, rows=form.rows(), shown=[r.text for r in form.shown])

    monkeypatch.setattr(scenes.SceneStack, "run", run)
    assert play.main(args(scenario="barbarossa")) == 0
    # 64 rules are shown to players: the catalogue holds 74, and the 10 no source names are kept out
    assert seen["in_play"] and len(seen["rows"]) == 64 and not any(r["on"] for r in seen["rows"])
    assert all(r["description"] for r in seen["rows"])
    assert seen["shown"] and all(text.startswith("OFF  ") for text in seen["shown"])
    with Game.open(tmp_path / "barbarossa.wif") as game:
        assert "optional-rules" in game.host.infos
