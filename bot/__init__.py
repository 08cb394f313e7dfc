"""The Discord bot, the local console and the `heroes-table` command line."""
