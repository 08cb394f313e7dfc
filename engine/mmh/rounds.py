"""Rounds, week cards and turns: who is the active player and when the game ends by weeks.

Rule sections: mmh:course-of-play.revealing-the-week-card, mmh:course-of-play.playing-action-cards,
mmh:game-end.
"""

from __future__ import annotations

from engine.core.model import Event
from engine.mmh.common import content, ev, who
from engine.mmh.score import finish_by_weeks
from engine.mmh.state import MmhState


def begin_round(state: MmhState) -> list[Event]:
    """Start the next round: the start player marker passes left (after round 1), the
    next week card is revealed (not in round 1) and every action card turns face up.

    When the round of the last week card is over, the game ends instead (mmh:game-end).
    """
    if state.round >= 1 and not state.week_stack:
        finish_by_weeks(state)
        return [ev("game_end", state.end_reason, winners=state.winners)]
    events: list[Event] = []
    state.round += 1
    if state.round > 1:
        state.start_player = (state.start_player + 1) % state.players
    for seat in state.seats:
        for card in seat.cards:
            card.used = False
    events.append(
        ev(
            "round",
            f"Round {state.round} begins; {who(state.start_player)} is the start player.",
            round=state.round,
            start_player=state.start_player,
        )
    )
    if state.round > 1:
        events += reveal_week(state)
    state.active = state.start_player
    return events


def reveal_week(state: MmhState) -> list[Event]:
    """Reveal the top week card; its event lasts the round (gains at reveal are paid now).

    Rule: mmh:course-of-play.revealing-the-week-card.
    """
    if state.week is not None:
        state.week_past.append(state.week)
    state.week = state.week_stack.pop(0)
    card = content().week(state.week)
    last = " This is the last week: the final round begins." if not state.week_stack else ""
    dark = " Dark Times!" if card.event.dark_times else ""
    events = [
        ev(
            "week",
            f"{who(state.start_player)} reveals the week card {card.name} ({card.moon} moon).{dark}{last}",
            card=card.id,
            left=len(state.week_stack),
        )
    ]
    for seat in state.seats:
        seat.gold += card.event.reveal_gold
        seat.resources += card.event.reveal_resources
    if card.event.reveal_gold or card.event.reveal_resources:
        events.append(
            ev(
                "gain",
                f"Every player takes {card.event.reveal_gold} gold and "
                f"{card.event.reveal_resources} resources.",
            )
        )
    return events


def next_turn(state: MmhState) -> list[Event]:
    """The active player's action is over: the next player to the left with an action card
    face up becomes active; when nobody has one, the round ends.

    Rule: mmh:course-of-play.playing-action-cards.
    """
    state.action = None
    state.turn += 1
    for step in range(1, state.players + 1):
        seat = (state.active + step) % state.players
        if any(not c.used for c in state.seats[seat].cards):
            state.active = seat
            return []
    return begin_round(state)
