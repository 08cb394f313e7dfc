"""Data files of the heroforge ruleset (lands, units, heroes, enchantment lists, layouts)."""
