"""Sequence of play as data: a tree of steps that plugins contribute.

The kernel knows nothing of any particular game's stages. A plugin registers a tree of
``StepSpec`` nodes (root > stage > phase > subphase > step); the engine in
``kernel.engine`` walks it, asks plugins to run automatic steps, waits for the "done set"
of decision steps, repeats looping containers when a rule says so, and enters "called"
subtrees (sub-machines and digressions) only when a rule pushes them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Level = Literal["root", "stage", "phase", "subphase", "step"]

# Who must decide before a step ends.  Sides and powers are generic here: the scenario says
# which powers exist and on which side each stands; a rule says which side is active.
BUILTIN_DECIDERS = (
    "system",  # runs automatically, nobody decides
    "active-side",  # one decision for the active side, by any of its powers
    "each-active-power",  # every power of the active side must finish
    "inactive-side",
    "each-inactive-power",
    "each-side",  # one decision per side
    "each-power",  # every power in the game
)


class StepSpec(BaseModel):
    """One node of the sequence-of-play tree."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="kebab-case id, unique among its siblings")
    title: str = Field(description="the step's name as the rules text gives it")
    level: Level = "step"
    decides: str = Field(
        "system",
        description="who decides: one of BUILTIN_DECIDERS, or 'rule:<name>' resolved by a plugin",
    )
    commands: tuple[str, ...] = Field((), description="command types legal in this step")
    repeat: bool = Field(False, description="a rule may repeat this container after its last child")
    counter: Literal["turn", "impulse"] | None = Field(
        None, description="entering this step advances the game clock's counter"
    )
    snapshot: bool = Field(False, description="store a state snapshot when this step starts")
    called: bool = Field(
        False,
        description="a sub-machine or digression: entered only when a rule pushes it, never in the normal flow",
    )
    ref: str = Field("", description="where the rules text describes it, e.g. 'L13360-13383'")
    note: str = ""
    children: tuple["StepSpec", ...] = ()

    @field_validator("id")
    @classmethod
    def _kebab(cls, value: str) -> str:
        if not value or any(c not in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in value):
            raise ValueError(f"step id {value!r} must be kebab-case (a-z, 0-9, '-')")
        return value

    @field_validator("decides")
    @classmethod
    def _decider(cls, value: str) -> str:
        if value not in BUILTIN_DECIDERS and not value.startswith("rule:"):
            raise ValueError(f"unknown decider {value!r}; use one of {BUILTIN_DECIDERS} or 'rule:<name>'")
        return value

    @model_validator(mode="after")
    def _unique_children(self) -> "StepSpec":
        seen: set[str] = set()
        for child in self.children:
            if child.id in seen:
                raise ValueError(f"step {self.id!r} has two children with id {child.id!r}")
            seen.add(child.id)
        return self

    def walk(self, prefix: str = ""):
        """Yield (full_id, spec) for this node and every descendant, in pre-order."""
        full = f"{prefix}.{self.id}" if prefix else self.id
        yield full, self
        for child in self.children:
            yield from child.walk(full)


class SequenceFile(BaseModel):
    """A sequence tree as stored in a plugin's data file, with its provenance header."""

    model_config = ConfigDict(extra="forbid")

    source: str
    approximations: str = ""
    tree: StepSpec
