"""Ship counters a player can read (issue 14, "On the map and in the forms"): each naval class
has its own silhouette on the counter, from the sea boxes' smallest counters (22 px, zoom 4)
up, so a carrier is told from a battleship, a cruiser, a destroyer flotilla, a submarine, a
transport, an amphibious ship and a convoy without opening a form."""

from __future__ import annotations

import itertools

import pygame
import pytest

from app.counters import counter_picture
from plugins.rules.units import Unit

CLASSES = ("cv", "bb", "ca", "dd", "sub", "trs", "amph", "convoy")


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    yield
    pygame.quit()


def ship(type_: str) -> Unit:
    return Unit(id=type_, power="usa", branch="naval", type=type_, name="Yorktown",
                factors={"attack": 5, "defense": 4, "aa": 2, "speed": 5, "range": 9})


@pytest.mark.parametrize("size", [22, 26, 46])
def test_every_naval_class_has_its_own_silhouette(size):
    pictures = {t: pygame.image.tobytes(counter_picture(ship(t), size), "RGB") for t in CLASSES}
    for a, b in itertools.combinations(CLASSES, 2):
        assert pictures[a] != pictures[b], f"{a} and {b} look the same at {size} px"
