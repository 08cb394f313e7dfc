"""Results of a benchmark run: figures next to their floors, the machine, and the Markdown.

An area (engine, storage, render, e2e) returns an `AreaResult`: a list of `Figure`s, each
a measured value (a `Stat` of many samples, or one number such as a byte count) beside the
floor it cannot beat, measured in the same run, their ratio, and the target it must meet.
`update_document` writes each area's tables between its markers in docs/PERFORMANCE.md and
leaves every other line of the document (the prose, the history of fixes) as it is.
"""

from __future__ import annotations

import os
import platform
import re
import sqlite3
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from benchmarks.stats import Stat

LIBRARIES = ("pydantic", "pydantic-core", "pillow", "discord.py", "aiosqlite", "aiohttp")
"""The libraries whose versions the report names (besides Python and SQLite)."""


@dataclass(frozen=True)
class Target:
    """What a figure must meet: a readable rule and the check that applies it."""

    text: str
    check: Callable[[Figure], bool]


def ratio_at_most(limit: float) -> Target:
    """The figure's median is at most ``limit`` times its floor's median."""
    return Target(f"≤ {limit:g}× floor", lambda f: f.ratio is not None and f.ratio <= limit)


def p99_under(limit: float, unit: str = "ms") -> Target:
    """The figure's p99 is under ``limit``."""
    return Target(f"p99 < {limit:g} {unit}", lambda f: _stat(f.value).p99 < limit)


def max_under(limit: float, unit: str = "ms") -> Target:
    """Every sample of the figure is under ``limit``."""
    return Target(f"max < {limit:g} {unit}", lambda f: _stat(f.value).max < limit)


def _stat(value: Stat | float) -> Stat:
    if isinstance(value, Stat):
        return value
    return Stat(1, value, value, value, value, value, value)


@dataclass
class Figure:
    """One measured figure beside its floor.

    Attributes:
        name: what was measured ("apply, mid-game, 4 players").
        unit: the unit of ``value`` and ``floor`` ("ms", "bytes", "KiB", "games/s", "MiB").
        value: the measurement: a `Stat` over repeated samples, or a single number.
        floor_name: what the floor is ("state deep copy").
        floor: the floor measured in the same run (same unit), if the figure has one.
        target: the target the figure must meet, if any.
        note: a short remark shown under the table.
    """

    name: str
    unit: str
    value: Stat | float
    floor_name: str = ""
    floor: Stat | float | None = None
    target: Target | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """The figure's median over its floor's median (None without a floor)."""
        if self.floor is None:
            return None
        below = _stat(self.floor).median
        return _stat(self.value).median / below if below else None

    @property
    def passed(self) -> bool | None:
        """Whether the target is met (None without a target)."""
        return None if self.target is None else self.target.check(self)


@dataclass
class AreaResult:
    """Everything one area measured.

    Attributes:
        area: the area's id (``engine``, ``storage``, ``render``, ``e2e``).
        title: its heading in the document.
        figures: the figures, in the order of the table.
        notes: sentences printed under the tables (method, workload, choices made).
        extra_markdown: further Markdown (e.g. the encoding comparison) after the notes.
        seconds: how long the area took to measure.
    """

    area: str
    title: str
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra_markdown: str = ""
    seconds: float = 0.0

    @property
    def misses(self) -> list[Figure]:
        """The figures whose target is missed."""
        return [f for f in self.figures if f.passed is False]


# ------------------------------------------------------------------------ the machine
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip()


def usable_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def machine_line() -> str:
    """One line naming the machine, Python, SQLite and library versions, load and commit."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    libraries = ", ".join(f"{name} {_version(name)}" for name in LIBRARIES)
    return (
        f"{usable_cores()} cores ({_cpu_model()}), {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {libraries}; "
        f"load average {load} at the end; commit {_git_commit()}"
    )


# ------------------------------------------------------------------------ formatting
def _number(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _value(value: Stat | float | None, unit: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, Stat):
        return f"{_number(value.median)} {unit}"
    return f"{_number(value)} {unit}"


def _verdict(figure: Figure) -> str:
    passed = figure.passed
    return "—" if passed is None else ("pass" if passed else "**miss**")


def figure_table(figures: Sequence[Figure]) -> str:
    """The Markdown table: figure, median, floor, ratio, target, verdict."""
    rows = [
        "| figure | median | floor | floor median | ratio | target | |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        ratio = f"{f.ratio:.2f}×" if f.ratio is not None else "—"
        rows.append(
            f"| {f.name} | {_value(f.value, f.unit)} | {f.floor_name or '—'} | "
            f"{_value(f.floor, f.unit)} | {ratio} | {f.target.text if f.target else '—'} | "
            f"{_verdict(f)} |"
        )
    return "\n".join(rows)


def raw_table(figures: Sequence[Figure]) -> str:
    """The Markdown table of every distribution: n, median, p95, p99, max."""
    rows = [
        "| measurement | unit | n | median | p95 | p99 | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        for label, value in ((f.name, f.value), (f"floor: {f.floor_name}", f.floor)):
            if isinstance(value, Stat):
                rows.append(
                    f"| {label} | {f.unit} | {value.n} | {_number(value.median)} | "
                    f"{_number(value.p95)} | {_number(value.p99)} | {_number(value.max)} |"
                )
    return "\n".join(rows) if len(rows) > 2 else ""


def area_markdown(result: AreaResult, command: str, machine: str, when: datetime) -> str:
    """The Markdown block of one area (between its markers in the document)."""
    parts = [
        f"_Measured {when:%Y-%m-%d %H:%M} UTC with `{command}` in {result.seconds:.0f} s on "
        f"{machine}._",
        "",
        figure_table(result.figures),
    ]
    raw = raw_table(result.figures)
    if raw:
        parts += ["", "Distributions (every sample, same run):", "", raw]
    notes = [f"- {n}" for n in result.notes] + [
        f"- {f.name}: {f.note}" for f in result.figures if f.note
    ]
    if notes:
        parts += ["", *notes]
    if result.extra_markdown:
        parts += ["", result.extra_markdown.strip()]
    return "\n".join(parts)


def begin_marker(area: str) -> str:
    """The comment opening an area's generated block."""
    return f"<!-- benchmarks:{area}:begin (generated by python -m benchmarks; edits are lost) -->"


def end_marker(area: str) -> str:
    """The comment closing an area's generated block."""
    return f"<!-- benchmarks:{area}:end -->"


def update_document(
    path: Path, results: Sequence[AreaResult], command: str, when: datetime | None = None
) -> None:
    """Replace each area's block in ``path`` (or add it at the end, under its title).

    Everything outside the markers is left as it is; areas not in ``results`` keep their
    previous numbers.
    """
    moment = when or datetime.now(UTC)
    machine = machine_line()
    text = path.read_text() if path.exists() else "# Performance\n"
    for result in results:
        block = (
            f"{begin_marker(result.area)}\n"
            f"{area_markdown(result, command, machine, moment)}\n"
            f"{end_marker(result.area)}"
        )
        pattern = re.compile(
            re.escape(begin_marker(result.area)) + r".*?" + re.escape(end_marker(result.area)),
            re.DOTALL,
        )
        found = pattern.search(text)
        if found:
            text = text[: found.start()] + block + text[found.end() :]
        else:
            text = text.rstrip("\n") + f"\n\n## {result.title}\n\n{block}\n"
    path.write_text(text if text.endswith("\n") else text + "\n")


def console_summary(results: Sequence[AreaResult]) -> str:
    """A plain-text summary: one line per figure, misses marked."""
    lines = []
    for result in results:
        lines.append(f"== {result.title} ({result.seconds:.0f} s)")
        for f in result.figures:
            ratio = f"  {f.ratio:6.2f}× floor" if f.ratio is not None else ""
            target = f"  [{f.target.text}: {'pass' if f.passed else 'MISS'}]" if f.target else ""
            stat = f.value
            spread = (
                f" (p95 {_number(stat.p95)}, p99 {_number(stat.p99)})"
                if isinstance(stat, Stat) and stat.n > 1
                else ""
            )
            lines.append(f"  {f.name}: {_value(f.value, f.unit)}{spread}{ratio}{target}")
    misses = [f.name for r in results for f in r.misses]
    lines.append(f"targets missed: {', '.join(misses) if misses else 'none'}")
    return "\n".join(lines)


def python_command(argv: Sequence[str]) -> str:
    """The command line as a reader would type it (``python -m benchmarks ...``)."""
    return " ".join(["python -m benchmarks", *argv]) if argv else "python -m benchmarks"


__all__ = [
    "AreaResult",
    "Figure",
    "Target",
    "area_markdown",
    "console_summary",
    "machine_line",
    "max_under",
    "p99_under",
    "python_command",
    "ratio_at_most",
    "update_document",
    "usable_cores",
]
