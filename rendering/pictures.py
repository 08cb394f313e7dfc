"""The registry of pictures: for every ruleset, the kinds of picture it draws and how.

A kind (``"board"``, ``"battle"``, ``"hand"``, ``"card"``, or a game's own such as homm3's
``"adventure"``) is registered by its ruleset's ``rendering.<ruleset>.pictures`` module,
which this registry imports the first time that ruleset is asked for (`load`). Nothing
here names a ruleset: a new game adds its ``rendering/<game>/pictures.py`` and is served
like the others (by `bot.render`'s cache and worker processes too).

A public kind may have a focus kind (``"board-focus"``: `rendering.focus`, `focus_of`),
cut from it around what the decision is about and readable on a phone; the bot posts the
focus first, the whole picture after it.

Each `PictureKind` says which view class it draws (a worker process reads the view back
from its JSON as that class), how to reduce any view to what the picture may show (a
public picture keeps only the public part, so a seat's hidden cards can never be drawn
on a channel image), and the file name and alt text it is posted under.

Drawing is pure: `render_json` of the same ``(ruleset, kind, view JSON)`` always gives
the same bytes (palette PNG, at most 1600 px wide: `rendering.encode`).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from rendering.canvas import Drawing


class CardFace(BaseModel):
    """The "view" of a ``card`` picture: one card face of a ruleset's pool.

    Attributes:
        card: the card id (``"pikeman"``).
        instance: the game's instance number of that card, printed on the face; None: the
            pool's card, outside any game.
    """

    card: str
    instance: int | None = None


@dataclass(frozen=True)
class PictureKind:
    """One kind of picture of one ruleset.

    Attributes:
        ruleset: the ruleset id (``"homm4"``).
        kind: the picture's name (``"board"``, ``"battle"``, ``"hand"``, ``"card"``...).
        view: the view class drawn; a worker reads the view's JSON back as this class.
        draw: view -> `Drawing` (the Pillow image and its layout marks).
        filename: the attachment's file name (``"board.png"``).
        description: the attachment's alt text (``"The Game Board"``).
        private: drawn from one seat's own view, for that seat's DMs only; the view must
            then be an instance of ``view`` itself (a public view is refused).
        public_part: for a public picture, any view -> the part it may show (a seat view
            loses its hidden cards); None: the view is drawn as it is.
        focus_of: for a focus picture (`rendering.focus`), the kind it is cut from (it
            is posted first, that whole picture after it); None: not a focus.
        exempt: for a focus picture, the mark kinds it need not keep readable at a
            phone's width (drawn at full size elsewhere; `rendering.focus.FocusSpec`).
        drawn: the fields of the (prepared) view the picture reads, when it reads fewer
            than all; the picture cache keys it by these alone (`key_json`), so a move that
            changed only other fields reuses it (a Hand is drawn again when the Hand, the
            Risk Stack or the round changed, not on every move). None: every field.
    """

    ruleset: str
    kind: str
    view: type[BaseModel]
    draw: Callable[[Any], Drawing]
    filename: str
    description: str
    private: bool = False
    public_part: Callable[[Any], BaseModel] | None = None
    focus_of: str | None = None
    exempt: frozenset[str] = frozenset()
    cut: Callable[[Any, Drawing], Drawing] | None = None
    drawn: frozenset[str] | None = None

    def prepare(self, view: BaseModel) -> BaseModel:
        """The view as this picture draws it (reduced to its public part for a public
        picture). :raises TypeError: if ``view`` is not a ``self.view``."""
        if not isinstance(view, self.view):
            raise TypeError(
                f"The {self.ruleset} {self.kind} picture draws a {self.view.__name__}, "
                f"not a {type(view).__name__}"
            )
        if self.public_part is not None:
            return self.public_part(view)
        return view

    def key_json(self, prepared: BaseModel) -> str:
        """The JSON of what the picture of ``prepared`` (a view `prepare` returned) depends
        on: its `drawn` fields, or the whole view. Equal JSON, equal picture."""
        if self.drawn is None:
            return prepared.model_dump_json()
        return prepared.model_dump_json(include=set(self.drawn))


_KINDS: dict[tuple[str, str], PictureKind] = {}
_WARM_UPS: dict[str, Callable[[], None]] = {}
_IDLE_WARM_UPS: dict[str, Callable[[], Sequence[Callable[[], None]]]] = {}
_LOADED: set[str] = set()
_LOCK = threading.RLock()


def register(*kinds: PictureKind) -> None:
    """Add ``kinds`` to the registry (``rendering.<ruleset>.pictures`` calls this once; a
    kind registered again replaces the earlier one)."""
    with _LOCK:
        for kind in kinds:
            _KINDS[(kind.ruleset, kind.kind)] = kind


def register_warm_up(ruleset: str, warm_up: Callable[[], None]) -> None:
    """Have `warm` run ``warm_up()`` for ``ruleset`` (load fonts, card pools, sprites)."""
    with _LOCK:
        _WARM_UPS[ruleset] = warm_up


def register_idle_warm_up(ruleset: str, steps: Callable[[], Sequence[Callable[[], None]]]) -> None:
    """Have `idle_warm` run ``steps()``'s steps for ``ruleset``, one a call: work that fills
    a drawing process's caches (every card face's text sprites) too long to do before its
    first picture, done in its idle moments instead (`bot.render`). Each step should take
    a few tens of milliseconds: a picture asked for meanwhile waits for the step."""
    with _LOCK:
        _IDLE_WARM_UPS[ruleset] = steps


@lru_cache(maxsize=1)
def _idle_steps(rulesets: tuple[str, ...]) -> tuple[Callable[[], None], ...]:
    with _LOCK:
        found = [_IDLE_WARM_UPS.get(ruleset) for ruleset in rulesets]
    return tuple(step for steps in found if steps is not None for step in steps())


def idle_warm(rulesets: Sequence[str], index: int) -> bool:
    """Run step ``index`` (from 0) of the idle warm-ups of ``rulesets`` (loaded first;
    `register_idle_warm_up`), taken in that order. Drawing the same pictures after it
    gives the same bytes (it only fills caches).

    :returns: whether a step ``index + 1`` remains.
    """
    for ruleset in rulesets:
        load(ruleset)
    steps = _idle_steps(tuple(rulesets))
    if 0 <= index < len(steps):
        steps[index]()
    return index + 1 < len(steps)


def load(ruleset: str) -> bool:
    """Import ``rendering.<ruleset>.pictures`` once (it registers that ruleset's kinds).

    :returns: whether the ruleset draws pictures (False: it has no such module).
    """
    with _LOCK:
        if ruleset in _LOADED:
            return True
        if not ruleset.isidentifier():
            return False
        name = f"rendering.{ruleset}.pictures"
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name not in (name, f"rendering.{ruleset}"):
                raise
            return False
        _LOADED.add(ruleset)
        return True


def picture_kind(ruleset: str, kind: str) -> PictureKind:
    """The registered picture ``kind`` of ``ruleset``.

    :raises KeyError: naming the ruleset's kinds, when it has no such picture.
    """
    load(ruleset)
    found = _KINDS.get((ruleset, kind))
    if found is None:
        known = ", ".join(kinds(ruleset)) or "none"
        raise KeyError(f"{ruleset} has no {kind!r} picture (its pictures: {known})")
    return found


def kinds(ruleset: str) -> list[str]:
    """The picture kinds ``ruleset`` registers, sorted (empty when it draws none)."""
    load(ruleset)
    return sorted(k for r, k in _KINDS if r == ruleset)


def focus_of(ruleset: str, kind: str) -> str | None:
    """The focus kind registered for ``ruleset``'s picture ``kind`` (``"board-focus"`` for
    ``"board"``: posted before it, `rendering.focus`), or None when it has none."""
    load(ruleset)
    for (r, k), spec in sorted(_KINDS.items()):
        if r == ruleset and spec.focus_of == kind:
            return k
    return None


def warm(ruleset: str) -> None:
    """Load ``ruleset``'s pictures and run its warm-up, if any (a new worker process
    calls this before its first picture)."""
    load(ruleset)
    warm_up = _WARM_UPS.get(ruleset)
    if warm_up is not None:
        warm_up()


def render_json(ruleset: str, kind: str, payload: str) -> bytes:
    """Draw and encode picture ``kind`` of ``ruleset`` from its view's JSON (the output of
    ``PictureKind.prepare(view).model_dump_json()``), in the default format.

    :raises KeyError: for an unknown kind. :raises ValueError: when the view has nothing
        to draw (e.g. no battle in progress) or the JSON is not such a view.
    """
    from rendering.encode import encode

    spec = picture_kind(ruleset, kind)
    if spec.private:
        return encode(spec.draw(spec.view.model_validate_json(payload)).image)
    if spec.focus_of is not None and spec.cut is not None:
        view = spec.view.model_validate_json(payload)
        return encode(spec.cut(view, _whole(ruleset, spec.focus_of, payload)).image)
    return encode(_whole(ruleset, kind, payload).image)


@lru_cache(maxsize=2)
def _whole(ruleset: str, kind: str, payload: str) -> Drawing:
    """The drawing of public picture ``kind`` from its view JSON, kept for the next call:
    a focus picture and its whole picture are drawn from the same JSON one after the
    other (the bot posts both), and the focus is cut from the whole drawing. Two are
    kept (a board's drawing holds a few MB of pixels)."""
    spec = picture_kind(ruleset, kind)
    return spec.draw(spec.view.model_validate_json(payload))


def public_part_of(model: type[BaseModel]) -> Callable[[Any], BaseModel]:
    """A ``public_part`` reducing any instance of a subclass of ``model`` (a seat view) to
    a ``model`` holding only ``model``'s fields."""

    def reduce(view: Any) -> BaseModel:
        if type(view) is model:
            return view
        return model.model_validate(view.model_dump(include=set(model.model_fields)))

    return reduce
