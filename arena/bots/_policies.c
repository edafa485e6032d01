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

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_policies",
                                    "The house bots' rollout rule, compiled (arena.bots.rollouts).",
                                    -1, NULL, NULL, NULL, NULL, NULL};

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
