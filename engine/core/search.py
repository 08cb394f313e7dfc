"""The searching computer players: information-set Monte Carlo tree search over any ruleset.

Levels (`LEVELS`), chosen per seat:

* ``easy``: the ruleset's own simple player (`Ruleset.ai_command`), no search.
* ``normal``: flat Monte Carlo over determinizations on common random numbers
  (`paired_search`, `search` with a tree of depth 1): each iteration plays one dealt
  world out twice with the same generator, after the policy's command and after one
  other, and keeps the difference; play-outs half as long as ``hard``'s, so half of its
  work: the same iterations of an iteration budget, half the seconds of a time budget
  (where half-length play-outs fit about as many iterations).
* ``hard``: single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling,
  Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
  2012) whose root is compared on common random numbers as ``normal``'s is. Each
  iteration deals one world consistent with what the seat knows (`Ruleset.determinize`)
  twice alike and walks it, with one generator seeded alike, below the policy's root
  command and below one other; below the root each walk is SO-ISMCTS: one tree per root
  command over the information set, the first decision owed chosen among the commands
  legal in that world by UCB1 with availability counts (a child's exploration term counts
  the iterations in which it was legal), one node added, a play-out with the fast policy
  (the ``easy`` player) for at most `Budget.rollout_commands` commands, the end scored with
  `Ruleset.evaluate` for every seat; each node keeps the reward of the seat that chose it,
  so every seat maximises its own reward (several seats work). Progressive widening keeps
  a node to ``1 + sqrt(visits)`` children, the fast policy's own choice first (with a
  progressive bias, ``POLICY_BIAS / (1 + visits)`` on its UCB1 value: Chaslot et al.,
  "Progressive strategies for Monte-Carlo tree search", 2008), and the root to ``1 +
  sqrt(iterations)`` challengers, so that a small budget still weighs the sensible
  command against a few others in games with hundreds of legal commands. A decision with
  one legal command inside the tree is played through without a node (it is no choice,
  and costs no depth).

Never worse than the play-out policy (issue 19): at the root the policy's command is the
default answer; another is chosen only when its mean difference (its reward less the
policy's on the same deal and dice) is more than `OVERTURN` standard errors above 0 (the
differences' sample variance over their count, at least `MIN_VARIANCE`), after at least
`MIN_VISITS` pairs. Pairing leaves the deal and the dice out of the difference: ``hard``
once compared the two means of unpaired play-outs, and in seeded homm4 games the commands
it chose over the policy's gained nothing on average by a paired measure of many
play-outs, while ``normal``'s paired choices did (docs/PERFORMANCE.md, issue 19). And iterations go
only to a real choice: when every walk of a decision has ended with the same reward for
the searching seat (after `SAME_REWARDS` iterations), nothing within the play-outs' reach
tells the commands apart, and the policy's command is played without spending the rest of
the budget.

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
from collections.abc import Callable
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

POLICY_BIAS = 0.5
"""The progressive bias of the play-out policy's command: ``POLICY_BIAS / (1 + visits)``
added to its UCB1 value (rewards are in [0, 1])."""

OVERTURN = 2.0
"""How many standard errors of the difference of the means another root command must be
ahead of the policy's to be chosen instead."""

MIN_VISITS = 3
"""Visits a root command needs before it may be chosen over the policy's."""

MIN_VARIANCE = 0.0004
"""The least variance of one play-out's reward counted in a standard error (0.02 in
standard deviation: a few equal rewards are not taken for certainty)."""

SAME_REWARDS = 4
"""Iterations after which a decision whose play-outs all ended with the same reward for
the searching seat stops searching (no command is told apart)."""

NORMAL_SHARE = 2
"""``normal``'s play-outs are 1/NORMAL_SHARE as long as ``hard``'s and it has
1/NORMAL_SHARE of the seconds (the same number of iterations: each costs about
1/NORMAL_SHARE as much)."""


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

    def spent_test(self) -> Callable[[int], bool]:
        """The search loop's stop test, its clock started now: called with the iterations
        done so far, True once the iteration cap is reached or the seconds have passed."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds

        def spent(done: int) -> bool:
            if self.iterations is not None and done >= self.iterations:
                return True
            return deadline is not None and time.perf_counter() >= deadline

        return spent

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
        seconds = None if spend.seconds is None else spend.seconds / NORMAL_SHARE
        short = Budget(spend.iterations, seconds, spend.rollout_commands // NORMAL_SHARE)
        return paired_search(rules, info, seat, rng, short)
    return search(rules, info, seat, rng, spend)


@dataclass
class _Node:
    """One command in the tree: who chose it, and what followed (rewards of that seat)."""

    command: Command | None = None
    actor: int = -1
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    available: int = 0
    policy: bool = False
    children: dict[str, _Node] = field(default_factory=dict)

    def ucb(self) -> float:
        """UCB1 with the availability count (SO-ISMCTS's subset-armed bandit), plus the
        progressive bias of the policy's command."""
        value = self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(max(self.available, 1)) / self.visits
        )
        if self.policy:
            value += POLICY_BIAS / (1 + self.visits)
        return value

    def mean(self) -> float:
        """The mean reward of the visits (0 with none)."""
        return self.total / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        """The variance of `mean`: the rewards' sample variance (at least `MIN_VARIANCE`;
        the largest a reward in [0, 1] can have, 0.25, before two visits) over the visits."""
        if self.visits < 2:
            return 0.25
        spread = (self.squares - self.total * self.total / self.visits) / (self.visits - 1)
        return max(spread, MIN_VARIANCE) / self.visits


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
    """Run SO-ISMCTS from ``info`` (a result of ``rules.information_set(state, seat)``),
    its root compared on common random numbers, and return the play-out policy's command
    unless another is clearly ahead (`_overturn`).

    Each iteration deals one world twice alike (the same seed) and walks it, with one
    generator seeded alike, once below the policy's root command (the fast policy's in the
    first world dealt) and once below a challenger (`_challenger`: widening, then the best
    UCB1 of its differences); below the root each walk is SO-ISMCTS (`_walk`), so the two
    rewards differ by the commands and what followed them, not by the deal or the dice.
    An iteration is one pair of walks. ``tree_depth`` caps the tree's depth in commands
    (1: flat Monte Carlo over the root's commands, ``normal``); None for none. A seat with
    one legal command gets it without a search; a search whose walks all end with the
    same reward for the seat stops early (`SAME_REWARDS`).

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = _legal(rules, info, seat)
    if len(legal) == 1:
        return legal[0]
    keys = [_key(c) for c in legal]
    first = rules.determinize(info, seat, random.Random(rng.random()))
    wanted = _key(rules.ai_command(first, seat, rng))
    policy = keys.index(wanted) if wanted in keys else 0
    below: dict[int, _Node] = {}
    others: dict[int, _Node] = {}
    spent = budget.spent_test()
    done = 0
    seen: set[float] = set()
    while True:
        pick = _challenger(others, len(legal), policy, done, rng)
        deal, dice = rng.random(), rng.random()
        rewards = []
        for index in (policy, pick):
            if index not in below:
                below[index] = _Node(command=legal[index], actor=seat, policy=index == policy)
            world = rules.determinize(info, seat, random.Random(deal))
            walked = _walk(
                rules, world, seat, random.Random(dice), budget, below[index], tree_depth
            )
            rewards.append(walked)
        seen.update(rewards)
        difference = rewards[1] - rewards[0]
        node = others.setdefault(pick, _Node(command=legal[pick], actor=seat))
        node.visits += 1
        node.total += difference
        node.squares += difference * difference
        done += 1
        if spent(done) or (done >= SAME_REWARDS and len(seen) == 1):
            break
    return legal[_overturn(policy, others)]


def paired_search(
    rules: Ruleset[Any], info: GameState, seat: int, rng: random.Random, budget: Budget
) -> Command:
    """``normal``'s flat Monte Carlo with common random numbers: `search` with a tree of
    depth 1 (each iteration plays one world, dealt twice alike, out with the same generator
    after the policy's command and after one other, and keeps the difference).

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    return search(rules, info, seat, rng, budget, tree_depth=1)


def _challenger(
    others: dict[int, _Node], count: int, policy: int, done: int, rng: random.Random
) -> int:
    """The root command to compare with the policy's in the next iteration (an index of
    the ``count`` legal commands): a new one, at random, while progressive widening allows
    ``1 + sqrt(done)`` of them; else the best UCB1 of the differences so far."""
    room = 1 + int(math.sqrt(done))
    if len(others) < room:
        untried = [i for i in range(count) if i != policy and i not in others]
        if untried:
            return untried[rng.randrange(len(untried))]
    for node in others.values():
        node.available = done
    return max(others, key=lambda i: others[i].ucb())


def _overturn(policy: int, others: dict[int, _Node]) -> int:
    """The root's answer: the policy's command, unless another's mean difference (its
    reward less the policy's on the same deal and dice) is more than `OVERTURN` standard
    errors above 0 after at least `MIN_VISITS` pairs; of those, the one furthest ahead
    in standard errors (ties: the lower index)."""
    chosen, lead = policy, OVERTURN
    for index in sorted(others):
        node = others[index]
        if node.visits < MIN_VISITS:
            continue
        ahead = node.mean() / math.sqrt(node.variance_of_mean())
        if ahead > lead:
            chosen, lead = index, ahead
    return chosen


def _legal(rules: Ruleset[Any], info: GameState, seat: int) -> list[Command]:
    """The seat's legal commands in ``info``.

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = rules.legal_commands(info, seat)
    if not legal:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    return legal


def _walk(
    rules: Ruleset[Any],
    world: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget,
    top: _Node,
    tree_depth: int | None,
) -> float:
    """One walk of a dealt world below the root command ``top`` (the searching seat's):
    play it, select and expand in the tree below it (one new node), play out, back up.
    Returns the searching seat's reward."""
    _step(rules, world, seat, top.command)
    path = [top]
    node = top
    while top.visits > 0 and (tree_depth is None or len(path) < tree_depth):
        if rules.result(world).finished:
            break
        actor, legal = _to_move(rules, world)
        if actor is None or not legal:
            break
        if len(legal) == 1:
            _step(rules, world, actor, legal[0])  # no choice: no node, no depth
            continue
        child = _select(rules, world, actor, legal, node, rng)
        _step(rules, world, actor, child.command)
        path.append(child)
        node = child
        if child.visits == 0:
            break
    rewards = _play_out(rules, world, rng, budget.rollout_commands)
    for visited in path:
        reward = rewards[visited.actor]
        visited.visits += 1
        visited.total += reward
        visited.squares += reward * reward
    return rewards[seat]


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
            pick, policy = _first_choice(rules, world, actor, keys, untried, node, rng)
            child = _Node(command=legal[pick], actor=actor, available=1, policy=policy)
            node.children[keys[pick]] = child
            return child
    return max(present, key=_Node.ucb)


def _first_choice(
    rules: Ruleset[Any],
    world: GameState,
    actor: int,
    keys: list[str],
    untried: list[int],
    node: _Node,
    rng: random.Random,
) -> tuple[int, bool]:
    """The index of the command to add and whether it is the fast policy's: the policy's
    when the node has no child yet, else a random untried one."""
    if not node.children:
        wanted = _key(rules.ai_command(world, actor, rng))
        for i in untried:
            if keys[i] == wanted:
                return i, True
    return untried[rng.randrange(len(untried))], False


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
