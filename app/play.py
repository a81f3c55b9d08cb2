"""The game window.  Until the map renderer lands (issue 4) it shows the game's position in
the sequence of play and its latest events; Enter finishes the current step for the first
power still to decide; Escape quits.  With ``--dev`` plugins hot reload while it runs."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame

from kernel.errors import WifError
from kernel.game import Game

REPO_ROOT = Path(__file__).resolve().parent.parent
SIZE = (1024, 640)
BACKGROUND = (24, 28, 36)
TEXT = (230, 230, 220)
DIM = (150, 150, 140)
ACCENT = (220, 80, 60)
GOOD = (120, 200, 120)


def new_save_path(scenario: str) -> Path:
    return REPO_ROOT / "saves" / f"{scenario}-{time.strftime('%Y%m%d-%H%M%S')}.wif"


class PlaceholderWindow:
    def __init__(self, game: Game, reloader=None):
        self.game = game
        self.reloader = reloader
        self.messages: list[tuple[str, tuple[int, int, int]]] = []
        self.screen = pygame.display.set_mode(SIZE)
        pygame.display.set_caption(f"World in Flames — {game.state.kernel.scenario}")
        self.font = pygame.font.Font(None, 26)
        self.big = pygame.font.Font(None, 44)
        if reloader is not None:
            reloader.listeners.append(lambda r: self.say(r.message, GOOD if r.ok else ACCENT))

    def player(self) -> str:
        """Whose eyes the window shows: the player of the first power still to decide."""
        k = self.game.state.kernel
        for who in k.sequence.pending:
            power = k.sides[who][0] if who in k.sides else who
            if power in k.controllers:
                return k.controllers[power]
        return next(iter(k.controllers.values()), "solo")

    def say(self, text: str, colour=TEXT) -> None:
        self.messages = (self.messages + [(text, colour)])[-4:]

    def handle(self, event) -> bool:
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            return False
        if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN:
            pending = self.game.state.kernel.sequence.pending
            if pending:
                actor = pending[0]
                k = self.game.state.kernel
                if actor in k.sides and k.sides[actor]:
                    actor = k.sides[actor][0]
                outcome = self.game.submit({"type": "FinishStep", "actor": actor}, player=None)
                self.say(f"{actor}: finished" if outcome.accepted else outcome.reason,
                         GOOD if outcome.accepted else ACCENT)
        return True

    def draw(self) -> None:
        k = self.game.state.kernel
        seq = k.sequence
        s = self.screen
        s.fill(BACKGROUND)
        s.blit(self.big.render("World in Flames", True, TEXT), (24, 20))
        lines = [
            (f"Scenario: {k.scenario}    Save: {self.game.path.name}", TEXT),
            (f"Turn {k.turn}, impulse {k.impulse}    Active side: {k.active_side or '-'}", TEXT),
            (f"Step: {seq.current or '-'}{'   (game over)' if seq.finished else ''}", TEXT),
            (f"Waiting for: {', '.join(seq.pending) or 'nobody'}    (Enter: finish step, Esc: quit)", DIM),
            ("The map arrives with the renderer; this window shows the sequence of play.", DIM),
        ]
        y = 76
        for text, colour in lines:
            s.blit(self.font.render(text, True, colour), (24, y))
            y += 28
        y += 10
        s.blit(self.font.render("Latest events", True, ACCENT), (24, y))
        y += 30
        last = k.seq
        for rec in self.game.history(max(1, last - 11), last, player=self.player()):
            s.blit(self.font.render(f"{rec.seq:>6}  {self.game.describe(rec)}"[:110], True, TEXT), (24, y))
            y += 24
        y = SIZE[1] - 28 * len(self.messages) - 10
        for text, colour in self.messages:
            s.blit(self.font.render(text[:120], True, colour), (24, y))
            y += 28


def main(args) -> int:
    if args.save:
        game = Game.open(args.save)
    else:
        path = new_save_path(args.scenario)
        game = Game.new(args.scenario, path)
        print(f"new game of {args.scenario}: {path}")
    reloader = None
    if args.dev:
        from kernel.hotreload import PluginReloader

        reloader = PluginReloader(game)
        reloader.start()
    pygame.display.init()
    pygame.font.init()
    try:
        window = PlaceholderWindow(game, reloader)
        clock = pygame.time.Clock()
        frames = 0
        running = True
        while running:
            for event in pygame.event.get():
                running = window.handle(event) and running
            if reloader is not None:
                reloader.process_pending()
            window.draw()
            pygame.display.flip()
            frames += 1
            if args.frames is not None and frames >= args.frames:
                running = False
            clock.tick(30)
        if args.screenshot:
            pygame.image.save(window.screen, args.screenshot)
    except WifError as exc:
        print(f"error: {exc}")
        return 1
    finally:
        if reloader is not None:
            reloader.stop()
        pygame.quit()
        game.close()
    return 0
