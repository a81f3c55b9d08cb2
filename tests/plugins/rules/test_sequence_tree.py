"""The WiF sequence-of-play tree (plugins/rules/sequence/wif_sequence.json) against the seed.

The seed is the MWIF help file; its sections open with ``[.T Title``.  Each test is named
after the seed section whose facts it checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from kernel.sequence import BUILTIN_DECIDERS, SequenceFile, StepSpec

REPO = Path(__file__).resolve().parents[3]
SEQUENCE_JSON = REPO / "plugins" / "rules" / "sequence" / "wif_sequence.json"
SEED = REPO.parent / "shared" / "seeds" / "000_ac4a84d5cfaac4fe.txt"

# Seed titles the tree spells differently on purpose (typos), plus stray whitespace.
TITLE_FIXES = {
    "Reorganziation by Naval Transport": "Reorganization by Naval Transport",
    "ReinForcement Scrap": "Reinforcement Scrap",
}

REF = re.compile(r"L(\d+)(?:-(\d+))?")
PASCAL = re.compile(r"[A-Z][A-Za-z0-9]*")

# The 31 impulse phases in play order (digest table, PM 7.3.1-7.3.31), as the seed titles them.
IMPULSE_PHASES = [
    "Weather",
    "Declare War",
    "Choose Action",
    "Port Attack",
    "Naval Air",
    "Naval Movement",
    "Phasing Side Naval Combat",
    "Non-Phasing Side Naval Combat",
    "Strategic Bombardment",
    "Carpet Bombing",
    "Ground Strike",
    "Rail Movement",
    "Land Movement",
    "Air Transport",
    "Unload Land Units",
    "Invasion",
    "Paradrop",
    "Land Combat Declaration",
    "Ignore Notional",
    "Emergency HQ Supply",
    "Defending Shore Bombardment",
    "Attacking Shore Bombardment",
    "Defending HQ Support",
    "Attacking HQ Support",
    "Ground Support",
    "Land Combat Resolution",
    "Air Rebase",
    "Reorganization by Air Transport",
    "Reorganization by HQ",
    "Reorganization by Naval Transport",
    "End of Turn Check",
]

# The 28 end-of-turn phases (PM 7.4.1-7.4.28); 19-25 form the Peace group.
END_OF_TURN_PHASES = [
    "Partisans",
    "Entry",
    "US Entry",
    "Production Planning Preliminary",
    "Stay At Sea",
    "Stay At Sea",
    "Return To Base",
    "Return To Base",
    "Use Oil",
    "End of Turn Reorganization",
    "Break Down Corps/Armies",
    "Production Planning Final",
    "Search and Seizure",
    "Scrap Destroyed Units",
    "Naval Repair",
    "Production",
    "Reform Corps/Armies",
    "Intelligence",
    "Ukraine Creation",
    "Conquest",
    "Allied Minor Support",
    "Mutual Peace",
    "Vichy Declaration",
    "Liberation",
    "Surrender",
    "Factory Destruction",
    "Victory Check",
    "Game End",
]
PEACE_PHASES = END_OF_TURN_PHASES[18:25]


@dataclass(frozen=True)
class Section:
    start: int
    end: int
    title: str
    body: str  # lower-cased, whitespace-collapsed text after the title line


def _norm_title(raw: str) -> str:
    title = " ".join(raw.split())
    return TITLE_FIXES.get(title, title)


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


@pytest.fixture(scope="module")
def seq() -> SequenceFile:
    return SequenceFile.model_validate_json(SEQUENCE_JSON.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def seed_lines() -> list[str]:
    if not SEED.exists():
        pytest.skip(f"seed file not present: {SEED}")
    return SEED.read_text(encoding="utf-8", errors="replace").split("\n")


@pytest.fixture(scope="module")
def sections(seed_lines) -> list[Section]:
    starts = [i + 1 for i, line in enumerate(seed_lines) if line.startswith("[.T")]
    found = []
    for k, start in enumerate(starts):
        end = (starts[k + 1] if k + 1 < len(starts) else len(seed_lines) + 1) - 1
        while end > start and not seed_lines[end - 1].strip():
            end -= 1
        title = _norm_title(seed_lines[start - 1][3:])
        found.append(Section(start, end, title, _flat(" ".join(seed_lines[start:end]))))
    return found


def _section_at(sections: list[Section], line: int) -> Section | None:
    for section in sections:
        if section.start <= line <= section.end:
            return section
    return None


def _sections_between(sections: list[Section], first: int, last: int) -> list[Section]:
    return [s for s in sections if first <= s.start <= last]


def _ref_lines(ref: str) -> tuple[int, int]:
    match = REF.fullmatch(ref)
    assert match, f"bad ref {ref!r}"
    start = int(match.group(1))
    return start, int(match.group(2) or start)


def _node(tree: StepSpec, full_id: str) -> StepSpec:
    for fid, spec in tree.walk():
        if fid == full_id:
            return spec
    raise AssertionError(f"no node {full_id}")


def _walk_with_ancestors(spec: StepSpec, ancestors: tuple[StepSpec, ...] = ()):
    yield spec, ancestors
    for child in spec.children:
        yield from _walk_with_ancestors(child, ancestors + (spec,))


def _descendants(spec: StepSpec) -> list[StepSpec]:
    return [s for _fid, s in spec.walk()][1:]


def _phases(spec: StepSpec) -> list[StepSpec]:
    return [s for s in _descendants(spec) if s.level == "phase"]


def _rules_subphases(spec: StepSpec) -> list[StepSpec]:
    """The rules text's subphases of a sub-machine: loop containers (repeat) are not units."""
    return [s for s in _descendants(spec) if s.level == "subphase" and not s.repeat]


def _section_starts_of(sections: list[Section], titles: list[str], after: int) -> list[int]:
    """Start lines of the first sections with these titles, each after the previous one
    (help pages of the same name may occur earlier in the file)."""
    starts = []
    for title in titles:
        floor = starts[-1] if starts else after
        later = [s.start for s in sections if s.title == title and s.start > floor]
        assert later, f"no seed section {title!r} after line {floor}"
        starts.append(later[0])
    return starts


# --------------------------------------------------------------------------- structure


def test_sequence_file_validates_and_names_its_source(seq):
    assert "000_ac4a84d5cfaac4fe" in seq.source
    assert "rules-c-sequence-of-play" in seq.source
    assert "1.12" in seq.approximations or "contradiction" in seq.approximations.lower()
    assert seq.tree.id == "wif" and seq.tree.level == "root"
    assert [c.id for c in seq.tree.children] == ["new-game", "turn", "procedures", "digressions"]


def test_new_game_stage_form_steps_and_setup(seq, sections):
    new_game = _node(seq.tree, "wif.new-game")
    assert new_game.level == "stage"
    form = _node(seq.tree, "wif.new-game.start-new-game")
    assert [s.title for s in form.children] == [
        "Choices for Mode of Play",
        "Scenarios",
        "Optional Rules",
        "Player Names",
        "Assigning Major Powers",
    ]
    setup = _node(seq.tree, "wif.new-game.setup")
    assert setup.title == "Setup"
    # "Setup" section headings: lend lease, scrapping, placing units, placing partisans.
    headings = [s.title for s in _descendants(setup)]
    for heading in ("Lend Leasing Units", "Scrapping Units", "Placing Units on the Map", "Placing Partisans on the Map"):
        assert heading in headings
        assert heading.lower() in next(s for s in sections if s.title == "Setup").body
    # lend lease: the Allied side first, then the Axis side (L10002-10003)
    lend = _node(seq.tree, "wif.new-game.setup.lend-leasing-units")
    assert [c.decides for c in lend.children] == ["rule:allied-powers", "rule:axis-lending-powers"]
    # scrap, draw and place run per power in set-up order
    per_power = _node(seq.tree, "wif.new-game.setup.set-up-each-major-power")
    assert per_power.repeat
    assert [c.id for c in per_power.children] == ["scrapping-units", "random-draw", "placing-units-on-the-map"]


def test_new_turn_stage_reinforcements_lending_initiative(seq):
    new_turn = _node(seq.tree, "wif.turn.new-turn")
    assert [c.title for c in new_turn.children] == ["Reinforcements", "Resource Lending", "Initiative"]
    initiative = _node(seq.tree, "wif.turn.new-turn.initiative")
    assert initiative.children[-1].decides == "rule:initiative-winner"


def test_turn_and_impulse_repeat_with_counters(seq):
    turn = _node(seq.tree, "wif.turn")
    impulse = _node(seq.tree, "wif.turn.impulse")
    assert (turn.repeat, turn.counter, turn.snapshot) == (True, "turn", True)
    assert (impulse.repeat, impulse.counter, impulse.snapshot) == (True, "impulse", True)
    assert [c.id for c in turn.children] == ["new-turn", "impulse", "end-of-turn"]
    others = [fid for fid, s in seq.tree.walk() if (s.counter or s.snapshot) and s not in (turn, impulse)]
    assert others == []


def test_new_impulse_stage_31_phases_in_seed_order(seq, sections):
    impulse = _node(seq.tree, "wif.turn.impulse")
    assert [c.id for c in impulse.children] == [
        "new-impulse",
        "naval",
        "independent-air",
        "land",
        "air-rebase",
        "end-of-impulse",
    ]
    phases = _phases(impulse)
    assert len(phases) == 31  # "there are 31 phases within each impulse" (L13416-13418)
    assert [p.title for p in phases] == IMPULSE_PHASES
    # the seed's phase sections come in play order, and each phase's ref opens its own section
    starts = _section_starts_of(sections, IMPULSE_PHASES, after=10186)  # after Initiative
    assert starts == sorted(starts)
    for phase, start in zip(phases, starts):
        assert _ref_lines(phase.ref)[0] == start, phase.title


def test_stage_pages_give_phase_counts(seq):
    # New Impulse 3, Naval 5, Independent Air 3, Land Movement 6, Land Combat 9, Air Rebase 1, End of Impulse 4
    expected = {
        "wif.turn.impulse.new-impulse": 3,
        "wif.turn.impulse.naval": 5,
        "wif.turn.impulse.independent-air": 3,
        "wif.turn.impulse.land.movement": 6,
        "wif.turn.impulse.land.combat": 9,
        "wif.turn.impulse.air-rebase": 1,
        "wif.turn.impulse.end-of-impulse": 4,
    }
    for full_id, count in expected.items():
        assert len(_phases(_node(seq.tree, full_id))) == count, full_id
    land = _node(seq.tree, "wif.turn.impulse.land")
    assert [(g.id, g.title) for g in land.children] == [("movement", "Land Movement"), ("combat", "Land Combat")]


def test_end_of_turn_stage_28_phases(seq, sections):
    end_of_turn = _node(seq.tree, "wif.turn.end-of-turn")
    phases = _phases(end_of_turn)
    assert len(phases) == 28
    assert [p.title for p in phases] == END_OF_TURN_PHASES
    starts = _section_starts_of(sections, END_OF_TURN_PHASES, after=10924)  # after End of Turn Check
    assert starts == sorted(starts)
    for phase, start in zip(phases, starts):
        assert _ref_lines(phase.ref)[0] == start, phase.title
    # the twin Stay At Sea / Return To Base phases: last impulse's phasing side, then the other
    by_id = {p.id: p for p in phases}
    assert by_id["stay-at-sea-phasing"].decides == "rule:last-phasing-powers"
    assert by_id["stay-at-sea-non-phasing"].decides == "rule:last-non-phasing-powers"


def test_peace_group_seven_phases(seq):
    peace = _node(seq.tree, "wif.turn.end-of-turn.peace")
    assert peace.title == "Peace" and peace.children
    assert [p.title for p in peace.children] == PEACE_PHASES


# --------------------------------------------------------------------------- sub-machines


def test_procedures_are_called_sub_machines(seq):
    procedures = _node(seq.tree, "wif.procedures")
    assert procedures.level == "stage" and procedures.called
    assert [c.id for c in procedures.children] == [
        "reinforcements",
        "declare-war",
        "air-mission",
        "air-to-air-combat",
        "naval-combat",
        "land-combat-resolution",
        "vichy-declaration",
    ]
    assert all(c.called for c in procedures.children)
    # nothing in the normal flow is called
    for fid, spec in _node(seq.tree, "wif.turn").walk():
        assert not spec.called, fid
    for fid, spec in _node(seq.tree, "wif.new-game").walk():
        assert not spec.called, fid


def _assert_subphases_match_seed(proc: StepSpec, sections, first: int, last: int, expected: list[str]):
    got = [s.title for s in _rules_subphases(proc)]
    assert got == expected
    seed_titles = {s.title for s in _sections_between(sections, first, last)}
    assert set(expected) <= seed_titles


def test_reinforcements_six_subphases(seq, sections):
    proc = _node(seq.tree, "wif.procedures.reinforcements")
    _assert_subphases_match_seed(proc, sections, 11487, 11561, [
        "Annual Additions",
        "Reinforcement Scrap",
        "Replacements",
        "Assigning Pilots to Air Units in the Air Reserve",
        "Reinforcements - Placing Units on Map",
        "Moving Air Units from Map to the Air Reserve",
    ])


def test_declare_war_nine_subphases(seq, sections):
    proc = _node(seq.tree, "wif.procedures.declare-war")
    expected = [s.title for s in _sections_between(sections, 11589, 11759)]
    assert len(expected) == 9
    _assert_subphases_match_seed(proc, sections, 11589, 11759, expected)


def test_air_mission_done_twelve_subphases_and_eight_missions(seq, sections):
    proc = _node(seq.tree, "wif.procedures.air-mission")
    expected = [s.title for s in _sections_between(sections, 11785, 12054)]
    assert len(expected) == 12
    _assert_subphases_match_seed(proc, sections, 11785, 12054, expected)
    # "There are 8 air missions in MWIF" (L12060-12071): each of those phases runs the sub-machine
    missions = [
        "wif.turn.impulse.naval.port-attack",
        "wif.turn.impulse.independent-air.strategic-bombardment",
        "wif.turn.impulse.independent-air.carpet-bombing",
        "wif.turn.impulse.independent-air.ground-strike",
        "wif.turn.impulse.land.movement.air-transport",
        "wif.turn.impulse.land.movement.paradrop",
        "wif.turn.impulse.land.combat.ground-support.ground-support-mission",
        "wif.turn.impulse.end-of-impulse.reorganization-by-air-transport",
    ]
    done = next(s for s in sections if s.title == "Air Mission - Done")
    assert "there are 8 air missions" in done.body
    pushers = [fid for fid, s in seq.tree.walk() if "procedures.air-mission" in s.note]
    assert sorted(pushers) == sorted(missions)


def test_air_to_air_combat_ten_sub_subphases_and_both_staying_router(seq, sections):
    proc = _node(seq.tree, "wif.procedures.air-to-air-combat")
    titles = [s.title for s in _sections_between(sections, 13219, 13355)]
    assert len(titles) == 11 and titles[-1] == "Air-to-air Combat: Both Staying"
    _assert_subphases_match_seed(proc, sections, 13219, 13355, titles[:10])
    router = [s for s in _descendants(proc) if s.title == "Air-to-air Combat: Both Staying"]
    assert len(router) == 1 and router[0].level == "step" and router[0].decides == "system"
    assert proc.repeat and _node(seq.tree, "wif.procedures.air-to-air-combat.round").repeat


def test_naval_combat_subphases_28_sections(seq, sections):
    proc = _node(seq.tree, "wif.procedures.naval-combat")
    seed_titles = [s.title for s in _sections_between(sections, 12124, 12632)]
    assert len(seed_titles) == 28
    units = [s for s in _descendants(proc) if s.title in seed_titles]
    assert len(units) == 28 and {u.title for u in units} == set(seed_titles)
    assert len(_rules_subphases(proc)) == 27  # plus the Next Naval Combat Round router step
    # play order differs from file order only in the naval-air AA / attack interleave (digest 1.12 #3)
    order = [u.title for u in units]
    assert order.index("Anti-aircraft Combat by Non-Initiating Side") < order.index(
        "Naval Air Attack by Initiating Side"
    ) < order.index("Anti-aircraft Combat by Initiating Side") < order.index(
        "Naval Air Attack by Non-Initiating Side"
    )
    file_order = [t for t in seed_titles if not t.startswith(("Anti-aircraft Combat", "Naval Air Attack"))]
    assert [t for t in order if t in file_order] == file_order
    # each round restarts at Naval Air Support by Initiating Side (digest 1.12 #5)
    round_ = _node(seq.tree, "wif.procedures.naval-combat.round")
    assert round_.repeat and round_.children[0].title == "Naval Air Support by Initiating Side"
    assert round_.children[-1].title == "Next Naval Combat Round"


def test_land_combat_resolution_ten_subphases(seq, sections):
    proc = _node(seq.tree, "wif.procedures.land-combat-resolution")
    expected = [s.title for s in _sections_between(sections, 12638, 12811)]
    assert len(expected) == 10
    _assert_subphases_match_seed(proc, sections, 12638, 12811, expected)
    assert proc.repeat


def test_vichy_declaration_thirteen_subphases_and_conquer_france(seq, sections):
    proc = _node(seq.tree, "wif.procedures.vichy-declaration")
    expected = [s.title for s in _sections_between(sections, 12817, 13044)]
    assert len(expected) == 13
    _assert_subphases_match_seed(proc, sections, 12817, 13044, expected)
    conquer = [s for s in _descendants(proc) if s.title == "Conquer France"]
    assert len(conquer) == 1 and conquer[0].level == "step"


def test_digressions_section_titles(seq, sections):
    digressions = _node(seq.tree, "wif.digressions")
    assert digressions.level == "stage" and digressions.called
    seed_titles = [s.title for s in _sections_between(sections, 13061, 13211)]
    assert len(seed_titles) == 7
    titles = [d.title for d in digressions.children]
    assert titles == seed_titles + ["Scrap Units Digression"]
    assert all(d.called for d in digressions.children)
    interception = _node(seq.tree, "wif.digressions.naval-interception")
    assert [s.title for s in interception.children][:4] == [
        "Naval Interception",
        "Naval Interception Search",
        "Naval Stop or Fight",
        "Naval Interception Combat",
    ]
    assert _node(seq.tree, "wif.digressions.naval-combat-abort").repeat


# --------------------------------------------------------------------------- every node


def test_every_leaf_has_a_seed_ref_inside_the_file(seq, seed_lines):
    for fid, spec in seq.tree.walk():
        if spec.children:
            continue
        assert spec.ref, f"{fid} has no ref"
        start, end = _ref_lines(spec.ref)
        assert 1 <= start <= end <= len(seed_lines), f"{fid}: {spec.ref}"


def test_refs_lie_in_related_seed_sections(seq, sections):
    """A ref's first line lies in a section titled like the node or one of its ancestors,
    or whose text names the node."""
    problems = []
    for spec, ancestors in _walk_with_ancestors(seq.tree):
        if not spec.ref:
            continue
        start, _end = _ref_lines(spec.ref)
        section = _section_at(sections, start)
        if section is None:
            problems.append(f"{spec.id}: {spec.ref} is outside every section")
            continue
        related = (
            section.title == spec.title
            or section.title in {a.title for a in ancestors}
            or _flat(spec.title) in section.body
        )
        if not related:
            problems.append(f"{spec.id} ({spec.title!r}): {spec.ref} lies in {section.title!r}")
    assert problems == []


def test_full_ids_unique_and_kebab(seq):
    full_ids = [fid for fid, _ in seq.tree.walk()]
    assert len(full_ids) == len(set(full_ids))
    for _fid, spec in seq.tree.walk():
        assert len({c.id for c in spec.children}) == len(spec.children)


def test_deciders_and_commands(seq):
    for fid, spec in seq.tree.walk():
        assert spec.decides in BUILTIN_DECIDERS or re.fullmatch(r"rule:[a-z0-9-]+", spec.decides), fid
        for command in spec.commands:
            assert PASCAL.fullmatch(command), f"{fid}: {command}"
            assert command not in ("EndPhase", "FinishStep"), fid
        if spec.children:
            assert spec.decides == "system" and not spec.commands, f"container {fid} decides"


def test_optional_rule_phases_say_so(seq, sections):
    """A section whose first paragraph says it is skipped without an optional rule has a note
    that says 'optional'."""
    pattern = re.compile(r"optional rule.{0,90}skipped")
    checked = 0
    for fid, spec in seq.tree.walk():
        if not spec.ref:
            continue
        start, _ = _ref_lines(spec.ref)
        section = _section_at(sections, start)
        if section is None or section.start != start or section.title != spec.title:
            continue
        first_paragraph = section.body.split(".p ")[1] if ".p " in section.body else section.body
        if pattern.search(first_paragraph):
            checked += 1
            assert "optional" in spec.note.lower(), fid
    assert checked >= 12


def test_action_gating_noted_on_impulse_phases(seq):
    """The phase texts restrict phasing powers by action type; the notes carry it."""
    phases = {p.id: p for p in _phases(_node(seq.tree, "wif.turn.impulse"))}
    for pid in ("naval-movement", "rail-movement", "land-movement", "unload-land-units", "invasion",
                "land-combat-declaration", "port-attack", "naval-air"):
        assert "actions:" in phases[pid].note, pid
    assert "pass" in phases["air-rebase"].note.lower()
