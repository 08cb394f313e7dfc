"""The `heroes-table` entry point: subcommands, help, and the no-subcommand default."""

from __future__ import annotations

import json

import pytest

from bot import cli


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in ("run", "local", "simulate", "render", "backup", "verify", "migrate-db"):
        assert name in out


@pytest.mark.slow
def test_simulate_through_the_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        ["simulate", "--ruleset", "homm4", "--players", "2", "--games", "2", "--seed", "5"]
    )
    assert code == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["games"] == 2 and line["finished"] == 2 and line["errors"] == 0


def test_default_is_local_without_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir("/")  # no .env here
    assert cli.default_command() == "local"
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    assert cli.default_command() == "run"
