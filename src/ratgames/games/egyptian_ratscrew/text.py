"""The rules of Egyptian Ratscrew as players read them (``ratgames rules egyptian-ratscrew``, or
``?`` in a game): the options with their help (:data:`OPTIONS`) and the Markdown that
:meth:`EgyptianRatscrew.rules` gives (:data:`RULES_TEXT`), with every option and its default."""

from __future__ import annotations

from ratgames.core.options import Option

OPTIONS = (
    Option("sandwich", True, "Two cards of a rank with one card between them can be slapped."),
    Option("top_bottom", False, "The top card matching the bottom face-up card can be slapped."),
    Option("tens", False, "Two consecutive cards adding up to 10 (ace = 1) can be slapped."),
    Option("marriage", False, "A king and a queen next to each other can be slapped."),
    Option("divorce", False, "A king and a queen with one card between can be slapped."),
    Option("run", False, "Four cards in rank order, up or down, can be slapped."),
    Option("joker", False, "A joker on top can be slapped (needs jokers in the deck)."),
    Option("jokers", 0, "Jokers added to the 52 cards.", minimum=0, maximum=2),
    Option(
        "burn",
        1,
        "Cards a bad slap costs (from the top of the slapper's stack).",
        minimum=0,
        maximum=3,
    ),
    Option("slap_in", True, "A player without cards stays in and may slap back in."),
    Option(
        "newcomers",
        0,
        "Seats (the last ones) not dealt in, who may join by slapping in: seats for late "
        "arrivals, taken online or in the terminal after the start.",
        minimum=0,
        maximum=6,
    ),
    Option(
        "slaps",
        True,
        "Players may slap the pile; false: nobody slaps (the game is Beggar-my-neighbour).",
    ),
    Option(
        "max_cards",
        100_000,
        "Safety cap: the game stops after this many cards played.",
        minimum=50,
        maximum=10_000_000,
    ),
)
"""The options, each with its default and the words that say what it does."""

RULES_TEXT = """\
# Egyptian Ratscrew

Also called Egyptian Rat Screw.  2 to 8 players (more than 5 is hard going); the aim is to win
every card.

## Deal and play
The 52 cards (plus any jokers, option `jokers`, default 0) are shuffled and dealt one at a time,
starting at the dealer's left, into face-down stacks; some players may get one card more.  Nobody
looks at their stack.  Seat 1 (the dealer's left) starts: on your turn you turn the top card of
your stack face up onto the pile in the middle, without looking at it first.
Then play passes to the left.  A player without cards is skipped.

## Challenges
A face card starts a challenge: the next player must answer with a face card within a number of
chances: 1 for a jack, 2 for a queen, 3 for a king, 4 for an ace.  Each chance is one card
played.  A face card played in answer passes the challenge on to the next player with the new
card's count.  When the chances run out without a face card, the player of the last face card
wins the pile: they take it to the bottom of their stack in the order the
cards were played, and they play next.  A player who runs out of cards while answering leaves
the remaining chances to the next player who has cards; if that would be the challenger, the
challenger wins the pile.

## Slaps
Any player may slap the pile at any moment.  The first valid
slap takes the whole pile to the bottom of the slapper's stack, ends any challenge, and the
slapper plays next.  A valid slap beats the collection of a won challenge if it comes first.
The pile can be slapped when (the top card is the one played last):
- doubles: the top two cards are of the same rank (always on; two jokers also count);
- `sandwich` (default on): the top card and the third from the top are of the same rank;
- `top_bottom` (default off): the top card has the rank of the bottom face-up card of the pile
  (burned cards under the pile do not count);
- `tens` (default off): the top two cards add up to 10, an ace counting 1 (face cards and jokers
  count nothing);
- `marriage` (default off): a king and a queen are the top two cards, in either order;
- `divorce` (default off): a king and a queen are the top card and the third from the top;
- `run` (default off): the top four cards are in rank order, going up or down (an ace may be
  high, J-Q-K-A, or low, A-2-3-4; no wrapping round; jokers break a run);
- `joker` (default off, needs `jokers` of 1 or 2): a joker is on top.

A slap is judged when it arrives, against the pile as it is then:
- valid if that pile can be slapped (whatever version the player saw);
- too late, at no cost, if the pile cannot be slapped now but the pile the player saw could
  (somebody took it or covered it first);
- otherwise a bad slap: the slapper burns `burn` cards (default 1, 0 to 3): the top cards of
  their stack go face down under the pile, unseen (a card everybody already knew stays known).
  A bad slap when you have fewer cards burns what you have.
Each player slaps a given version of the pile at most once; a second slap at the same pile is
refused.  A player with no cards who has won a challenge (or whose face card is being answered)
waits for that pile and does not slap meanwhile.

Nobody reacts in no time: a slap counts as a slap at the pile that was on the table at least
0.1 s before it (a minimum human reaction time).  A press that comes sooner than that after the
pile changed on the player's screen is aimed at the pile before it and judged there: valid if the
pile on the table can be slapped, too late (no penalty) if the pile the player saw could be
slapped but somebody took or covered it, bad otherwise.  So the loser of a close race is too
late, not burned at the new, empty pile (an empty pile can never be slapped).  The terminal, the
browser and the server all judge a press so (online, the server knows when each pile reached the
player's screen), and the bots never slap sooner than 0.1 s after the pile they react to.

## Running out, slapping in, newcomers
With `slap_in` (default on) a player who runs out of cards stays at the table: a valid slap
brings them back in with the pile, but a bad slap by a player without cards puts them out for
good.  With `slap_in` off, a player without cards is out (once they have no challenge pending).

Option `newcomers` (default 0): that many seats, the last ones, are not dealt in; they are
players who arrive later and may join by a valid slap, only while fewer than 5 players hold
cards.  A newcomer's bad slap keeps them out for good.  At least 2 players must be dealt in.

These are the seats for people who arrive late.  Online, the host allows them by making the
table with `newcomers` above 0 (the player count counts them): the game starts without them,
and whoever opens the invite link (or runs `ratgames join CODE`) later takes one, watches from
it with no cards and comes in with a valid slap; the host may seat a bot there instead.  The
players consent by sitting at a table that shows its late seats, as with any house rule: asking
them mid-race would stop the game.  The record and the replays show who came in and when.  At
one keyboard, `ratgames play egyptian-ratscrew -n 3 -o newcomers=1` seats a bot that arrives
late, and `--seat 3` makes you the late arrival.

## The end
When one player holds all the cards that are not on the table (and no other player has a
challenge pending), that player wins and takes the table, unless the pile can be slapped and
someone else may still slap: then the holder must collect the table to win, and a valid slap
that comes first brings its slapper back in and play goes on.
Outcome points are the cards each player holds at the end.

Without slaps the game is deterministic from the deal, and it can go round in circles.  The
engine remembers the position (every stack and who plays next) each time a pile is taken; if a
position comes back and nobody has slapped since it was last seen, the players have let the game
go round once and it would repeat for ever: it ends as a cycle, won by the player(s) holding the
most cards.  As a last resort `max_cards` (default 100000) caps the cards played; a capped game
is also won by the most cards.

## Without slaps: Beggar-my-neighbour
With `slaps` off (default on) nobody may slap, and the game is the old Beggar-my-neighbour: the
deal decides everything.  The slap rules, `burn` and `slap_in` then do nothing, and `newcomers`
must be 0.  A player without cards is out (unless their face card is still being answered).
Play and the end follow the convention of the published longest-game records, so that a
record deal gives its published figures here (Mann and Wu's deal of 2007, for one, lasts 7157
cards and 1007 tricks); a trick is a pile won:
- the game ends as soon as a trick leaves every other player without cards;
- it also ends when a player must play (lead, or answer a challenge) and has no card, with
  nobody else left to play: the player of the last face card (or, outside a challenge, the
  player of the last card) takes the pile, and it counts as the last trick.
With more than 2 players, a player without cards is skipped as long as somebody else can play.

## Knowledge
Stacks are face down and unknown even to their owner.  A pile that is taken goes to the bottom
of a stack face down in a known order, so everybody knows those cards until they come up again
(burned cards under the pile stay unknown unless they were known before).  Observations show
each stack's known cards, the face-up pile, the challenge in progress and the recent events.

## Notation, deals and figures
How programs and records write the game (players use the keys shown with `?`).  Actions:
`play`, `collect`, `slap@N`, where N is the version of the pile the player saw (the version
grows with every card played and every pile taken).  Cards: `10H`, `QS`, `AC`, `BJ`/`RJ` for
jokers.  An explicit deal is `{"stacks": [[cards of seat 1, top first], [seat 2 ...], ...]}`
holding every card once (uneven stacks are allowed; newcomers get none; at least 2 players get
cards).

Record deals of Beggar-my-neighbour are written in face-card notation: one line per player, top
card first, `J`, `Q`, `K` or `A` for a face card and `-` for any other card, the first player
leading (Mann and Wu: `K-KK----K-A-----JAA--Q--J-` against `---Q---Q-J-----J------AQ--`); the
Python function `ratgames.games.egyptian_ratscrew.rules.face_deal(hand1, hand2, ...)` turns them
into a deal for `new_state(deal=...)`.

Figures reported: `length` (cards played), `piles_won` (challenges collected and valid slaps;
without slaps, the last pile too), `slaps` (valid), `bad_slaps`, `too_late`, `cycle` (1 if the
game ended as a cycle); without slaps also `cards` (cards played) and `tricks` (piles won, the
last included) in the convention of the published records.
"""
