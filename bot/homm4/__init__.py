"""The homm4 part of the bot: the command table, decision components, standing orders and
the text the service posts (rule sections: every player action of homm4)."""
