"""The game window as a program: Enter finishes a step, Esc quits, `wif play` runs and saves
a screenshot; a game without units (the kernel's skirmish) still shows its map."""

from types import SimpleNamespace

import pygame
import pytest

from app import play
from kernel.game import Game


@pytest.fixture
def window(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    game = Game.new("skirmish", tmp_path / "w.wif", seed=1)
    pygame.display.init()
    pygame.font.init()
    win = play.GameWindow(game)
    yield win
    pygame.quit()
    game.close()


def test_window_draws_the_game_position_and_the_map(window):
    window.draw()
    surface = window.screen
    assert surface.get_size() == (1024, 768)
    main = window.panels["main"].body
    light = sum(1 for x in range(main.x, main.x + 300) for y in range(main.y, main.y + 30)
                if sum(surface.get_at((x, y))[:3]) > 500)
    assert light > 100  # the step and the players waited for are written there
    body = window.panels["detailed"].body
    assert surface.get_at(body.center)[:3] != play.BACKGROUND  # the map is drawn


def test_enter_key_finishes_the_step_for_the_pending_power(window):
    game = window.game
    assert game.state.kernel.sequence.current.endswith("movement")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40))
    for event in pygame.event.get():
        assert window.handle(event)
    assert game.state.kernel.sequence.current.endswith("combat")
    assert window.messages[-1][0] == "red: finished"


def test_escape_asks_before_quitting_and_quit_closes_the_window(window):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41))
    assert [window.handle(e) for e in pygame.event.get() if e.type == pygame.KEYDOWN] == [True]
    confirm = window.confirm_quit
    assert confirm is not None
    window.draw()
    at = next(b for b in confirm.owned if b.text == "Quit").rect.center
    for e in (pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1)):
        pygame.event.post(e)
    for _ in range(3):
        for e in pygame.event.get():
            window.handle(e)
        window.draw()
    assert not window.running and window.handle(pygame.event.Event(pygame.USEREVENT)) is False


def test_play_without_a_save_shows_the_start_new_game_form(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(play, "new_save_path", lambda scenario: tmp_path / f"{scenario}.wif")
    shot = tmp_path / "shot.png"
    args = SimpleNamespace(save=None, scenario=None, dev=False, frames=2, screenshot=str(shot))
    assert play.main(args) == 0
    assert not (tmp_path / "barbarossa.wif").exists()  # nothing is created until Start
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1024, 768)


def test_play_command_opens_a_save_and_saves_a_screenshot(tmp_path, monkeypatch):
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    Game.new("barbarossa", tmp_path / "b.wif", seed=1).close()
    shot = tmp_path / "shot.png"
    args = SimpleNamespace(save=str(tmp_path / "b.wif"), scenario="barbarossa", dev=False, frames=2,
                           screenshot=str(shot))
    assert play.main(args) == 0
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1024, 768)


def test_play_with_a_scenario_starts_it_at_once(tmp_path, monkeypatch):
    """What the quick start's `tools/dev.py play` does: a new Barbarossa game, on the map."""
    monkeypatch.setenv("WIF_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(play, "new_save_path", lambda scenario: tmp_path / f"{scenario}.wif")
    shot = tmp_path / "shot.png"
    args = SimpleNamespace(save=None, scenario="barbarossa", dev=False, frames=2, screenshot=str(shot))
    assert play.main(args) == 0
    assert (tmp_path / "barbarossa.wif").exists()
    with Game.open(tmp_path / "barbarossa.wif") as game:
        assert game.state.kernel.scenario == "barbarossa"
    assert pygame.image.load(str(shot)).get_size() == (1024, 768)
