"""The World in Flames sequence of play, as data (``wif_sequence.json``).

Every stage, phase, sub-machine and digression of the rules is present by name; a step
whose rule plugin does not exist yet is skipped by the engine with the recorded reason
"no rule yet".  Rule plugins attach to steps by their full dotted id (``wif.turn.impulse.…``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from kernel.hookspecs import hookimpl
from kernel.sequence import SequenceFile, StepSpec

DATA = Path(__file__).with_name("wif_sequence.json")


@cache
def wif_sequence() -> StepSpec:
    return SequenceFile.model_validate_json(DATA.read_text(encoding="utf-8")).tree


@hookimpl
def register_sequences(register):
    register("wif", wif_sequence())
