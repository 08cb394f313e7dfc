"""`heroes-table simulate --ruleset mmh` and `render --ruleset mmh` end to end."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import simulate


@pytest.mark.rule("mmh:game-end")
@pytest.mark.slow
def test_simulate_plays_mmh_games_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    args = parser.parse_args(
        [
            "--ruleset",
            "mmh",
            "--players",
            "3",
            "--games",
            "2",
            "--seed",
            "4",
            "--options",
            '{"length": "quick"}',
        ]
    )
    code = simulate.main(args)
    out = capsys.readouterr()
    summary = json.loads(out.out.strip().splitlines()[-1])
    assert code == 0, out.err
    assert summary["games"] == 2 and summary["finished"] == 2 and summary["errors"] == 0
    assert summary["mean_turns"] > 0
