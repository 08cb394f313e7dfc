"""`heroes-table simulate`: the CLI function plays whole games and reports JSON."""

from __future__ import annotations

import argparse
import json

import pytest

from engine import simulate


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object], str]:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    code = simulate.main(parser.parse_args(argv))
    captured = capsys.readouterr()
    return code, json.loads(captured.out.strip().splitlines()[-1]), captured.err


@pytest.mark.rule("homm4:victory")
@pytest.mark.slow
def test_simulate_plays_games_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, summary, err = _run(
        ["--ruleset", "homm4", "--players", "3", "--games", "4", "--seed", "7"], capsys
    )
    assert code == 0, err
    assert summary["games"] == 4 and summary["finished"] == 4 and summary["errors"] == 0
    for key in ("mean_turns", "max_turns", "mean_commands"):
        assert isinstance(summary[key], int | float) and summary[key] > 0


def test_a_stuck_game_is_an_error_not_a_finish(capsys: pytest.CaptureFixture[str]) -> None:
    code, summary, err = _run(
        ["--players", "2", "--games", "1", "--seed", "3", "--max-commands", "5"], capsys
    )
    assert code == 1
    assert summary["finished"] == 0 and summary["errors"] == 1
    assert "seed=3" in err and "stuck" in err


def test_the_cli_dispatches_to_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    from bot import cli

    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    assert cli.SUBCOMMANDS["simulate"][0] == "engine.simulate"
    args = parser.parse_args(["--players", "2", "--games", "2", "--seed", "1"])
    assert simulate.main(args) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 2


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--players", "7"], "homm4 is played by 2 to 6 players, not 7"),
        (
            ["--ruleset", "homm3", "--players", "3"],
            "homm3 with --options {} is played by 2 players, not 3",
        ),
        (
            ["--ruleset", "homm3", "--players", "4", "--options", '{"mode": "map"}'],
            "homm3 is played by 2 to 3 players, not 4",
        ),
        (["--options", "{bad"], "--options is not valid JSON"),
        (["--options", "[1]"], "--options must be a JSON object"),
        (["--options", '{"bogus": 1}'], "bogus"),
        (["--ruleset", "chess"], "Unknown game 'chess'"),
        (["--games", "0"], "--games must be at least 1, not 0"),
        (
            ["--players", "3", "--options", '{"teams": [[0, 2], [1, 3]]}'],
            "3 players cannot be split into equal teams",
        ),
    ],
)
def test_a_bad_command_line_is_named_before_any_game(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    code = simulate.main(parser.parse_args(["--games", "3", *argv]))
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == "", "no JSON line for a bad command line"
    assert said in captured.err and captured.err.count("\n") == 1, captured.err
