"""Discord's documented limits, checked on everything the bot sends to the fake.

Each checker returns a list of problems ``(path, message)``; an empty list means Discord
would accept the payload. The server turns problems into a 400 (code 50035, Invalid Form
Body) and records them as violations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

Json = dict[str, Any]
Problem = tuple[str, str]

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_ACTION_ROWS = 5
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_GALLERY_ITEMS = 10
IS_COMPONENTS_V2 = 1 << 15

# Components V2 (types 9-17): section, text display, thumbnail, media gallery, file,
# separator, container (15 and 16 are not components a message may carry).
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
V2_TYPES = frozenset({SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
V2_TOP_LEVEL = frozenset({1, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({1, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
MESSAGE_TYPES = frozenset({1, 2, 3, 5, 6, 7, 8}) | V2_TYPES
MAX_SAFE_INTEGER = 2**53

# Discord's CHAT_INPUT name rule: 1-32 of letters, digits, '-' and '_', no upper case.
_NAME = re.compile(r"^[-_\w]{1,32}$", re.UNICODE)

EMBED_LIMITS = {"title": 256, "description": 4096}
FIELD_LIMITS = {"name": 256, "value": 1024}


def _too_long(path: str, value: Any, limit: int, *, minimum: int = 0) -> list[Problem]:
    if value is None:
        return [] if minimum == 0 else [(path, f"is required ({minimum}-{limit} characters)")]
    text = str(value)
    if not minimum <= len(text) <= limit:
        return [(path, f"must be {minimum}-{limit} characters, got {len(text)}: {text[:60]!r}")]
    return []


def _name_problems(path: str, name: Any) -> list[Problem]:
    if not isinstance(name, str) or not _NAME.match(name):
        return [(path, f"name {name!r} must be 1-32 letters, digits, '-' or '_'")]
    if name != name.lower():
        return [(path, f"name {name!r} must be lower case")]
    return []


def _command_chars(command: Json) -> int:
    total = len(command.get("name", "")) + len(command.get("description", ""))
    for option in command.get("options", []) or []:
        total += _command_chars(option)
        for choice in option.get("choices", []) or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total


def command_problems(commands: list[Json], *, scope: str) -> list[Problem]:
    """Problems in a bulk command sync (``PUT .../commands``).

    ``scope`` names where the commands go (``"global"`` or ``"guild 123"``), for messages.
    Checks: at most 100 chat-input commands, unique names, each command's name,
    description, options, choices and nesting (see ``_command``), and 4000 characters each.
    """
    problems: list[Problem] = []
    chat = [c for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT]
    if len(chat) > MAX_COMMANDS:
        problems.append((scope, f"{len(chat)} chat input commands, at most {MAX_COMMANDS}"))
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        path = f"{scope}.{command.get('name', index)}"
        key = (command.get("type", CHAT_INPUT), command.get("name", ""))
        if key in seen:
            problems.append((path, "duplicate command name"))
        seen.add(key)
        problems += _command(path, command)
    return problems


def _command(path: str, command: Json) -> list[Problem]:
    kind = command.get("type", CHAT_INPUT)
    if kind != CHAT_INPUT:
        problems = _too_long(f"{path}.name", command.get("name"), 32, minimum=1)
        if command.get("description"):
            problems.append((f"{path}.description", "must be empty for context menu commands"))
        return problems
    problems = _name_problems(f"{path}.name", command.get("name"))
    problems += _too_long(f"{path}.description", command.get("description"), 100, minimum=1)
    if _command_chars(command) > MAX_COMMAND_CHARS:
        problems.append((path, f"more than {MAX_COMMAND_CHARS} characters in total"))
    problems += _option_list(path, command.get("options") or [], depth=0)
    return problems


def _option_list(path: str, options: list[Json], *, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > MAX_OPTIONS:
        problems.append((f"{path}.options", f"{len(options)} options, at most {MAX_OPTIONS}"))
    kinds = {o.get("type") for o in options}
    nested = kinds & {SUB_COMMAND, SUB_COMMAND_GROUP}
    if nested and kinds - nested:
        problems.append((f"{path}.options", "subcommands cannot be mixed with other options"))
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append((f"{path}.options", f"duplicate option names in {names}"))
    optional_seen = False
    for option in options:
        opath = f"{path}.{option.get('name')}"
        kind = option.get("type")
        problems += _name_problems(f"{opath}.name", option.get("name"))
        problems += _too_long(f"{opath}.description", option.get("description"), 100, minimum=1)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth >= 2 or (depth == 1 and kind == SUB_COMMAND_GROUP):
                problems.append((opath, "subcommands nest at most group > subcommand"))
            children = option.get("options") or []
            if kind == SUB_COMMAND_GROUP and not children:
                problems.append((opath, "a subcommand group needs at least one subcommand"))
            if kind == SUB_COMMAND_GROUP and any(c.get("type") != SUB_COMMAND for c in children):
                problems.append((opath, "a subcommand group holds only subcommands"))
            problems += _option_list(opath, children, depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append((opath, "required options must come before optional ones"))
        else:
            optional_seen = True
        problems += _value_option(opath, option)
    return problems


def _value_option(path: str, option: Json) -> list[Problem]:
    kind = option.get("type")
    problems: list[Problem] = []
    if kind not in range(STRING, ATTACHMENT + 1):
        return [(path, f"unknown option type {kind!r}")]
    choices = option.get("choices") or []
    if choices and kind not in (STRING, INTEGER, NUMBER):
        problems.append((path, "only string, integer and number options take choices"))
    if len(choices) > MAX_CHOICES:
        problems.append((path, f"{len(choices)} choices, at most {MAX_CHOICES}"))
    if choices and option.get("autocomplete"):
        problems.append((path, "an option cannot have both choices and autocomplete"))
    for index, choice in enumerate(choices):
        problems += _choice(f"{path}.choices.{index}", choice, kind)
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        problems.append((path, f"min_value {low} > max_value {high}"))
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if value is not None and abs(value) > MAX_SAFE_INTEGER:
            problems.append((f"{path}.{key}", f"{value} is beyond ±2^53"))
    min_len, max_len = option.get("min_length"), option.get("max_length")
    if min_len is not None and not 0 <= min_len <= 6000:
        problems.append((f"{path}.min_length", "must be 0-6000"))
    if max_len is not None and not 1 <= max_len <= 6000:
        problems.append((f"{path}.max_length", "must be 1-6000"))
    return problems


def _choice(path: str, choice: Json, kind: Any) -> list[Problem]:
    problems = _too_long(f"{path}.name", choice.get("name"), 100, minimum=1)
    value = choice.get("value")
    if kind == STRING:
        if not isinstance(value, str):
            problems.append((f"{path}.value", f"{value!r} is not a string"))
        else:
            problems += _too_long(f"{path}.value", value, 100, minimum=1)
    elif kind == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
        problems.append((f"{path}.value", f"{value!r} is not an integer"))
    elif kind == NUMBER and (not isinstance(value, int | float) or isinstance(value, bool)):
        problems.append((f"{path}.value", f"{value!r} is not a number"))
    return problems


def _embed_urls(embed: Json) -> Iterator[tuple[str, str]]:
    for key in ("image", "thumbnail"):
        url = (embed.get(key) or {}).get("url")
        if url:
            yield key, url
    for key in ("footer", "author"):
        url = (embed.get(key) or {}).get("icon_url")
        if url:
            yield key, url


def embed_problems(embeds: list[Json], *, filenames: Iterable[str]) -> list[Problem]:
    """Problems in a message's embeds: count, per-field lengths, 6000 in total, and every
    ``attachment://name`` pointing at a file of the message (``filenames``)."""
    problems: list[Problem] = []
    names = set(filenames)
    if len(embeds) > MAX_EMBEDS:
        problems.append(("embeds", f"{len(embeds)} embeds, at most {MAX_EMBEDS}"))
    total = 0
    for index, embed in enumerate(embeds):
        path = f"embeds.{index}"
        for key, limit in EMBED_LIMITS.items():
            problems += _too_long(f"{path}.{key}", embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{path}.fields", f"{len(fields)} fields, at most 25"))
        for findex, fld in enumerate(fields):
            for key, limit in FIELD_LIMITS.items():
                problems += _too_long(
                    f"{path}.fields.{findex}.{key}", fld.get(key), limit, minimum=1
                )
                total += len(fld.get(key) or "")
        footer = (embed.get("footer") or {}).get("text")
        problems += _too_long(f"{path}.footer.text", footer, 2048)
        author = (embed.get("author") or {}).get("name")
        problems += _too_long(f"{path}.author.name", author, 256)
        total += len(footer or "") + len(author or "")
        for key, url in _embed_urls(embed):
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                problems.append((f"{path}.{key}", f"{url} names no attachment of the message"))
    if total > MAX_EMBED_TOTAL:
        problems.append(("embeds", f"{total} characters in embeds, at most {MAX_EMBED_TOTAL}"))
    return problems


def _button(path: str, button: Json) -> list[Problem]:
    problems: list[Problem] = []
    style = button.get("style")
    if style not in range(1, 7):
        problems.append((f"{path}.style", f"unknown button style {style!r}"))
    problems += _too_long(f"{path}.label", button.get("label"), MAX_BUTTON_LABEL)
    if not button.get("label") and not button.get("emoji"):
        problems.append((path, "a button needs a label or an emoji"))
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            problems.append((path, "a link button needs a url and no custom_id"))
    elif style != 6 and not button.get("custom_id"):
        problems.append((path, "a button needs a custom_id"))
    return problems


def _select(path: str, select: Json) -> list[Problem]:
    problems = _too_long(f"{path}.placeholder", select.get("placeholder"), 150)
    options = select.get("options")
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25 or not 1 <= high <= 25 or low > high:
        problems.append(
            (path, f"min_values {low} / max_values {high} must be 0-25, 1-25, min<=max")
        )
    if select.get("type") == 3:
        options = options or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            problems.append((f"{path}.options", f"{len(options)} options, 1-25 allowed"))
        if high > len(options):
            problems.append((path, f"max_values {high} exceeds {len(options)} options"))
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append((f"{path}.options", "duplicate option values"))
        for index, option in enumerate(options):
            opath = f"{path}.options.{index}"
            problems += _too_long(f"{opath}.label", option.get("label"), 100, minimum=1)
            problems += _too_long(f"{opath}.value", option.get("value"), 100, minimum=1)
            problems += _too_long(f"{opath}.description", option.get("description"), 100)
    return problems


def _walk(components: list[Json], path: str) -> Iterator[tuple[str, Json]]:
    for index, component in enumerate(components):
        cpath = f"{path}.{index}"
        yield cpath, component
        yield from _walk(component.get("components") or [], f"{cpath}.components")
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk([child], f"{cpath}.{key}")


def _media_url(path: str, media: Any, names: list[str] | None) -> list[Problem]:
    """An unfurled media item: a url, and an ``attachment://`` one naming a file of the
    message."""
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        return [(path, "a media item needs a url")]
    if url.startswith("attachment://") and names is not None:
        if url.removeprefix("attachment://") not in names:
            return [(f"{path}.url", f"{url} names no attachment of the message")]
    elif not url.startswith(("https://", "http://", "attachment://")):
        return [(f"{path}.url", f"{url!r} is not a url")]
    return []


def _v2_component(path: str, component: Json, names: list[str] | None) -> list[Problem]:
    """Problems of one Components V2 component (types 9-17), its own fields only."""
    kind = component.get("type")
    children = component.get("components") or []
    kinds = [c.get("type") for c in children]
    problems: list[Problem] = []
    if kind == CONTAINER:
        if not children:
            problems.append((path, "a container needs at least one component"))
        if any(k not in IN_CONTAINER for k in kinds):
            problems.append((path, f"component types {kinds} cannot be in a container"))
        colour = component.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            problems.append((f"{path}.accent_color", f"{colour!r} is not an RGB colour"))
    elif kind == SECTION:
        if not 1 <= len(children) <= 3 or any(k != TEXT_DISPLAY for k in kinds):
            problems.append((path, "a section holds 1-3 text displays"))
        accessory = component.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (2, THUMBNAIL):
            problems.append((f"{path}.accessory", "a section needs a button or thumbnail"))
    elif kind == TEXT_DISPLAY:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            problems.append((f"{path}.content", "a text display needs content"))
    elif kind == THUMBNAIL:
        problems += _media_url(f"{path}.media", component.get("media"), names)
        problems += _too_long(f"{path}.description", component.get("description"), 1024)
    elif kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            problems.append((f"{path}.items", f"{len(items)} items, 1-{MAX_GALLERY_ITEMS} allowed"))
        for index, item in enumerate(items):
            ipath = f"{path}.items.{index}"
            problems += _media_url(f"{ipath}.media", item.get("media"), names)
            problems += _too_long(f"{ipath}.description", item.get("description"), 1024)
    elif kind == FILE:
        url = (component.get("file") or {}).get("url")
        if not isinstance(url, str) or not url.startswith("attachment://"):
            problems.append((f"{path}.file", "a file component names an attachment://"))
        else:
            problems += _media_url(f"{path}.file", component.get("file"), names)
    elif kind == SEPARATOR:
        if component.get("spacing", 1) not in (1, 2):
            problems.append((f"{path}.spacing", "separator spacing is 1 (small) or 2 (large)"))
        if not isinstance(component.get("divider", True), bool):
            problems.append((f"{path}.divider", "divider is a boolean"))
    return problems


def component_problems(
    components: list[Json], *, v2: bool, filenames: Iterable[str] | None = None
) -> list[Problem]:
    """Problems in message components: rows, buttons, selects, custom ids (≤100, unique);
    with ``v2`` (the IS_COMPONENTS_V2 flag) the layout components (types 9-17: at most
    40 components in all, 4000 characters of text displays, media naming attachments of
    ``filenames``); without it, action rows only."""
    names = list(filenames) if filenames is not None else None
    problems: list[Problem] = []
    if not v2 and len(components) > MAX_ACTION_ROWS:
        problems.append(("components", f"{len(components)} action rows, at most {MAX_ACTION_ROWS}"))
    walked = list(_walk(components, "components"))
    if v2 and len(walked) > MAX_V2_COMPONENTS:
        problems.append(("components", f"{len(walked)} components, at most {MAX_V2_COMPONENTS}"))
    if not v2 and any(c.get("type") != 1 for c in components):
        problems.append(("components", "top-level components must be action rows (type 1)"))
    if not v2 and any(c.get("type") in V2_TYPES for _, c in walked):
        problems.append(("flags", "components of types 9-17 need the IS_COMPONENTS_V2 flag"))
    if v2 and any(c.get("type") not in V2_TOP_LEVEL for c in components):
        kinds = [c.get("type") for c in components]
        problems.append(("components", f"top-level component types {kinds} not allowed"))
    if v2:
        text = sum(
            len(str(c.get("content") or "")) for _, c in walked if c.get("type") == TEXT_DISPLAY
        )
        if text > MAX_V2_TEXT:
            problems.append(("components", f"{text} characters of text, at most {MAX_V2_TEXT}"))
    custom_ids: list[str] = []
    for path, component in walked:
        kind = component.get("type")
        if kind not in MESSAGE_TYPES:
            problems.append((f"{path}.type", f"component type {kind!r} is not one a message holds"))
        elif kind in V2_TYPES:
            problems += _v2_component(path, component, names)
        if "custom_id" in component:
            custom_ids.append(component["custom_id"])
            problems += _too_long(
                f"{path}.custom_id", component["custom_id"], MAX_CUSTOM_ID, minimum=1
            )
        if kind == 1:
            problems += _action_row(path, component.get("components") or [])
        elif kind == 2:
            problems += _button(path, component)
        elif kind in (3, 5, 6, 7, 8):
            problems += _select(path, component)
    if len(set(custom_ids)) != len(custom_ids):
        problems.append(("components", f"duplicate custom_ids in {custom_ids}"))
    return problems


def _action_row(path: str, children: list[Json]) -> list[Problem]:
    kinds = [c.get("type") for c in children]
    if not children:
        return [(path, "an action row needs at least one component")]
    if any(k in (3, 5, 6, 7, 8) for k in kinds) and len(children) != 1:
        return [(path, "a select menu must be alone in its action row")]
    if len(children) > 5:
        return [(path, f"{len(children)} components in a row, at most 5")]
    return []


def message_problems(payload: Json, *, filenames: Iterable[str], partial: bool) -> list[Problem]:
    """Problems in a message create/edit body (after multipart decoding).

    ``filenames`` are the attachments the message will have; ``partial`` is True for edits
    (absent fields are kept, so an edit may carry no content at all).
    """
    names = list(filenames)
    problems: list[Problem] = []
    content = payload.get("content")
    problems += _too_long("content", content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    problems += embed_problems(embeds, filenames=names)
    v2 = bool((payload.get("flags") or 0) & IS_COMPONENTS_V2)
    problems += component_problems(components, v2=v2, filenames=names)
    if v2 and (content or embeds):
        problems.append(("flags", "IS_COMPONENTS_V2 messages cannot carry content or embeds"))
    empty = not (content or embeds or components or names or payload.get("sticker_ids"))
    if empty and not partial and not payload.get("poll"):
        problems.append(("content", "Cannot send an empty message"))
    return problems


def modal_problems(modal: Json) -> list[Problem]:
    """Problems in a modal (interaction response type 9)."""
    problems = _too_long("title", modal.get("title"), 45, minimum=1)
    problems += _too_long("custom_id", modal.get("custom_id"), MAX_CUSTOM_ID, minimum=1)
    components = modal.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(("components", f"{len(components)} components, 1-5 allowed"))
    for path, component in _walk(components, "components"):
        kind = component.get("type")
        if kind == 18:
            problems += _too_long(f"{path}.label", component.get("label"), 45, minimum=1)
            problems += _too_long(f"{path}.description", component.get("description"), 100)
        elif kind == 4:
            problems += _text_input(path, component)
        elif kind in (3, 5, 6, 7, 8):
            problems += _select(path, component)
    return problems


def _text_input(path: str, component: Json) -> list[Problem]:
    problems = _too_long(f"{path}.custom_id", component.get("custom_id"), MAX_CUSTOM_ID, minimum=1)
    problems += _too_long(f"{path}.label", component.get("label"), 45)
    problems += _too_long(f"{path}.placeholder", component.get("placeholder"), 100)
    problems += _too_long(f"{path}.value", component.get("value"), 4000)
    low, high = component.get("min_length", 0), component.get("max_length", 4000)
    if not 0 <= low <= 4000 or not 1 <= high <= 4000 or low > high:
        problems.append((path, f"min_length {low} / max_length {high} must be 0-4000, 1-4000"))
    return problems


def autocomplete_problems(choices: list[Json]) -> list[Problem]:
    """Problems in an autocomplete result (interaction response type 8)."""
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(("choices", f"{len(choices)} choices, at most {MAX_CHOICES}"))
    for index, choice in enumerate(choices):
        problems += _too_long(f"choices.{index}.name", choice.get("name"), 100, minimum=1)
        value = choice.get("value")
        if isinstance(value, str):
            problems += _too_long(f"choices.{index}.value", value, 100, minimum=1)
    return problems
