"""Shared pytest configuration: the `rule` marker names the rulebook section a test checks;
every test gets a temporary user data folder."""

import pytest


@pytest.fixture(autouse=True)
def _data_folder_in_tmp(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's data folder (`platformdirs`: ``XDG_DATA_HOME`` on Linux) is a temporary
    one in every test: the console keeps its game there when no ``--db`` is given, and a
    test must never write into the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
