"""The rules of Caged Rats in the project's own words (the Markdown of ``CagedRats.rules()``),
with each option's default and its value in the game at hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _b(value: bool) -> str:
    return "true" if value else "false"


def rules_text(o: Mapping[str, Any], default_target: int) -> str:
    """The rules, showing the options ``o`` (the target's default is ``default_target``)."""
    return f"""# Caged Rats

Two players: **Red** (seat 0) holds all 26 hearts and diamonds, **Black** (seat 1) all 26
clubs and spades.  Each player only ever plays her own cards.

## The deal
Each player shuffles her own 26 cards, takes 8 into her hand and keeps the other 18 face down
as her own stock.  The first dealer is chosen by lot.

## Caging the rats
The non-dealer puts two cards from her hand face up as her rats, then the dealer
cages two of hers.  A rat wants as many captures of its own suit as its pips: ace 1, two to ten
their number, jack, queen and king 10.  Rat 1 is the lower of the two cards (in card order:
rank, then clubs, diamonds, hearts, spades), rat 2 the higher.

## A lead
There are 16 leads a deal, 8 for each player, alternating, the non-dealer first.
1. The leader offers a capture card face up from her hand.  Exception: the dealer's
   first capture is the top card of her stock, turned up automatically.
2. The leader bids a card from her hand face up.
3. The responder either tops the bid with a strictly higher card from her hand, shown face up
   (aces are high, suits do not matter), or throws any card from her hand face down.  Equal
   ranks do not top: a tie goes to the leader.
4. If the leader won, the capture is fed, face down, to one of her rats of its suit:
   to a rat still short of its number if there is one; if two rats of that suit both qualify
   (both short, or both already full) she chooses which.  A rat that already has
   its number and is fed again is overfed.  A capture of a suit neither rat has is discarded.
   If the leader lost, the capture is discarded.  Bids and responses go to the discard pile.
5. The leader draws up to 3 cards from her own stock.

So after both have led once, a player responds from a hand of 7 and bids from a hand of 5 (after
offering) until the stocks run out; then hands shrink.  After 16 leads every card is used.

## Scoring a deal
For each rat: fewer captures than its number, 2 points a capture; exactly its number
(satisfied), 5 points a capture; more (overfed), 1 point a capture.  If both of a player's rats
are exactly satisfied she scores 10 points a capture for all her captures instead.

## Deals, rubbers and match
The player who scored more in a deal deals the next one; if they scored the same, the deal
passes to the other player.  Each new deal reshuffles both halves.
A rubber ends after a deal in which a player has reached `target` points (default
{default_target}, now {o["target"]}) with more points than the other; if they are
tied, deals go on until the tie is broken.
- `match` (default false, now {_b(o["match"])}): play a match, the best of three rubbers; each
  rubber starts from 0 to 0 and the dealer rule carries on from the last deal.  Points in the
  outcome are then rubbers won.
- `single_deal` (default false, now {_b(o["single_deal"])}): play a single deal; the higher
  score wins it, equal scores share the win.
- `max_deals` (default 1000, now {o["max_deals"]}): safety cap on the number of deals; a game
  stopped by it is won by whoever leads (rubbers first in a match, then points), and is marked
  capped.

## What each player knows
Both players' rats and how many captures each rat holds are public, as is every card played face
up (offers, bids, tops), which players remember.  Hands, stock order and cards thrown face down
are hidden (a player knows her own throws).  Fed captures are face down: their suit follows from
the rat, and players remember the capture as it was offered.  In the play-by-play, a card
thrown face down is named only to its thrower.

## Where the rule sheet is silent
- Rats may share a suit.  Two hungry rats of the capture's suit, or two already full: the
  leader chooses which; exactly one hungry: it gets the capture.
- Cards remembered are those of the current deal; earlier deals' cards were reshuffled away.
- In a match, the next rubber's first dealer follows the usual rule (the last deal's higher
  scorer, or the other player after a tied deal).
- A single deal (`single_deal`) with equal scores is a shared win.

## Notation
How programs and records write the game (players use the keys shown with `?`).  Cards are
written `10H`, `QS`, `AC`.  Actions: `cage 5H 9D` (lower card first; typed, the two cards may
come in either order, `cage 9D 5H` is `cage 5H 9D`, but an action object must name two
different cards of one colour, lower first), `offer QH`, `bid 7D`, `top 9S`, `throw 2C`,
`feed 1` or `feed 2`.  An explicit deal is
`{{"dealer": "red"|"black", "red": {{"hand": [8 cards], "stock": [18 cards, top first]}},
"black": {{...}}}}`; it must place each of a colour's 26 cards exactly once in its hand and
stock, written as text (`"10H"`); anything else is refused with the reason.  Outcome figures:
`length` counts leads; `deals`, `rubbers`, points per deal for each colour, exact rats per deal
and captures per deal for each colour are reported too.
"""
