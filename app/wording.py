"""What the player reads instead of internal ids (issue 11, "Nothing shows internal ids to a
player"): steps by their titles from the sequence of play (seeds, "Sequence of Play"), command
types in words, and an event no plugin describes in words rather than as ``Type(field=...)``.

Everything here asks the game (its sequence index); nothing knows a rule."""

from __future__ import annotations

import re
from functools import lru_cache

from .commandfill import title_of
from .placewords import hex_words, unit_type_words

STEP_ID = re.compile(r"\bwif(?:\.[a-z0-9][a-z0-9_-]*)+")
RAW_EVENT = re.compile(r"^([A-Z][A-Za-z0-9]+)\((.*)\)$", re.S)
DICE_LINE = re.compile(r"\bsystem: rolled \[([\d, ]*)\] on d(\d+) for ([^\n]*)")  # kernel/builtin.py's text
SYSTEM_ACTOR = re.compile(r"^system: ")  # the kernel's actor for what no player decided

UNIT_ID = re.compile(r" \(([a-z0-9][\w.-]*)\)")  # "(su-balt-ftr)" after a unit's name
SLUG = re.compile(r"\(([a-z]+(?:-[a-z]+)*-[0-9]+)\)")  # an id numbered in parentheses: "(reinforcements-turn-2)"
HEX_TUPLE = re.compile(r"(?:\bhex )?\((\d{1,3}), (\d{1,3})\)")  # a hex as Python writes a tuple
# a rule's label of a unit or hex (plugins/rules/land/labels.py, combat/labels.py): the type code
# in parentheses ("(inf, 202,50)", "(inf 3)"), a hex as "202,50" after a unit's type, before its
# terrain ("202,49 (clear)"), or after "hex "; a city's coordinates before its terrain
TYPE_CODE = re.compile(r"\(([a-z][a-z-]*)(?=[ ,)])")
UNIT_HEX = re.compile(r"(\([a-z][A-Za-z -]*, )(\d{1,3}),(\d{1,3})\)")
TERRAIN_HEX = re.compile(r"(?<![\d,])(\d{1,3}),(\d{1,3}) \((?=[a-z][a-z ]*\))")
CITY_HEX = re.compile(r"(\b[A-Z][^\s(]* )\(\d{1,3},\d{1,3}, (?=[a-z][a-z ]*\))")
AT_HEX = re.compile(r"\b(at|placed at) (\d{1,3}),(\d{1,3})\b(?!,?\d)")  # "(inf, placed at 223,47)"
WORD_HEX = re.compile(r"\bhex (\d{1,3}),(\d{1,3})\b(?!,?\d)")
COMBAT_ID = re.compile(r"\(combat \d{1,3},\d{1,3}, ")  # a die's purpose: "land combat at X (combat 207,52, 3:1 blitz)"
FROM_HEX = re.compile(r"(?<![\d,])(\d{1,3}),(\d{1,3})(?= (?:→|->) )")  # a move's "206,52 → 206,51"
TO_HEX = re.compile(r"((?:→|->) )(\d{1,3}),(\d{1,3})\b(?!,?\d)")
COMMAND_TYPE = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\b")  # MoveLandUnit, FlyCAP: only the game's own


def humanize(part: str) -> str:
    """``land-combat-die-rolls`` -> ``Land combat die rolls`` (a step the sequence has no title for)."""
    text = part.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


SHORT_NAMES = {"ussr": "USSR", "usa": "USA"}  # powers whose name is written in capitals


def power_name(power: str | None) -> str:
    """A power or side as the player reads it: "USSR", "Germany", "Commonwealth", "Axis"."""
    if not power:
        return ""
    return SHORT_NAMES.get(power, " ".join(w.capitalize() for w in power.replace("-", " ").split()))


def scenario_title(game) -> str:
    """The scenario as its plugin names it ("Barbarossa"), not its id."""
    scenario = game.state.kernel.scenario
    info = (getattr(getattr(game, "host", None), "infos", None) or {}).get(scenario)
    name = getattr(getattr(info, "manifest", None), "name", None)
    return name or humanize(scenario or "")


def step_title(game, step_id: str | None) -> str:
    """The step's title as the sequence of play gives it (never its dotted id)."""
    if not step_id:
        return "-"
    index = getattr(game, "sequence_index", None)
    spec = index.specs.get(step_id) if index is not None else None
    if spec is not None and spec.title:
        return spec.title
    return humanize(step_id.rsplit(".", 1)[-1])


def step_trail(game, step_id: str | None) -> list[str]:
    """Stage, phase ... step: the titles of the step and of the containers it is in (the
    sequence's root, "wif", left out)."""
    if not step_id:
        return []
    parts = step_id.split(".")
    return [step_title(game, ".".join(parts[:n])) for n in range(2, len(parts) + 1)]


def in_words(game, text: str) -> str:
    """``text`` with every step id replaced by its title, and an undescribed event
    (``DigressionEnded(step=..., resume=...)``) given as words."""
    raw = RAW_EVENT.match(text.strip())
    if raw is not None:
        fields = dict(re.findall(r"(\w+)=((?:wif[\w.-]*)|[^,]*)", raw.group(2)))
        what = title_of(raw.group(1))
        if "resume" in fields:
            text = f"{what}: back to {fields['resume']}"
        elif "step" in fields:
            text = f"{what}: {fields['step']}"
        else:
            text = what
    # a command the rules could not read (kernel/engine.py validate_command): say what is wrong
    # each pattern only where its text can be (a Play form's list puts hundreds of labels in words)
    if "is malformed: " in text:
        text = re.sub(r"\b(\w+) is malformed: ", lambda m: f"{m.group(1)} is incomplete: ", text)
    if "Field required" in text:
        text = re.sub(r"(\w+): Field required", r"\1 is missing", text)
    if "wif." in text:
        text = STEP_ID.sub(lambda m: step_title(game, m.group(0)), text)
    commands = getattr(getattr(game, "host", None), "commands", None) or {}
    text = COMMAND_TYPE.sub(lambda m: title_of(m.group(0)) if m.group(0) in commands else m.group(0), text)
    return names_in_words(game, text)


def names_in_words(game, text: str) -> str:
    """``text`` with the ids a rule's wording lets through given as a player reads them: the
    kernel's dice line ("system: rolled [9, 8] on d10 for X"), powers and sides ("germany",
    "axis"), a unit's id after its name ("I-16 (Baltic) (su-balt-ftr)") and a hex as a
    tuple ("(203, 56)")."""
    if "rolled [" in text:
        text = DICE_LINE.sub(lambda m: f"dice {m.group(3)}: {m.group(1)} (d{m.group(2)})", text)
    if "system: " in text:
        text = SYSTEM_ACTOR.sub("", text)  # "system: RAAF 100 Squadron moves to Townsville": the rules moved it
    kernel = getattr(getattr(game, "state", None), "kernel", None)
    if kernel is not None:
        text = id_words(tuple(kernel.sides) + tuple(kernel.powers())).sub(lambda m: power_name(m.group(0)), text)
        if " (" in text:
            units = game.state["units"].units if "units" in game.state.sections else {}
            text = UNIT_ID.sub(lambda m: "" if m.group(1) in units else m.group(0), text)
    if "(" in text:
        text = SLUG.sub(lambda m: f"({m.group(1).replace('-', ' ')})", text)  # "(reinforcements-turn-2)"
        text = HEX_TUPLE.sub(lambda m: hex_words((int(m.group(1)), int(m.group(2)))), text)
    return labels_in_words(text)


@lru_cache(maxsize=16)
def id_words(ids: tuple[str, ...]) -> re.Pattern:
    """The powers' and sides' ids as whole words ("germany", "axis"; not "germany-1")."""
    return re.compile(r"(?<![\w-])(?:" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True)) + r")(?![\w-])")


@lru_cache(maxsize=8192)
def labels_in_words(text: str) -> str:
    """A rule's unit and hex labels with a unit's type and a hex in words: "18th Army (inf,
    202,50)" -> "18th Army (infantry, hex W of Kaunas)", "202,49 (clear)" -> "hex 2 NW of
    Kaunas (clear)", "Minsk (207,51, clear)" -> "Minsk (clear)", "hex 201,49" likewise."""
    if "(" not in text and "hex " not in text and "→" not in text and "->" not in text and " at " not in text:
        return text
    if "(" in text:
        words = unit_type_words()
        text = TYPE_CODE.sub(lambda m: f"({words[m.group(1)]}" if m.group(1) in words else m.group(0), text)
        text = UNIT_HEX.sub(lambda m: f"{m.group(1)}{hex_words((int(m.group(2)), int(m.group(3))))})", text)
        text = CITY_HEX.sub(lambda m: f"{m.group(1)}(", text)
        text = TERRAIN_HEX.sub(lambda m: f"{hex_words((int(m.group(1)), int(m.group(2))))} (", text)
        if "(combat " in text:
            text = COMBAT_ID.sub("(", text)
    if " at " in text:
        text = AT_HEX.sub(lambda m: f"{m.group(1)} {hex_words((int(m.group(2)), int(m.group(3))))}", text)
    if "→" in text or "->" in text:
        text = FROM_HEX.sub(lambda m: hex_words((int(m.group(1)), int(m.group(2)))), text)
        text = TO_HEX.sub(lambda m: m.group(1) + hex_words((int(m.group(2)), int(m.group(3)))), text)
    if "hex " in text:
        text = WORD_HEX.sub(lambda m: hex_words((int(m.group(1)), int(m.group(2)))), text)
    return text


def moves_told_twice(records) -> set[int]:
    """The seqs of the kernel's "moves to" events (``UnitMoved``) another event of the same
    command already tells: the rules' own line says where the unit went and how ("moves 206,52
    → 205,53", "flies on combat air patrol to ...", "loses ..."), so the log, the replay
    viewer's history and the result dialogs tell each move once (issue 11)."""
    records = list(records)
    named: dict = {}  # command -> the units its other events name
    for r in records:
        if r.type != "UnitMoved" and not r.type.startswith(("Step", "Decision", "Digression")):
            units = named.setdefault(r.cmd, set())
            if isinstance(r.data.get("unit"), str):
                units.add(r.data["unit"])
            if isinstance(r.data.get("units"), list):
                units.update(u for u in r.data["units"] if isinstance(u, str))
    return {r.seq for r in records if r.type == "UnitMoved" and r.data.get("unit") in named.get(r.cmd, ())}


def game_time(kernel) -> str:
    """Where the game is in time, as a player says it: "set-up" before turn 1 (the kernel
    counts it as turn 0 impulse 0), else the turn and impulse."""
    return "set-up" if not kernel.turn else f"turn {kernel.turn} impulse {kernel.impulse}"
