"""Saved games keep loading: every frozen snapshot of every earlier release loads and plays on.

A game lasts days and lives in the database as a state snapshot plus its log, so a change
to a state model must keep older snapshots readable (new fields need defaults; renamed or
reshaped fields need a migration in the ruleset's state loader). The snapshots under
``snapshots/`` were written by `make_snapshots` and are never rewritten.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine.rulesets  # registers every shipped ruleset
from engine.core import get_ruleset

SNAPSHOTS = sorted((Path(__file__).parent / "snapshots").glob("*.json"))


def test_there_are_snapshots_for_every_shipped_ruleset() -> None:
    covered = {json.loads(p.read_text(encoding="utf-8"))["ruleset"] for p in SNAPSHOTS}
    assert covered >= set(engine.rulesets.SHIPPED)


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[p.stem for p in SNAPSHOTS])
def test_a_saved_state_loads_and_plays_on(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    ruleset = get_ruleset(record["ruleset"])
    state = ruleset.load_state(record["state"])
    assert state.players == record["players"]
    assert ruleset.audit(state) == []
    assert not ruleset.result(state).finished
    chooser = random.Random(5)
    for _ in range(20):
        pending = ruleset.pending(state)
        if not pending:
            break
        seat = pending[0].seat
        state, _ = ruleset.apply(state, seat, ruleset.ai_command(state, seat, chooser))
        assert ruleset.audit(state) == []
