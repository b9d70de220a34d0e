"""Rats, the trick-taking game (seed 002): see :mod:`ratgames.games.rats.rules`."""
