"""House rule 4: every public function of a ruleset's engine says in its docstring which
rule section it implements (an id of ../shared/rules/SECTIONS.txt), or ``Rule: none`` for
the computer player's heuristics and for names, labels and bookkeeping; every public class
has a docstring; every section id named exists.

Checked for homm4, mmh, Hero Forge (``heroforge``) and homm3, whose ids use two prefixes
(``homm3bf:`` for the Battlefield expansion, ``homm3turn:`` for the turn, Town and Morale
rules)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = Path(os.environ.get("HEROES_RULES_DIR") or ROOT.parent / "shared" / "rules")

RULESETS = [
    pytest.param("homm4", marks=pytest.mark.rule("homm4:objectives"), id="homm4"),
    pytest.param("mmh", marks=pytest.mark.rule("mmh:game-goal"), id="mmh"),
    pytest.param("heroforge", marks=pytest.mark.rule("heroforge:basic-rules"), id="heroforge"),
    pytest.param("homm3", marks=pytest.mark.rule("homm3bf:adventure-mode"), id="homm3"),
]
# The section id prefixes of a ruleset whose ids are not ``<ruleset>:...``.
PREFIXES = {"homm3": ("homm3bf", "homm3turn", "homm3core")}
# A ruleset's own list of the sections its shared rule texts lack (homm3's core-game map
# rules, engine/homm3/SECTIONS_CORE.txt).
OWN_SECTIONS = {"homm3": ROOT / "engine" / "homm3" / "SECTIONS_CORE.txt"}


def _prefixes(ruleset: str) -> tuple[str, ...]:
    """The section id prefixes (without the colon) of ``ruleset``."""
    return PREFIXES.get(ruleset, (ruleset,))


def _public_functions(ruleset: str) -> list[tuple[str, str, str]]:
    """``(module file, name, docstring)`` of the top-level public functions and classes of
    ``engine/<ruleset>``."""
    found = []
    for path in sorted((ROOT / "engine" / ruleset).glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                found.append((path.name, node.name, ast.get_docstring(node) or ""))
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_public_function_names_its_rule_section(ruleset: str) -> None:
    missing = [
        f"{module}:{name}"
        for module, name, doc in _public_functions(ruleset)
        if not doc.strip()
        or (not any(f"{p}:" in doc for p in _prefixes(ruleset)) and "Rule: none" not in doc)
    ]
    missing = [m for m in missing if m.split(":")[1][0].islower()]  # classes: docstring only
    assert missing == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_public_class_has_a_docstring(ruleset: str) -> None:
    missing = [f"{m}:{n}" for m, n, doc in _public_functions(ruleset) if not doc.strip()]
    assert missing == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_section_ids_named_exist(ruleset: str) -> None:
    sections = RULES / "SECTIONS.txt"
    if not sections.is_file():  # like tests/bot/test_rules_help.py: fail in CI, else skip
        message = f"{sections} not found (set HEROES_RULES_DIR)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    known = {line.split("\t")[0] for line in sections.read_text().splitlines()}
    own = OWN_SECTIONS.get(ruleset)
    if own is not None:
        known |= {line.split("\t")[0] for line in own.read_text().splitlines()}
    named: set[str] = set()
    pattern = rf"(?:{'|'.join(_prefixes(ruleset))}):[a-z][a-z0-9.-]*"
    for _, _, doc in _public_functions(ruleset):
        named |= {m.rstrip(".,;)") for m in re.findall(pattern, doc)}
    assert named and not named - known, sorted(named - known)
