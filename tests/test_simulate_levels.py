"""`heroes-table simulate --ai hard,easy` (issue 19): one level per seat, turned game by
game, and the JSON line's wins per level."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import simulate
from engine.simulate import GameReport, seat_levels, wins_by_level


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    code = simulate.main(parser.parse_args(argv))
    out = capsys.readouterr().out.strip()
    return code, json.loads(out) if out else {}


def test_levels_turn_one_seat_each_game() -> None:
    assert seat_levels(("hard", "easy"), 2, 0) == ("hard", "easy")
    assert seat_levels(("hard", "easy"), 2, 1) == ("easy", "hard")
    assert seat_levels(("hard", "normal", "easy"), 3, 1) == ("easy", "hard", "normal")
    assert seat_levels(("hard",), 3, 5) == ("hard", "hard", "hard")


def test_wins_are_counted_by_the_winning_seat_s_level() -> None:
    reports = [
        GameReport(1, True, 5, 50, winners=(0,), levels=("hard", "easy")),
        GameReport(2, True, 5, 50, winners=(0,), levels=("easy", "hard")),
        GameReport(3, True, 5, 50, winners=(), levels=("hard", "easy")),  # a draw
    ]
    assert wins_by_level(reports) == {"hard": 1, "easy": 1}


def test_simulate_with_hard_seats_finishes_and_reports_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--ruleset", "heroforge", "--games", "2", "--ai", "hard,easy", "--ai-iterations", "1"]
    code, summary = _run(argv, capsys)
    assert code == 0 and summary["errors"] == 0 and summary["finished"] == 2
    wins = summary["wins"]
    assert isinstance(wins, dict) and set(wins) == {"hard", "easy"}
    assert sum(wins.values()) == 2  # Hero Forge ends with one hero left


def test_a_bad_level_list_is_refused_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    for ai, said in (("hard,easy,easy", "names 3 levels for 2 seats"), ("genius", "Levels:")):
        code = simulate.main(parser.parse_args(["--ruleset", "heroforge", "--ai", ai]))
        captured = capsys.readouterr()
        assert code == 2 and said in captured.err and captured.out == ""
