"""Rule topic texts for `/game rules`: one ``<ruleset>.toml`` per ruleset, read by
`bot.rules_help` through `importlib.resources` (our own summaries, never rulebook text)."""
