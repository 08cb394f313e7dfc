"""An example game kept outside the bot's package, wired in the way a new game is: its
engine (`tests.example_game.engine`), its drawing (`tests.example_game.rendering`) and its
bot side (`tests.example_game.bot`), added to `bot.registry` by the test that plays it
(`tests.bot.test_example_game`). Nothing in the shared bot knows it."""
