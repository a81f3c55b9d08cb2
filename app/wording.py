"""What the player reads instead of internal ids (issue 11, "Nothing shows internal ids to a
player"): steps by their titles from the sequence of play (seeds, "Sequence of Play"), command
types in words, and an event no plugin describes in words rather than as ``Type(field=...)``.

Everything here asks the game (its sequence index); nothing knows a rule."""

from __future__ import annotations

import re

from .commandfill import title_of

STEP_ID = re.compile(r"\bwif(?:\.[a-z0-9][a-z0-9_-]*)+")
RAW_EVENT = re.compile(r"^([A-Z][A-Za-z0-9]+)\((.*)\)$", re.S)
DICE_LINE = re.compile(r"\bsystem: rolled \[([\d, ]*)\] on d(\d+) for ([^\n]*)")  # kernel/builtin.py's text
SYSTEM_ACTOR = re.compile(r"^system: ")  # the kernel's actor for what no player decided
ID_WORD = re.compile(r"(?<![\w-])[a-z][a-z_]*(?![\w-])")  # a lower-case word: a power or side id when it is one
UNIT_ID = re.compile(r" \(([a-z0-9][\w.-]*)\)")  # "(su-balt-ftr)" after a unit's name
SLUG = re.compile(r"\(([a-z]+(?:-[a-z]+)*-[0-9]+)\)")  # an id numbered in parentheses: "(reinforcements-turn-2)"
HEX_TUPLE = re.compile(r"(?:\bhex )?\((\d{1,3}), (\d{1,3})\)")  # a hex as Python writes a tuple
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
    text = re.sub(r"\b(\w+) is malformed: ", lambda m: f"{m.group(1)} is incomplete: ", text)
    text = re.sub(r"(\w+): Field required", r"\1 is missing", text)
    text = STEP_ID.sub(lambda m: step_title(game, m.group(0)), text)
    commands = getattr(getattr(game, "host", None), "commands", None) or {}
    text = COMMAND_TYPE.sub(lambda m: title_of(m.group(0)) if m.group(0) in commands else m.group(0), text)
    return names_in_words(game, text)


def names_in_words(game, text: str) -> str:
    """``text`` with the ids a rule's wording lets through given as a player reads them: the
    kernel's dice line ("system: rolled [9, 8] on d10 for X"), powers and sides ("germany",
    "axis"), a unit's id after its name ("I-16 (Baltic) (su-balt-ftr)") and a hex as a
    tuple ("(203, 56)")."""
    text = DICE_LINE.sub(lambda m: f"dice {m.group(3)}: {m.group(1)} (d{m.group(2)})", text)
    text = SYSTEM_ACTOR.sub("", text)  # "system: RAAF 100 Squadron moves to Townsville": the rules moved it
    kernel = getattr(getattr(game, "state", None), "kernel", None)
    if kernel is not None:
        ids = {*kernel.sides, *kernel.powers()}
        text = ID_WORD.sub(lambda m: power_name(m.group(0)) if m.group(0) in ids else m.group(0), text)
        units = game.state["units"].units if "units" in game.state.sections else {}
        text = UNIT_ID.sub(lambda m: "" if m.group(1) in units else m.group(0), text)
    text = SLUG.sub(lambda m: f"({m.group(1).replace('-', ' ')})", text)  # "(reinforcements-turn-2)"
    return HEX_TUPLE.sub(lambda m: hex_words((int(m.group(1)), int(m.group(2)))), text)


def hex_words(hex_) -> str:
    """A hex as a player names it: its city, else "hex 203,56"."""
    from kernel.worldmap import load_world_map

    city = load_world_map().city_at(tuple(hex_))
    return city.name if city is not None else f"hex {hex_[0]},{hex_[1]}"


def game_time(kernel) -> str:
    """Where the game is in time, as a player says it: "set-up" before turn 1 (the kernel
    counts it as turn 0 impulse 0), else the turn and impulse."""
    return "set-up" if not kernel.turn else f"turn {kernel.turn} impulse {kernel.impulse}"
