"""Summaries of repeated measurements: median, p95 and p99 over many samples, never one timing.

Samples are milliseconds unless a caller says otherwise. Percentiles interpolate linearly
between the two nearest ranks (numpy's default), so ``p99`` of 50 samples lies between the
largest two rather than being the maximum.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass


def percentile(samples: Sequence[float], q: float) -> float:
    """Return the ``q``-th percentile (0-100) of ``samples`` (linear interpolation).

    :raises ValueError: if ``samples`` is empty or ``q`` is outside 0..100.
    """
    if not samples:
        raise ValueError("no samples")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} is outside 0..100")
    ordered = sorted(samples)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass(frozen=True)
class Stat:
    """The distribution of one repeated measurement.

    Attributes:
        n: how many samples.
        median / p95 / p99 / min / max / mean: in the samples' unit (usually ms).
    """

    n: int
    median: float
    p95: float
    p99: float
    min: float
    max: float
    mean: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Stat:
        """Summarise ``samples``. :raises ValueError: if there are none."""
        if not samples:
            raise ValueError("no samples")
        return cls(
            n=len(samples),
            median=statistics.median(samples),
            p95=percentile(samples, 95),
            p99=percentile(samples, 99),
            min=min(samples),
            max=max(samples),
            mean=statistics.fmean(samples),
        )


def time_calls(fn: Callable[[], object], repeats: int, *, warmup: int = 1) -> list[float]:
    """Call ``fn`` ``warmup`` times untimed, then ``repeats`` times; return each call's ms.

    The garbage collector runs before the timed calls but stays enabled during them: a
    collection is part of what a caller pays.
    """
    for _ in range(warmup):
        fn()
    gc.collect()
    samples: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def time_async(
    fn: Callable[[], Awaitable[object]], repeats: int, *, warmup: int = 1
) -> list[float]:
    """Like `time_calls` for a coroutine function: each awaited call's ms."""
    for _ in range(warmup):
        await fn()
    gc.collect()
    samples: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def interleaved(
    calls: Sequence[Callable[[], object]],
    repeats: int,
    *,
    warmup: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> list[list[float]]:
    """Time several functions in turn (A B C A B C ...), ``repeats`` rounds; ms per call.

    Interleaving spreads a noisy machine's slow moments evenly over a figure and its floor,
    so their ratio stays meaningful while other jobs run. ``clock`` (seconds) is the wall
    clock unless told; ``time.process_time`` counts this process's CPU time only, which
    other jobs on the machine do not inflate.
    """
    for _ in range(warmup):
        for call in calls:
            call()
    gc.collect()
    samples: list[list[float]] = [[] for _ in calls]
    for _ in range(repeats):
        for index, call in enumerate(calls):
            started = clock()
            call()
            samples[index].append((clock() - started) * 1000)
    return samples
