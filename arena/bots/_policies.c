/* The house bots' rule for rollouts, compiled: a policy the compiled core plays by
 * (arena/engine/_playout_core.h), handed to it as the capsule RULE.
 *
 * Board game (Position.playouts, rule): every seat, each turn, plays the tile that would cost
 * it least landing alone on the board as the turn starts, ties broken uniformly; with
 * probability ``explore`` a uniformly random tile instead. A tile's cost, in half points: a
 * completed row's bullheads (half of them on a claim space, whose tiles come back to hand),
 * less 10 for a +10 marker; a space's gain or loss; half a point for a draw, a point gained for
 * an action card (while the supply or the deck lasts).
 *
 * Card game (arena.bots.rollouts): a card that takes no row (uniformly among those), else the
 * cheapest by the board as it stands; with probability ``explore`` a random card. A card lower
 * than every row takes the row with the fewest bullheads (the first such, by last card).
 *
 * arena/bots/rollouts.py plays the same rule through the Game where the core is not built.
 */

#include <math.h>

#include "../engine/_playout_core.h"

/* the sorted position of the active row tile t goes to (the highest if t is below every row) */
static int board_target(const Sim *m, int t) {
    int lo = 0;
    for (int k = 0; k < m->nends; k++) lo += m->ends[k] <= t;
    return lo > 0 ? lo - 1 : m->nends - 1;
}

static long board_cost(const Sim *m, int t) {
    int i = board_target(m, t);
    if (i < 0) return 0; /* no active row: the core refuses such a position */
    const GBoard *b = m->board;
    int row = m->erow[i], f = m->fill[row];
    if (f == b->length[row] - 1) {
        long cost = b->claim[row] ? m->rsum[row] : 2 * m->rsum[row];
        return m->f10[row] ? cost - 20 : cost;
    }
    switch (m->kind[row][f]) {
    case K_PLUS:
        return -2 * m->bh[t];
    case K_MINUS:
        return 2 * m->bh[t];
    case K_PLUS5:
        return -10;
    case K_DRAW:
        return m->sup_i < m->nsupply ? 1 : 0;
    case K_ACTION:
        return m->act_i < m->nactions ? -2 : 0;
    default:
        return 0;
    }
}

static int board_tile(Sim *m, int seat, double explore) {
    const int *hand = m->hands[seat];
    int n = m->nh[seat], k = 0;
    if (gen_random(m->gen) < explore) return (int)(gen_random(m->gen) * n);
    long best = 1L << 30;
    int ties = 0;
    for (int j = 0; j < n; j++) {
        long cost = board_cost(m, hand[j]);
        if (cost < best) {
            best = cost;
            k = j;
            ties = 1;
        } else if (cost == best) {
            ties++;
            if (gen_random(m->gen) * ties < 1) k = j; /* a uniform choice among the ties */
        }
    }
    return k;
}

static int card_tile(Gen *gen, const Rows *r, const IntList *hand, double explore) {
    if (gen_random(gen) < explore) return (int)(gen_random(gen) * hand->n);
    long cheapest = r->state[0] & 63;
    for (int k = 1; k < r->n; k++)
        if ((r->state[k] & 63) < cheapest) cheapest = r->state[k] & 63;
    long best = 1L << 30;
    int k = 0, ties = 0;
    for (int j = 0; j < hand->n; j++) {
        int i = bisect_right(r->ends, r->n, hand->v[j]) - 1;
        long cost = i < 0 ? cheapest : (r->state[i] >= CLASSIC_FULL ? r->state[i] & 63 : 0);
        if (cost < best) {
            best = cost;
            k = j;
            ties = 1;
        } else if (cost == best) {
            ties++;
            if (gen_random(gen) * ties < 1) k = j;
        }
    }
    return k;
}

static int card_row(const Rows *r) {
    int j = 0;
    for (int k = 1; k < r->n; k++)
        if ((r->state[k] & 63) < (r->state[j] & 63)) j = k;
    return j;
}

static const NimmtPolicy rule = {NIMMT_POLICY_VERSION, board_tile, card_tile, card_row};


/* ------------------------------------------------------------------ the card game's tables */
/* The environments' house policies for many card-game tables at once (arena/env/vector.py):
 * ``heuristic``'s card-game choice (arena/bots/heuristic.py: the expected value of each card,
 * the unseen cards that go to its row first drawn as Binomial(opponents, share); a card lower
 * than every row takes the cheapest row) and uniformly random legal actions. */

/* the row number t goes to: of the rows ending lower, the one ending highest; -1 if none */
static int ct_target(const int *ends, int t) {
    int best = -1, best_end = 0;
    for (int r = 0; r < CT_ROWS; r++)
        if (best_end < ends[r] && ends[r] < t) {
            best = r;
            best_end = ends[r];
        }
    return best;
}

static double ct_comb(int n, int k) {
    double c = 1.0; /* exact for the few seats of a table */
    for (int i = 1; i <= k; i++) c = c * (n - k + i) / i;
    return c;
}

static int heuristic_card(const ClassicTable *g, int seat, double near) {
    int ends[CT_ROWS], fill[CT_ROWS], heads[CT_ROWS], target[CT_TILES + 1];
    unsigned char seen[CT_TILES + 1];
    memcpy(seen, g->revealed, sizeof seen);
    for (int r = 0; r < CT_ROWS; r++) {
        fill[r] = ct_fill(g, r);
        ends[r] = g->cells[r * CT_CARDS + fill[r] - 1];
        heads[r] = ct_heads(g, r);
        seen[g->start[r]] = 1;
        for (int k = 0; k < fill[r]; k++) seen[g->cells[r * CT_CARDS + k]] = 1;
    }
    int unseen = 0, cheapest = heads[0], opponents = 0;
    for (int r = 1; r < CT_ROWS; r++)
        if (heads[r] < cheapest) cheapest = heads[r];
    for (int t = 1; t <= CT_TILES; t++) {
        target[t] = ct_target(ends, t);
        if (!seen[t] && !g->hand[seat][t]) unseen++;
    }
    for (int s = 0; s < g->players; s++)
        if (s != seat && g->nhand[s] + (g->chosen[s] != 0) > 0) opponents++;
    double near_share = near / g->players, best_value = 0.0;
    int best = 0;
    for (int t = 1; t <= CT_TILES; t++) {
        if (!g->hand[seat][t]) continue;
        int row = target[t];
        double total;
        if (row < 0) {
            total = -(double)cheapest;
        } else {
            long nbefore = 0, heads_before = 0;
            for (int u = 1; u < t; u++)
                if (!seen[u] && !g->hand[seat][u] && target[u] == row) {
                    nbefore++;
                    heads_before += classic_bullheads(u);
                }
            double p = unseen ? (double)nbefore / (double)unseen : 0.0;
            double per_tile = nbefore ? (double)heads_before / (double)nbefore : 0.0;
            total = 0.0;
            for (int k = 0; k <= opponents; k++) {
                double pk = ct_comb(opponents, k) * pow(p, k) * pow(1 - p, opponents - k);
                if (pk == 0.0) continue;
                double taken = heads[row] + k * per_tile, value;
                int cards_before = fill[row] + k;
                if (cards_before == CT_CARDS)
                    value = -taken;
                else if (cards_before == CT_CARDS - 1)
                    value = -near_share * (taken + classic_bullheads(t));
                else
                    value = 0.0;
                total += pk * value;
            }
        }
        total += 0.0; /* as the bot adds its end weight, 0 in the card game: -0.0 becomes 0.0 */
        if (best == 0 || total > best_value) {
            best = t;
            best_value = total;
        }
    }
    return best;
}

/* the card of rank k (from 0, lowest first) in a hand of 0/1 bytes per card 1..104, eight
 * cards a word: a word's count of cards is its count of set bits */
static int64_t kth_card(const unsigned char *hand, int k) {
    for (int c = 1; c <= CT_TILES; c += 8) {
        uint64_t w;
        memcpy(&w, hand + c, 8);
        int here = __builtin_popcountll(w);
        if (k >= here) {
            k -= here;
            continue;
        }
        for (int j = 0; j < 8; j++)
            if (hand[c + j] && k-- == 0) return c + j;
    }
    return 0;
}

/* classic_policy(tables, kind, near, gen, take_row, out): the action of every asked seat of
 * every table into out (int64 (n, players); 0, WAIT, for the others): kind "heuristic" or
 * "random" (uniform over the legal actions, from the SplitMix64 state gen[0], advanced) */
static PyObject *py_classic_policy(PyObject *self, PyObject *args) {
    PyObject *tables_in, *gen_in, *out_in;
    const char *kind;
    double near;
    long take_row;
    if (!PyArg_ParseTuple(args, "OsdOlO", &tables_in, &kind, &near, &gen_in, &take_row, &out_in))
        return NULL;
    int random = strcmp(kind, "random") == 0;
    if (!random && strcmp(kind, "heuristic") != 0) {
        PyErr_Format(PyExc_ValueError, "no house policy %s: heuristic or random", kind);
        return NULL;
    }
    Py_buffer tv, gv, ov;
    if (PyObject_GetBuffer(tables_in, &tv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    Py_ssize_t n = tv.len / (Py_ssize_t)sizeof(ClassicTable);
    const ClassicTable *g = tv.buf;
    int players = n > 0 ? g[0].players : 0;
    if (n == 0 || tv.len % (Py_ssize_t)sizeof(ClassicTable) || players < 2 ||
        players > CT_SEATS) {
        PyBuffer_Release(&tv);
        PyErr_SetString(PyExc_ValueError, "tables: dealt card-game tables");
        return NULL;
    }
    if (PyObject_GetBuffer(gen_in, &gv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    if (PyObject_GetBuffer(out_in, &ov, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&tv);
        PyBuffer_Release(&gv);
        return NULL;
    }
    if (gv.len != 8 || ov.len != n * players * 8) {
        PyBuffer_Release(&tv);
        PyBuffer_Release(&gv);
        PyBuffer_Release(&ov);
        PyErr_SetString(PyExc_ValueError, "gen: one uint64; out: int64 (tables, players)");
        return NULL;
    }
    Gen gen = {*(uint64_t *)gv.buf};
    int64_t *out = ov.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const ClassicTable *t = g + i;
        for (int s = 0; s < players; s++) {
            int64_t a = 0;
            if (t->phase == CT_TILE && t->nhand[s] > 0 && t->chosen[s] == 0) {
                if (random) {
                    int k = (int)gen_below(&gen, (uint64_t)t->nhand[s]);
                    a = kth_card(t->hand[s], k);
                } else {
                    a = heuristic_card(t, s, near);
                }
            } else if (t->phase == CT_TAKE_ROW && t->asked == s) {
                a = take_row + (random ? (int64_t)gen_below(&gen, CT_ROWS) : ct_cheapest_row(t));
            }
            out[i * players + s] = a;
        }
    }
    *(uint64_t *)gv.buf = gen.state;
    PyBuffer_Release(&tv);
    PyBuffer_Release(&gv);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"classic_policy", py_classic_policy, METH_VARARGS,
     "House policies' actions for many card-game tables at once."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_policies",
                                    "The house bots' rollout rule, compiled (arena.bots.rollouts).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__policies(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    PyObject *capsule = PyCapsule_New((void *)&rule, NIMMT_POLICY_CAPSULE, NULL);
    if (capsule == NULL || PyModule_AddObject(m, "RULE", capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
