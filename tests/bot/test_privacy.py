"""House rule 6 (private cards never reach a channel, another player or a log line) for
every ruleset with hidden cards.

* Whole games through the GameService where people click and type, ask for the status,
  the log and their hands, moderators skip and undo, reminders fall due and computer
  seats play; after every action no channel post, public reply, public view, prompt,
  public log entry or Python log line names (by ``#number`` or by name) a card private
  before and after it, no DM or private reply names another seat's private card, and
  autocomplete serves a seat's choices only to that seat's person.
* Side channels: re-dealing the hidden cards changes nothing the table sees, now or after
  the same command; channel buttons do not depend on the commands naming private cards.
* The places where a refusal or an exception could reach others: automatic answers,
  /mod skip, undo and verify, log lines of failures, library loggers at DEBUG.
* Typed probes: a command typed with another seat's hidden card number (or mmh card id)
  is refused in the same words whatever that card is, never naming it.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.actors import Actor
from bot.adapters import adapter_for
from bot.errors import USER_ERRORS, user_message
from bot.outbox import ChannelPost, DirectMessage, Outbox
from bot.service import GameService
from engine.core.errors import RuleViolation
from engine.core.model import Command, GameState
from engine.core.ruleset import get_ruleset
from storage.records import GameStatus
from tests.bot import privacy_helpers as ph
from tests.bot.service_helpers import CHANNEL, GUILD, FakeClock, make_service, person

SPECTATOR = 77
MODERATOR = 99


class Records(logging.Handler):
    """Keeps every log record (all loggers, every level) as its formatted text."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def records() -> Iterator[Records]:
    """Capture every log record at DEBUG, with the library levels the bot sets at DEBUG
    (`bot.app.library_log_levels`)."""
    from bot.app import library_log_levels

    root = logging.getLogger()
    handler = Records()
    old_level = root.level
    touched = {name: logging.getLogger(name).level for name in library_log_levels("DEBUG")}
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    for name, level in library_log_levels("DEBUG").items():
        logging.getLogger(name).setLevel(level)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        for name, level in touched.items():
            logging.getLogger(name).setLevel(level)


@dataclass
class Watch:
    """One game played by the test and everything checked about it."""

    service: GameService
    game_id: int
    ruleset: str
    users: dict[int, int]
    records: Records
    rng: random.Random
    leaks: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)
    log_seq: int = 0

    def count(self, what: str, n: int = 1) -> None:
        self.checked[what] = self.checked.get(what, 0) + n

    async def state(self) -> tuple[Any, GameState]:
        game = await self.service.repo.get_game(self.game_id)
        return game, get_ruleset(game.ruleset).load_state(game.state_json or "")

    def seat_checkers(
        self,
        before: GameState | None,
        after: GameState,
        *,
        shuffled: bool = False,
        shown: frozenset[int | str] = frozenset(),
    ) -> dict[int | None, Any]:
        seats: list[int | None] = [None, *range(after.players)]
        return {s: ph.seat_checker(before, after, s, shuffled=shuffled, shown=shown) for s in seats}

    async def digest_leaks(self, dm: DirectMessage, reader: Any) -> list[str]:
        """A digest DM (`bot.digest`) repeats log lines: each must be a line its seat may
        read in the log — a public line, or its own private one (🔒) — checked when it was
        written, while the cards it named may have been hidden again since (a discard pile
        shuffled back); its other lines (the heading, the decision now) are checked as any
        DM to that seat."""
        seat = self.users.get(dm.user_id)
        page = await self.service.repo.read_log_unredacted(
            self.game_id, before_seq=10**9, limit=1000
        )
        events = [e for entry in page.entries for e in entry.events]
        readable = {e.text for e in events if e.text}
        readable |= {f"🔒 {e.private[seat]}" for e in events if seat in e.private}
        found: list[str] = []
        for line in dm.text.splitlines():
            if not line.startswith("• "):
                found += [f"digest to {dm.user_id}: {hit}" for hit in reader.leaks([line])]
                continue
            body = re.sub(r"^(🤖|📜|🛡️) ", "", line.removeprefix("• "))
            cut = body.endswith("…") and any(r.startswith(body[:-1]) for r in readable)
            if body in readable or cut or body.startswith("A moderator: "):
                continue
            found.append(f"digest to {dm.user_id}: {line!r} is no line seat {seat} may read")
        return found

    async def observe(
        self, what: str, before: GameState, out: Outbox | None, actor_seat: int | None
    ) -> None:
        """Check an action's outbox, the new log entries and the log lines it caused."""
        _, after = await self.state()
        page = await self.service.repo.read_log(self.game_id, after_seq=self.log_seq, limit=1000)
        events = [e for entry in page.entries for e in entry.events]
        shuffled = any(e.kind == "shuffle" for e in events)
        shown = frozenset(ph.revealed(events))
        channel = ph.channel_checker(before, after, shuffled=shuffled, shown=shown)
        if out is not None:
            readers = self.seat_checkers(before, after, shuffled=shuffled, shown=shown)
            digests = [dm for dm in out.dms if dm.slot == "digest"]
            rest = replace(out, dms=[dm for dm in out.dms if dm.slot != "digest"])
            found = ph.outbox_leaks(rest, channel, self.users, readers, actor_seat)
            for dm in digests:
                found += await self.digest_leaks(dm, readers[self.users.get(dm.user_id)])
            self.count("digests", len(digests))
            self.leaks += [f"{what}: {hit}" for hit in found]
            self.count("posts", len(out.posts))
            self.count("dms", len(out.dms))
        for entry in page.entries:
            self.log_seq = max(self.log_seq, entry.seq)
            assert entry.command_json is None
            self.leaks += [f"{what}: {hit}" for hit in ph.event_leaks(channel, entry.events)]
            self.count("log events", len(entry.events))
        rules = get_ruleset(after.ruleset)
        view = rules.public_view(after).model_dump(mode="json")
        prompts = [d.prompt for d in rules.pending(after)]
        hits = channel.leaks([*ph.json_strings(view), *prompts], ids=True)
        self.leaks += [f"{what}: public view or prompt: {hit}" for hit in hits]
        lines, self.records.lines[:] = list(self.records.lines), []
        self.leaks += [f"{what}: python log: {hit}" for hit in channel.leaks(lines)]
        self.count("log lines", len(lines))

    def refusal(self, what: str, error: BaseException, before: GameState, seat: int | None) -> None:
        """A refusal is shown to the person who acted only."""
        text = user_message(error) or ""
        checker = ph.seat_checker(before, before, seat)
        self.leaks += [f"{what} refused: {hit}" for hit in checker.leaks([text])]


def _actor(users: dict[int, int], seat: int) -> Actor:
    user = next(u for u, s in users.items() if s == seat)
    return person(user)


async def _click(watch: Watch, seat: int, command: Command) -> Outbox:
    from bot import customids

    game, state = await watch.state()
    legal = get_ruleset(game.ruleset).legal_commands(state, seat)
    if command not in legal:
        return await _slash(watch, seat, command)
    index = legal.index(command)
    token = customids.option_token(index, command.model_dump_json())
    cid = customids.encode(game.id, state.version, "opt", token)
    return await watch.service.click(_actor(watch.users, seat), cid)


async def _slash(watch: Watch, seat: int, command: Command) -> Outbox:
    import importlib

    game, _ = await watch.state()
    table = importlib.import_module(f"bot.{game.ruleset}.commands")
    path, options = table.slash_for(command)
    return await watch.service.run(
        _actor(watch.users, seat), path, options, channel_id=CHANNEL, guild_id=GUILD
    )


async def _autocomplete(watch: Watch, state: GameState, owed: int) -> None:
    """Every person (and a spectator) asks for the owed decision's suggestions: each gets
    nothing private of another seat."""
    rules = get_ruleset(state.ruleset)
    adapter = adapter_for(state.ruleset)
    decision = next(d for d in rules.pending(state) if d.seat == owed)
    specs = adapter.specs_for(decision)
    checkers = watch.seat_checkers(state, state)
    for spec in specs[:6]:
        for option in [o for o in spec.options if o.autocomplete][:3]:
            for user, seat in [*watch.users.items(), (SPECTATOR, None)]:
                pairs = await watch.service.autocomplete(
                    person(user), spec.path, option.name, "", {}, channel_id=CHANNEL
                )
                texts = [t for pair in pairs for t in pair]
                found = checkers[seat].leaks(texts)
                watch.leaks += [f"autocomplete {spec.qualified} {option.name}: {h}" for h in found]
                watch.count("autocomplete", 1)


async def play_watched(
    tmp_path: Path,
    records: Records,
    ruleset: str,
    *,
    humans: int,
    ai: int,
    seed: int,
    actions: int,
    **options: Any,
) -> Watch:
    """Play up to ``actions`` actions of a game, checking each (see the module docstring)."""
    clock = FakeClock()
    repo, service = await make_service(tmp_path, clock=clock)
    rng = random.Random(seed)
    await service.new_game(
        person(1), CHANNEL, guild_id=GUILD, ruleset=ruleset, seed=seed, deadline_hours=2, **options
    )
    for number in range(2, humans + 1):
        await service.join(person(number), CHANNEL)
    if ai:
        await service.add_ai(person(1), CHANNEL, count=ai)
    start = await service.start(person(1), CHANNEL)
    game = await repo.game_in_channel(CHANNEL)
    assert game is not None
    users = {s.user_id: s.seat for s in await repo.seats(game.id) if s.user_id and not s.is_ai}
    watch = Watch(service, game.id, ruleset, users, records, rng)
    _, first = await watch.state()
    rules = get_ruleset(ruleset)
    blank, _ = rules.new_game(rules.parse_options(game.options), first.players, game.seed)
    await watch.observe("start", blank, start, 0)
    moderator = person(MODERATOR, moderator=True)
    try:
        for step in range(actions):
            row, before = await watch.state()
            if row.status is not GameStatus.ACTIVE:
                break
            owed = [d.seat for d in rules.pending(before) if d.seat in users.values()]
            if not owed:
                out = await service.status(person(SPECTATOR), CHANNEL)
                await watch.observe("status", before, out, None)
                continue
            seat = rng.choice(owed)
            roll = rng.random()
            what = f"step {step} ({rules.pending(before)[0].kind})"
            try:
                if roll < 0.05:
                    what += " /mod skip"
                    out = await service.mod_skip(moderator, CHANNEL, seat=str(seat + 1))
                    actor_seat = None
                elif roll < 0.08:
                    what += " /game status"
                    out = await service.status(person(SPECTATOR), CHANNEL)
                    actor_seat = None
                elif roll < 0.10:
                    what += " /game log"
                    # Old entries name cards public then (since reshuffled): each entry
                    # is checked when it is written; here the page's buttons are.
                    page = await service.log(person(SPECTATOR), CHANNEL)
                    assert page.reply is not None
                    out = Outbox(posts=[ChannelPost(CHANNEL, "", components=page.reply.components)])
                    actor_seat = None
                elif roll < 0.13:
                    # any person, owing or not: a /hand after another seat's private
                    # decision buttons were built and kept (bot.service's Position.answer)
                    asker = rng.choice(sorted(users.values()))
                    what += f" /hand by seat {asker}"
                    out = await service.hand(_actor(users, asker), CHANNEL)
                    actor_seat = asker
                elif roll < 0.15:
                    what += " reminders"
                    out = await service.due_reminders(clock.advance(hours=3))
                    actor_seat = None
                elif roll < 0.16 and step > 10:
                    what += " /mod undo"
                    out = await service.mod_undo(moderator, CHANNEL, count=1)
                    actor_seat = None
                else:
                    command = rules.ai_command(before, seat, rng)
                    what += f" {command.type}"
                    typed = roll > 0.8
                    out = await (_slash if typed else _click)(watch, seat, command)
                    actor_seat = seat
                    watch.count("moves")
            except USER_ERRORS as error:
                watch.refusal(what, error, before, seat if roll >= 0.05 else None)
                await watch.observe(what, before, None, None)
                continue
            await watch.observe(what, before, out, actor_seat)
            if step % 5 == 0:
                _, now = await watch.state()
                owed_now = [d.seat for d in rules.pending(now) if d.seat in users.values()]
                if owed_now:
                    await _autocomplete(watch, now, owed_now[0])
    finally:
        await repo.close()
    return watch


GAMES = [
    pytest.param("homm4", 2, 0, 23, {}, id="homm4-people"),
    pytest.param("homm4", 1, 1, 101, {}, id="homm4-computer"),
    pytest.param("homm4", 3, 0, 3, {"options": "advanced"}, id="homm4-advanced"),
    pytest.param("homm3", 2, 0, 7, {"mode": "adventure"}, id="homm3-adventure"),
    pytest.param("homm3", 2, 0, 11, {"size": "medium"}, id="homm3-skirmish"),
    pytest.param("homm3", 1, 1, 3, {"size": "large", "siege": True}, id="homm3-computer"),
    pytest.param("homm3", 2, 0, 13, {"mode": "map"}, id="homm3-map"),
    pytest.param("mmh", 2, 0, 5, {"length": "quick"}, id="mmh-people"),
    pytest.param("mmh", 1, 1, 9, {"length": "quick"}, id="mmh-computer"),
    pytest.param("mmh", 3, 0, 6, {"length": "quick"}, id="mmh-three"),
]


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(("ruleset", "humans", "ai", "seed", "options"), GAMES)
@pytest.mark.slow
async def test_no_private_card_reaches_anyone_else(
    tmp_path: Path,
    records: Records,
    ruleset: str,
    humans: int,
    ai: int,
    seed: int,
    options: dict[str, Any],
) -> None:
    watch = await play_watched(
        tmp_path, records, ruleset, humans=humans, ai=ai, seed=seed, actions=800, **options
    )
    assert not watch.leaks, "\n".join(watch.leaks[:20])
    assert watch.checked.get("moves", 0) > 30 and watch.checked.get("dms", 0) > 10
    assert watch.checked.get("log events", 0) > 100
    assert watch.checked.get("autocomplete", 0) > 20


# ------------------------------------------------------------------ the checker can fail
@pytest.mark.rule("homm3bf:battlefield-setup")
async def test_an_injected_leak_is_found(
    tmp_path: Path, records: Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole-game check finds a Hand card named in a channel post and in a log line."""
    from bot.service_core import ServiceCore
    from engine.homm3.content import load_content

    real = ServiceCore._public_lines

    def leaky(batch: Any) -> list[str]:
        state = batch.after
        seat = state.seats[0] if state is not None else None
        cards = [*seat.hand, *seat.adventure_hand, *seat.deck] if seat is not None else []
        named = [f"{load_content().card_name(state.cards[i])} #{i}" for i in cards[:1]]
        logging.getLogger("bot.service_core").info("hand: %s", named)
        return [*real(batch), *named]

    monkeypatch.setattr(ServiceCore, "_public_lines", staticmethod(leaky))
    watch = await play_watched(
        tmp_path, records, "homm3", humans=2, ai=0, seed=7, actions=40, mode="adventure"
    )
    assert any("channel post" in leak for leak in watch.leaks)
    assert any("python log" in leak for leak in watch.leaks)


# ------------------------------------------------------------------ homm3: two choosers
@pytest.mark.rule("homm3bf:skirmish-mode.medium")
def test_a_homm3_answer_is_worded_from_the_choosers_own_choice() -> None:
    """A Skirmish template has both players Remove set-up cards at once: each one's buttons
    and reply name only their own cards, never the other's (who chooses first in the
    state's order is irrelevant)."""
    from bot.homm3.adapter import Homm3Adapter
    from engine.homm3 import RULESET as HOMM3
    from engine.homm3 import commands as c

    state, _ = HOMM3.new_game(HOMM3.parse_options({"size": "medium"}), 2, 11)
    owed = HOMM3.pending(state)
    assert [d.kind for d in owed] == ["choose_setup_remove", "choose_setup_remove"]
    adapter = Homm3Adapter()
    for decision in owed:
        mine = state.choice[decision.seat].options
        theirs = state.choice[1 - decision.seat].options
        legal = HOMM3.legal_commands(state, decision.seat)
        ui = adapter.decision_ui(state, decision.seat, decision, 1, legal, None)
        labels = [
            t.removeprefix("Default: ")
            for t in ph.component_texts(ui.components)
            if not t.startswith("ht:")  # the custom ids
        ]
        assert len(labels) == len(mine)
        for label in labels:
            assert label in mine and label not in theirs, label
        said = adapter.describe_for(state, decision.seat, c.Choose(option=0))
        assert said == mine[0]
    # Without a seat, no choice of two is guessed at.
    assert Homm3Adapter().describe(state, c.Choose(option=0)) == "Option 1"


# ------------------------------------------------------------------ numbers in custom ids
def _public_components(ruleset: str, state: GameState, seat: int, legal: list[Command]) -> Any:
    rules = get_ruleset(ruleset)
    decision = next(d for d in rules.pending(state) if d.seat == seat)
    try:
        default: Command | None = rules.default_command(state, seat)
    except Exception:
        default = None
    ui = adapter_for(ruleset).decision_ui(state, seat, decision, 1, legal, default)
    return ui.private, ui.components


def _names_private_cards(ruleset: str, state: GameState, seat: int, command: Command) -> bool:
    """The engine's word: whether ``command`` names a card hidden from the table."""
    return get_ruleset(ruleset).names_hidden_card(state, seat, command)


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [("homm4", {}), ("homm3", {"mode": "adventure"}), ("homm3", {}), ("mmh", {"length": "quick"})],
)
@pytest.mark.slow
def test_channel_buttons_do_not_depend_on_private_choices(
    ruleset: str, options: dict[str, Any]
) -> None:
    """The components of a public decision (labels, custom ids with their numbers) are the
    same whether or not the legal commands include those naming private cards: a channel
    message never tells how many Hand cards could be played, recruited or learnt."""
    rules = get_ruleset(ruleset)
    compared = 0
    for seed in range(4):
        state, _ = rules.new_game(rules.parse_options(options), 2, seed)
        rng = random.Random(seed)
        for _ in range(700):
            if rules.result(state).finished:
                break
            decision = rules.pending(state)[0]
            legal = rules.legal_commands(state, decision.seat)
            hidden = [
                cmd for cmd in legal if _names_private_cards(ruleset, state, decision.seat, cmd)
            ]
            if hidden and not decision.private:
                shown = [cmd for cmd in legal if cmd not in hidden]
                full = _public_components(ruleset, state, decision.seat, legal)
                assert full == _public_components(ruleset, state, decision.seat, shown)
                compared += 1
            state, _ = rules.apply(
                state, decision.seat, rules.ai_command(state, decision.seat, rng)
            )
    assert compared > 0


def test_an_option_token_is_found_by_its_hash() -> None:
    from bot import customids

    commands = ['{"type":"a"}', '{"type":"b"}', '{"type":"c"}']
    digest = customids.command_hash(commands[2])
    assert customids.find_option(commands, 2, digest) == 2
    assert customids.find_option(commands, 0, digest) == 2  # numbered among fewer offered
    assert customids.find_option(commands, 9, digest) == 2
    assert customids.find_option(commands, 0, "00000") is None
    assert customids.find_option([commands[2], commands[2]], 5, digest) is None  # ambiguous


# ------------------------------------------------------------------ refusals in public
@pytest.mark.rule("homm4:purchase-phase")
async def test_a_refused_automatic_answer_names_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer seat's refused command is announced in the channel and logged without
    the command or the refusal's words (``Card #20 is not a Unit or Hero card``)."""
    from bot import service_core
    from engine.homm4 import board, zones
    from engine.homm4 import commands as c
    from tests.bot.service_helpers import click_choice, current, started_game

    real = service_core.ai_choice
    tried: list[int] = []

    def refused(rules: Any, state: Any, seat: int, seed: int) -> Command:
        decision = next(d for d in rules.pending(state) if d.seat == seat)
        hand = [
            i
            for i in state.players_state[seat].hand
            if not zones.is_unit(state, i) and not zones.is_hero(state, i)
        ]
        towns = [board.label(state, s.hex) for s in state.sites if s.owner == seat]
        if decision.kind == "purchase" and hand and towns and not tried:
            tried.append(hand[0])
            return c.BuyUnit(card=hand[0], town=towns[0])
        return real(rules, state, seat, seed)

    monkeypatch.setattr(service_core, "ai_choice", refused)
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=1, ai=1, seed=11)
        caplog.set_level(logging.DEBUG)
        texts: list[str] = []
        for _ in range(300):
            row, state = await current(service, game.id)
            if tried or row.status is not GameStatus.ACTIVE:
                break
            owed = next(d.seat for d in get_ruleset("homm4").pending(state) if d.seat == 0)
            out = await click_choice(service, game.id, person(1), owed)
            texts += [text for post in out.posts for text in ph.post_texts(post)]
        assert tried, "the computer seat never reached a purchase with a non-Unit card"
        announced = [t for t in texts if "was refused by the rules" in t]
        assert announced and not any(f"#{tried[0]}" in t for t in announced)
        logged = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert logged and not any(f"#{tried[0]}" in m or "card=" in m for m in logged)
    finally:
        await repo.close()


async def test_a_failed_verify_names_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay refused by the rules is announced without the refusal's words."""
    from bot import moderation
    from storage.replay import Verification
    from tests.bot.service_helpers import started_game

    async def failed(repo: Any, game_id: int) -> Verification:
        return Verification(game_id, False, 3, 3, error="Card #20 (Gold Mine) is not a Unit.")

    monkeypatch.setattr(moderation, "verify_game", failed)
    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=1, ai=1, seed=11)
        out = await service.mod_verify(person(MODERATOR, moderator=True), game.channel_id)
        texts = [t for post in out.posts for t in ph.post_texts(post)]
        assert any("FAILED" in t for t in texts)
        assert not any("#20" in t or "Gold Mine" in t for t in texts)
    finally:
        await repo.close()


# ------------------------------------------------------------------ log lines
def test_failures_are_logged_without_their_message() -> None:
    from bot.errors import failure_text

    secret = "".join(["Fire", "ball #", "12"])  # built at run time: not in the stack's lines
    try:
        try:
            raise KeyError(secret)
        except KeyError as inner:
            raise RuntimeError(f"drawing {secret} failed") from inner
    except RuntimeError as error:
        text = failure_text(error)
    assert text.startswith("RuntimeError (caused by KeyError)")
    assert "test_privacy.py" in text and "Fireball" not in text and "#12" not in text


async def test_a_failed_reminder_tick_logs_no_message(caplog: pytest.LogCaptureFixture) -> None:
    from bot.reminders import ReminderLoop

    secret = "".join(["Arch", "angel #", "17"])  # built at run time: not in the stack's lines

    async def due(now: Any) -> Outbox:
        raise KeyError(secret)

    async def deliver(outbox: Outbox) -> None:
        raise AssertionError("nothing to deliver")

    loop = ReminderLoop(due, deliver)
    with caplog.at_level(logging.DEBUG):
        await loop._tick()
    logged = [r.getMessage() for r in caplog.records] + [r.exc_text or "" for r in caplog.records]
    assert any("Reminder tick failed: KeyError" in m for m in logged)
    assert not any("Archangel" in m or "#17" in m for m in logged)


def test_libraries_never_log_at_debug() -> None:
    """discord.py's DEBUG lines carry request bodies and gateway payloads (DMs with hands),
    aiosqlite's every SQL parameter (a game's whole state): never at DEBUG, even when the
    bot logs at DEBUG."""
    from bot.app import library_log_levels

    for level in ("DEBUG", "INFO", "WARNING"):
        levels = library_log_levels(level)
        assert levels["discord"] > logging.DEBUG and levels["aiosqlite"] > logging.DEBUG
    assert library_log_levels("DEBUG")["discord"] == logging.INFO


# ------------------------------------------------------------------ re-dealt hidden cards
def _deal(rng: random.Random, held: list[list[Any]], decks: list[list[Any]] = ()) -> None:  # type: ignore[assignment]
    """Shuffle the cards of the ``held`` zones and of the bottom halves of ``decks`` among
    them, each zone keeping its size (in place). Deck tops stay: a card turned up from a
    deck is public, and the same one is turned up in both games."""
    zones = [*held, *[deck[len(deck) // 2 :] for deck in decks]]
    pool = [card for zone in zones for card in zone]
    rng.shuffle(pool)
    for zone in held:
        zone[:], pool = pool[: len(zone)], pool[len(zone) :]
    for deck in decks:
        size = len(deck) - len(deck) // 2
        deck[len(deck) // 2 :], pool = pool[:size], pool[size:]


def _redeal_homm4(state: Any, rng: random.Random) -> None:
    for player in state.players_state:
        _deal(rng, [player.hand, player.risk], [player.deck])


def _redeal_homm3(state: Any, rng: random.Random) -> None:
    from engine.homm3.content import load_content

    cards = load_content().cards

    def aside(card: int) -> bool:
        return cards[state.cards[card]].adventure == "aside"

    spare = [i for i in state.ability_deck if aside(i)]
    kept = [i for i in state.ability_deck if not aside(i)]
    _deal(rng, [p.aside for p in state.seats] + [spare])
    state.ability_deck[:] = kept + spare
    for player in state.seats:
        _deal(rng, [player.hand], [player.deck])
    _deal(rng, [p.scroll for p in state.seats], [state.spell_deck])
    _deal(rng, [p.adventure_hand for p in state.seats], [state.adventure_deck])


def _redeal_mmh(state: Any, rng: random.Random) -> None:
    from engine.mmh.state import KeepCard

    heroes = [state.heroes[h] for h in sorted(state.heroes)]
    keeps = [p for p in state.queue if isinstance(p, KeepCard)]
    scrolls = [k.cards for k in keeps if k.pile == "scroll"]
    _deal(rng, [h.scrolls for h in heroes] + scrolls, [state.scroll_deck])
    for seat in state.seats:
        mine = [k for k in keeps if k.seat == seat.seat]
        _deal(rng, [k.cards for k in mine if k.pile == "might"], [seat.might_deck])
        _deal(rng, [k.cards for k in mine if k.pile == "magic"], [seat.magic_deck])
    _deal(rng, [k.cards for k in keeps if k.pile == "artefact"], [state.artefact_deck])


REDEAL = {"homm4": _redeal_homm4, "homm3": _redeal_homm3, "mmh": _redeal_mmh}


def _redealable(state: Any) -> bool:
    """Whether nothing open refers to a hidden card by number (a homm3 choice's picks, a
    homm4 surrender's chosen payment): re-dealing would break it."""
    if state.ruleset == "homm3":
        return not state.choice and not state.looking and not any(state.queue.values())
    if state.ruleset == "homm4":
        return state.battle is None or not state.battle.surrender_pay
    return True


def _public_face(state: GameState) -> Any:
    """Everything the table sees of ``state``: the public view, who owes what (prompts are
    posted), the status lines and the channel's components for public decisions."""
    rules = get_ruleset(state.ruleset)
    adapter = adapter_for(state.ruleset)
    view = rules.public_view(state)
    face: list[Any] = [view.model_dump(mode="json"), adapter.status_lines(view, {})]
    for decision in rules.pending(state):
        face.append((decision.seat, decision.prompt))
        private, components = _public_components(
            state.ruleset, state, decision.seat, rules.legal_commands(state, decision.seat)
        )
        face.append(private or components)
    return face


@cache
def _card_names(ruleset: str) -> re.Pattern[str]:
    """Any card name of ``ruleset`` (longest first), to mask which card a line names."""
    if ruleset == "homm4":
        from engine.homm4.cards import load_card_pool

        names = {card.name for card in load_card_pool().cards.values()}
    elif ruleset == "homm3":
        from engine.homm3.content import load_content

        content = load_content()
        names = {content.card_name(card) for card in content.cards}
        names |= {content.card_name(card) for card in [*content.events, *content.combats]}
        names |= {content.card_name(card) for card in [*content.positive, *content.negative]}
    else:
        _, cards = ph._mmh_vocabulary()
        names = {name for _, name in cards}
    ordered = sorted(names, key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in ordered))


def _masked(ruleset: str, texts: list[str]) -> list[str]:
    """Event lines with every card name and number masked: which cards were turned face up
    may differ in a re-dealt game, the course of events may not."""
    return [re.sub(r"#\d+", "#", _card_names(ruleset).sub("∎", t)) for t in texts]


def _side_channels(ruleset: str, options: dict[str, Any], seeds: int, steps: int) -> list[str]:
    """Play AI games; every other step, re-deal the hidden cards of a copy and compare what
    the table sees of both now and after the same command (when it is legal in both).

    After the command, the event lines (cards masked) and who owes what must agree, unless
    the lines differ in the middle: then a card turned face up from a deck (a Guard chipped
    in) decided the difference, in public. One course merely going on further than the
    other (a decision skipped) is a difference."""
    rules = get_ruleset(ruleset)
    found: list[str] = []
    for seed in range(seeds):
        state, _ = rules.new_game(rules.parse_options(options), 2, seed)
        rng = random.Random(seed)
        for step in range(steps):
            if rules.result(state).finished:
                break
            decision = rules.pending(state)[0]
            command = rules.ai_command(state, decision.seat, rng)
            after, events = rules.apply(state, decision.seat, command)
            if step % 2 == 0 and _redealable(state):
                other = rules.load_state(rules.dump_state(state))
                REDEAL[ruleset](other, random.Random(step))
                where = f"seed {seed} step {step} ({decision.kind}, {command.type})"
                if _public_face(other) != _public_face(state):
                    found.append(f"{where}: before")
                if command in rules.legal_commands(other, decision.seat):
                    other_after, other_events = rules.apply(other, decision.seat, command)
                    mine = _masked(ruleset, [e.text for e in events])
                    theirs = _masked(ruleset, [e.text for e in other_events])
                    common = min(len(mine), len(theirs))
                    if mine[:common] != theirs[:common]:
                        continue  # a card turned face up decided it, in public
                    owed = [(d.seat, d.kind, d.prompt) for d in rules.pending(after)]
                    owed_other = [(d.seat, d.kind, d.prompt) for d in rules.pending(other_after)]
                    if mine != theirs or _masked(ruleset, [str(owed)]) != _masked(
                        ruleset, [str(owed_other)]
                    ):
                        found.append(f"{where}: {owed} / {owed_other}")
            state = after
    return found


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("homm4", {}),
        ("homm3", {"mode": "adventure", "size": "large"}),
        ("homm3", {"size": "medium"}),
        ("mmh", {"length": "quick"}),
    ],
)
@pytest.mark.slow
def test_the_table_sees_the_same_whoever_holds_which_hidden_card(
    ruleset: str, options: dict[str, Any]
) -> None:
    """Re-dealing the hidden cards (each Hand, Risk Stack, set-aside pile, held scroll or
    drawn choice keeping its size; cards swap with the bottom halves of decks) changes
    nothing the table sees, now or after the same command: not the public view, not a
    prompt (private decisions are announced too), not a status line, not a channel button,
    not an event line. A difference is a side channel."""
    found = _side_channels(ruleset, options, seeds=3, steps=800)
    assert not found, "\n".join(found[:10])


@pytest.mark.rule("mmh:other-game-rules.using-card-effects")
def test_an_mmh_battle_window_does_not_tell_of_a_held_scroll() -> None:
    """Where a battle window opened for a hero whose only usable cards are held (face-down)
    scrolls, the same game with those scrolls swapped for ones of another window (same
    number held) shows the table the same decision."""
    from engine.mmh import RULESET as MMH
    from engine.mmh import battle as mmh_battle
    from engine.mmh.content import load_content

    content = load_content()
    for seed in range(20):
        state, _ = MMH.new_game(MMH.parse_options({"length": "quick"}), 2, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if MMH.result(state).finished:
                break
            decision = MMH.pending(state)[0]
            command = MMH.ai_command(state, decision.seat, rng)
            after, _ = MMH.apply(state, decision.seat, command)
            owed = next(iter(MMH.pending(after)), decision)
            battle = after.battle
            if owed.kind == "battle_window" and battle is not None:
                window = mmh_battle.Window(battle.window or "before")
                side = mmh_battle.side_of_seat(after, owed.seat)
                hero = mmh_battle.side_hero(after, side) if side is not None else None
                usable = mmh_battle.usable_cards(after, owed.seat, window)
                if hero is not None and usable and set(usable) <= set(hero.scrolls):
                    other = MMH.load_state(MMH.dump_state(state))
                    held = other.heroes[hero.id].scrolls
                    spare = [
                        card
                        for card in other.scroll_deck
                        if content.scroll(card).primary.window != window
                    ]
                    for i, card in enumerate(list(held)):
                        if card in usable:
                            swap = spare.pop()
                            other.scroll_deck[other.scroll_deck.index(swap)] = card
                            held[i] = swap
                    other_after, _ = MMH.apply(other, decision.seat, command)
                    theirs = next(iter(MMH.pending(other_after)), decision)
                    assert (theirs.seat, theirs.kind, theirs.prompt) == (
                        owed.seat,
                        owed.kind,
                        owed.prompt,
                    )
                    return
            state = after
    pytest.skip("no battle window opened by a held scroll alone in these games")


@pytest.mark.rule("homm4:purchase-phase")
async def test_a_refused_default_answer_names_no_card_to_the_moderator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/mod skip by a moderator who is not the seat: the rules' refusal of the default
    answer (``Card #20 is not a Unit or Hero card``) reaches them without its words."""
    from bot.errors import BadOption
    from engine.homm4 import RULESET as HOMM4
    from engine.homm4 import board, zones
    from engine.homm4 import commands as c
    from tests.bot.service_helpers import click_choice, current, started_game

    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=1, ai=1, seed=11)
        for _ in range(300):
            _, state = await current(service, game.id)
            owed = HOMM4.pending(state)[0]
            player = state.players_state[0]
            odd = [i for i in player.hand if not zones.is_unit(state, i)]
            odd = [i for i in odd if not zones.is_hero(state, i)]
            if owed.seat == 0 and owed.kind == "purchase" and odd:
                break
            await click_choice(service, game.id, person(1), 0)
        else:
            raise AssertionError("Red never owed a purchase with a non-Unit card in Hand")
        town = next(board.label(state, s.hex) for s in state.sites if s.owner == 0)
        monkeypatch.setattr(
            HOMM4, "default_command", lambda s, seat: c.BuyUnit(card=odd[0], town=town)
        )
        with pytest.raises(BadOption) as refused:
            await service.mod_skip(person(MODERATOR, moderator=True), game.channel_id, seat="1")
        assert "refused Red's default answer" in refused.value.message
        assert f"#{odd[0]}" not in refused.value.message
    finally:
        await repo.close()


async def test_a_refused_undo_replay_names_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/mod undo replays the log: a logged command the rules now refuse is reported to the
    moderator without the refusal's words."""
    from bot import moderation
    from bot.errors import BadOption
    from engine.core.errors import IllegalMove
    from tests.bot.service_helpers import click_choice, started_game

    secret = "".join(["Card #", "20 is not a Unit or Hero card"])

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise IllegalMove(secret)

    repo, service = await make_service(tmp_path)
    try:
        game = await started_game(service, humans=1, ai=1, seed=11)
        await click_choice(service, game.id, person(1), 0)
        monkeypatch.setattr(moderation, "undo_last_commands", refused)
        with pytest.raises(BadOption) as undo:
            await service.mod_undo(person(MODERATOR, moderator=True), game.channel_id)
        assert "cannot be replayed" in undo.value.message and "#20" not in undo.value.message
    finally:
        await repo.close()


# ------------------------------------------------------------------ typed probes
PROBED_FIELDS: dict[str, frozenset[str]] = {
    "homm4": frozenset(
        {"card", "cards", "power", "discard", "spell", "skill", "pay", "artifact", "hero"}
    ),
    "homm3": frozenset({"card", "power", "discard", "take"}),
    "mmh": frozenset({"card", "scroll", "artefact"}),
}
"""Command fields that name a card (by instance number; mmh: by card id)."""

NOT_CARDS: frozenset[tuple[str, str]] = frozenset({("offer_surrender", "cards")})
"""``(command, field)`` pairs whose value is a count, not a card."""


def _probe_refusals(ruleset: str, options: dict[str, Any], seed: int, steps: int) -> list[str]:
    """Play AI games (``steps`` steps in all, a new game after each end); every third
    step, retype each kind of the owing seat's legal
    commands with a card field naming another seat's (or nobody's) hidden card instead,
    and collect the problems: a refusal naming that card, or refusals that differ with
    which hidden card was named (numbers masked): either tells what a hidden card is."""
    rules = get_ruleset(ruleset)
    rng = random.Random(seed)
    state, _ = rules.new_game(rules.parse_options(options), 2, seed)
    found: list[str] = []
    probes = 0
    games = 1
    for step in range(steps):
        if rules.result(state).finished:
            state, _ = rules.new_game(rules.parse_options(options), 2, seed + games)
            games += 1
        seat = rules.pending(state)[0].seat
        if step % 3 == 0:
            checker = ph.seat_checker(state, state, seat)
            foreign = checker.forbidden
            seen: set[tuple[str, str]] = set()
            for command in rules.legal_commands(state, seat):
                data = command.model_dump()
                for name, value in data.items():
                    key = (command.type, name)
                    if name not in PROBED_FIELDS[ruleset] or key in NOT_CARDS or key in seen:
                        continue
                    single = isinstance(value, int | str) and not isinstance(value, bool)
                    if not single and not isinstance(value, list | tuple):
                        continue
                    seen.add(key)
                    said: dict[str, str] = {}
                    for secret in rng.sample(foreign, min(8, len(foreign))):
                        if single and type(secret.key) is not type(value):
                            continue
                        probe = secret.key if single else [secret.key, *list(value)[1:]]
                        try:
                            typed = type(command).model_validate({**data, name: probe})
                            rules.apply(state, seat, typed)
                            text = "accepted"
                        except RuleViolation as error:
                            text = error.message
                        except ValidationError:
                            continue
                        probes += 1
                        # The number typed may be echoed; the card's name may not.
                        masked = re.sub(r"#\d+|\[\d+\]", "#N", text)
                        if isinstance(secret.key, str):  # an mmh card id
                            masked = re.sub(rf"\b{re.escape(secret.key)}\b", "#N", masked)
                        found += [f"{key}: {hit}" for hit in checker.leaks([masked])]
                        said[masked] = secret.name
                    if len(said) > 1:
                        found.append(f"step {step} {key}: the refusal depends on the card: {said}")
        state, _ = rules.apply(state, seat, rules.ai_command(state, seat, rng))
    assert probes > 100, f"only {probes} probes"
    return found


@pytest.mark.rule("homm4:card-types")
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [("homm4", {}), ("homm3", {"mode": "adventure"}), ("mmh", {"length": "quick"})],
)
@pytest.mark.slow
def test_a_typed_command_naming_a_hidden_card_learns_nothing_of_it(
    ruleset: str, options: dict[str, Any]
) -> None:
    """Typing another player's hidden card (or a deck's) into a command — ``/purchase buy
    card:#35`` for a card in Blue's Hand — is refused (or ignored) in words that neither
    name it nor depend on what it is: the refusal cannot be used to probe a Hand."""
    found = _probe_refusals(ruleset, options, seed=2, steps=1500)
    assert not found, "\n".join(found[:10])


def test_the_probe_finds_a_refusal_that_tells_a_hidden_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The typed probe can fail: a refusal that adds a hidden card's type (``Card #35 is
    not in your Hand`` + ``(Spell)``) is found, and one that names it too."""
    from engine.core.errors import IllegalMove
    from engine.homm4 import RULESET as HOMM4
    from engine.homm4 import zones

    real = HOMM4.apply

    def telling(state: Any, seat: int, command: Any) -> Any:
        try:
            return real(state, seat, command)
        except RuleViolation as error:
            card = getattr(command, "card", None)
            if isinstance(card, int) and 0 <= card < len(state.card_defs):
                found = zones.card(state, card)
                raise IllegalMove(f"{error.message} ({found.type}: {found.name})") from None
            raise

    monkeypatch.setattr(HOMM4, "apply", telling)
    found = _probe_refusals("homm4", {}, seed=2, steps=600)
    assert any("the refusal depends on the card" in hit for hit in found)
    assert any(" in '" in hit or ' in "' in hit for hit in found)


# ------------------------------------------------------------------ homm3 unit windows
@pytest.mark.rule("homm3bf:battlefield-combat.changes-to-combat-rules")
def test_homm3_braced_pikes_asks_by_dm_and_guardian_angel_in_the_channel() -> None:
    """Braced Pikes' question lists the defender's Hand: it is a DM decision whose prompt
    (announced in the channel) names no card; Guardian Angel's names none and stays in
    the channel."""
    from bot.homm3.adapter import Homm3Adapter
    from tests.homm3.helpers import RULES, braced_pikes_moment, guardian_angel_moment

    adapter = Homm3Adapter()
    state = braced_pikes_moment(["attack", "fireball"])
    decision = RULES.pending(state)[0]
    assert decision.kind == "choose_braced_pikes" and decision.seat == 1
    legal = RULES.legal_commands(state, 1)
    ui = adapter.decision_ui(state, 1, decision, 1, legal, None)
    labels = ph.component_texts(ui.components)
    assert decision.private and ui.private
    assert any("Fireball" in label for label in labels)  # the DM names the Hand
    channel = ph.channel_checker(state, state)
    assert not channel.leaks([decision.prompt]) and "Fireball" not in decision.prompt
    assert not ph.seat_checker(state, state, 0).leaks([decision.prompt])

    state = guardian_angel_moment()
    decision = RULES.pending(state)[0]
    assert decision.kind == "choose_guardian_angel"
    ui = adapter.decision_ui(state, 1, decision, 1, RULES.legal_commands(state, 1), None)
    assert not decision.private and not ui.private
    texts = [decision.prompt, *ph.component_texts(ui.components)]
    assert not ph.channel_checker(state, state).leaks(texts)
    assert any("Cancel the attack" in t for t in texts)
