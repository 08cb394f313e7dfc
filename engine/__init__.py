"""Heroes Table rules engine: pure, deterministic game logic with no I/O.

`engine.core` holds the protocol every ruleset implements; each game lives in its own
subpackage (`engine.homm4`, ...). Import `engine.rulesets` to get the registry with every
shipped ruleset loaded.
"""
