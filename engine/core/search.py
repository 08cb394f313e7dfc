"""The searching computer players: information-set Monte Carlo tree search over any ruleset.

Levels (`LEVELS`), chosen per seat:

* ``easy``: the ruleset's own simple player (`Ruleset.ai_command`), no search.
* ``normal``: flat Monte Carlo over determinizations on common random numbers
  (`paired_search`): each iteration plays one dealt world out twice with the same
  generator, after the policy's command and after one other, and keeps the difference;
  play-outs half as long as ``hard``'s, so half of its work: the same iterations of an
  iteration budget, half the seconds of a time budget (where half-length play-outs fit
  about as many iterations).
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
  of legal commands. A decision with one legal command inside the tree is played through
  without a node (it is no choice, and costs no depth).

Never worse than the play-out policy (issue 19): the policy's command is each node's
first child and keeps a progressive bias (Chaslot et al., "Progressive strategies for
Monte-Carlo tree search", 2008): ``POLICY_BIAS / (1 + visits)`` added to its UCB1 value,
so a few noisy play-outs do not pull the search off it. At the root it is the default
answer: another command is chosen only when its mean reward is ahead of the policy's by
more than `OVERTURN` standard errors of the difference of the two means (each mean's
variance its sample variance over its visits, at least `MIN_VARIANCE`), after at least
`MIN_VISITS` visits. And iterations go only to a real choice: when every play-out of a
decision has ended with the same reward for the searching seat (after `SAME_REWARDS`
iterations), nothing within the play-outs' reach tells the commands apart, and the
policy's command is played without spending the rest of the budget.

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
    """Run SO-ISMCTS from ``info`` (a result of ``rules.information_set(state, seat)``)
    and return the play-out policy's command unless another is clearly ahead
    (`_decide`).

    ``tree_depth`` caps the tree's depth in commands (1: flat Monte Carlo over the root's
    commands); None for none. A seat with one legal command gets it without a search;
    a search whose play-outs all end alike stops early (`SAME_REWARDS`).

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = _legal(rules, info, seat)
    if len(legal) == 1:
        return legal[0]
    root = _Node(actor=seat)
    spent = budget.spent_test()
    done = 0
    seen: set[float] = set()
    while True:
        seen.add(_iterate(rules, info, seat, rng, budget, root, tree_depth))
        done += 1
        if spent(done) or (done >= SAME_REWARDS and len(seen) == 1):
            break
    return _decide(root, legal)


def paired_search(
    rules: Ruleset[Any], info: GameState, seat: int, rng: random.Random, budget: Budget
) -> Command:
    """``normal``'s flat Monte Carlo with common random numbers: each iteration deals one
    world twice alike (the same seed) and plays it out with the same generator after the
    policy's command and after one other root command (the one with the best UCB1 of its
    differences; progressive widening as in `search`), so that the difference of the two
    rewards leaves out the deal and the dice. The policy's command (the fast policy's in
    the first world) is kept unless another's mean difference is more than `OVERTURN`
    standard errors above 0 after `MIN_VISITS` pairs. An iteration is one pair of
    play-outs.

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = _legal(rules, info, seat)
    if len(legal) == 1:
        return legal[0]
    keys = [_key(c) for c in legal]
    first = rules.determinize(info, seat, random.Random(rng.random()))
    wanted = _key(rules.ai_command(first, seat, rng))
    policy = keys.index(wanted) if wanted in keys else 0
    others: dict[int, _Node] = {}
    spent = budget.spent_test()
    done = 0
    while True:
        room = 1 + int(math.sqrt(done))
        untried = [i for i in range(len(legal)) if i != policy and i not in others]
        if untried and (len(others) < room or not others):
            pick = untried[rng.randrange(len(untried))]
            others[pick] = _Node(command=legal[pick], actor=seat)
        else:
            for node in others.values():
                node.available = done
            pick = max(others, key=lambda i: others[i].ucb())
        deal, dice = rng.random(), rng.random()
        rewards = []
        for index in (policy, pick):
            world = rules.determinize(info, seat, random.Random(deal))
            _step(rules, world, seat, legal[index])
            rewards.append(_play_out(rules, world, random.Random(dice), budget.rollout_commands))
        difference = rewards[1][seat] - rewards[0][seat]
        node = others[pick]
        node.visits += 1
        node.total += difference
        node.squares += difference * difference
        done += 1
        if spent(done):
            break
    chosen, lead = policy, OVERTURN
    for index, node in others.items():
        if node.visits < MIN_VISITS:
            continue
        ahead = node.mean() / math.sqrt(node.variance_of_mean())
        if ahead > lead:
            chosen, lead = index, ahead
    return legal[chosen]


def _legal(rules: Ruleset[Any], info: GameState, seat: int) -> list[Command]:
    """The seat's legal commands in ``info``.

    :raises NotYourDecision: if ``seat`` owes nothing in ``info``.
    """
    legal = rules.legal_commands(info, seat)
    if not legal:
        raise NotYourDecision(f"{seat_name(seat)} owes no decision now.")
    return legal


def _decide(root: _Node, legal: list[Command]) -> Command:
    """The root's answer: the policy's command (the root's first child), unless another
    child with at least `MIN_VISITS` visits has a mean ahead of the policy's by more than
    `OVERTURN` standard errors of the difference; of those, the one furthest ahead in
    standard errors (ties: list order)."""
    order = {_key(c): i for i, c in enumerate(legal)}
    ranked = [(k, n) for k, n in root.children.items() if k in order]
    default = next((kn for kn in ranked if kn[1].policy), None)
    if default is None:
        best = max(ranked, key=lambda kn: (kn[1].visits, kn[1].mean(), -order[kn[0]]))
        return legal[order[best[0]]]
    base = default[1]
    chosen, lead = default, OVERTURN
    for key, node in ranked:
        if node is base or node.visits < MIN_VISITS:
            continue
        error = math.sqrt(node.variance_of_mean() + base.variance_of_mean())
        ahead = (node.mean() - base.mean()) / error
        if ahead > lead:
            chosen, lead = (key, node), ahead
    return legal[order[chosen[0]]]


def _iterate(
    rules: Ruleset[Any],
    info: GameState,
    seat: int,
    rng: random.Random,
    budget: Budget,
    root: _Node,
    tree_depth: int | None,
) -> float:
    """One iteration: deal a world, select and expand in the tree, play out, back up.
    Returns the searching seat's reward."""
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
        if path and len(legal) == 1:
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
