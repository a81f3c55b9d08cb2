"""The land combat result as one readable view (seeds, "Land Combat": the chart form shows the
results table with the column of the final odds highlighted and the die roll on a red
background, a legend of the codes below it; "Other feedback information": the die roll before
and after the modifiers, the effect on each side).

The table is authored data of the combat plugin; the window asks for it through the
front-end hook ``land_combat_chart`` (app/uihooks.py) and reads the rest from the
``LandCombatResolved`` event, so nothing here knows a rule."""

from __future__ import annotations

import pygame

from .placewords import hex_words
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
    place = hex_words(tuple(data["hex"])) if data.get("hex") else data.get("place", "?")  # never its coordinates
    lines = [f"<b>Land combat at {place}</b>: {data.get('table', '?').capitalize()} table"]
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
    widest = max((bold.size(code)[0] for cells in chart["cells"].values() for code in cells.values()), default=0)
    cell_w = max(cell_w, widest + 8)  # a naval cell holds several results ("X D A A")
    legend = chart.get("legend") or []
    table_h = CELL_H * (len(rows) + 2)
    s = pygame.Surface((max(width, ROW_HEAD_W + cell_w * len(columns) + 4), table_h + 8 + 17 * (len(legend) + 1)))
    s.fill(PAPER)
    s.blit(bold.render(chart.get("title", ""), True, INK), (4, 2))
    top = CELL_H + 2
    x0 = ROW_HEAD_W
    used_col, used_row = chart.get("column"), chart.get("row")
    # cells read: the one of (row, column), or a naval chart's "hits" (one per attacking side)
    hits = {tuple(h) for h in chart.get("hits") or ()} or {(used_row, used_col)}
    for col in {c for _, c in hits}:
        if col in columns:
            s.fill(COLUMN, (x0 + columns.index(col) * cell_w, top, cell_w, table_h - top))
    s.blit(bold.render(chart.get("row_head", "roll"), True, INK), (4, top + 2))
    for i, col in enumerate(columns):
        text = bold.render(col, True, INK)
        s.blit(text, (x0 + i * cell_w + (cell_w - text.get_width()) // 2, top + 2))
    for r, row in enumerate(rows):
        y = top + CELL_H * (r + 1)
        if any(row == r for r, _ in hits):
            s.fill(ROW, (0, y, x0, CELL_H))
        elif r % 2:
            s.fill(STRIPE, (0, y, x0, CELL_H))
        s.blit(bold.render(row, True, INK), (4, y + 2))
        for i, col in enumerate(columns):
            code = chart["cells"].get(row, {}).get(col, "")
            cell = pygame.Rect(x0 + i * cell_w, y, cell_w, CELL_H)
            hit = (row, col) in hits
            if hit:
                s.fill(DIE, cell)
            text = (bold if hit else f).render(code, True, (255, 255, 255) if hit else INK)
            s.blit(text, (cell.x + (cell_w - text.get_width()) // 2, y + 2))
        pygame.draw.line(s, STRIPE, (0, y), (s.get_width(), y))
    for i in range(len(columns) + 1):
        pygame.draw.line(s, STRIPE, (x0 + i * cell_w, top), (x0 + i * cell_w, table_h))
    y = table_h + 6
    for code, meaning in legend:
        s.blit(bold.render(code, True, INK), (4, y))
        s.blit(f.render(meaning, True, INK), (90, y))
        y += 17
    return s


# ---------------------------------------------------------------- the naval combat results
RESULT_COLUMNS = (("Possible", 64), ("Unit", 0), ("Defence", 62), ("Die", 34), ("Effect", 50), ("Cumulative", 190))


def naval_results_surface(rows: list[dict], width: int) -> pygame.Surface:
    """Seeds, "Naval Combat Results" (Form Layout): the running table of the round's results,
    Possible, Effect and Cumulative, with the unit, its defence and the die rolled against it
    (the die on red, as the land chart shows it)."""
    from .detailed import font

    f, bold = font(16), font(16, bold=True)
    fixed = sum(w for _, w in RESULT_COLUMNS)
    widths = [w or max(120, width - fixed) for _, w in RESULT_COLUMNS]
    s = pygame.Surface((sum(widths), CELL_H * (len(rows) + 1) + 4))
    s.fill(PAPER)
    x = 0
    for (head, _), w in zip(RESULT_COLUMNS, widths):
        s.blit(bold.render(head, True, INK), (x + 4, 2))
        x += w
    for i, row in enumerate(rows):
        y = CELL_H * (i + 1) + 2
        if i % 2:
            s.fill(STRIPE, (0, y, s.get_width(), CELL_H))
        values = (row.get("possible"), row.get("name"), row.get("defence"), row.get("roll"), row.get("effect"),
                  row.get("cumulative"))
        x = 0
        for (head, _), w, value in zip(RESULT_COLUMNS, widths, values):
            text = "" if value is None else (f"{value:g}" if isinstance(value, float) else str(value))
            if head == "Die":
                s.fill(DIE, (x + 2, y + 1, w - 4, CELL_H - 2))
            while text and f.size(text)[0] > w - 6:
                text = text[:-1]
            s.blit((bold if head in ("Die", "Effect") else f).render(text, True, (255, 255, 255) if head == "Die" else INK),
                   (x + 4, y + 2))
            x += w
    return s
