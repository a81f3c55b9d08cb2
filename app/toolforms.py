"""The forms a player reaches for while playing, over the map: Find (Ctrl+F, app/findform.py),
Unit Review (Ctrl+U, app/unitreview.py), Naval Review (Ctrl+N, app/navalreview.py) and the
supply layer (Ctrl+S, app/supplylayer.py).
The game window's keys call ``key``; Esc closes the top one of these forms first."""

from __future__ import annotations

import pygame

from .supplylayer import SupplyLayer
from .uihooks import ask_game
from .windowstyle import DIM

KEYS = {pygame.K_f: "find", pygame.K_u: "unit review", pygame.K_s: "supply layer",
        pygame.K_n: "naval review"}  # with Ctrl


def open_forms(window) -> list:
    """The Find and Unit Review forms open on ``window``, oldest first."""
    forms = window.__dict__.setdefault("tool_forms", [])
    forms[:] = [f for f in forms if not f.closed]
    return forms


def supply_layer(window) -> SupplyLayer | None:
    return next((layer for layer in window.ui.layers if isinstance(layer, SupplyLayer)), None)


def open_tool(window, name: str):
    """Open (or bring back) the form ``name``; the supply layer is switched on or off."""
    if name == "supply layer":
        layer = supply_layer(window)
        if layer is None:
            window.say("no supply layer is loaded", DIM)
            return None
        window.say(layer.toggle(), DIM)
        return layer
    if name == "find":
        from .findform import FindForm as make
    elif name == "unit review":
        from .unitreview import UnitReview as make
    elif name == "naval review":
        from .navalreview import NavalReview as make
    else:
        raise ValueError(f"no form {name!r}: {', '.join(KEYS.values())}")
    if name == "unit review" and window.game is None:
        window.say("Unit Review needs a game", DIM)
        return None
    if name == "naval review" and (window.game is None or ask_game(window.game, "naval_review",
                                                                  state=window.game.state) is None):
        window.say("Naval Review: this game has no naval rules", DIM)
        return None
    forms = open_forms(window)
    for form in [f for f in forms if isinstance(f, make)]:
        form.close()  # one of each: a second Ctrl+F starts a fresh search
    form = make(window)
    open_forms(window).append(form)
    return form


def close_top(window) -> bool:
    forms = open_forms(window)
    if not forms:
        return False
    forms[-1].close()
    open_forms(window)
    return True


def key(window, key: int, ctrl: bool) -> bool:
    """Ctrl+F, Ctrl+U, Ctrl+S; Esc closes the top form of these.  True when used."""
    if key == pygame.K_ESCAPE:
        return close_top(window)
    if ctrl and key in KEYS:
        open_tool(window, KEYS[key])
        return True
    return False
