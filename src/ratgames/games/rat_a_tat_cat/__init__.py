"""Rat-a-Tat Cat: remember your four face-down cards and end the round with the lowest sum.

The rules engine is :class:`ratgames.games.rat_a_tat_cat.rules.RatATatCat`; the bots are in
:mod:`.bots`, the text picture in :mod:`.render` and the terminal panel in :mod:`.tui`.
"""
