"""The optional-rule catalogue, read without running any plugin code (presets and rule sets:
``presets.py``).

Seeds, "Optional Rules" (L2728-2762, L9378-9444): 81 rules in 7 groups, prerequisites, one
exclusion, presets (None, All, Novice, Standard, Advanced, a personal set, named sets saved
to files) and toggling during play for some rules only.

Where a rule's metadata comes from:

- ``data/catalogue.toml`` holds 74 of the 81 rules (name, group, description, prerequisites,
  exclusions, when it may be toggled).  A rule listed only there is "not implemented yet":
  it is shown and described but cannot be switched on.  An entry whose name our sources do
  not give is kept with ``listed = false`` and the reason (``unlisted``): it is no rule a player
  is shown (Start New Game, Ctrl+O, ``wif rules``, the preset All), though a game or test may
  still switch an implemented one on by its id.
- A plugin of kind ``optional-rule`` implements one rule.  Its folder holds ``rule.toml``
  (the same fields) beside ``plugin.toml``; its plugin id is the rule id.  A plugin's
  rule may be one of the 81 (it then implements that entry) or a new rule (a mod).

Reading metadata from files rather than from hooks means listing the catalogue never
imports a mod, so a mod that raises on import cannot break the list or the Start New Game
form; it fails, with its own name in the message, only when a game loads it.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kernel.errors import WifError

HERE = Path(__file__).resolve().parent
CATALOGUE_FILE = HERE / "data" / "catalogue.toml"
PRESETS_FILE = HERE / "data" / "presets.toml"
RULE_FILE = "rule.toml"
FRAMEWORK_PLUGIN = "optional-rules"

Group = Literal["additional-units", "land", "air", "naval", "supply", "production", "other"]
GROUPS: tuple[str, ...] = ("additional-units", "land", "air", "naval", "supply", "production", "other")
GROUP_TITLES = {
    "additional-units": "Additional units", "land": "Land", "air": "Air", "naval": "Naval",
    "supply": "Supply", "production": "Production", "other": "Other",
}
# Seeds, "Optional Rules": "additional units (27 rules), land rules (8), air rules (16), naval
# rules (7), supply rules (5), production rules (5), and other optional rules (13)".
SEED_GROUP_COUNTS = {"additional-units": 27, "land": 8, "air": 16, "naval": 7, "supply": 5,
                     "production": 5, "other": 13}
# The catalogue lists only rules a source names: 6 of the 13 "other" rules have no name in the
# seeds (nor in any digest), so a player is never shown a placeholder as a rule.  One of the 16
# air rules is unnamed too: "Air supply" is no optional rule but a base air mission (seeds,
# "Reorganize Units", By Air: "An air supply mission allows you to organize a unit in any land
# hex by flying an air transport unit to that hex", RAC 11.18.1; "Air Missions" lists it with
# Ground Strike and Air Transport), played by the air rules' Reorganization by Air Transport
# (plugins/rules/air/air_transport.py) in every game: a switch for it would do nothing.
UNNAMED_IN_SOURCES = {"other": 6, "air": 1}
BASE_RULES_NOT_OPTIONAL = {
    "Air supply": "a base air mission (seeds 'Reorganize Units', By Air; RAC 11.18.1), always played: "
                  "plugins/rules/air/air_transport.py, Reorganization by Air Transport",
}
BUILTIN_PRESETS = ("none", "all", "novice", "standard", "advanced", "personal")
RULE_ID = r"^[a-z0-9][a-z0-9-]*$"


class RulesError(WifError):
    """A rule choice or rule-set file that cannot be used; the message says why."""


class RuleMeta(BaseModel):
    """The fields of one catalogue entry or one plugin's ``rule.toml``."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=RULE_ID)
    name: str = Field(min_length=1)
    group: Group
    description: str = Field(min_length=1)
    prerequisites: list[str] = Field(default_factory=list)
    exclusions: list[str] = Field(default_factory=list)
    # "never": chosen at the start only (seeds: "rules which add units cannot be toggled on and
    # off during game play"); "in-play": may be toggled, except in the steps of not_during.
    toggle: Literal["never", "in-play"] | None = None
    not_during: list[str] = Field(default_factory=list)
    source: str = ""
    # The rule does something only in a game where one of these major powers is in play (Kamikaze:
    # Japan's): a scenario without them does not offer it (presets.fits_scenario); empty: any game
    needs_powers: list[str] = Field(default_factory=list)
    # Why the seeds do not give enough of the rule to implement it (catalogue entries only)
    cannot_implement: str = ""
    # False: our sources do not name this rule, so no player-facing list shows it; `unlisted`
    # says why (catalogue entries only: the catalogue decides what players are shown)
    listed: bool = True
    unlisted: str = ""

    @model_validator(mode="after")
    def _unlisted_says_why(self):
        if not self.listed and not self.unlisted.strip():
            raise ValueError(f"rule {self.id!r}: listed = false needs the reason in `unlisted`")
        return self

    def effective_toggle(self) -> str:
        if not self.listed:
            return "never"  # chosen by its id when a game starts, never from a list during play
        if self.toggle is not None:
            return self.toggle
        return "never" if self.group == "additional-units" else "in-play"


class RuleInfo(BaseModel):
    """A rule as the catalogue shows it."""

    id: str
    name: str
    group: str
    description: str
    prerequisites: list[str]
    exclusions: list[str]
    toggle: str
    not_during: list[str]
    source: str
    needs_powers: list[str] = Field(default_factory=list)  # played only where one of these is in play
    implemented: bool = False
    plugin: str | None = None  # the plugin that implements it
    origin: str = "catalogue"  # "catalogue", or the implementing plugin's origin
    requires: list[str] = Field(default_factory=list)  # the plugins its plugin requires
    cannot_implement: str = ""  # why the seeds do not give enough of it to implement
    listed: bool = True  # shown to players (False: our sources do not name it)
    unlisted: str = ""  # why it is not shown

    def status(self) -> str:
        if not self.listed:
            state = "implemented" if self.implemented else "not implemented"
            return f"not shown to players ({state}): {self.unlisted}"
        if self.implemented:
            return "implemented" if self.origin == "builtin" else f"implemented by {self.plugin} ({self.origin})"
        if self.cannot_implement:
            return f"not implemented, cannot be switched on: {self.cannot_implement}"
        return "not implemented yet: listed and described, cannot be switched on"

    def as_dict(self) -> dict:
        return self.model_dump()


# Parsed metadata by (path, modification time, size): a game server asks every game's catalogue
# on its choices, and a mod edited while the game runs (``wif play --dev``) is read again.
_parsed: dict[tuple, object] = {}


def _parse_once(path: Path, parse):
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    found = _parsed.get(key)
    if found is None:
        found = _parsed[key] = parse(path.read_text(encoding="utf-8"))
    return found


def read_rule_file(folder: Path) -> RuleMeta:
    path = Path(folder) / RULE_FILE
    try:
        return _parse_once(path, lambda text: RuleMeta.model_validate(tomllib.loads(text)))
    except FileNotFoundError:
        raise RulesError(f"{path}: missing; an optional-rule plugin describes its rule in {RULE_FILE}") from None
    except (tomllib.TOMLDecodeError, ValidationError, OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"{path}: bad optional-rule metadata: {exc}") from exc


def _catalogue_entries() -> list[RuleMeta]:
    return _parse_once(CATALOGUE_FILE, lambda text: [RuleMeta.model_validate(r) for r in tomllib.loads(text)["rule"]])


@dataclass
class Catalogue:
    rules: dict[str, RuleInfo]
    errors: list[str] = field(default_factory=list)

    # ------------------------------------------------------------ reading
    def get(self, rule_id: str) -> RuleInfo:
        rule = self.rules.get(rule_id)
        if rule is None:
            close = difflib.get_close_matches(rule_id, list(self.rules), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else "; `wif rules` lists them"
            raise RulesError(f"no optional rule {rule_id!r}{hint}")
        return rule

    def listed(self) -> list[RuleInfo]:
        """The rules players are shown: those our sources name."""
        return [r for r in self.rules.values() if r.listed]

    def by_group(self) -> dict[str, list[RuleInfo]]:
        """The listed rules by group (the Start New Game form's tabs)."""
        out: dict[str, list[RuleInfo]] = {g: [] for g in GROUPS}
        for rule in self.listed():
            out[rule.group].append(rule)
        return out

    def implemented(self) -> list[RuleInfo]:
        return [r for r in self.rules.values() if r.implemented]

    def dependents(self, rule_id: str) -> list[str]:
        return [r.id for r in self.rules.values() if rule_id in r.prerequisites]

    # ------------------------------------------------------------ checking a set of rules ON
    def problems(self, rules: Iterable[str]) -> list[str]:
        """Why this set of rules cannot be ON together (empty: it can)."""
        chosen = list(dict.fromkeys(rules))
        problems: list[str] = []
        for rule_id in chosen:
            try:
                rule = self.get(rule_id)
            except RulesError as exc:
                problems.append(str(exc))
                continue
            if not rule.implemented and not rule.listed:
                problems.append(f"{rule.name} ({rule.id}) cannot be switched on: it is no rule our sources name "
                                f"({rule.unlisted})")
            elif not rule.implemented and rule.cannot_implement:
                problems.append(f"{rule.name} ({rule.id}) is not implemented and cannot be switched on: "
                                f"{rule.cannot_implement}")
            elif not rule.implemented:
                problems.append(f"{rule.name} ({rule.id}) is not implemented yet: it is listed and described "
                                "but cannot be switched on")
            for pre in rule.prerequisites:
                if pre not in chosen:
                    pre_name = self.rules[pre].name if pre in self.rules else pre
                    problems.append(f"{rule.name} needs {pre_name} ON: {pre_name} is its prerequisite "
                                    "(seeds, Optional Rules)")
        seen: set[frozenset] = set()
        for rule_id in chosen:
            rule = self.rules.get(rule_id)
            for other in rule.exclusions if rule else ():
                pair = frozenset((rule_id, other))
                if other in chosen and pair not in seen:
                    seen.add(pair)
                    problems.append(f"{rule.name} and {self.rules[other].name} are mutually exclusive: only one "
                                    "of them can be ON (seeds, Optional Rules)")
        return problems

    def check(self, rules: Iterable[str]) -> None:
        problems = self.problems(rules)
        if problems:
            raise RulesError("; ".join(problems))


def build_catalogue(discovery=None, plugin_dirs: list[Path] | None = None) -> Catalogue:
    """The rules of the seeds that our sources name, with what the installed optional-rule plugins implement."""
    from kernel.plugins import discover

    if discovery is None:
        discovery = discover(plugin_dirs)
    infos = [i for i in discovery.plugins.values() if i.manifest.kind == "optional-rule"]
    errors = [e for e in discovery.errors]
    return _assemble(infos, errors)


def catalogue_for_plugins(infos) -> Catalogue:
    """The catalogue as one game sees it: only the optional-rule plugins it was created with."""
    return _assemble([i for i in infos if i.manifest.kind == "optional-rule"], [])


_ORIGIN_ORDER = {"builtin": 0, "folder": 1, "entry-point": 2}


def _assemble(infos, errors: list[str]) -> Catalogue:
    rules: dict[str, RuleInfo] = {}
    for meta in _catalogue_entries():
        rules[meta.id] = RuleInfo(**_fields(meta))
    mods: list[RuleInfo] = []
    for info in sorted(infos, key=lambda i: (_ORIGIN_ORDER.get(i.origin, 3), i.id)):
        try:
            meta = read_rule_file(info.folder)
        except RulesError as exc:
            errors.append(f"optional-rule plugin {info.id!r} ignored: {exc}")
            continue
        if meta.id != info.id:
            errors.append(f"optional-rule plugin {info.id!r} ignored: its {RULE_FILE} describes rule {meta.id!r}; "
                          "the plugin id must be the rule id")
            continue
        known = rules.get(meta.id)
        if known is not None and known.implemented:
            errors.append(f"optional-rule plugin {info.id!r} ({info.folder}) ignored: rule {meta.id!r} is "
                          f"implemented by {known.plugin!r} ({known.origin}) already")
            continue
        if known is not None:
            if meta.group != known.group:
                errors.append(f"optional-rule plugin {info.id!r} ignored: rule {meta.id!r} belongs to group "
                              f"{known.group!r} in the catalogue, not {meta.group!r}")
                continue
            # The seeds' prerequisites and exclusion stay whatever a plugin says.
            merged = _fields(meta)
            merged["prerequisites"] = sorted(set(known.prerequisites) | set(meta.prerequisites))
            merged["exclusions"] = sorted(set(known.exclusions) | set(meta.exclusions))
            merged["source"] = meta.source or known.source
            merged["name"] = known.name  # the catalogue's (the seeds') name is what players know
            # whether players are shown it is the catalogue's say (does a source name it?)
            merged["listed"], merged["unlisted"] = known.listed, known.unlisted
            rules[meta.id] = RuleInfo(**merged, implemented=True, plugin=info.id, origin=info.origin,
                                      requires=list(info.manifest.requires))
        else:
            rule = RuleInfo(**_fields(meta), implemented=True, plugin=info.id, origin=info.origin,
                            requires=list(info.manifest.requires))
            rules[meta.id] = rule
            mods.append(rule)
    # A rule naming a prerequisite or exclusion nobody knows cannot be checked: refuse it.
    for rule in list(rules.values()):
        unknown = [r for r in rule.prerequisites + rule.exclusions if r not in rules]
        if unknown and rule.implemented:
            errors.append(f"optional rule {rule.id!r} ({rule.plugin}) ignored: it refers to unknown rules "
                          f"{', '.join(unknown)}")
            if rule in mods:
                del rules[rule.id]
            else:
                rules[rule.id] = rule.model_copy(update={"implemented": False, "plugin": None, "origin": "catalogue"})
    # Exclusions go both ways.
    for rule in rules.values():
        for other in rule.exclusions:
            if other in rules and rule.id not in rules[other].exclusions:
                rules[other].exclusions.append(rule.id)
    ordered = {r.id: r for g in GROUPS for r in rules.values() if r.group == g}
    return Catalogue(ordered, errors)


def _fields(meta: RuleMeta) -> dict:
    return {"id": meta.id, "name": meta.name, "group": meta.group, "description": meta.description,
            "prerequisites": list(meta.prerequisites), "exclusions": list(meta.exclusions),
            "toggle": meta.effective_toggle(), "not_during": list(meta.not_during), "source": meta.source,
            "needs_powers": list(meta.needs_powers),
            "cannot_implement": meta.cannot_implement, "listed": meta.listed, "unlisted": meta.unlisted}
