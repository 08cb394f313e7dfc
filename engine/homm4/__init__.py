"""homm4: the Heroes of Might & Magic IV collectible card & tile game.

Importing this package registers `Homm4Ruleset` under the id ``"homm4"``.
"""

from engine.core.ruleset import register
from engine.homm4.ruleset import Homm4Ruleset

RULESET = register(Homm4Ruleset())
"""The registered ruleset instance."""

__all__ = ["RULESET", "Homm4Ruleset"]
