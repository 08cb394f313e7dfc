"""The ``options:`` text of /game new and /game options for a game whose own options are a
few named settings (its adapter's ``lobby_specs``): read, suggested while typed, and
explained in /help.

The words are separated by spaces; each is ``name:value`` (or ``name=value``), a value
with spaces in quotes (``heroes:"Catherine, Deemer"``, or no space after a comma:
``heroes:Catherine,Deemer``). A fixed choice may be typed alone (``adventure`` is
``mode:adventure`` when only one setting has that choice) and a yes/no setting by its name
alone (``siege`` is ``siege:yes``). ``name:none`` puts a text setting back to its default.
A game with its own words (homm4's Advanced Rules) reads its text itself
(`bot.adapters.RulesetAdapter.read_options_text`).

The same text is what the console takes after ``--options``, and a ``/game new`` typed at
the console may still carry the words as options of their own (``mode:adventure``).
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Sequence
from typing import Any

from bot.command_table import OptionSpec
from bot.errors import BadOption

TRUE_WORDS = ("yes", "true", "on", "1")
FALSE_WORDS = ("no", "false", "off", "0")

CLEARED = None
"""The value ``name:none`` gives a text setting (its default)."""


def option_key(spec: OptionSpec) -> str:
    """The keyword ``spec``'s value is passed as (``-`` written ``_``)."""
    return spec.name.replace("-", "_")


def value_form(spec: OptionSpec) -> str:
    """How ``spec``'s value is written: ``skirmish|adventure``, ``yes|no``, ``10-100`` or
    ``text`` (for help and refusals)."""
    if spec.choices:
        return "|".join(str(c.value) for c in spec.choices)
    if spec.type == "boolean":
        return "yes|no"
    if spec.type == "integer":
        lo = "" if spec.min_value is None else str(spec.min_value)
        hi = "" if spec.max_value is None else str(spec.max_value)
        return f"{lo}-{hi}" if lo or hi else "number"
    return "text"


def words_list(specs: Sequence[OptionSpec]) -> str:
    """Every setting as ``name:form``, comma-separated (``mode:skirmish|adventure, siege:yes|no``)."""
    return ", ".join(f"{s.name}:{value_form(s)}" for s in specs) or "none"


def _convert(spec: OptionSpec, raw: str, title: str) -> Any:
    value = raw.strip()
    if spec.choices:
        for choice in spec.choices:
            if value.lower() in (str(choice.value).lower(), choice.name.lower()):
                return choice.value
        raise BadOption(f"{title}: {spec.name} is one of {value_form(spec)}, not {value!r}.")
    if spec.type == "boolean":
        if value.lower() in TRUE_WORDS or not value:
            return True
        if value.lower() in FALSE_WORDS:
            return False
        raise BadOption(f"{title}: {spec.name} is yes or no, not {value!r}.")
    if spec.type == "integer":
        if not value.lstrip("-").isdigit():
            raise BadOption(f"{title}: {spec.name} is a whole number ({value_form(spec)}).")
        number = int(value)
        if (spec.min_value is not None and number < spec.min_value) or (
            spec.max_value is not None and number > spec.max_value
        ):
            raise BadOption(f"{title}: {spec.name} is {value_form(spec)}, not {number}.")
        return number
    if value.lower() == "none":
        return CLEARED
    if not value:
        raise BadOption(f"{title}: {spec.name}: needs a value ({spec.description}).")
    if spec.max_length is not None and len(value) > spec.max_length:
        raise BadOption(f"{title}: {spec.name} is at most {spec.max_length} characters.")
    return value


def unquote(text: str) -> str:
    """``text`` without one pair of quotes around all of it (an example copied from
    /help with its quotes: ``"mode:adventure size:medium"``)."""
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'":
        return stripped[1:-1]
    return stripped


def _split(text: str, title: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        raise BadOption(
            f"{title}: a quote is not closed in the options text; write a value with spaces "
            'in double quotes, e.g. name:"two words".'
        ) from None


def read_words(text: str, specs: Sequence[OptionSpec], title: str) -> dict[str, Any]:
    """Read an options text into ``{keyword: value}`` for the settings ``specs`` (keys as
    `option_key`; integers converted, yes/no as bools, a choice as its value, ``none`` of a
    text setting as None). ``none`` alone is the empty text.

    :param title: the game's name, for refusals.
    :raises BadOption: for a word that is not one of ``specs`` or a value the setting
        refuses, naming every setting and how it is written.
    """
    by_name = {s.name: s for s in specs} | {option_key(s): s for s in specs}
    found: dict[str, Any] = {}
    for word in _split(unquote(text), title):
        if word.lower() == "none":
            continue
        cut = min((i for i in (word.find(":"), word.find("=")) if i >= 0), default=-1)
        name, value = (word[:cut].lower(), word[cut + 1 :]) if cut > 0 else (word.lower(), "")
        spec = by_name.get(name)
        if spec is None and cut < 0:
            matches = [
                s
                for s in specs
                if any(name in (str(c.value).lower(), c.name.lower()) for c in s.choices)
            ]
            if len(matches) == 1:
                spec, value = matches[0], name
        if spec is None or (cut < 0 and spec.type != "boolean" and not spec.choices):
            known = [s.name for s in specs]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" Did you mean {close[0]}:?" if close else ""
            if not specs:
                raise BadOption(f"{title} has no options of its own; leave options: out.")
            raise BadOption(
                f"{word!r} is not an option of {title}.{hint} Its options: {words_list(specs)} "
                f"(written name:value)."
            )
        found[option_key(spec)] = _convert(spec, value, title)
    return found


def suggest_words(current: str, specs: Sequence[OptionSpec]) -> list[tuple[str, str]]:
    """Autocomplete for the options text: the text typed so far with its last word
    completed, or one more setting, as ``(name, value)`` pairs (at most 25, each value at
    most 100 characters; a longer text gets no suggestion)."""
    ends = not current or current.endswith(" ")
    words = current.split()
    done = words if ends else words[:-1]
    partial = "" if ends else words[-1]
    used = {w.replace("=", ":").split(":")[0].lower() for w in done}
    prefix = " ".join(done)
    name_part, sep, value_part = partial.replace("=", ":").partition(":")
    pairs: list[tuple[str, str]] = []
    for spec in specs:
        if spec.name in used:
            continue
        if sep and spec.name != name_part.lower():
            continue
        if not sep and not spec.name.startswith(name_part.lower()):
            continue
        if spec.choices:
            forms = [f"{spec.name}:{c.value}" for c in spec.choices]
            forms = [f for f in forms if f.split(":", 1)[1].startswith(value_part.lower())]
        elif spec.type == "boolean":
            forms = [f"{spec.name}:yes", f"{spec.name}:no"]
        else:
            forms = [f"{spec.name}:{value_part}"]
        for form in forms:
            value = f"{prefix} {form}".strip()
            if len(value) <= 100:
                pairs.append((f"{value} — {spec.description}", value))
    return pairs[:25]
