"""homm3: the Heroes of Might and Magic III board game's turn rules and its Battlefield
expansion (Adventure and Skirmish modes on a hex Battlefield).

Importing this package registers `Homm3Ruleset` under the id ``"homm3"``.
"""

from engine.core.ruleset import register
from engine.homm3.ruleset import Homm3Ruleset

RULESET = register(Homm3Ruleset())
"""The registered ruleset instance."""

__all__ = ["RULESET", "Homm3Ruleset"]
