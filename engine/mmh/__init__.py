"""mmh: Might & Magic Heroes, the board game (capitals, action cards, square map tiles,
encounter markers, initiative-track battles with d8 attack dice and the d6 elite die).

Importing this package registers `MmhRuleset` under the id ``"mmh"``.
"""

from engine.core.ruleset import register
from engine.mmh.ruleset import MmhRuleset

RULESET = register(MmhRuleset())
"""The registered ruleset instance."""

__all__ = ["RULESET", "MmhRuleset"]
