/* A plain C loop for one random hand of the card game, 4 players: the yardstick that
 * benchmarks/engine.py compiles and times beside the compiled core's whole random hand.
 *
 * The same work as the core: SplitMix64 (arena/engine/rng.py), a Fisher-Yates deal of the 104
 * cards with unbiased draws, four rows of one card, ten tricks of four cards played in the
 * order dealt, placed lowest first (the row with the highest end below the card; the sixth
 * card takes the row; a card lower than every row takes a random row), penalty points summed.
 * Nothing else: no recording, no arguments to check, no other variant. */

#include <stdint.h>

static uint64_t state;

static uint64_t next64(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t n) {
    uint64_t limit = UINT64_MAX - (((UINT64_MAX % n) + 1) % n);
    for (;;) {
        uint64_t x = next64();
        if (x <= limit) return x % n;
    }
}

static int bullheads(int c) {
    return c == 55 ? 7 : c % 11 == 0 ? 5 : c % 10 == 0 ? 3 : c % 5 == 0 ? 2 : 1;
}

/* n random hands from seed; the sum of all penalty points (so that nothing is optimised out) */
long plain_hands(long n, uint64_t seed) {
    state = seed;
    long total = 0;
    for (long h = 0; h < n; h++) {
        int cards[104];
        for (int i = 0; i < 104; i++) cards[i] = i + 1;
        for (int i = 103; i > 0; i--) {
            int j = (int)below((uint64_t)i + 1), x = cards[i];
            cards[i] = cards[j];
            cards[j] = x;
        }
        int end[4], count[4], heads[4], score[4] = {0, 0, 0, 0};
        for (int r = 0; r < 4; r++) {
            end[r] = cards[r];
            count[r] = 1;
            heads[r] = bullheads(cards[r]);
        }
        for (int trick = 0; trick < 10; trick++) {
            int play[4], seat[4];
            for (int s = 0; s < 4; s++) { /* insertion sort, lowest first */
                int c = cards[4 + s * 10 + trick], k = s;
                while (k > 0 && play[k - 1] > c) {
                    play[k] = play[k - 1];
                    seat[k] = seat[k - 1];
                    k--;
                }
                play[k] = c;
                seat[k] = s;
            }
            for (int k = 0; k < 4; k++) {
                int c = play[k], best = -1;
                for (int r = 0; r < 4; r++)
                    if (end[r] < c && (best < 0 || end[r] > end[best])) best = r;
                if (best < 0) { /* lower than every row: a random row */
                    best = (int)(next64() & 3);
                    score[seat[k]] += heads[best];
                    count[best] = 0;
                    heads[best] = 0;
                } else if (count[best] == 5) {
                    score[seat[k]] += heads[best];
                    count[best] = 0;
                    heads[best] = 0;
                }
                end[best] = c;
                count[best]++;
                heads[best] += bullheads(c);
            }
        }
        total += score[0] + score[1] + score[2] + score[3];
    }
    return total;
}
