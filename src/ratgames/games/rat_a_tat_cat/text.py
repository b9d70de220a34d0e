"""Rat-a-Tat Cat's rule sheet in the project's own words (:meth:`RatATatCat.rules`)."""

RULES_TEXT = """\
# Rat-a-Tat Cat

**Goal:** end each round with the lowest sum of cards in your row.  Cats are low, rats are high.

## The cards
54 cards: number cards 0 to 8 (four of each) and 9 (nine of them), plus three each of the power
cards **PEEK**, **SWAP** and **DRAW2**.  Power cards have no value of their own.

## The deal
Each player gets four cards face down in a row (slots 1 to 4, dealt one at a time starting left
of the dealer).  The rest is the draw pile; its top card is turned up to start the discard pile.
If that card is a power card, what happens is set by `first_discard`.  Each player then looks at
their two outer cards (slots 1 and 4) once.  From then on a player knows only what they have seen.
In the first round the last seat deals, so seat 1 plays first; the deal moves one seat to the
left (to the next seat) every round.

## A turn
Starting left of the dealer, each player in turn either:

* draws the top card of the draw pile.  A number card may be put in one of your slots (the
  card that was there goes face up on the discard pile) or thrown away on the discard pile.
  Only you see the card you drew.
* takes the top card of the discard pile.  Only a number card can be taken, and it must replace
  one of your cards.  Everyone sees which card went where.

When the draw pile runs out, the discard pile except its top card is shuffled into a new draw pile.

## Power cards
A power card works only when drawn from the draw pile.  It is shown and discarded at once.

* **PEEK**: look at one of your own cards.  Your turn ends.
* **SWAP**: you may exchange one of your cards with any card of another player, without looking,
  or decline.  Everyone sees which slots were exchanged.  Your turn ends.
* **DRAW2**: draw again from the draw pile.  Use that card as usual (a number card goes into your
  row, a power card does its work) and your turn ends, or discard it and draw a second card,
  which you use or discard.  A DRAW2 drawn during these chances starts over: two fresh chances.

A power card dealt to you, or taken into your row, does nothing and has no value; at the end of
the round it is replaced (see below), so get rid of it early.

## Knocking and the end of a round
When your turn is done and nobody has knocked yet, you may knock (say "Rat-a-Tat Cat!") or
end your turn.  Knocking on your first turn is allowed.  After a knock every other player has
exactly one more turn (power cards work as usual), then the round ends.

At the end of a round every row is turned face up.  Each power card in a row is replaced by
drawing from the draw pile until a number card comes (players in turn order from left of the
dealer, slots 1 to 4; the power cards go to the discard pile).  The lowest sum wins the round;
equal lowest sums share the win.

For safety in simulations a round has a turn cap (`turn_cap`).  The turn that reaches it is
played as usual, and its player may still knock.  If nobody has knocked by the end of that turn,
the cap counts as that player's knock: every other player has one more turn, then the round
ends.  How often the cap ended a round is reported (`cap_fired`).

## Ending the game: `mode`
* `round`: one round; the points are the round's sums.
* `rounds=N`: N rounds; the lowest total wins.
* `minutes=N`: rounds are played until N minutes have passed; the round in progress is finished
  and the lowest total wins.  The clock is the time of the latest action (the time given with
  it); a turn whose last action carries no time (simulations) counts as 10 seconds.
* `elimination=N` (the default, `elimination=100`): totals are kept; a player whose total
  reaches N is out of the game and is no longer dealt in.  The last player in wins.  If everyone
  still in reaches N in the same round, the lowest total among them wins.  Players who go out
  later place better; players out in the same round are ranked by total.

`round_cap` (default 200) ends any game after that many rounds, marked as capped, with the lowest
total winning.

## Options
* `edition` (default `gamewright`): which rule sheet the defaults follow.  `gamewright` (the
  English sheet) sets `first_discard=shuffle_back` and `swap_look=true`; `forlago` (the Swedish
  sheet) sets `first_discard=keep_turning` and `swap_look=false`.  An option you give yourself
  wins over the preset.
* `first_discard` (default `shuffle_back`): when the first card turned up is a power card,
  `shuffle_back` puts it back into the draw pile, shuffles, and turns again (everyone saw it, so
  everyone knows it is in the draw pile until it is drawn); `keep_turning` leaves it there and
  turns the next card, until a number card is on top.
* `swap_look` (default `true`): after a Swap, the swapper and the other player each look at the
  card they received.  When `false`, neither may look.
* `younger` (default `false`): the outer cards (slots 1 and 4) are dealt face up, so everyone
  knows them; a card that replaces one is put face down.  A Swap may only exchange two face-down
  cards.
* `mode` (default `elimination=100`): how the game ends, see above.
* `memory_aid` (default `false`): the terminal keeps showing every card you have seen.  Without
  it a card is shown only while you look at it, as at the table; the rules do not change.
* `turn_cap` (default `200`): safety cap on turns in one round, see above.
* `round_cap` (default `200`): safety cap on rounds in one game.

## Notation
How programs and records write the game (players use the keys shown with `?`).  Actions:
`draw`, `take`, `replace N` (put the card held in slot N), `discard`, `peek N`, `swap N P:M`
(your slot N with slot M of seat P), `noswap`, `knock`, `end`, with slots N and M from 1 to 4
and seats P from 1.  Cards: `0`-`9`, `PEEK`, `SWAP`, `DRAW2`.  A deal is
`{"hands": [[4 cards] per seat], "draw": [top first], "discard": [top first]}`, with
`"returned": [power cards]` when power cards were turned up and shuffled back into the draw pile
before the first discard (`first_discard=shuffle_back`).
"""
