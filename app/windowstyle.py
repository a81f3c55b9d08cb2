"""The game window's look and the pieces its parts share: colours, the title bar of a panel,
the panels' titles, the keys that toggle map layers, and the frame budget."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from .views import WindowGeometry

REPO_ROOT = Path(__file__).resolve().parent.parent
BACKGROUND = (24, 28, 36)
TEXT = (230, 230, 220)
DIM = (150, 150, 140)
ACCENT = (220, 80, 60)
GOOD = (120, 200, 120)
FORM = (46, 52, 64)
TITLE_BAR = (70, 80, 100)
TITLE_H = 18
ROLL_ICON = pygame.Rect(3, 3, 12, 12)  # seeds: the small icon at the top left rolls a form up
TITLES = {"main": "World in Flames", "layouts": "Screen layouts", "mapviews": "Map views",
          "detailed": "Detailed map", "global": "Global map", "legend": "Global map legend",
          "sequence": "Sequence of play", "units_in_hex": "Units in hex", "selectable": "Selectable units",
          "play": "Play", "setup_tray": "Setup Tray"}
LAYER_KEYS = {pygame.K_t: "terrain", pygame.K_s: "hexsides", pygame.K_r: "rail", pygame.K_l: "labels",
              pygame.K_z: "weather_zones", pygame.K_w: "weather", pygame.K_h: "control", pygame.K_u: "units"}
AUTOSCROLL_BORDER = 10
FORM_KINDS = ("play", "selectable", "setup_tray")  # layout windows that are pygame_gui forms, not panels
DRAG_THRESHOLD = 5
FRAME_SECONDS = 1 / 60
PREFETCH_MARGIN = 0.004  # leave room for event handling, the flip and the timer's jitter



@dataclass
class Panel:
    key: str
    geometry: WindowGeometry
    title: str

    @property
    def rect(self) -> pygame.Rect:
        g = self.geometry
        return pygame.Rect(g.x, g.y, g.w, TITLE_H if g.rolled else g.h)

    @property
    def body(self) -> pygame.Rect:
        g = self.geometry
        return pygame.Rect(g.x, g.y + TITLE_H, g.w, max(1, g.h - TITLE_H))

    @property
    def kind(self) -> str:
        return self.key.split("-")[0]


@dataclass
class Settings:
    autoscroll: int = 2  # seeds: sensitivity; 0 turns the autoscroll border off
    scroll_step: int = 1

