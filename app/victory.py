"""The Victory form's content (seeds, "Victory"): the result in words (the kernel hook
``game_result``) and the table of objectives (the front-end hook ``victory_standing``),
totalled per major power and per side."""

from __future__ import annotations

import pygame

import re

from . import mapstyle
from .uihooks import ask_game
from .wording import power_name


def victory_report(game) -> dict:
    """``lines`` (the result), ``rows`` (name, hex, value, controller, credited {power:
    share}), ``totals`` per power, ``sides`` per side and ``totals_text``; empty rows when the
    scenario publishes no standing."""
    state = game.state
    result = game.host.pm.hook.game_result(state=state)
    standing = ask_game(game, "victory_standing", state=state) or {}
    text = result.get("text") if result else standing.get("result")
    totals, rows = dict(standing.get("totals") or {}), list(standing.get("rows") or [])
    sides: dict[str, float] = {}
    for power, value in totals.items():
        side = state.kernel.side_of(power) or power
        sides[side] = sides.get(side, 0.0) + value
    if text:  # the scenario's sentence may name a power by its id ("(germany 4.5)"): by its name
        for name in sorted(set(totals) | set(sides), key=len, reverse=True):
            text = re.sub(rf"\b{re.escape(name)}\b", power_name(name), text)
    lines = [f"<b>{text}</b> (turn {state.kernel.turn})"] if text else []
    totals_text = "Objectives: " + ", ".join(f"{power_name(p)} <b>{v:g}</b>" for p, v in totals.items())
    if sides and set(sides) != set(totals):
        totals_text += "; per side: " + ", ".join(f"{power_name(s)} <b>{v:g}</b>" for s, v in sides.items())
    return {"lines": lines, "rows": rows, "totals": totals, "sides": sides, "totals_text": totals_text}


def victory_table_surface(report: dict, width: int) -> pygame.Surface:
    """The objectives table drawn as one picture (pygame_gui has no table element): objective,
    value, controller, and the value each power gets, in the powers' colours."""
    from .detailed import font

    powers = list(report["totals"]) or sorted({p for r in report["rows"] for p in r.get("credited", {})})
    columns = [("Objective", 0), ("Hex", 0.28), ("Value", 0.40), ("Held by", 0.50)]
    step = 0.32 / max(1, len(powers))
    columns += [(power_name(p), 0.68 + step * i) for i, p in enumerate(powers)]
    row_h = 18
    s = pygame.Surface((width, row_h * (len(report["rows"]) + 2) + 4))
    s.fill((236, 234, 224))
    f, bold = font(17), font(17, bold=True)
    for title, at in columns:
        s.blit(bold.render(title, True, (0, 0, 0)), (int(at * width) + 4, 2))
    y = row_h + 2
    for i, row in enumerate(report["rows"]):
        if i % 2:
            s.fill((222, 220, 208), (0, y, width, row_h))
        holder = row.get("controller") or "neutral"
        cells = [row.get("name", "?"), ",".join(str(v) for v in row.get("hex", [])), f"{row.get('value', 0):g}",
                 power_name(holder)]
        for (title, at), text in zip(columns, cells):
            s.blit(f.render(str(text), True, (0, 0, 0)), (int(at * width) + 4, y + 1))
        swatch_x = int(columns[3][1] * width) - 10
        pygame.draw.rect(s, mapstyle.power_colour(holder), (swatch_x, y + 4, 10, 10))
        for power, (_title, at) in zip(powers, columns[4:]):
            share = row.get("credited", {}).get(power)
            if share:
                s.blit(f.render(f"{share:g}", True, mapstyle.power_colour(power)), (int(at * width) + 4, y + 1))
        y += row_h
    for power, (_title, at) in zip(powers, columns[4:]):
        s.blit(bold.render(f"{report['totals'].get(power, 0):g}", True, (0, 0, 0)), (int(at * width) + 4, y + 1))
    s.blit(bold.render("Total", True, (0, 0, 0)), (4, y + 1))
    return s
