"""Helpers for the optional-rule tests: stand-in implementations of catalogue rules, the
example mod as a folder plugin, and a private user config folder."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLE_MOD = REPO / "examples" / "wif-field-repairs"


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Saved rule sets go to a temporary folder, never the developer's own."""
    folder = tmp_path / "config"
    monkeypatch.setenv("WIF_CONFIG_DIR", str(folder))
    return folder


def write_rule_plugin(base: Path, rule_id: str, group: str, code: str = "", requires=("optional-rules",),
                      **meta) -> Path:
    """An optional-rule plugin folder: plugin.toml, rule.toml and __init__.py."""
    folder = base / rule_id
    folder.mkdir(parents=True, exist_ok=True)
    req = ", ".join(f'"{r}"' for r in requires)
    (folder / "plugin.toml").write_text(
        f'id = "{rule_id}"\nversion = "1.0.0"\nkind = "optional-rule"\nrequires = [{req}]\n')
    lines = [f'id = "{rule_id}"', f'name = "{meta.pop("name", rule_id)}"', f'group = "{group}"',
             f'description = "{meta.pop("description", "A stand-in for tests.")}"']
    for key, value in meta.items():
        if isinstance(value, list):
            lines.append(f"{key} = [{', '.join(repr(v).replace(chr(39), chr(34)) for v in value)}]")
        else:
            lines.append(f'{key} = "{value}"')
    (folder / "rule.toml").write_text("\n".join(lines) + "\n")
    (folder / "__init__.py").write_text(textwrap.dedent(code))
    return folder


@pytest.fixture
def stand_ins(tmp_path):
    """Stand-in plugins (no behaviour) for catalogue rules whose base rules have not landed,
    so prerequisites, the exclusion and toggling can be tested on real rule ids."""
    base = tmp_path / "stand-ins"
    for rule_id, group in (("divisions", "additional-units"), ("artillery", "additional-units"),
                           ("unlimited-breakdown", "land"), ("blitz-bonus", "land"), ("2d10-land-crt", "land")):
        write_rule_plugin(base, rule_id, group)
    return base


@pytest.fixture
def field_repairs(tmp_path):
    """The example mod copied into a plugin folder (as WIF_PLUGINS_PATH would find it)."""
    base = tmp_path / "mods"
    shutil.copytree(EXAMPLE_MOD / "wif_field_repairs", base / "field_repairs",
                    ignore=shutil.ignore_patterns("__pycache__"))
    yield base
    import sys

    for name in [n for n in sys.modules if n.startswith("wif_plugin_")]:
        del sys.modules[name]
