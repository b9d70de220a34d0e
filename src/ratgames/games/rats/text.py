"""The rules of Rats in the project's own words: the Markdown of :meth:`Rats.rules`."""

RULES_TEXT = """\
# Rats

A trick-taking game for 2 to 5 players with a standard 52-card deck (jokers optional).  Tricks
you win become your cards for the next rounds; a player who runs out of cards is out, and the
**last player with cards wins**.

## Cards

Ranks run 2 (low) to ace (high).  In a run (sequence) the ace is low only: A-2-3 is a run,
Q-K-A is not.  Suits rank clubs < diamonds < hearts < spades; the suit order matters only when
two runs with the same top card meet.

## The deal

The dealer is chosen by lot.  Every player gets the same number of cards (as many as the deck
allows); the cards left over form a face-down **stock**.  The number dealt is the **initial
hand size**.  The stock goes, unseen, into the reserve of whoever wins the last trick of the
first round.  (An explicit deal given to the engine may use smaller hands; the rest is stock.)

## Leading

The dealer leads the first trick; the winner of a trick leads the next.  A lead is one of:

* a single card;
* a pair, three of a kind or four of a kind (cards of one rank);
* a run: three or more cards of one suit in sequence (e.g. 5-6-7 of hearts, A-2-3 of clubs).

## Following

Play goes clockwise (to the next seat number).  Everyone else plays, in turn, the **same number
of cards** as the lead: either a combination of the same kind that **beats** the best play so
far, or any cards as a face-up **discard**.  Beating is never compulsory and nobody has to follow
suit.  A discard is laid face up one card at a time, lowest card first (jokers count as
highest here); once begun, a discard must be finished.  (One step per card keeps the choices
few: a two-player hand of 26 cards could otherwise be discarded from in millions of ways.)

Who beats what:

* a single beats the best single so far only if it is **of the suit led** (the suit of the first
  natural card of the trick) and higher; a card of another suit can only be discarded, even an
  ace;
* a pair, three or four of a kind beats one of the same size with a **higher rank**;
* a run beats a run of the same length with a **higher top card**; with equal top cards the
  higher suit wins;
* a play that only ties does not beat.

The player of the best play takes all the cards of the trick face down into their **reserve**
and leads the next trick.

## Rounds

Everyone holds the same number of cards, so all hands run out together: that ends the round.
The stock (first round only) goes to the winner of the last trick.  A player with no reserve is
**out**.  The next **hand size** is the smaller of the initial hand size and the smallest
reserve.  Each player shuffles their own reserve, deals themselves that many cards and keeps the
rest as their reserve.  The winner of the last trick leads the next round.  When one player is
left with cards, that player wins.

## Options

* `jokers` (default 0): add 1 or 2 jokers.  A joker is wild inside a pair, set or run that has at
  least one natural card, and the combination takes its best reading (the 5 and 6 of hearts with
  a joker are the run 5-6-7 of hearts).  Two jokers are never a pair.  One natural card with both
  jokers can be three of a kind or a run of three, so such a play says which it is.  Alone, a
  joker is the lowest card: it never wins a trick when followed by a natural card and may be led
  only by a player whose hand holds nothing but jokers.  After a joker lead, the first natural
  single played names the suit led and beats the joker (it cannot be discarded; a joker can).  If
  no natural card is played to the trick at all, the leader keeps the trick.  A set holds at most
  four cards, jokers included.
* `max_rounds` (default 200): a safety cap for simulations.  If the game is still going after
  that many rounds, the player (or players) holding the most cards win, and the game is marked
  as capped.

## Choices made where the rule sheet is silent

* Discarding is always allowed, even a card that would beat (the one exception is the natural
  card after a joker lead, described under `jokers`).
* Discards are laid one card at a time, lowest first, as described under Following.
* A trick is complete when every player still in has played to it; play goes to the next seat
  still in.
* A run holds at most 13 cards (A to K).
* Results: points are the cards each player holds at the end.  Places rank the players still in
  by cards held, then the players who went out, the later the better.

## What each player knows

Your hand; every card played face up, this round and before (and so which cards each player has
won into their reserve and not played since); everyone's hand and reserve sizes; who is out.
Never the order of anyone's reserve, nor the stock.

## Notation

How programs and records write the game (players use the keys shown with `?`).  Cards are
written `7H`, `10S`, `QD`, `AC`; jokers `BJ` and `RJ`.  A play is written as its cards
(`7H 7S`); one natural card with both jokers names its reading (`5H BJ RJ set`,
`5H BJ RJ run`).  Each step of a discard is written `discard 2C`.  An explicit deal is
`{"dealer": seat from 0, "hands": [[cards] per seat], "stock": [cards]}`, every hand the same
size and every card of the deck placed once.
"""
