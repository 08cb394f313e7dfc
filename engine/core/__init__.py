"""The engine protocol shared by every ruleset: models, errors, RNG, registry, apply."""

from engine.core.errors import (
    GameOver,
    IllegalMove,
    InvalidInput,
    NotYourDecision,
    RuleViolation,
    StaleState,
    WrongPhase,
)
from engine.core.model import (
    SEAT_COLOURS,
    Command,
    Decision,
    Event,
    GameState,
    Result,
    TurnRecord,
    seat_name,
)
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset, get_ruleset, register, registered

__all__ = [
    "SEAT_COLOURS",
    "Command",
    "Decision",
    "Event",
    "GameOver",
    "GameState",
    "IllegalMove",
    "InvalidInput",
    "NotYourDecision",
    "Result",
    "Rng",
    "RuleViolation",
    "Ruleset",
    "StaleState",
    "TurnRecord",
    "WrongPhase",
    "get_ruleset",
    "register",
    "registered",
    "seat_name",
]
