"""Property tests of every shipped ruleset (issue 14, the inner loop), with hypothesis:
games drawn by options, seats and seed, walked by drawn indices into the legal commands of
a pending decision's seat (tests/core/properties.py).

* random legal command sequences keep the ruleset's audit invariants (and the state
  round-trips through its JSON);
* `apply` never changes its input (canonical JSON before and after), and the same command
  on the same state gives the same result;
* the public view holds no hidden card, and a seat's view none that another seat holds
  or nobody may know (Hero Forge hides nothing: its seat view is the public view);
* refused input (another seat's command, a stale version, a malformed or mutated
  command, text that is no command) raises a `RuleViolation` and changes nothing.

The fast tests walk the first few dozen commands of a few games; the ``slow`` one plays
long games (most end) checking the audit and a refusal after every command and the views
after every fourth.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.core.properties import (
    SHIPPED,
    Walk,
    bad_input,
    checked_apply,
    examples,
    refusal_problems,
    start,
    view_problems,
    walk_steps,
)

STEPS = 40
"""Commands each fast walk plays at most (then the game is left unfinished)."""

VIEW_STEPS = 30
"""Commands each fast walk of the view test plays at most (every view built each time)."""

LONG_GAME = 400
"""Commands a slow walk plays at most (most random games end before)."""


def _audit(walk: Walk) -> list[str]:
    assert walk.last is not None
    problems = walk.rules.audit(walk.last.state)
    return [f"{walk.where()}: {problem}" for problem in problems]


@pytest.mark.parametrize("ruleset_id", SHIPPED)
@examples(10)
@given(data=st.data())
def test_random_legal_commands_keep_the_audit_invariants(
    ruleset_id: str, data: st.DataObject
) -> None:
    walk = start(data, ruleset_id)
    for _ in walk_steps(data, walk, STEPS):
        assert not (problems := _audit(walk)), "\n".join(problems)
    assert walk.last is not None
    state = walk.last.state
    assert walk.rules.load_state(walk.rules.dump_state(state)) == state


@pytest.mark.parametrize("ruleset_id", SHIPPED)
@examples(6)
@given(data=st.data())
def test_apply_never_changes_its_input_and_repeats_exactly(
    ruleset_id: str, data: st.DataObject
) -> None:
    walk = start(data, ruleset_id)
    for step in walk_steps(data, walk, STEPS):
        state = step.state
        for seat in sorted({d.seat for d in walk.rules.pending(state)}):
            legal = walk.rules.legal_commands(state, seat)
            command = legal[data.draw(st.integers(0, len(legal) - 1), label="another")]
            first, events = checked_apply(walk, state, seat, command)
            again, repeated = checked_apply(walk, state, seat, command)
            assert first is not state and first.version == state.version + 1
            assert (first.model_dump_json(), events) == (again.model_dump_json(), repeated), (
                f"{walk.where()}: {command!r} gave two different results"
            )


@pytest.mark.parametrize("ruleset_id", SHIPPED)
@examples(5)
@given(data=st.data())
def test_no_view_holds_a_card_hidden_from_its_reader(ruleset_id: str, data: st.DataObject) -> None:
    walk = start(data, ruleset_id)
    for step in walk_steps(data, walk, VIEW_STEPS):
        assert not (problems := view_problems(walk, step.state)), "\n".join(problems[:10])


@pytest.mark.parametrize("ruleset_id", SHIPPED)
@examples(10)
@given(data=st.data())
def test_a_refused_command_changes_nothing(ruleset_id: str, data: st.DataObject) -> None:
    walk = start(data, ruleset_id)
    refused = 0
    for step in walk_steps(data, walk, STEPS):
        bad = bad_input(data, walk, step.state)
        if bad is not None:
            assert not (problems := refusal_problems(walk, step.state, bad)), problems[0]
            refused += 1
    assert refused > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", SHIPPED)
@examples(3)
@given(data=st.data())
def test_long_random_games_keep_every_property(ruleset_id: str, data: st.DataObject) -> None:
    walk = start(data, ruleset_id)
    for step in walk_steps(data, walk, LONG_GAME):
        problems = _audit(walk)
        if step.number % 4 == 0:
            problems += view_problems(walk, step.state)
        bad = bad_input(data, walk, step.state)
        if bad is not None:
            problems += refusal_problems(walk, step.state, bad)
        assert not problems, "\n".join(problems[:10])
    assert walk.last is not None
    assert not view_problems(walk, walk.last.state)
