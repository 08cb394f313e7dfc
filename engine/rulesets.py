"""Import every shipped ruleset so that the registry (`engine.core.get_ruleset`) knows them.

Usage: ``import engine.rulesets`` once at start-up (the bot, the CLI, the tests), then
``get_ruleset("homm4")``.
"""

from engine.core.ruleset import get_ruleset, registered
from engine.heroforge import RULESET as HEROFORGE
from engine.homm3 import RULESET as HOMM3
from engine.homm4 import RULESET as HOMM4
from engine.mmh import RULESET as MMH

SHIPPED: tuple[str, ...] = (HOMM4.id, HEROFORGE.id, HOMM3.id, MMH.id)
"""The ids of the rulesets this package ships."""

__all__ = ["SHIPPED", "get_ruleset", "registered"]
