"""Might & Magic Heroes in the bot: the /mmh command table and its adapter."""
