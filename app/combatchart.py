"""The land combat result as one readable view (seeds, "Land Combat": the chart form shows the
results table with the column of the final odds highlighted and the die roll on a red
background, a legend of the codes below it; "Other feedback information": the die roll before
and after the modifiers, the effect on each side).

The table is authored data of the combat plugin; the window asks for it through the
front-end hook ``land_combat_chart`` (app/uihooks.py) and reads the rest from the
``LandCombatResolved`` event, so nothing here knows a rule."""

from __future__ import annotations

import pygame

from .uihooks import ask_game

PAPER = (236, 234, 224)
STRIPE = (222, 220, 208)
COLUMN = (250, 226, 150)  # the final odds' column
ROW = (214, 226, 244)  # the modified roll's row
DIE = (214, 40, 40)  # seeds: "The die roll is shown with a red background"
INK = (0, 0, 0)
CELL_W, CELL_H, ROW_HEAD_W = 52, 19, 56


def signed(n) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def chart_for(game, data: dict) -> dict | None:
    """The chart of the table a LandCombatResolved used, with its column and row, or None
    when no plugin publishes it (or the result came from another table, e.g. 2D10)."""
    chart = ask_game(game, "land_combat_chart", table=data.get("table"), odds=data.get("odds"),
                     modified=data.get("modified"), crt=data.get("crt", "1d10"))
    if not chart or (chart.get("row") is not None and data.get("result") != chart["cells"][chart["row"]]
                     .get(chart.get("column"))):
        return None  # the event's result is not this table's cell: show the words alone
    return chart


def result_lines(data: dict, chart: dict | None) -> list[str]:
    """The combat in words: factors and odds, shifts, the die and its modifiers, the result."""
    lines = [f"<b>Land combat at {data.get('place', '?')}</b>: {data.get('table', '?').capitalize()} table"]
    shifts = ", ".join(f"{why} {signed(n)}" for why, n in (data.get("shifts") or {}).items())
    odds = data.get("odds")
    if odds == "auto":
        lines.append(f"attack {data.get('attack')} against defence {data.get('defence')}: no defending factors, "
                     f"an automatic result")
    else:
        column = f" (read on the {chart['column']} column)" if chart and chart.get("column") not in (None, odds) else ""
        lines.append(f"attack {data.get('attack')} against defence {data.get('defence')}: "
                     f"{data.get('base_odds') or odds}" + (f"; shifts: {shifts}" if shifts else "")
                     + f"; final odds <b>{odds}</b>{column}")
        drm = ", ".join(f"{why} {signed(n)}" for why, n in (data.get("drm") or {}).items()) or "none"
        lines.append(f"die <b>{data.get('roll')}</b>; modifiers: {drm}; modified roll <b>{data.get('modified')}</b>")
    losses = data.get("losses") or {}
    lines.append(f"result <b>{data.get('result')}</b>: the attacker loses {losses.get('attacker', 0)}, "
                 f"the defender {losses.get('defender', 0)} land unit(s)" + effects(data.get("result", "")))
    return lines


def effects(code: str) -> str:
    """What the letters of a result add (Land Combat, "Retreats", "Shatter", "Disorganization")."""
    defender = code.split("/")[-1]
    said = [text for letter, text in (("R", "the defenders retreat"), ("S", "shattered"),
                                      ("B", "breakthrough")) if letter in defender]
    if code.startswith("*"):
        said.append("the attackers stay organized")
    return "; " + ", ".join(said) if said else ""


def chart_surface(chart: dict, width: int) -> pygame.Surface:
    """The table as one picture: odds across, modified rolls down, the used column and row
    shaded, the cell read in red, the legend of codes below."""
    from .detailed import font

    columns, rows = chart["columns"], chart["rows"]
    cell_w = max(40, min(CELL_W, (width - ROW_HEAD_W - 8) // max(1, len(columns))))
    f, bold = font(16), font(16, bold=True)
    legend = chart.get("legend") or []
    table_h = CELL_H * (len(rows) + 2)
    s = pygame.Surface((width, table_h + 8 + 17 * (len(legend) + 1)))
    s.fill(PAPER)
    s.blit(bold.render(chart.get("title", ""), True, INK), (4, 2))
    top = CELL_H + 2
    x0 = ROW_HEAD_W
    used_col, used_row = chart.get("column"), chart.get("row")
    if used_col in columns:
        s.fill(COLUMN, (x0 + columns.index(used_col) * cell_w, top, cell_w, table_h - top))
    s.blit(bold.render("roll", True, INK), (4, top + 2))
    for i, col in enumerate(columns):
        text = bold.render(col, True, INK)
        s.blit(text, (x0 + i * cell_w + (cell_w - text.get_width()) // 2, top + 2))
    for r, row in enumerate(rows):
        y = top + CELL_H * (r + 1)
        if row == used_row:
            s.fill(ROW, (0, y, x0, CELL_H))
        elif r % 2:
            s.fill(STRIPE, (0, y, x0, CELL_H))
        s.blit(bold.render(row, True, INK), (4, y + 2))
        for i, col in enumerate(columns):
            code = chart["cells"].get(row, {}).get(col, "")
            cell = pygame.Rect(x0 + i * cell_w, y, cell_w, CELL_H)
            hit = row == used_row and col == used_col
            if hit:
                s.fill(DIE, cell)
            text = (bold if hit else f).render(code, True, (255, 255, 255) if hit else INK)
            s.blit(text, (cell.x + (cell_w - text.get_width()) // 2, y + 2))
        pygame.draw.line(s, STRIPE, (0, y), (width, y))
    for i in range(len(columns) + 1):
        pygame.draw.line(s, STRIPE, (x0 + i * cell_w, top), (x0 + i * cell_w, table_h))
    y = table_h + 6
    for code, meaning in legend:
        s.blit(bold.render(code, True, INK), (4, y))
        s.blit(f.render(meaning, True, INK), (90, y))
        y += 17
    return s
