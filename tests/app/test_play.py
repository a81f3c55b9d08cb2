"""The game window (placeholder until the renderer): real events, real pixels."""

from types import SimpleNamespace

import pygame
import pytest

from app import play
from kernel.game import Game


@pytest.fixture
def window(tmp_path):
    game = Game.new("skirmish", tmp_path / "w.wif", seed=1)
    pygame.display.init()
    pygame.font.init()
    win = play.PlaceholderWindow(game)
    yield win
    pygame.quit()
    game.close()


def test_window_draws_the_game_position(window):
    window.draw()
    surface = window.screen
    assert surface.get_size() == play.SIZE
    assert surface.get_at((5, 5))[:3] == play.BACKGROUND
    # text was drawn: some pixels in the title area are light
    light = sum(1 for x in range(24, 300) for y in range(20, 60) if sum(surface.get_at((x, y))[:3]) > 500)
    assert light > 200


def test_enter_key_finishes_the_step_for_the_pending_power(window):
    game = window.game
    assert game.state.kernel.sequence.current.endswith("movement")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=40))
    for event in pygame.event.get():
        assert window.handle(event)
    assert game.state.kernel.sequence.current.endswith("combat")
    assert window.messages[-1][0] == "red: finished"


def test_escape_quits(window):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41))
    assert [window.handle(e) for e in pygame.event.get() if e.type == pygame.KEYDOWN] == [False]


def test_play_command_opens_barbarossa_and_saves_a_screenshot(tmp_path, monkeypatch):
    monkeypatch.setattr(play, "new_save_path", lambda scenario: tmp_path / f"{scenario}.wif")
    shot = tmp_path / "shot.png"
    args = SimpleNamespace(save=None, scenario="barbarossa", dev=False, frames=2, screenshot=str(shot))
    assert play.main(args) == 0
    assert (tmp_path / "barbarossa.wif").exists()
    image = pygame.image.load(str(shot))
    assert image.get_size() == play.SIZE
