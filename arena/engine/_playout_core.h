/* The compiled core's C interface for tile and row policies (arena/engine/_playout_core.c).
 *
 * The core plays the rules; which tile a seat plays by rule, or which row it takes, is a bot's
 * policy. A policy is a NimmtPolicy, handed to the core as a PyCapsule named
 * NIMMT_POLICY_CAPSULE (arena/bots/_policies.c is the house bots'), and reads the position
 * through the structures below, read-only: it never changes the game.
 */
#ifndef NIMMT_PLAYOUT_CORE_H
#define NIMMT_PLAYOUT_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* SplitMix64, as arena/engine/rng.py specifies it: a seed means the same stream in every
 * language. A call seeds its own generator from the caller's (an int, taken modulo 2**64, or
 * any object with getrandbits, of which one 64-bit draw is taken), so nothing here reads the
 * caller's generator's internals. */
typedef struct {
    uint64_t state;
} Gen;

static inline uint64_t gen_next64(Gen *g) {
    uint64_t z = (g->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* a uniform double in [0, 1): the top 53 bits */
static inline double gen_random(Gen *g) {
    return (double)(gen_next64(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* DealRandom.below(n): uniform in [0, n), rejection sampling (no modulo bias) */
static inline uint64_t gen_below(Gen *g, uint64_t n) {
    uint64_t limit = UINT64_MAX - (((UINT64_MAX % n) + 1) % n); /* 2**64 - 2**64 % n, less 1 */
    for (;;) {
        uint64_t x = gen_next64(g);
        if (x <= limit) return x % n;
    }
}

#define MAX_CODES 512
#define MAX_SEATS 16
#define MAX_ROWS 32
#define MAX_HAND 64
#define NTILES 105 /* random_keys: one key per entry of CARD_BULLHEADS */

typedef struct {
    int n;
    long v[MAX_HAND];
} IntList;

typedef struct {
    int n;                 /* active rows */
    long ends[MAX_ROWS];   /* sorted last tiles */
    long state[MAX_ROWS];  /* the rows' states, by sorted position */
    long rows[MAX_ROWS];   /* the rows' numbers, by sorted position (card game) */
    uint64_t empty;        /* basic: bit r set for every empty row */
} Rows;

/* bisect.bisect(a, x): the rows are few, so a count without branches beats a search */
static inline int bisect_right(const long *a, int n, long x) {
    int lo = 0;
    for (int k = 0; k < n; k++) lo += a[k] <= x;
    return lo;
}

#define CLASSIC_FULL (5 << 6) /* a card-game row state (cards << 6 | bullheads) of five cards */

#define G_ROWS 26
#define G_SPACES 24
#define G_SEATS 10
#define G_HAND 128
#define G_HELD 64
#define G_DECK 256
#define G_QUEUE 64

enum { K_PLAIN, K_PLUS, K_MINUS, K_PLUS5, K_DRAW, K_ACTION };
enum { A_STOP, A_SWAP, A_SKIP, A_FRONT, A_ASCENDING, A_ANYWHERE, A_ANOTHER, A_PLUS5, A_NONE = -1 };
enum { F_NONE, F_TILE, F_LUCK, F_ACTION };

typedef struct {
    int kind, a, b, c; /* tile: a; luck: row a, space b; action: card a, row b, new tile c */
} Forced;

typedef struct {
    int nrows, length[G_ROWS], claim[G_ROWS], kinds[G_ROWS][G_SPACES];
    int nmiddle, middle_r[G_ROWS * G_SPACES], middle_s[G_ROWS * G_SPACES];
} GBoard;

typedef struct {
    const GBoard *board;
    Gen *gen;
    int players, pro, hs, stop_own, another_low, plus5_replaces;
    long bh[NTILES];
    int spaces[G_ROWS][G_SPACES], fill[G_ROWS], kind[G_ROWS][G_SPACES], f10[G_ROWS];
    long rsum[G_ROWS];
    int nends, ends[G_ROWS], erow[G_ROWS];
    int nstops, stops[G_ROWS];
    int nheld[G_SEATS], held[G_SEATS][G_HELD];
    long scores[G_SEATS];
    int nsupply, supply[G_DECK], sup_i;
    int nluck, luck[G_DECK], luck_i;
    int nactions, actions[G_DECK], act_i;
    int nturns, set_number;
    int nq, queue[G_QUEUE];
    unsigned char carded[256];
    int ncarded;
    int over;
    long final[G_SEATS];
    Forced forced;
    int nh[G_SEATS], hands[G_SEATS][G_HAND];
    const struct NimmtPolicy *policy; /* NULL: random tiles; else the policy's tiles */
    double explore;                   /* the policy's share of uniformly random tiles */
    int err;     /* set when the position breaks an assumption, or a record could not be written */
    PyObject *rec; /* NULL, or the list that receives the game's turns in the replay's form */
    /* Step by step (the environments' board tables): the turn's luck and action decisions
     * answered so far, taken in order where the Game asks one; at the first with no answer the
     * Sim stops (err G_ASKED) with the question in ask (F_LUCK: seat a, card b; F_ACTION: seat
     * a, tile b). NULL: decisions are forced or random. */
    const Forced *script;
    int nscript, iscript;
    Forced ask;
} Sim;

/* A policy: each member may be NULL where the policy has nothing to say (random play). */
typedef struct NimmtPolicy {
    int version; /* NIMMT_POLICY_VERSION */
    /* board game: the index in m->hands[seat] of the tile seat plays this turn (the board as
     * the turn starts); explore: the share of uniformly random tiles, drawn from m->gen */
    int (*board_tile)(Sim *m, int seat, double explore);
    /* card game: the index in hand of the card the seat plays, rows as the turn starts */
    int (*card_tile)(Gen *gen, const Rows *rows, const IntList *hand, double explore);
    /* card game: the sorted position in rows of the row a card lower than every row takes */
    int (*card_row)(const Rows *rows);
} NimmtPolicy;

#define NIMMT_POLICY_VERSION 1
#define NIMMT_POLICY_CAPSULE "nimmt.policy"


/* The card game's tables, one decision point at a time (the environments, arena/env/core.py):
 * an array of ClassicTable in a caller's buffer, stepped by the core's classic_step, whose
 * placements are classic_loop's. Read-only for policies (arena/bots/_policies.c). */
#define CT_SEATS 10
#define CT_TILES 104
#define CT_ROWS 4
#define CT_CARDS 5 /* a row's cards before the sixth takes it (CLASSIC_ROW_CARDS) */
enum { CT_OVER, CT_TILE, CT_TAKE_ROW };

typedef struct {
    int players;
    int phase;   /* CT_OVER, CT_TILE (every seat without a chosen card), CT_TAKE_ROW */
    int asked;   /* CT_TAKE_ROW: the seat that takes a row */
    int current; /* CT_TAKE_ROW: its card, lower than every row */
    int turn;    /* turns revealed so far */
    int nq;      /* CT_TAKE_ROW: the revealed cards placed after it, tile << 4 | seat */
    int queue[CT_SEATS];
    int scores[CT_SEATS];  /* penalty points, as the Game counts them */
    int chosen[CT_SEATS];  /* this turn's card, before the reveal (0: none yet) */
    int nhand[CT_SEATS];
    int latest[CT_SEATS];  /* the cards revealed in the latest turn (0: none) */
    int start[CT_ROWS];    /* the rows' first cards of the deal */
    int supply;            /* cards dealt to nobody */
    int cells[CT_ROWS * CT_CARDS]; /* the rows' cards by row number, 0: empty */
    unsigned char hand[CT_SEATS][CT_TILES + 1];
    unsigned char revealed[CT_TILES + 1];
    uint64_t seed; /* the deal's seed */
} ClassicTable;

/* the card game's bullheads of t (1..104) */
static inline int classic_bullheads(int t) {
    return t == 55 ? 7 : t % 11 == 0 ? 5 : t % 10 == 0 ? 3 : t % 5 == 0 ? 2 : 1;
}

/* a row's cards and bullheads */
static inline int ct_fill(const ClassicTable *g, int row) {
    int n = 0;
    while (n < CT_CARDS && g->cells[row * CT_CARDS + n] > 0) n++;
    return n;
}

static inline int ct_heads(const ClassicTable *g, int row) {
    int h = 0;
    for (int k = 0; k < CT_CARDS; k++) {
        int t = g->cells[row * CT_CARDS + k];
        if (t > 0) h += classic_bullheads(t);
    }
    return h;
}

/* the row with the fewest bullheads, the topmost of equal rows (the fault default and the
 * house rule for a card lower than every row) */
static inline int ct_cheapest_row(const ClassicTable *g) {
    int best = 0, heads = ct_heads(g, 0);
    for (int r = 1; r < CT_ROWS; r++) {
        int h = ct_heads(g, r);
        if (h < heads) {
            heads = h;
            best = r;
        }
    }
    return best;
}

#endif
