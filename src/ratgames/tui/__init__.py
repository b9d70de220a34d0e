"""Terminal front ends (Textual): playing against bots and stepping through records.

Each game supplies two modules in its own package: ``render`` with ``render(game, view) -> str``
(a text picture of an observation or spectator view) and ``tui`` with a ``Panel`` class (a
:class:`~ratgames.tui.base.GamePanel`) that draws the table for the human seat and turns keys
into actions.  Both see only observations, never the state.
"""
