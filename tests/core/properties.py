"""Shared parts of the engine property tests (issue 14): hypothesis-drawn games of every
shipped ruleset, walked by drawn indices into the legal commands of a pending decision's
seat, and the checks the property tests make at each position.

`walk` draws the game (options, seats, seed), then at each step a pending decision and an
index into its seat's `legal_commands`; every apply it makes is checked not to change its
input. `view_problems` finds a hidden card in a view; `bad_inputs` draws refused input.

``HEROES_TABLE_EXAMPLES=200`` runs each property test with 200 fresh random examples
(instead of the few fixed ones CI runs) to hunt for new failures.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

import engine.rulesets
from engine.core.errors import RuleViolation
from engine.core.model import Command, GameState
from engine.core.ruleset import Ruleset, get_ruleset
from tests.bot import privacy_helpers as ph

SHIPPED = engine.rulesets.SHIPPED

_ADVANCED_HOMM4: dict[str, Any] = {
    "underground": 2,
    "morale": True,
    "luck": True,
    "flying": True,
    "native_lands": True,
    "distance_penalties": True,
    "other_faction_heroes": True,
    "resurrection": True,
    "potions": True,
    "resource_trading": True,
    "diplomacy": True,
}

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "homm4": [{}, {"assembly": "manual"}, _ADVANCED_HOMM4],
    "homm3": [
        {},
        {"mode": "adventure"},
        {"size": "medium"},
        {"size": "large", "siege": True},
        {"mode": "adventure", "siege": True},
    ],
    "mmh": [{"length": "quick"}, {"length": "quick", "assembly": "manual"}],
    "heroforge": [{}],
}
"""Game options drawn for each ruleset (its variants that change what is played)."""

MOST_SEATS = 4
"""Seat counts are drawn from the fewest the options allow (`Ruleset.seat_range`) to this
(or the most they allow if lower)."""


def examples(count: int) -> settings:
    """Hypothesis settings for a property test: ``count`` examples, no deadline (a game
    step's time depends on the machine), derandomized so that CI runs the same examples
    every time; ``HEROES_TABLE_EXAMPLES`` overrides the count and draws fresh examples.
    No shrinking (it can take minutes on a game): a failure names the game, its seed and
    the step, and hypothesis prints every draw and a ``@reproduce_failure`` blob."""
    wanted = int(os.environ.get("HEROES_TABLE_EXAMPLES", "0") or 0)
    return settings(
        max_examples=wanted or count,
        deadline=None,
        derandomize=not wanted,
        database=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


@dataclass
class Step:
    """One position of a walk: the state, its number in the walk (0: the new game), and
    the seat and command that led to it (None for the new game)."""

    state: GameState
    number: int
    seat: int | None = None
    command: Command | None = None


@dataclass
class Walk:
    """A drawn game: its ruleset, options, seats and seed (what reproduces it, with the
    drawn indices hypothesis prints), and where it got to."""

    rules: Ruleset[Any]
    options: dict[str, Any]
    players: int
    seed: int
    last: Step | None = None

    def where(self) -> str:
        """``"homm3 {'mode': 'adventure'} 2 seats seed 17, step 12 after Red's {...}"``."""
        step = self.last
        said = f"{self.rules.id} {self.options} {self.players} seats seed {self.seed}"
        if step is None:
            return said
        after = f" after seat {step.seat}'s {dumped(step.command)}" if step.command else ""
        return f"{said}, step {step.number}{after}"


def dumped(command: Command | None) -> str:
    """A command as compact JSON (for failure messages)."""
    return "None" if command is None else command.model_dump_json()


def start(data: st.DataObject, ruleset_id: str) -> Walk:
    """Draw a game of ``ruleset_id``: options, seat count, seed."""
    rules = get_ruleset(ruleset_id)
    options = data.draw(st.sampled_from(OPTIONS[ruleset_id]), label="options")
    fewest, most = rules.seat_range(rules.parse_options(options))
    players = data.draw(st.integers(fewest, min(most, MOST_SEATS)), label="players")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    return Walk(rules, options, players, seed)


def checked_apply(
    walk: Walk, state: GameState, seat: int, command: Command | dict[str, Any] | str, **kw: Any
) -> tuple[GameState, list[Any]]:
    """``rules.apply`` that also checks the input state is unchanged afterwards, whether
    the command was accepted or refused (compared as canonical JSON)."""
    before = state.model_dump_json()
    try:
        return walk.rules.apply(state, seat, command, **kw)  # type: ignore[no-any-return]
    finally:
        assert state.model_dump_json() == before, (
            f"{walk.where()}: apply of {command!r} by seat {seat} changed its input state"
        )


def walk_steps(data: st.DataObject, walk: Walk, steps: int) -> Iterator[Step]:
    """Yield the new game, then up to ``steps`` positions, each reached by a drawn legal
    command of a drawn pending decision's seat; stops when the game is over. Checks that a
    game without a pending decision is finished and that every owed decision lists a legal
    command."""
    rules = walk.rules
    state, _ = rules.new_game(rules.parse_options(walk.options), walk.players, walk.seed)
    walk.last = Step(state, 0)
    yield walk.last
    for number in range(1, steps + 1):
        pending = rules.pending(state)
        if not pending:
            assert rules.result(state).finished, f"{walk.where()}: no decision owed, not over"
            return
        which = data.draw(st.integers(0, len(pending) - 1), label="decision") if pending[1:] else 0
        seat = pending[which].seat
        legal = rules.legal_commands(state, seat)
        assert legal, f"{walk.where()}: {pending[which]} lists no legal command"
        index = data.draw(st.integers(0, len(legal) - 1), label="command")
        state, _ = checked_apply(walk, state, seat, legal[index])
        walk.last = Step(state, number, seat, legal[index])
        yield walk.last


# ------------------------------------------------------------------------------ views
def _refs(node: Any, keys: frozenset[str], field: str) -> set[int]:
    """The ``field`` of every dict with exactly ``keys`` in a JSON value (a card shown)."""
    found: set[int] = set()
    if isinstance(node, dict):
        if set(node) == keys and isinstance(node[field], int):
            found.add(node[field])
        for value in node.values():
            found |= _refs(value, keys, field)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value, keys, field)
    return found


def strings(node: Any) -> list[str]:
    """Every string in a parsed JSON value (`privacy_helpers.json_strings`, made fast for
    a view at every step: exact types, no recursion)."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            found.append(item)
        elif kind is dict:
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
    return found


def shown_cards(ruleset_id: str, view: Any, texts: list[str]) -> set[int | str]:
    """The card instances a view's JSON shows: homm4 ``CardRef`` ids, homm3 ``CardRef``
    numbers, for mmh every string of it (``texts``: its cards are named by id)."""
    if ruleset_id == "homm4":
        return set(_refs(view, frozenset({"id", "card"}), "id"))
    if ruleset_id == "homm3":
        return set(_refs(view, frozenset({"number", "id", "name"}), "number"))
    if ruleset_id == "mmh":
        return set(texts)
    return set()


def _public_marks(state: GameState) -> set[str]:
    """Names of things on the table called like a card (public, whoever holds another
    copy of the card): homm3's Fire Wall and Force Field markers placed by those spells,
    and the effects shown on a unit (a Counterstrike played on it, flags such as Haste)."""
    combat = getattr(state, "combat", None)
    if combat is None or state.ruleset != "homm3":
        return set()
    names = {placed.name for placed in combat.placed}
    for unit in combat.units:  # as engine/homm3/viewing.py shows them
        names |= {flag.partition(":")[0].replace("_", " ").title() for flag in unit.flags}
        if unit.extra_retaliation:
            names.add("Counterstrike")
    return names


def _also_public(checker: ph.Checker, names: set[str]) -> ph.Checker:
    """``checker`` with ``names`` public too (never looked for)."""
    if not names:
        return checker
    return ph.Checker(checker.forbidden, checker.public_names | names)


def view_problems(walk: Walk, state: GameState) -> list[str]:
    """Every hidden card the public view or a seat's view holds that its reader may not
    know (tests/bot/privacy_helpers.py: `secrets`, the checkers), structurally (the cards
    the view lists) and by ``#number`` or name in its texts. Hero Forge hides nothing: its
    seat view is the public view plus the seat."""
    rules, rid = walk.rules, walk.rules.id
    found: list[str] = []
    hidden, _ = ph.secrets(state)
    public = json.loads(rules.public_view(state).model_dump_json())
    texts = strings(public)
    shown = shown_cards(rid, public, texts) & set(hidden)
    found += [f"public view shows hidden {hidden[k]}" for k in sorted(shown, key=str)]
    marked = _public_marks(state)
    channel = _also_public(ph.channel_checker(state, state), marked)
    found += [f"public view: {h}" for h in channel.leaks(set(texts), ids=True)]
    for seat in range(state.players):
        own = json.loads(rules.view(state, seat).model_dump_json())
        texts = strings(own)
        barred = {k for k, s in hidden.items() if s.owner != seat}
        shown = shown_cards(rid, own, texts) & barred
        found += [f"seat {seat}'s view shows {hidden[k]}" for k in sorted(shown, key=str)]
        reader = _also_public(ph.seat_checker(state, state, seat), marked)
        found += [f"seat {seat}'s view: {h}" for h in reader.leaks(set(texts))]
        if rid == "heroforge":
            assert own.pop("seat") == seat
            if own != public:
                found.append(f"seat {seat}'s view differs from the public view")
    return [f"{walk.where()}: {problem}" for problem in found]


# --------------------------------------------------------------------------- refusals
def _mutations(command: Command) -> list[tuple[str, dict[str, Any]]]:
    """Malformed versions of a legal command's fields, each with what was done."""
    raw = command.model_dump(mode="json")
    out: list[tuple[str, dict[str, Any]]] = [
        ("unknown type", {**raw, "type": "no_such_command"}),
        ("extra field", {**raw, "bogus": 1}),
        ("no type", {k: v for k, v in raw.items() if k != "type"}),
    ]
    for key, value in raw.items():
        if key == "type":
            continue
        out.append((f"{key} wrong type", {**raw, key: {"not": ["a", key]}}))
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            out += [(f"{key}={v}", {**raw, key: v}) for v in (-1, value + 1, 10**6)]
        elif isinstance(value, str):
            out += [(f"{key}=''", {**raw, key: ""}), (f"{key}='ZZ99'", {**raw, key: "ZZ99"})]
        elif isinstance(value, list):
            out.append((f"{key}=[]", {**raw, key: []}))
            if value:
                out.append((f"{key} doubled", {**raw, key: value + value}))
                out.append((f"{key} first dropped", {**raw, key: value[1:]}))
        out.append((f"{key} missing", {k: v for k, v in raw.items() if k != key}))
    return out


@dataclass(frozen=True)
class BadInput:
    """Input ``seat`` sends that the rules may refuse: ``command`` (a model, a dict or
    JSON text), ``expected_version``, and whether it must be refused (else it may also be
    a legal command the enumeration did not list: then only the input must be intact)."""

    what: str
    seat: int
    command: Command | dict[str, Any] | str
    expected_version: int | None = None
    must_refuse: bool = True


def bad_input(data: st.DataObject, walk: Walk, state: GameState) -> BadInput | None:
    """Draw one refused (or possibly refused) input at ``state``: a legal command sent by
    a seat that owes nothing, or with a stale version, a command of an unknown type, with
    an extra or missing field or a field of another type or value, or text that is no
    command. None when nobody owes a decision."""
    rules = walk.rules
    pending = rules.pending(state)
    if not pending:
        return None
    owing = sorted({d.seat for d in pending})
    seat = data.draw(st.sampled_from(owing), label="owing seat")
    legal = rules.legal_commands(state, seat)
    command = legal[data.draw(st.integers(0, len(legal) - 1), label="legal command")]
    idle = [s for s in range(state.players) if s not in owing]
    kinds = ["stale", "garbage", "mutated", "no seat"] + (["idle seat"] if idle else [])
    kind = data.draw(st.sampled_from(kinds), label="bad input")
    if kind == "idle seat":
        other = data.draw(st.sampled_from(idle), label="idle seat")
        return BadInput(
            f"seat {seat}'s {dumped(command)} sent by idle seat {other}", other, command
        )
    if kind == "no seat":
        return BadInput(f"{dumped(command)} by seat {state.players}", state.players, command)
    if kind == "stale":
        version = data.draw(st.sampled_from([state.version - 1, state.version + 1]))
        return BadInput(f"{dumped(command)} for version {version}", seat, command, version)
    if kind == "garbage":
        text = data.draw(st.sampled_from(["", "{", "[]", "null", '{"type": 7}', "attack"]))
        return BadInput(f"text {text!r}", seat, text)
    what, raw = data.draw(st.sampled_from(_mutations(command)), label="mutation")
    sure = what in {"unknown type", "extra field", "no type"} or what.endswith("wrong type")
    return BadInput(f"{dumped(command)} with {what}: {raw}", seat, raw, must_refuse=sure)


def refusal_problems(walk: Walk, state: GameState, bad: BadInput) -> list[str]:
    """Send ``bad`` to ``state``: a refusal is a `RuleViolation` (never another error)
    that leaves the state, its pending decisions and its seats' legal commands as they
    were; input that had to be refused was refused."""
    rules = walk.rules
    pending = rules.pending(state)
    legal = {s: rules.legal_commands(state, s) for s in {d.seat for d in pending}}
    where = f"{walk.where()}: {bad.what}"
    try:
        checked_apply(walk, state, bad.seat, bad.command, expected_version=bad.expected_version)
    except RuleViolation as refusal:
        if not str(refusal):
            return [f"{where}: refused without a message ({type(refusal).__name__})"]
    except Exception as error:  # anything else is a crash on bad input
        return [f"{where}: raised {type(error).__name__}: {error}"]
    else:
        if bad.must_refuse:
            return [f"{where}: accepted"]
    if rules.pending(state) != pending:
        return [f"{where}: the pending decisions changed"]
    if {s: rules.legal_commands(state, s) for s in legal} != legal:
        return [f"{where}: the legal commands changed"]
    return []
