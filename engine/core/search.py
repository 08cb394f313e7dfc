"""The searching computer players: information-set Monte Carlo tree search over any ruleset.

Levels (`LEVELS`), chosen per seat:

* ``easy``: the ruleset's own simple player (`Ruleset.ai_command`), no search.
* ``normal``: flat Monte Carlo over determinizations: a one-ply UCB1 search (the tree
  holds the root's commands only) with half of ``hard``'s budget and play-outs half as
  long.
* ``hard``: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling,
  Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
  2012). One tree over the searching seat's information set; each iteration deals one
  world consistent with what the seat knows (`Ruleset.determinize`), walks the tree
  (its first command the searching seat's own, then the first decision owed) choosing
  among the commands legal in that world by UCB1 with availability counts
  (a child's exploration term counts the iterations in which it was legal), adds one
  node, plays out with the fast policy (the ``easy`` player) for at most
  `Budget.rollout_commands` commands, and scores the end with `Ruleset.evaluate` for
  every seat; each node keeps the reward of the seat that chose it, so every seat
  maximises its own reward (several seats work). Progressive widening keeps a node to
  ``1 + sqrt(visits)`` children, the fast policy's own choice first, so that a small
  budget still weighs the sensible command against a few others in games with hundreds
  of legal commands.

The search never takes the full state: `choose` turns it into the seat's information set
(`Ruleset.information_set`) before anything else, and the search functions take only that.
Given the same information set, seed of ``rng`` and an iteration budget, the choice is
the same (time budgets are for play, iteration budgets for tests). Rule: none (a computer
player's method; it only plays commands the rules list).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.core.errors import InvalidInput, NotYourDecision
from engine.core.model import Command, GameState, seat_name
from engine.core.ruleset import Ruleset

Level = Literal["easy", "normal", "hard"]
"""A computer player's level."""

LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")
"""Every level, weakest first."""

DEFAULT_LEVEL: Level = "normal"
"""The level of a computer seat whose level was not chosen, and of an away seat whose
game names no level: strong enough to keep a real game going, at half of ``hard``'s time."""

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (about 1/sqrt(2))."""

NORMAL_SHARE = 2
"""``normal`` spends 1/NORMAL_SHARE of the iterations (or seconds) ``hard`` would, with
play-outs 1/NORMAL_SHARE as long."""


@dataclass(frozen=True)
class Budget:
    """How much one decision may search.

    Attributes:
        iterations: the most iterations (deals of a world and play-outs); None for no cap.
        seconds: the most wall-clock seconds; None for no limit (reproducible: tests use
            ``iterations`` alone). At least one iteration runs either way.
        rollout_commands: the most commands of one play-out after the tree, before the
            position is scored with `Ruleset.evaluate`.
    """

    iterations: int | None = None
    seconds: float | None = 1.0
    rollout_commands: int = 20

    def __post_init__(self) -> None:
        """:raises InvalidInput: for a budget that allows nothing or never stops."""
        if self.iterations is None and self.seconds is None:
            raise InvalidInput("A search budget needs iterations or seconds (or both).")
        if self.iterations is not None and self.iterations < 1:
            raise InvalidInput(
                f"A search budget needs at least 1 iteration, not {self.iterations}."
            )
        if self.seconds is not None and self.seconds <= 0:
            raise InvalidInput(f"A search budget needs more than 0 seconds, not {self.seconds}.")
        if self.rollout_commands < 0:
            raise InvalidInput("A play-out cannot have fewer than 0 commands.")

    def share(self, parts: int) -> Budget:
        """This budget divided by ``parts`` (iterations and seconds; at least 1 iteration)."""
        return Budget(
            iterations=None if self.iterations is None else max(1, self.iterations // parts),
            seconds=None if self.seconds is None else self.seconds / parts,
            rollout_commands=self.rollout_commands,
        )


def parse_level(text: str) -> Level:
    """Read a level name (``"hard"``, any case, spaces around allowed).

    :raises InvalidInput: naming the levels when ``text`` is none of them.
    """
    word = text.strip().lower()
    for level in LEVELS:
        if word == level:
            return level
    raise InvalidInput(f"Unknown computer level {text!r}. Levels: {', '.join(LEVELS)}.")


def choose(
    rules: Ruleset[Any],
    state: GameState,
    seat: int,
    level: Level,
    rng: random.Random,
    budget: Budget | None = None,
) -> Command:
    """Choose ``seat``'s command at ``level`` (see the module docstring).

    ``easy`` reads the state as today's simple players do; ``normal`` and ``hard`` see only
    ``rules.information_set(state, seat)``. ``budget`` defaults to `Budget()` (1 s).

    :raises NotYourDecision: if ``seat`` owes nothing now.
    :raises InvalidInput: for an unknown level.
    """
    if level == "easy":
        return rules.ai_command(state, seat, rng)
    if level not in LEVELS:
        raise InvalidInput(f"Unknown computer level {level!r}. Levels: {', '.join(LEVELS)}.")
    info = rules.information_set(state, seat)
    spend = budget or Budget()
    if level == "normal":
        flat = spend.share(NORMAL_SHARE)
        short = Budget(flat.iterations, flat.seconds, spend.rollout_commands // NORMAL_SHARE)
        return search(rules, info, seat, rng, short, tree_depth=1)
    return search(rules, info, seat, rng, spend)


@dataclass
class _Node:
    """One command in the tree: who chose it, and what followed (rewards of that seat)."""

    command: Command | None = None
    actor: int = -1
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, _Node] = field(default_factory=dict)

    def ucb(self) -> float:
        """UCB1 with the availability count (SO-ISMCTS's subset-armed bandit)."""
        return self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(max(self.available, 1)) / self.visits
        )


def _key(command: Command) -> str:
    """A command's identity across worlds (its canonical JSON)."""
    return command.model_dump_json()


def search(
    rules: Ruleset[Any],
    info: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget,
    *,
    tree_depth: int | None = None,
) -> Command:
    """Run SO-ISMCTS from ``info`` (a result of ``rules.information_set(state, seat)``)
    and return the root command visited most (ties: the higher mean, then list order).

    ``tree_depth`` caps the tree's depth in commands (1: flat Monte Carlo over the root's
    commands); None for none. A seat with one legal command gets it without a search.

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = rules.legal_commands(info, seat)
    if not legal:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    if len(legal) == 1:
        return legal[0]
    root = _Node(actor=seat)
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    done = 0
    while True:
        _iterate(rules, info, seat, rng, budget, root, tree_depth)
        done += 1
        if budget.iterations is not None and done >= budget.iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    order = {_key(c): i for i, c in enumerate(legal)}
    ranked = [(k, n) for k, n in root.children.items() if k in order]
    best = max(ranked, key=lambda kn: (kn[1].visits, kn[1].total / kn[1].visits, -order[kn[0]]))
    return legal[order[best[0]]]


def _iterate(
    rules: Ruleset[Any],
    info: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget,
    root: _Node,
    tree_depth: int | None,
) -> None:
    """One iteration: deal a world, select and expand in the tree, play out, back up."""
    world = rules.determinize(info, seat, rng)
    node = root
    path: list[_Node] = []
    while tree_depth is None or len(path) < tree_depth:
        if rules.result(world).finished:
            break
        # The root's commands are the searching seat's own, even when another seat owes a
        # decision at the same time (mmh's two heroes are chosen together) and comes first.
        actor, legal = (
            (seat, rules.legal_commands(world, seat)) if not path else _to_move(rules, world)
        )
        if actor is None or not legal:
            break
        child = _select(rules, world, actor, legal, node, rng)
        _step(rules, world, actor, child.command)
        path.append(child)
        node = child
        if child.visits == 0:
            break
    rewards = _play_out(rules, world, rng, budget.rollout_commands)
    for visited in path:
        visited.visits += 1
        visited.total += rewards[visited.actor]


def _to_move(rules: Ruleset[Any], world: GameState) -> tuple[int | None, list[Command]]:
    """The seat that moves next in ``world`` (the first decision owed) and its commands."""
    for decision in rules.pending(world):
        legal = rules.legal_commands(world, decision.seat)
        if legal:
            return decision.seat, legal
    return None, []


def _select(
    rules: Ruleset[Any],
    world: GameState,
    actor: int,
    legal: list[Command],
    node: _Node,
    rng: random.Random,
) -> _Node:
    """The child of ``node`` to follow in this world: a new one while widening allows
    (the fast policy's command first, then one at random), else the best UCB1 among the
    children legal here (their availability counted)."""
    keys = [_key(c) for c in legal]
    present = [node.children[k] for k in keys if k in node.children]
    for child in present:
        child.available += 1
    room = 1 + int(math.sqrt(sum(c.visits for c in node.children.values())))
    if len(node.children) < room or not present:
        untried = [i for i, k in enumerate(keys) if k not in node.children]
        if untried:
            pick = _first_choice(rules, world, actor, legal, keys, untried, node, rng)
            child = _Node(command=legal[pick], actor=actor, available=1)
            node.children[keys[pick]] = child
            return child
    return max(present, key=_Node.ucb)


def _first_choice(
    rules: Ruleset[Any],
    world: GameState,
    actor: int,
    legal: list[Command],
    keys: list[str],
    untried: list[int],
    node: _Node,
    rng: random.Random,
) -> int:
    """The index of the command to add: the fast policy's when the node has no child
    yet (and it is untried), else a random untried one."""
    if not node.children:
        wanted = _key(rules.ai_command(world, actor, rng))
        for i in untried:
            if keys[i] == wanted:
                return i
    return untried[rng.randrange(len(untried))]


def _step(rules: Ruleset[Any], world: GameState, seat: int, command: Command | None) -> None:
    """Apply a listed command to the search's own world in place (no copy: the world is
    a private deal, and `Ruleset._apply` checks the rules before it changes anything)."""
    assert command is not None
    rules._apply(world, seat, command)
    world.version += 1


def _play_out(rules: Ruleset[Any], world: GameState, rng: random.Random, limit: int) -> list[float]:
    """Play ``world`` on with the fast policy for at most ``limit`` commands; return every
    seat's reward: 1 for a winner and 0 for a loser of a finished game, else
    `Ruleset.evaluate` of the position."""
    for _ in range(limit):
        if rules.result(world).finished:
            break
        decisions = rules.pending(world)
        if not decisions:
            break
        actor = decisions[0].seat
        _step(rules, world, actor, rules.ai_command(world, actor, rng))
    outcome = rules.result(world)
    if outcome.finished:
        return [1.0 if s in outcome.winners else 0.0 for s in range(world.players)]
    return [rules.evaluate(world, s) for s in range(world.players)]


def material_share(values: list[float], seat: int) -> float:
    """``seat``'s share of everyone's material (``values`` by seat, each at least 0), in
    [0, 1]: the evaluation helper of the rulesets (`Ruleset.evaluate`). Equal shares when
    nobody has anything.

    :raises IndexError: if ``seat`` has no entry in ``values``.
    """
    mine = max(values[seat], 0.0)
    total = sum(max(v, 0.0) for v in values)
    return 1.0 / len(values) if total <= 0 else mine / total
