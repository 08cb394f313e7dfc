"""The bot's side of homm3: the ``/homm3`` command table (`bot.homm3.commands`) and the
ruleset adapter (`bot.homm3.adapter`)."""
