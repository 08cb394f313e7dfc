"""heroforge: Hero Forge, the fan-made land-plate game of heroes, forts and enchantments.

Importing this package registers `HeroforgeRuleset` under the id ``"heroforge"``.
"""

from engine.core.ruleset import register
from engine.heroforge.ruleset import HeroforgeRuleset

RULESET = register(HeroforgeRuleset())
"""The registered ruleset instance."""

__all__ = ["RULESET", "HeroforgeRuleset"]
