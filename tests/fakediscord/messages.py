"""Request bodies (JSON or multipart ``payload_json`` + ``files[N]``) and how they become
stored messages: creating, editing, attachments kept or added, limits checked."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .limits import IS_COMPONENTS_V2, Problem, message_problems
from .world import (
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    FakeAttachment,
    FakeChannel,
    FakeMessage,
    FakeUser,
    Json,
    World,
    iso_now,
)

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")

#: Flags a sender may set when creating a message (suppress embeds / notifications,
#: ephemeral via interactions, components v2).
CREATE_FLAGS = 4 | 4096 | MESSAGE_FLAG_EPHEMERAL | 32768


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[N]`` part of a multipart request."""

    filename: str
    data: bytes
    content_type: str | None


@dataclass
class Body:
    """A decoded request body: the JSON (``payload_json`` for multipart) and the files."""

    data: Any = None
    files: dict[int, UploadedFile] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def json(self) -> Json:
        """The JSON object (an empty dict when the body was empty or not an object)."""
        return self.data if isinstance(self.data, dict) else {}


async def read_body(request: web.Request) -> Body:
    """Decode a JSON or multipart/form-data request body as discord.py sends them."""
    body = Body()
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                body.problems.append(("multipart", "nested multipart is not supported"))
                continue
            name = part.name or ""
            match = _FILE_FIELD.match(name)
            if name == "payload_json":
                body.data = json.loads(await part.text())
            elif match:
                ctype = part.headers.get("Content-Type")
                data = bytes(await part.read(decode=False))
                body.files[int(match[1])] = UploadedFile(part.filename or name, data, ctype)
            else:
                body.problems.append((name, f"unexpected multipart field {name!r}"))
        return body
    raw = await request.read()
    if raw:
        try:
            body.data = json.loads(raw)
        except ValueError:
            body.problems.append(("body", f"not JSON: {raw[:80]!r}"))
    return body


@dataclass
class _AttachmentPlan:
    keep: list[FakeAttachment] = field(default_factory=list)
    new: list[tuple[UploadedFile, str, str | None]] = field(default_factory=list)

    @property
    def filenames(self) -> list[str]:
        return [a.filename for a in self.keep] + [name for _, name, _ in self.new]


def _plan_attachments(
    payload: Json, files: dict[int, UploadedFile], existing: FakeMessage | None
) -> tuple[_AttachmentPlan, list[Problem]]:
    plan = _AttachmentPlan()
    problems: list[Problem] = []
    current = {a.id: a for a in existing.attachments} if existing else {}
    used: set[int] = set()
    if "attachments" in payload and payload["attachments"] is not None:
        for index, entry in enumerate(payload["attachments"]):
            ident = int(entry.get("id", -1))
            if ident in files:
                upload = files[ident]
                plan.new.append(
                    (upload, entry.get("filename") or upload.filename, entry.get("description"))
                )
                used.add(ident)
            elif ident in current:
                plan.keep.append(current[ident])
            else:
                problems.append(
                    (f"attachments.{index}", f"id {ident} is neither files[N] nor kept")
                )
    elif existing is not None:
        plan.keep = list(existing.attachments)
    for index in sorted(set(files) - used):
        upload = files[index]
        plan.new.append((upload, upload.filename, None))
    return plan, problems


def _flag_problems(payload: Json, existing: FakeMessage) -> list[Problem]:
    """An edit cannot take the IS_COMPONENTS_V2 flag off a message that has it, nor put
    it on one that was sent without it (Discord refuses both)."""
    if "flags" not in payload:
        return []
    was = bool(existing.flags & IS_COMPONENTS_V2)
    now = bool(int(payload.get("flags") or 0) & IS_COMPONENTS_V2)
    if was and not now:
        return [("flags", "the IS_COMPONENTS_V2 flag cannot be removed from a message")]
    if now and not was and (existing.content or existing.embeds):
        return [("flags", "a message with content or embeds cannot become Components V2")]
    return []


class MessageWriter:
    """Creates and edits stored messages from request payloads, enforcing Discord's limits."""

    def __init__(self, world: World) -> None:
        self.world = world

    def check(
        self, payload: Json, files: dict[int, UploadedFile], existing: FakeMessage | None
    ) -> tuple[_AttachmentPlan, list[Problem]]:
        """Plan the attachments and list every problem with the payload."""
        plan, problems = _plan_attachments(payload, files, existing)
        probe = dict(payload)
        if existing is not None and "content" not in payload:
            probe["content"] = existing.content
        if existing is not None:
            problems += _flag_problems(payload, existing)
            if "flags" not in payload:  # an edit keeps the message's flags
                probe["flags"] = existing.flags
            if "components" not in payload:
                probe["components"] = existing.components
        problems += message_problems(probe, filenames=plan.filenames, partial=existing is not None)
        return plan, problems

    def _attach(self, channel: FakeChannel, plan: _AttachmentPlan) -> list[FakeAttachment]:
        made = [
            self.world.new_attachment(
                channel, name, upload.data, content_type=upload.content_type, description=desc
            )
            for upload, name, desc in plan.new
        ]
        return plan.keep + made

    def create(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: Json,
        files: dict[int, UploadedFile],
        *,
        extra_flags: int = 0,
        **fields: Any,
    ) -> FakeMessage | list[Problem]:
        """Store a new message, or return the problems that make Discord refuse it."""
        plan, problems = self.check(payload, files, None)
        if problems:
            return problems
        reference = (payload.get("message_reference") or {}).get("message_id")
        kind = fields.pop("type", 0)
        return self.world.new_message(
            channel,
            author,
            content=payload.get("content") or "",
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=self._attach(channel, plan),
            flags=(int(payload.get("flags") or 0) & CREATE_FLAGS) | extra_flags,
            type=19 if reference else kind,
            reference_id=int(reference) if reference else None,
            **fields,
        )

    def edit(
        self, message: FakeMessage, payload: Json, files: dict[int, UploadedFile]
    ) -> list[Problem]:
        """Apply an edit (absent fields are kept); returns problems, leaving it unchanged."""
        plan, problems = self.check(payload, files, message)
        if problems:
            return problems
        message.edits.append(message.snapshot())
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "attachments" in payload or files:
            message.attachments = self._attach(message.channel, plan)
        keep = message.flags & MESSAGE_FLAG_EPHEMERAL
        if "flags" in payload:
            message.flags = (
                int(payload["flags"] or 0) & ~MESSAGE_FLAG_EPHEMERAL & CREATE_FLAGS
            ) | keep
        message.flags &= ~MESSAGE_FLAG_LOADING
        message.edited_at = iso_now()
        return []
