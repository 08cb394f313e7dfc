"""Page-by-page listings of an ephemeral reply (``/me games``, ``/game list``): which part
of a list a page shows, the line under it and its ◀ / ▶ buttons.

A page button's custom id belongs to no game (``ht:0:0:<action>:<page>``); the service's
``click`` sends it back to the listing command with that page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot import customids
from bot.errors import BadOption
from bot.outbox import Button
from engine.core.words import plural

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a listing.

    Attributes:
        shown: the items on this page, in the listing's order.
        number: this page's number (1 = the first).
        pages: how many pages the listing has (at least 1).
    """

    shown: Sequence[T]
    number: int
    pages: int

    def footer(self, command: str) -> list[str]:
        """``["Page 2 of 3. Next: /me games page:3"]`` (``command`` is ``/me games``); no
        line when there is one page."""
        if self.pages <= 1:
            return []
        after = f" Next: {command} page:{self.number + 1}" if self.number < self.pages else ""
        return [f"Page {self.number} of {self.pages}.{after}"]

    def buttons(self, action: str) -> list[Button]:
        """The ◀ / ▶ buttons to the pages before and after, custom ids
        ``ht:0:0:<action>:<page>``; none when there is one page."""
        found: list[Button] = []
        if self.number > 1:
            before = self.number - 1
            found.append(Button(f"◀ Page {before}", customids.encode(0, 0, action, before)))
        if self.number < self.pages:
            after = self.number + 1
            found.append(Button(f"Page {after} ▶", customids.encode(0, 0, action, after)))
        return found


def page_of(
    items: Sequence[T], page: int | None, per_page: int, *, command: str, whose: str
) -> Page[T]:
    """Page ``page`` (from 1; None: the first) of ``items``, ``per_page`` a page.

    :param command: the listing command, for the refusals (``/me games``).
    :param whose: who has the listed games, starting the refusal past the end
        (``You have``, ``This server has``).
    :raises BadOption: for a page before the first or past the last one (naming how many
        there are); ``items`` empty has one (empty) page.
    """
    pages = max(1, (len(items) + per_page - 1) // per_page)
    number = 1 if page is None else page
    if number < 1:
        raise BadOption(f"Pages of {command} start at 1, not {number}.")
    if number > pages:
        raise BadOption(
            f"{whose} {plural(pages, 'page')} of games ({plural(len(items), 'game')}); "
            f"page {number} is past the end."
        )
    return Page(items[(number - 1) * per_page : number * per_page], number, pages)
