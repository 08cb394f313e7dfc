"""Fault injection (429 rate limits) and the record of Discord rules the bot broke."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Violation:
    """Something Discord would have refused or punished, recorded by the fake.

    ``kind`` is one of: ``limit`` (a payload over Discord's limits, answered 400 50035),
    ``late_ack`` (callback after the ack window, 404 10062), ``double_ack`` (400 40060),
    ``bad_response`` (a callback type invalid for the interaction), ``unknown_webhook``
    (followup or edit before an accepted ack), ``unhandled_route`` (the fake has no such
    endpoint), ``gateway`` (a malformed gateway message).
    """

    kind: str
    route: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.route}: {self.detail}"


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    body = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(f"^{body}$")


@dataclass
class RateLimitRule:
    """Answer the next ``times`` requests matching ``method`` + ``path`` with 429.

    ``path`` is relative to ``/api/v10``: a template (``/channels/{channel_id}/messages``)
    or a concrete path. ``served`` counts 429s sent; ``retries`` counts matching requests
    that came after a 429 (discord.py retries only when the 429 carries ``Via``).
    """

    method: str
    path: str
    times: int = 1
    retry_after: float = 0.05
    is_global: bool = False
    served: int = 0
    retries: int = 0
    _regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.method = self.method.upper()
        self._regex = _template_regex(self.path)

    def matches(self, method: str, path: str) -> bool:
        """Whether a request (``path`` relative to ``/api/v10``) falls under this rule."""
        return method.upper() == self.method and bool(self._regex.match(path))

    @property
    def retried(self) -> bool:
        """Whether the client came back after being rate limited."""
        return self.retries > 0

    def take(self) -> bool:
        """Count a matching request; True when it must be answered with 429."""
        if self.served:
            self.retries += 1
        if self.served < self.times:
            self.served += 1
            return True
        return False
