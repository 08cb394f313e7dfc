"""``python -m benchmarks``: measure every area, write docs/PERFORMANCE.md, print a summary.

Options: ``--quick`` (a short run: fewer games, repeats and rounds), ``--only AREA``
(repeatable: ``engine``, ``storage``, ``render``, ``startup``, ``e2e``, ``shards`` — two bot
processes on PostgreSQL beside one on SQLite, `benchmarks.bench_shards` —, ``ai``),
``--no-write`` (print only),
``--out PATH`` (another document), ``--py-spy FILE`` (record each end-to-end bot process
with py-spy, speedscope format, into FILE with the scenario's name added, e.g.
``bot-heroes-many.speedscope``, to see where its time goes), ``--ruleset ID`` (repeatable:
the end-to-end run plays games of this ruleset, once per ruleset named; homm4 by default),
``--games N`` (repeatable: the end-to-end run drives N active games at once, once per N
named, each under its own heading; a full run drives 50, 100, 150, 200, 300 and 500,
``--quick`` 8), ``--think S`` (the e2e many-games and shards runs: mean seconds between
a game's rounds, ±50 %; 10 by default, 1 with ``--quick``),
after which the capacity line of one bot process sums up the runs (`capacity_summary`).
The computer players' area (``ai``, `benchmarks.bench_ai`) takes ``--ai-games N`` (games
per ruleset and level; 200 by default), ``--ai-iterations N`` (search iterations per
decision in those games), ``--ai-minutes M`` (stop after M minutes), ``--ai-rulesets
LIST`` and ``--ai-levels LIST`` (comma-separated: only these rulesets, only these
searching levels; all four and ``hard,normal`` by default).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.report import AreaResult, console_summary, python_command, update_document

AREAS = ("engine", "storage", "render", "startup", "e2e", "shards", "ai")
RULESETS = ("homm4", "mmh", "homm3", "heroforge")
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "PERFORMANCE.md"


def _runner(
    area: str,
    quick: bool,
    py_spy: Path | None,
    ruleset: str = "homm4",
    games: int | None = None,
    ai: argparse.Namespace | None = None,
) -> Callable[[], AreaResult]:
    if area == "engine":
        from benchmarks import bench_engine

        return lambda: bench_engine.run(quick)
    if area == "storage":
        from benchmarks import bench_storage

        return lambda: bench_storage.run(quick)
    if area == "render":
        from benchmarks import bench_render

        return lambda: bench_render.run(quick)
    if area == "startup":
        from benchmarks import bench_startup

        return lambda: bench_startup.run(quick)
    if area == "shards":
        from benchmarks import bench_shards

        return lambda: bench_shards.run(quick, getattr(ai, "think", None))
    if area == "ai":
        from benchmarks import bench_ai

        return lambda: bench_ai.run(
            quick,
            games=getattr(ai, "ai_games", None),
            iterations=getattr(ai, "ai_iterations", None),
            minutes=getattr(ai, "ai_minutes", None),
            rulesets=_listed(getattr(ai, "ai_rulesets", None), bench_ai.RULESETS),
            levels=_listed(getattr(ai, "ai_levels", None), ("hard", "normal")),
        )
    from benchmarks import bench_e2e

    think = getattr(ai, "think", None)
    return lambda: bench_e2e.run(quick, _py_spy_wrapper(py_spy), ruleset, games, think)


def _listed(text: str | None, default: tuple[str, ...]) -> tuple[str, ...]:
    """A comma-separated option as a tuple (``default`` when not given).

    :raises SystemExit: (argparse's usage error) for a name not in ``default``."""
    if not text:
        return default
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in default]
    if unknown or not names:
        raise SystemExit(
            f"benchmarks: unknown {unknown or text!r}; choose from {', '.join(default)}"
        )
    return names


def _py_spy_wrapper(out: Path | None) -> list[str]:
    if out is None:
        return []
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    each = out.with_name(f"{out.stem}-{{scenario}}{out.suffix}")  # one file per bot process
    return [
        *(found, "record", "--threads", "--subprocesses", "-r", "200"),
        *("-f", "speedscope", "-o", str(each), "--"),
    ]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure Heroes Table next to its floors; write docs/PERFORMANCE.md.",
    )
    parser.add_argument("--quick", action="store_true", help="a short run (less precise)")
    parser.add_argument(
        "--only", action="append", choices=AREAS, help="measure only this area (repeatable)"
    )
    parser.add_argument("--no-write", action="store_true", help="print, do not write the doc")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the document to update")
    parser.add_argument("--py-spy", type=Path, help="profile the e2e bot process into FILE")
    parser.add_argument(
        "--ruleset",
        action="append",
        choices=RULESETS,
        help="the e2e run plays games of this ruleset (repeatable; default homm4)",
    )
    parser.add_argument(
        "--games",
        action="append",
        type=int,
        metavar="N",
        help="the e2e run drives N active games at once (repeatable: one run each; "
        "default 50, 100, 150, 200, 300 and 500; 8 with --quick)",
    )
    parser.add_argument(
        "--think",
        type=float,
        metavar="S",
        help="e2e and shards: mean seconds between a game's rounds (10; 1 with --quick)",
    )
    parser.add_argument(
        "--ai-games", type=int, metavar="N", help="ai: games per ruleset and level (200)"
    )
    parser.add_argument(
        "--ai-iterations", type=int, metavar="N", help="ai: search iterations per decision"
    )
    parser.add_argument(
        "--ai-minutes", type=float, metavar="M", help="ai: start no game after M minutes"
    )
    parser.add_argument(
        "--ai-rulesets", metavar="LIST", help="ai: only these rulesets (homm4,heroforge,...)"
    )
    parser.add_argument("--ai-levels", metavar="LIST", help="ai: only these levels (hard,normal)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen areas in order; write the document unless ``--no-write``.

    :returns: 0 (a missed target is reported, not an error).
    """
    args = parse_args(argv)
    areas = [a for a in AREAS if a in (args.only or AREAS)]
    results: list[AreaResult] = []
    runs = [
        (area, ruleset, games)
        for area in areas
        for ruleset in (args.ruleset or ["homm4"] if area == "e2e" else ["homm4"])
        for games in (_game_counts(args) if area == "e2e" else [None])
    ]
    for area, ruleset, games in runs:
        started = time.perf_counter()
        name = area if ruleset == "homm4" else f"{area} ({ruleset})"
        name += "" if games is None else f" ({games} games)"
        print(f"measuring {name}...", file=sys.stderr, flush=True)
        results.append(_runner(area, args.quick, args.py_spy, ruleset, games, args)())
        print(f"  {name} done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    capacity = capacity_summary(results)
    if capacity is not None:
        results.append(capacity)
    print(console_summary(results))
    if not args.no_write:
        shown = list(sys.argv[1:] if argv is None else argv)
        update_document(args.out, results, python_command(_public_args(shown)))
        print(f"wrote {args.out}")
    return 0


FULL_RUN_GAMES: tuple[int | None, ...] = (None, 100, 150, 200, 300, 500)
"""The end-to-end runs of a full run without ``--games``: `bench_e2e.ACTIVE` (50) games at
once, then 100, 150, 200, 300 and 500: the capacity line is the most interactions a second
of the runs that kept both bounds, so the steps between the last run that kept them and
the first that did not bound it (50 to 200 at once was a factor of three); ``--quick``
runs the first only."""


def _game_counts(args: argparse.Namespace) -> list[int | None]:
    """The active-game counts of the end-to-end runs (None: `bench_e2e.ACTIVE`)."""
    if args.games:
        return list(args.games)
    return [None] if args.quick else list(FULL_RUN_GAMES)


def capacity_summary(results: Sequence[AreaResult]) -> AreaResult | None:
    """The capacity line of one bot process across the end-to-end runs of ``results``
    (area ``capacity``): each run's interactions answered per second, whether its ack and
    image-post p99 bounds held, and the most any run sustained within them. None with
    fewer than two end-to-end runs (one run's figures say it already)."""
    lines = [
        (result, figure)
        for result in results
        if result.area.startswith("e2e")
        for figure in result.figures
        if figure.name.startswith("capacity line")
    ]
    if len(lines) < 2:
        return None
    figures = [figure for _, figure in lines]
    within = [f.value for f in figures if f.passed and isinstance(f.value, float)]
    best = max(within, default=0.0)
    lightest = min((f.value for f in figures if isinstance(f.value, float)), default=0.0)
    notes = [
        "One bot process (its event loop and its two rendering workers) under each "
        "end-to-end run's load: the interactions it answered per second, and whether that "
        "run kept acknowledgement p99 < 100 ms and final image post p99 < 500 ms.",
        (
            f"Capacity line: {best:.1f} interactions per second sustained within both "
            "bounds (the most of the runs that kept them)."
            if within
            else "Capacity line: no run kept both bounds, so one process sustains less "
            f"than the lightest run's {lightest:.1f} "
            "interactions per second."
        ),
    ]
    shown = [
        replace(
            f,
            target=None,
            note=("both bounds kept" if f.passed else "a bound missed") + f"; {f.note}",
        )
        for f in figures
    ]  # the runs' own blocks mark the misses already
    return AreaResult("capacity", "Capacity of one bot process", shown, notes=notes)


def _public_args(argv: list[str]) -> list[str]:
    """The arguments worth showing in the document (not --out / --py-spy paths)."""
    shown: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--out", "--py-spy"):
            skip = True
            continue
        if arg.startswith(("--out=", "--py-spy=")):
            continue
        shown.append(arg)
    return shown


if __name__ == "__main__":
    sys.exit(main())
