"""`heroes-table simulate --ruleset heroforge`: whole games between computer seats."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import simulate


@pytest.mark.rule("heroforge:basic-rules")
def test_simulate_finishes_heroforge_games_by_victory(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    args = parser.parse_args(["--ruleset", "heroforge", "--players", "3", "--games", "6"])
    assert simulate.main(args) == 0, capsys.readouterr().err
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["finished"] == 6 and summary["errors"] == 0
    assert summary["mean_turns"] > 0
