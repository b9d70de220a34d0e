/* Beggar-my-neighbour play-out for the record hunt (ratgames.hunt).
 *
 * An optional accelerator: kernel.py compiles this file with the system C compiler into a cache
 * folder and loads it with ctypes; without a compiler the same functions run in Python.  Both
 * must give the same results for every deal (the tests check it), so every function here has a
 * line-for-line twin in deals.py.
 *
 * A deal is 52 bytes: the rank classes of the first player's 26 cards (top card first), then the
 * second player's; 0 is a number card and 1..4 a jack, queen, king or ace (the cards a player
 * must pay for it).  The first player leads.
 */

#include <stdint.h>
#include <string.h>

#define GAMMA 0x9E3779B97F4A7C15ULL
#define STREAM 0xD1B54A32D192ED03ULL

enum { UNRESOLVED = 2 };

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The random stream of deal `index` of the hunt with seed `seed` (SplitMix64). */
static uint64_t stream_start(uint64_t seed, uint64_t index) {
    return mix64(mix64(seed) + index * STREAM);
}

static uint64_t next64(uint64_t *state) {
    *state += GAMMA;
    return mix64(*state);
}

/* A uniform integer below n (n < 2**32) from the high 32 bits of the next output. */
static uint32_t below(uint64_t *state, uint32_t n) {
    return (uint32_t)(((next64(state) >> 32) * (uint64_t)n) >> 32);
}

static const uint8_t FACES[16] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};

/* Deal `index`: a shuffled deck (mode 0) or `base` with 1..`swaps` swaps of two cards of
 * different classes (mode 1). */
void bmn_deal(int32_t mode, uint64_t seed, uint64_t index, const uint8_t *base, int32_t swaps,
              uint8_t *out) {
    uint64_t state = stream_start(seed, index);
    if (mode == 0) {
        /* Where the 16 face cards go: a partial Fisher-Yates shuffle of the 52 places (two
         * swaps from each 64-bit output), the n-th place drawn getting FACES[n]. */
        uint8_t places[52];
        for (int i = 0; i < 52; i++) places[i] = (uint8_t)i;
        for (int i = 0; i < 16; i += 2) {
            uint64_t z = next64(&state);
            uint32_t j = (uint32_t)i + (uint32_t)(((z & 0xFFFFFFFFULL) * (uint64_t)(52 - i)) >> 32);
            uint8_t t = places[i];
            places[i] = places[j];
            places[j] = t;
            j = (uint32_t)i + 1 + (uint32_t)(((z >> 32) * (uint64_t)(51 - i)) >> 32);
            t = places[i + 1];
            places[i + 1] = places[j];
            places[j] = t;
        }
        memset(out, 0, 52);
        for (int i = 0; i < 16; i++) out[places[i]] = FACES[i];
        return;
    }
    memcpy(out, base, 52);
    uint32_t k = 1 + below(&state, (uint32_t)swaps);
    for (uint32_t s = 0; s < k; s++) {
        for (;;) {
            uint32_t p = below(&state, 52);
            uint32_t q = below(&state, 52);
            if (out[p] != out[q]) {
                uint8_t t = out[p];
                out[p] = out[q];
                out[q] = t;
                break;
            }
        }
    }
}

/* Play a deal to its end in the convention of the published records: `cards` played and
 * `tricks` (piles won, the last included).  Returns the winner (0 or 1), or UNRESOLVED if the
 * game has gone past `limit` cards at the end of a trick (it may be a cycle: the caller replays
 * it with a memory of positions). */
int32_t bmn_play(const uint8_t *deal, int32_t limit, int32_t *cards_out, int32_t *tricks_out) {
    uint8_t hand[2][64];
    uint32_t head[2] = {0, 0};
    uint32_t size[2] = {26, 26};
    uint8_t pile[52];
    uint32_t piled = 0;
    int32_t cards = 0;
    int32_t tricks = 0;
    int32_t winner;
    int turn = 0;
    memcpy(hand[0], deal, 26);
    memcpy(hand[1], deal + 26, 26);
    for (;;) {
        /* `turn` leads (no face card to answer). */
        if (size[turn] == 0) {
            winner = turn ^ 1;
            tricks++;
            break;
        }
        uint8_t c = hand[turn][head[turn]];
        head[turn] = (head[turn] + 1) & 63;
        size[turn]--;
        cards++;
        pile[piled++] = c;
        if (c == 0) {
            turn ^= 1;
            continue;
        }
        /* `turn` has played a face card worth `c`: the other player pays. */
        for (;;) {
            int payer = turn ^ 1;
            uint8_t d = 0;
            for (uint8_t k = 0; k < c; k++) {
                if (size[payer] == 0) {
                    winner = turn;
                    tricks++;
                    goto done;
                }
                d = hand[payer][head[payer]];
                head[payer] = (head[payer] + 1) & 63;
                size[payer]--;
                cards++;
                pile[piled++] = d;
                if (d) break;
            }
            if (d) {
                turn = payer;
                c = d;
                continue;
            }
            /* Paid in full: `turn` takes the pile under its stack and leads. */
            uint32_t tail = head[turn] + size[turn];
            for (uint32_t i = 0; i < piled; i++) hand[turn][(tail + i) & 63] = pile[i];
            size[turn] += piled;
            piled = 0;
            tricks++;
            if (size[payer] == 0) {
                winner = turn;
                goto done;
            }
            if (cards > limit) {
                *cards_out = cards;
                *tricks_out = tricks;
                return UNRESOLVED;
            }
            break;
        }
    }
done:
    *cards_out = cards;
    *tricks_out = tricks;
    return winner;
}

/* Deals `start` .. `start + count - 1`: add the cards and tricks of every finished game to
 * totals[0] and totals[1], the finished games to totals[2] and the first player's wins to
 * totals[3]; list each game of at least `floor` cards or past `limit` (status UNRESOLVED) in the
 * out arrays.  Returns how many were listed (at most `count`). */
int64_t bmn_chunk(int32_t mode, uint64_t seed, int64_t start, int64_t count, const uint8_t *base,
                  int32_t swaps, int32_t limit, int32_t floor, int64_t *out_index,
                  int32_t *out_cards, int32_t *out_tricks, int8_t *out_status, int64_t *totals) {
    uint8_t deal[52];
    int64_t listed = 0;
    int64_t sum_cards = 0, sum_tricks = 0, finished = 0, first_wins = 0;
    for (int64_t n = 0; n < count; n++) {
        int32_t cards, tricks;
        bmn_deal(mode, seed, (uint64_t)(start + n), base, swaps, deal);
        int32_t status = bmn_play(deal, limit, &cards, &tricks);
        if (status != UNRESOLVED) {
            sum_cards += cards;
            sum_tricks += tricks;
            finished++;
            first_wins += status == 0;
        }
        if (status == UNRESOLVED || cards >= floor) {
            out_index[listed] = start + n;
            out_cards[listed] = cards;
            out_tricks[listed] = tricks;
            out_status[listed] = (int8_t)status;
            listed++;
        }
    }
    totals[0] += sum_cards;
    totals[1] += sum_tricks;
    totals[2] += finished;
    totals[3] += first_wins;
    return listed;
}
