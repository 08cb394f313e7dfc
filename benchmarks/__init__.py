"""Benchmarks of Heroes Table: each figure next to the floor it cannot beat, same machine, same run.

Run ``python -m benchmarks`` (``--quick`` for a short run, ``--only AREA`` for one area);
it writes the tables into docs/PERFORMANCE.md and prints a summary. Not part of the test
suite: nothing here asserts a speed. See docs/PERFORMANCE.md for the method.
"""
