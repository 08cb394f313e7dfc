"""Rule topics for `/game rules`: load our own summaries of each rulebook section, search
them, look one up, and build the autocomplete choices.

The texts live in ``bot/rules_text/<ruleset>.toml`` (one ``[[topic]]`` per section id of
``shared/rules/SECTIONS.txt``, e.g. ``homm4:battles.grouping``), read through
`importlib.resources` and validated with pydantic on first use (then cached). A new
ruleset only needs its own TOML file; a ruleset whose section ids use other prefixes
(``homm3`` covers ``homm3bf:`` and ``homm3turn:``) lists them in ``section_prefixes``.

Search uses a small scorer over the title, the section id and the keywords, with the
standard library's `difflib` for typos. rapidfuzz would score faster and handle
transpositions better, but it is an extra compiled dependency, and with fewer than 200
topics per ruleset difflib answers well inside Discord's 3-second autocomplete window.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from pydantic import ValidationError as PydanticValidationError

from engine.core.errors import InvalidInput

TEXT_PACKAGE = "bot.rules_text"
"""The package holding one ``<ruleset>.toml`` per ruleset."""

EMBED_DESCRIPTION_LIMIT = 4096
"""Discord's limit on an embed description, in characters."""

EMBED_TITLE_LIMIT = 256
"""Discord's limit on an embed title, in characters."""

CHOICE_TEXT_LIMIT = 100
"""Discord's limit on an autocomplete choice's name and on its string value."""

MAX_CHOICES = 25
"""Discord shows at most this many autocomplete choices."""

SUMMARY_MIN = 300
SUMMARY_MAX = 1500
"""Bounds on a topic summary's length, in characters after re-flowing."""

COMING = "(game option, coming)"
"""The marker for rules that a game cannot switch on yet."""

RULESET_ID = re.compile(r"^[a-z0-9_]{1,32}$")
SECTION_ID = re.compile(r"^[a-z0-9]+:[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$")
COMMAND = re.compile(r"^/[a-z0-9_-]{1,32}(?: [a-z0-9_-]{1,32}){0,2}$")

Keyword = Annotated[str, StringConstraints(min_length=1, max_length=CHOICE_TEXT_LIMIT)]


class UnknownRuleset(InvalidInput):
    """No rule topics exist for the ruleset asked for; the message lists those that do."""

    code = "unknown_ruleset"


class UnknownTopic(InvalidInput):
    """No rule topic matches the id asked for; the message suggests close matches."""

    code = "unknown_topic"


class RulesTextError(ValueError):
    """A shipped ``<ruleset>.toml`` is malformed (a packaging bug, not a user error)."""


def reflow(text: str) -> str:
    """Return ``text`` re-flowed for Discord: single line breaks become spaces, a blank
    line separates paragraphs, and a line starting with ``- `` starts a new line.

    >>> reflow("one\\ntwo\\n\\n- a\\nb\\n- c")
    'one two\\n\\n- a b\\n- c'
    """
    paragraphs: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for raw in block.splitlines():
            line = " ".join(raw.split())
            if not line:
                continue
            if lines and not line.startswith("- "):
                lines[-1] = f"{lines[-1]} {line}"
            else:
                lines.append(line)
        if lines:
            paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


class Topic(BaseModel):
    """One rule section in our own words.

    Attributes:
        id: the section id as in SECTIONS.txt (``homm4:battles.grouping``).
        title: the section title as in SECTIONS.txt (``Grouping``).
        summary: our own summary, re-flowed (`reflow`), 300-1500 characters.
        commands: the slash commands a player uses for it (``/battle group``), maybe none.
        keywords: lowercase words players may type for it (``swarm``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=SECTION_ID.pattern, max_length=CHOICE_TEXT_LIMIT)
    title: str = Field(min_length=1, max_length=CHOICE_TEXT_LIMIT)
    summary: str = Field(min_length=SUMMARY_MIN, max_length=SUMMARY_MAX)
    commands: tuple[str, ...] = ()
    keywords: tuple[Keyword, ...] = ()

    @field_validator("summary", mode="before")
    @classmethod
    def _reflow(cls, value: object) -> object:
        return reflow(value) if isinstance(value, str) else value

    @field_validator("commands")
    @classmethod
    def _check_commands(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        bad = [c for c in value if not COMMAND.match(c)]
        if bad:
            raise ValueError(f"commands must look like '/name sub': {bad}")
        return value

    @field_validator("keywords")
    @classmethod
    def _check_keywords(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        bad = [k for k in value if k != " ".join(k.split()) or k != k.lower()]
        if bad:
            raise ValueError(f"keywords must be lowercase single-spaced words: {bad}")
        repeated = sorted({k for k in value if value.count(k) > 1})
        if repeated:
            raise ValueError(f"keywords repeated: {repeated}")
        return value

    @property
    def prefix(self) -> str:
        """The id's prefix before the colon (``homm4``)."""
        return self.id.split(":", 1)[0]

    @property
    def section(self) -> str:
        """The id without its prefix (``battles.grouping``)."""
        return self.id.split(":", 1)[1]

    @property
    def parent_id(self) -> str | None:
        """The enclosing section's id (``homm4:battles``), or None for a top-level one."""
        head, dot, _ = self.id.rpartition(".")
        return head if dot else None


class RulesText(BaseModel):
    """One ruleset's topics, in rulebook order (the whole ``<ruleset>.toml``).

    Attributes:
        ruleset: the ruleset id, equal to the file name (``homm4``).
        rulebook: the rulebook's name, for headings.
        section_prefixes: the id prefixes its topics use; empty means ``(ruleset,)``.
        topic: the topics, in the order of SECTIONS.txt.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: str = Field(pattern=RULESET_ID.pattern)
    rulebook: str = Field(min_length=1)
    section_prefixes: tuple[str, ...] = ()
    topic: tuple[Topic, ...] = Field(min_length=1)

    def prefixes(self) -> tuple[str, ...]:
        """The id prefixes allowed in this file."""
        return self.section_prefixes or (self.ruleset,)

    def problems(self) -> list[str]:
        """Every inconsistency between the topics (empty when the file is sound)."""
        found: list[str] = []
        ids = [t.id for t in self.topic]
        found += [f"{i}: defined twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
        known = set(ids)
        for t in self.topic:
            if t.prefix not in self.prefixes():
                found.append(f"{t.id}: prefix not one of {list(self.prefixes())}")
            if t.parent_id is not None and t.parent_id not in known:
                found.append(f"{t.id}: its parent {t.parent_id} has no topic")
        return found


@dataclass(frozen=True)
class _Entry:
    """A topic with its normalised search fields."""

    topic: Topic
    order: int
    names: tuple[str, ...]  # title, section id, last id part, full id
    keywords: tuple[str, ...]
    words: frozenset[str]  # words of the title, the id, the parent title, the keywords
    summary_words: frozenset[str]


def available_rulesets() -> list[str]:
    """Return the ruleset ids that have a topics file, sorted."""
    folder = resources.files(TEXT_PACKAGE)
    return sorted(
        item.name.removesuffix(".toml")
        for item in folder.iterdir()
        if item.name.endswith(".toml") and RULESET_ID.match(item.name.removesuffix(".toml"))
    )


@functools.cache
def load(ruleset: str) -> RulesText:
    """Return the validated topics of ``ruleset`` (read once, then cached).

    :raises UnknownRuleset: if there is no ``bot/rules_text/<ruleset>.toml``.
    :raises RulesTextError: if the file is not valid TOML or breaks the schema.
    """
    if not RULESET_ID.match(ruleset):
        raise UnknownRuleset(_unknown_ruleset_message(ruleset))
    resource = resources.files(TEXT_PACKAGE) / f"{ruleset}.toml"
    if not resource.is_file():
        raise UnknownRuleset(_unknown_ruleset_message(ruleset))
    name = f"bot/rules_text/{ruleset}.toml"
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
        text = RulesText.model_validate(data)
    except (tomllib.TOMLDecodeError, PydanticValidationError) as exc:
        raise RulesTextError(f"{name}: {exc}") from exc
    problems = text.problems()
    if text.ruleset != ruleset:
        problems.insert(0, f"ruleset = {text.ruleset!r} but the file is {name}")
    if problems:
        raise RulesTextError(f"{name}: " + "; ".join(problems))
    return text


def _unknown_ruleset_message(ruleset: str) -> str:
    known = ", ".join(available_rulesets()) or "none"
    return f"There are no rule topics for the game {ruleset!r}. Rule topics exist for: {known}."


def topics(ruleset: str) -> list[Topic]:
    """Return every topic of ``ruleset`` in rulebook order.

    :raises UnknownRuleset: if the ruleset has no topics file.
    """
    return list(load(ruleset).topic)


def normalise(text: str) -> str:
    """Return ``text`` lowercased, apostrophes dropped, every other non-word character a
    single space (``"Alchemist's Lab"`` -> ``"alchemists lab"``,
    ``"homm4:battles.grouping"`` -> ``"homm4 battles grouping"``)."""
    text = text.casefold().replace("'", "").replace("\u2019", "")
    return " ".join(re.sub(r"[^\w½]+", " ", text).split())


@functools.cache
def _index(ruleset: str) -> tuple[_Entry, ...]:
    """Return the search entries of ``ruleset`` (built once per ruleset)."""
    text = load(ruleset)
    by_id = _by_id(ruleset)
    entries: list[_Entry] = []
    for order, t in enumerate(text.topic):
        parent = by_id.get(t.parent_id) if t.parent_id else None
        names = (
            normalise(t.title),
            normalise(t.section),
            normalise(t.section.rsplit(".", 1)[-1]),
            normalise(t.id),
        )
        keywords = tuple(normalise(k) for k in t.keywords)
        words = set(" ".join((*names, *keywords)).split())
        if parent is not None:
            words |= set(normalise(parent.title).split())
        entries.append(
            _Entry(
                topic=t,
                order=order,
                names=names,
                keywords=keywords,
                words=frozenset(words),
                summary_words=frozenset(normalise(t.summary).split()),
            )
        )
    return tuple(entries)


STOP_WORDS = frozenset(
    {
        *("a", "an", "the", "of", "to", "in", "on", "at", "for", "with", "and", "or"),
        *("how", "much", "many", "do", "does", "did", "i", "my", "me", "we", "our"),
        *("you", "your", "can", "what", "when", "where", "who", "which", "why", "is"),
        *("are", "was", "it", "its", "rule", "rules", "about", "please"),
    }
)
"""Words dropped from a question (``how do i shoot``) when the whole text finds nothing
better; the exact text is always tried first."""

FUZZY_CUTOFF = 0.75
"""The least `difflib` similarity ratio that counts as a typo match."""


def _score(entry: _Entry, query: str) -> float:
    """Return how well ``entry`` matches the normalised ``query`` (0: not at all).

    Tiers, best first: 100 the exact title or id; 95 an exact keyword; 85 the title or
    last id part starts with the query; 75 a keyword starts with it; 70 the query is a
    whole-word part of the title; 65 of a keyword; 55 every query word starts a word of
    the title, id, parent title or keywords; 30-40 a typo (difflib ratio >= 0.75 against
    a name, a keyword or, word by word, their words); 20 every query word appears in the
    summary; 10-19 at least half of several query words appear in either.
    """
    if not query:
        return 0.0
    if query in entry.names:
        return 100.0
    if query in entry.keywords:
        return 95.0
    if entry.names[0].startswith(query) or entry.names[2].startswith(query):
        return 85.0
    if any(k.startswith(query) for k in entry.keywords):
        return 75.0
    padded = f" {query} "
    if padded in f" {entry.names[0]} ":
        return 70.0
    if any(padded in f" {k} " for k in entry.keywords):
        return 65.0
    query_words = query.split()
    if all(any(w.startswith(q) for w in entry.words) for q in query_words):
        return 55.0
    ratio = _fuzzy_ratio(entry, query, query_words)
    if ratio >= FUZZY_CUTOFF:
        return 40.0 * ratio
    if all(q in entry.summary_words for q in query_words):
        return 20.0
    if len(query_words) > 1:
        found = sum(
            1
            for q in query_words
            if q in entry.summary_words or any(w.startswith(q) for w in entry.words)
        )
        if found * 2 >= len(query_words):
            return 10.0 + 9.0 * found / len(query_words)
    return 0.0


def _fuzzy_ratio(entry: _Entry, query: str, query_words: list[str]) -> float:
    """Return the best difflib ratio of the query against the entry's names and keywords,
    or, for a query of several words, the worst of each word's best ratio."""
    whole = max(
        difflib.SequenceMatcher(None, query, name).ratio()
        for name in (*entry.names, *entry.keywords)
    )
    if len(query_words) == 1:
        return max(whole, max(difflib.SequenceMatcher(None, query, w).ratio() for w in entry.words))
    per_word = min(
        max(difflib.SequenceMatcher(None, q, w).ratio() for w in entry.words) for q in query_words
    )
    return max(whole, per_word)


def _best_score(entry: _Entry, query: str, core: str) -> float:
    """Return the score of the whole query, or of its content words (``core``) a little
    lower, whichever is higher."""
    whole = _score(entry, query)
    if core and core != query and whole < 100.0:
        return max(whole, _score(entry, core) - 5.0)
    return whole


def search(ruleset: str, text: str, limit: int = MAX_CHOICES) -> list[Topic]:
    """Return up to ``limit`` topics of ``ruleset`` matching ``text``, best first (ties in
    rulebook order), scored by `_score` on the whole text and, 5 points lower, on the text
    without `STOP_WORDS`. An empty ``text`` gives the top-level topics in rulebook order.

    >>> search("homm4", "swarm", limit=1)[0].id
    'homm4:battles.grouping'

    :raises UnknownRuleset: if the ruleset has no topics file.
    """
    entries = _index(ruleset)
    query = normalise(text)
    if not query:
        return [e.topic for e in entries if e.topic.parent_id is None][:limit]
    core = " ".join(w for w in query.split() if w not in STOP_WORDS)
    scored = [(_best_score(e, query, core), e.order, e.topic) for e in entries]
    ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))
    return [t for _, _, t in ranked[:limit]]


def topic(ruleset: str, topic_id: str) -> Topic:
    """Return the topic of ``ruleset`` named by ``topic_id``: its full id
    (``homm4:battles.grouping``), its id without the prefix (``battles.grouping``) or its
    exact title in any case (``grouping``).

    :raises UnknownTopic: if nothing matches; the message lists up to 5 close matches.
    :raises UnknownRuleset: if the ruleset has no topics file.
    """
    wanted = topic_id.strip()
    entries = _index(ruleset)
    for e in entries:
        if wanted in (e.topic.id, e.topic.section):
            return e.topic
    query = normalise(wanted)
    for e in entries:
        if query and query in (e.names[0], e.names[3]):
            return e.topic
    close = search(ruleset, wanted, limit=5) if query else []
    if close:
        hint = "Did you mean: " + "; ".join(f"{t.title} ({t.id})" for t in close) + "?"
    else:
        hint = "Type part of a rule's name (for example 'grouping' or 'risk') to see the list."
    raise UnknownTopic(f"There is no {ruleset} rule topic {wanted!r}. {hint}")


@functools.cache
def _by_id(ruleset: str) -> dict[str, Topic]:
    """Return the topics of ``ruleset`` by id (built once per ruleset)."""
    return {t.id: t for t in load(ruleset).topic}


def choice_name(ruleset: str, item: Topic) -> str:
    """Return the autocomplete label of ``item``: its title after its parents' titles
    (``Battles: Grouping``), cut to 100 characters with an ellipsis."""
    by_id = _by_id(ruleset)
    parts = [item.title]
    parent = item.parent_id
    while parent is not None and parent in by_id:
        parts.insert(0, by_id[parent].title)
        parent = by_id[parent].parent_id
    label = ": ".join(parts)
    if len(label) > CHOICE_TEXT_LIMIT:
        label = label[: CHOICE_TEXT_LIMIT - 1].rstrip() + "…"
    return label


def choices(ruleset: str, text: str) -> list[tuple[str, str]]:
    """Return the autocomplete choices for ``text``: up to 25 ``(name, value)`` pairs,
    name ≤ 100 characters (`choice_name`), value the topic id (≤ 100 characters), which
    `topic` accepts back. The user may still type anything: look it up with `topic`.

    :raises UnknownRuleset: if the ruleset has no topics file.
    """
    return [(choice_name(ruleset, t), t.id) for t in search(ruleset, text, MAX_CHOICES)]


def description(item: Topic) -> str:
    """Return the embed description of ``item``: its summary, then its commands if any
    (always within Discord's 4096 characters)."""
    text = item.summary
    if item.commands:
        text += "\n\nCommands: " + ", ".join(f"`{c}`" for c in item.commands)
    return text[:EMBED_DESCRIPTION_LIMIT]
