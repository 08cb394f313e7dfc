"""Write the frozen state snapshots that tests/compat/test_saved_states.py must keep loading.

Games last days, so a stored snapshot written by an older release must still load after an
upgrade. Run this only when starting a new snapshot generation (a release that changes a
state format on purpose *and* ships the migration for the older files):

    python -m tests.compat.make_snapshots GENERATION

It plays each shipped ruleset with computer seats to a mid-game position and writes
``snapshots/<ruleset>-<generation>.json``. Older generations are never rewritten.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import engine.rulesets  # noqa: F401  (registers every shipped ruleset)
from engine.core import get_ruleset, registered

HERE = Path(__file__).parent / "snapshots"


def snapshot(ruleset_id: str, seed: int = 11, players: int = 2) -> dict[str, object]:
    """Play a whole computer game of ``ruleset_id``; return its middle position as a record."""
    ruleset = get_ruleset(ruleset_id)
    state, _ = ruleset.new_game(ruleset.parse_options({}), players, seed)
    chooser = random.Random(seed)
    positions = [ruleset.dump_state(state)]
    while not ruleset.result(state).finished:
        seat = ruleset.pending(state)[0].seat
        state, _ = ruleset.apply(state, seat, ruleset.ai_command(state, seat, chooser))
        positions.append(ruleset.dump_state(state))
    middle = json.loads(positions[len(positions) // 2])
    return {"ruleset": ruleset_id, "players": players, "state": middle}


def main(argv: list[str]) -> int:
    """Write one generation of snapshots; refuse to overwrite an existing file."""
    if len(argv) != 1 or not argv[0].isalnum():
        print("usage: python -m tests.compat.make_snapshots GENERATION (e.g. 1)", file=sys.stderr)
        return 2
    HERE.mkdir(exist_ok=True)
    for ruleset_id in registered():
        if ruleset_id not in ("homm4", "homm3", "mmh", "heroforge"):
            continue
        path = HERE / f"{ruleset_id}-{argv[0]}.json"
        if path.exists():
            print(f"{path} exists: snapshots are never rewritten", file=sys.stderr)
            return 1
        path.write_text(json.dumps(snapshot(ruleset_id), sort_keys=True) + "\n", encoding="utf-8")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
