"""Storage tests: real SQLite files, the Dice Race test ruleset, concurrency and crashes."""
