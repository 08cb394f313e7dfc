"""Slash command interaction data built from the command schema the bot synced.

Discord's client only lets a user send what the synced schema allows: known (sub)commands
and options, values of the right type, within min/max and length bounds, one of the
choices when there are choices, every required option present. ``build_command_data``
enforces the same, raising ``ImpossibleInteraction`` for anything the client would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .limits import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MAX_SAFE_INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from .world import (
    ALL_PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Json,
    World,
)

TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}


class ImpossibleInteraction(ValueError):
    """Discord's client would never send this interaction (unknown command or option, wrong
    type, value outside choices or bounds, missing required option, hidden command…)."""


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to an ``attachment`` option of a slash command."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class InvocationContext:
    """Where and by whom a command is invoked: decides what the option pickers offer."""

    world: World
    user: FakeUser
    channel: FakeChannel

    @property
    def guild(self) -> FakeGuild | None:
        """The guild of the channel, or None in a DM."""
        return self.channel.guild


def _permission_value(raw: Any) -> int | None:
    return None if raw is None else int(raw)


def check_visible(command: Json, ctx: InvocationContext) -> None:
    """Refuse commands the user cannot see here: guild-only in a DM, or missing
    ``default_member_permissions``.

    :raises ImpossibleInteraction: the command picker would not offer this command.
    """
    name = command["name"]
    contexts = command.get("contexts")
    if ctx.channel.is_private:
        installs = command.get("integration_types") or [0]
        if contexts is None or 2 not in contexts or 1 not in installs:
            raise ImpossibleInteraction(f"/{name} is not available in private channels")
        return
    if ctx.guild is None:
        allowed = 1 in contexts if contexts is not None else command.get("dm_permission", True)
        if not allowed or command.get("guild_id"):
            raise ImpossibleInteraction(f"/{name} is not available in DMs")
        return
    if contexts is not None and 0 not in contexts:
        raise ImpossibleInteraction(f"/{name} is not available in guilds")
    needed = _permission_value(command.get("default_member_permissions"))
    if needed is None:
        return
    member = ctx.guild.member(ctx.user)
    granted = member.permissions
    if granted != ALL_PERMISSIONS and (needed == 0 or granted & needed != needed):
        raise ImpossibleInteraction(
            f"/{name} needs permissions {needed:#x}; {ctx.user.name} has {granted:#x}"
        )


def resolve_path(command: Json, path: list[str]) -> tuple[list[Json], list[Json]]:
    """Follow ``path`` (subcommand group / subcommand names after the command name).

    Returns the chain of subcommand schemas followed (outermost first) and the options
    schema of the leaf.

    :raises ImpossibleInteraction: a name is unknown, or the path stops at a group.
    """
    chain: list[Json] = []
    node = command
    for part in path:
        children = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        match = next((o for o in children if o["name"] == part), None)
        if match is None:
            names = [o["name"] for o in children]
            raise ImpossibleInteraction(f"no subcommand {part!r} under {node['name']!r}: {names}")
        chain.append(match)
        node = match
    options = node.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
        names = [o["name"] for o in options]
        raise ImpossibleInteraction(f"{node['name']!r} is a group; pick a subcommand of {names}")
    return chain, options


def _check_choice(schema: Json, value: Any) -> None:
    choices = schema.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        values = [c["value"] for c in choices]
        raise ImpossibleInteraction(f"option {schema['name']!r}: {value!r} is not one of {values}")


def _check_bounds(schema: Json, value: float) -> None:
    low, high = schema.get("min_value"), schema.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ImpossibleInteraction(f"option {schema['name']!r}: {value} outside [{low}, {high}]")
    if abs(value) > MAX_SAFE_INTEGER:
        raise ImpossibleInteraction(f"option {schema['name']!r}: {value} beyond ±2^53")


def _check_length(schema: Json, value: str) -> None:
    low, high = schema.get("min_length", 0), schema.get("max_length", 6000)
    if not low <= len(value) <= high or not value:
        raise ImpossibleInteraction(
            f"option {schema['name']!r}: length {len(value)} outside [{max(low, 1)}, {high}]"
        )


def _wrong_type(schema: Json, value: Any) -> ImpossibleInteraction:
    kind = TYPE_NAMES.get(schema["type"], schema["type"])
    return ImpossibleInteraction(f"option {schema['name']!r} is a {kind}, got {value!r}")


class _Resolver:
    """Turns option values into wire values and fills ``resolved`` as Discord does."""

    def __init__(self, ctx: InvocationContext) -> None:
        self.ctx = ctx
        self.resolved: dict[str, dict[str, Json]] = {}

    def _add(self, kind: str, key: int, payload: Json) -> None:
        self.resolved.setdefault(kind, {})[str(key)] = payload

    def user(self, schema: Json, value: Any) -> str:
        user = value.user if isinstance(value, FakeMember) else value
        if not isinstance(user, FakeUser):
            raise _wrong_type(schema, value)
        self._add("users", user.id, user.payload())
        guild = self.ctx.guild
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(with_permissions=True)
            member.pop("user")
            self._add("members", user.id, member)
        return str(user.id)

    def role(self, schema: Json, value: Any) -> str:
        guild = self.ctx.guild
        if not isinstance(value, FakeRole) or guild is None or value.id not in guild.roles:
            raise _wrong_type(schema, value)
        self._add("roles", value.id, value.payload())
        return str(value.id)

    def channel(self, schema: Json, value: Any) -> str:
        if not isinstance(value, FakeChannel) or value.guild is not self.ctx.guild:
            raise _wrong_type(schema, value)
        allowed = schema.get("channel_types")
        if allowed and value.type not in allowed:
            raise ImpossibleInteraction(
                f"option {schema['name']!r}: channel type {value.type} not in {allowed}"
            )
        data = value.payload()
        data["permissions"] = str(self.ctx.world.permissions_in(value, self.ctx.user))
        self._add("channels", value.id, data)
        return str(value.id)

    def attachment(self, schema: Json, value: Any) -> str:
        if isinstance(value, Upload):
            value = self.ctx.world.new_attachment(
                self.ctx.channel, value.filename, value.data, content_type=value.content_type
            )
        if not isinstance(value, FakeAttachment):
            raise _wrong_type(schema, value)
        self._add("attachments", value.id, value.payload())
        return str(value.id)


def _wire_value(schema: Json, value: Any, resolver: _Resolver) -> Any:
    kind = schema["type"]
    if kind == STRING:
        if not isinstance(value, str):
            raise _wrong_type(schema, value)
        _check_length(schema, value)
    elif kind == INTEGER:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _wrong_type(schema, value)
        _check_bounds(schema, value)
    elif kind == NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise _wrong_type(schema, value)
        _check_bounds(schema, value)
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise _wrong_type(schema, value)
    elif kind == USER:
        return resolver.user(schema, value)
    elif kind == ROLE:
        return resolver.role(schema, value)
    elif kind == MENTIONABLE:
        if isinstance(value, FakeRole):
            return resolver.role(schema, value)
        return resolver.user(schema, value)
    elif kind == CHANNEL:
        return resolver.channel(schema, value)
    elif kind == ATTACHMENT:
        return resolver.attachment(schema, value)
    else:
        raise ImpossibleInteraction(f"option {schema['name']!r} has unknown type {kind!r}")
    _check_choice(schema, value)
    return value


def _build_options(
    schemas: list[Json], values: Mapping[str, Any], resolver: _Resolver, focused: str | None
) -> list[Json]:
    by_name = {s["name"]: s for s in schemas}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise ImpossibleInteraction(f"unknown options {unknown}; the command has {list(by_name)}")
    options: list[Json] = []
    for schema in schemas:
        name = schema["name"]
        if name not in values or values[name] is None:
            if schema.get("required") and focused is None:
                raise ImpossibleInteraction(f"required option {name!r} is missing")
            continue
        if name == focused:
            if not schema.get("autocomplete"):
                raise ImpossibleInteraction(f"option {name!r} has no autocomplete")
            value = values[name]
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise _wrong_type(schema, value)
            options.append({"type": schema["type"], "name": name, "value": value, "focused": True})
            continue
        wire = _wire_value(schema, values[name], resolver)
        options.append({"type": schema["type"], "name": name, "value": wire})
    return options


def build_command_data(
    command: Json,
    path: list[str],
    values: Mapping[str, Any],
    ctx: InvocationContext,
    *,
    focused: str | None = None,
) -> Json:
    """The ``data`` of an APPLICATION_COMMAND (or, with ``focused``, AUTOCOMPLETE) interaction.

    ``command`` is the synced command as the fake stored it (with ``id``, and ``guild_id``
    for guild commands); ``path`` the subcommand names after the command's name; ``values``
    maps option names to Python values (str, int, float, bool, FakeUser/FakeMember,
    FakeChannel, FakeRole, FakeAttachment or Upload).

    :raises ImpossibleInteraction: Discord's client would not send this.
    """
    check_visible(command, ctx)
    chain, schemas = resolve_path(command, path)
    if focused is not None and focused not in values:
        raise ImpossibleInteraction(f"focused option {focused!r} has no value")
    resolver = _Resolver(ctx)
    options = _build_options(schemas, values, resolver, focused)
    for sub in reversed(chain):
        options = [{"type": sub["type"], "name": sub["name"], "options": options}]
    data: Json = {
        "id": str(command["id"]),
        "name": command["name"],
        "type": command.get("type", 1),
        "options": options,
    }
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    if command.get("guild_id"):
        data["guild_id"] = str(command["guild_id"])
    return data
