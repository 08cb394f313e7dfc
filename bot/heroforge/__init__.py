"""Hero Forge in the bot: the ``/heroforge`` command table and the ruleset adapter."""
