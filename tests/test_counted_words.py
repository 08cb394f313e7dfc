"""No player-facing engine text hedges a count with "(s)": event lines (public and
private), decision prompts over a few computer-played games of every ruleset, and every
string the engines can raise or print (refusals included) and their card data."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401  (registers the shipped rulesets)
from engine.core.ruleset import get_ruleset

ENGINE = Path(__file__).resolve().parent.parent / "engine"
RULESETS = ("homm3", "homm4", "mmh", "heroforge")


def _hedged(text: str) -> bool:
    return "(s)" in text


GAMES = [
    ("homm3", {}, 2),
    ("homm3", {"mode": "adventure"}, 2),
    ("homm4", {}, 3),
    ("mmh", {}, 3),
    ("heroforge", {}, 3),
]


@pytest.mark.parametrize(("ruleset_id", "options", "players"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.slow
def test_whole_games_never_print_a_hedged_plural(
    ruleset_id: str, options: dict[str, str], players: int, seed: int
) -> None:
    ruleset = get_ruleset(ruleset_id)
    rng = random.Random(seed)
    state, events = ruleset.new_game(ruleset.parse_options(options), players, seed)
    texts: list[str] = []
    for _ in range(20000):
        texts += [e.text for e in events] + [t for e in events for t in e.private.values()]
        if ruleset.result(state).finished:
            break
        decisions = ruleset.pending(state)
        texts += [d.prompt for d in decisions]
        seat = decisions[0].seat
        state, events = ruleset.apply(state, seat, ruleset.ai_command(state, seat, rng))
    assert ruleset.result(state).finished and len(texts) > 50
    assert [t for t in texts if _hedged(t)] == []


@pytest.mark.slow
def test_no_engine_string_or_card_text_hedges_a_plural() -> None:
    # Every string literal in the engines but docstrings (refusals, event lines, prompts,
    # card texts generated in code; a part of an f-string is a literal too) and every line
    # of their data files.
    found: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if id(node) in docstrings:
                continue  # not shown to players
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _hedged(node.value)
            ):
                found.append(f"{path.relative_to(ENGINE)}:{node.lineno}: {node.value!r}")
    for path in sorted(ENGINE.rglob("*.toml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _hedged(line):
                found.append(f"{path.relative_to(ENGINE)}:{number}: {line}")
    assert found == []
