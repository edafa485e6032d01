/* The compiled core: the rules of every variant, played fast (arena/engine/playout.py binds it).
 *
 * arena/engine/game.py is the readable reference; this file is the one fast implementation of
 * the same rules: the deal, whole random games, playouts from any position (tile, luck, action
 * and row decisions, random or by the rule a caller names) and the card game's rule rollouts.
 * What it plays it can record in the replay's form (nimmt-replay/1 turns), and the tests verify
 * such records with the Game and with tests/independent_referee.py (tests/test_playout_core.py).
 *
 * Randomness: the core's own generator, SplitMix64 as arena/engine/rng.py specifies it, seeded
 * per call from the caller's (an int, or one getrandbits(64) draw): a seed deals what Game.new
 * deals from it. Nothing here reads the caller's generator's internals.
 */


#include "_playout_core.h"

#include <stddef.h>

/* ------------------------------------------------------------------ the generator */

/* n uniform sorted row positions 0..3 of the card game (two bits each) */
static void random_rows(Gen *g, unsigned char *out, Py_ssize_t n) {
    for (Py_ssize_t j = 0; j < n; j += 32) {
        uint64_t r = gen_next64(g);
        for (Py_ssize_t k = 0; k < 32 && j + k < n; k++) out[j + k] = (unsigned char)((r >> (2 * k)) & 3);
    }
}

/* The generator of a call: an int seed, or one getrandbits(64) draw of the caller's. */
static int gen_seed(PyObject *rng, Gen *g) {
    PyObject *seed;
    if (PyLong_Check(rng)) {
        Py_INCREF(rng);
        seed = rng;
    } else {
        seed = PyObject_CallMethod(rng, "getrandbits", "i", 64);
        if (seed == NULL) {
            if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "rng must be an int seed or a random.Random");
            }
            return -1;
        }
    }
    g->state = PyLong_AsUnsignedLongLongMask(seed);
    Py_DECREF(seed);
    return PyErr_Occurred() ? -1 : 0;
}

/* A policy's capsule (NIMMT_POLICY_CAPSULE), or NULL for None (or an error set). */
static const NimmtPolicy *read_policy(PyObject *obj) {
    if (obj == Py_None) return NULL;
    if (!PyCapsule_IsValid(obj, NIMMT_POLICY_CAPSULE)) {
        PyErr_SetString(PyExc_ValueError, "policy: not a policy's capsule (" NIMMT_POLICY_CAPSULE ")");
        return NULL;
    }
    const NimmtPolicy *p = PyCapsule_GetPointer(obj, NIMMT_POLICY_CAPSULE);
    if (p == NULL) return NULL;
    if (p->version != NIMMT_POLICY_VERSION) {
        PyErr_Format(PyExc_ValueError, "a policy of version %d, the core takes %d", p->version,
                     NIMMT_POLICY_VERSION);
        return NULL;
    }
    return p;
}

/* ------------------------------------------------------------------ argument helpers */

static int read_ints(PyObject *seq, long *out, int cap, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries (%zd)", what, n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(items[i]);
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = x;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_list(PyObject *seq, IntList *out, const char *what) {
    int n = read_ints(seq, out->v, MAX_HAND, what);
    if (n < 0) return -1;
    out->n = n;
    return 0;
}

/* A list of lists of ints (hands), or None entries as n = -1 (chosen tiles use read_opt). */
static int read_hands(PyObject *seq, IntList *hands, int *players, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_SEATS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many seats", what);
        return -1;
    }
    for (Py_ssize_t s = 0; s < n; s++) {
        if (read_list(PySequence_Fast_GET_ITEM(fast, s), &hands[s], what) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    *players = (int)n;
    return 0;
}

/* chosen tiles by seat: an int, or 0 for None */
static int read_chosen(PyObject *seq, long *chosen, int players) {
    PyObject *fast = PySequence_Fast(seq, "chosen");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "chosen: one entry per seat");
        return -1;
    }
    for (int s = 0; s < players; s++) {
        PyObject *x = PySequence_Fast_GET_ITEM(fast, s);
        if (x == Py_None) {
            chosen[s] = 0;
        } else {
            chosen[s] = PyLong_AsLong(x);
            if (chosen[s] == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return -1;
            }
        }
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *scores_list(const long *scores, int players) {
    PyObject *out = PyList_New(players);
    if (out == NULL) return NULL;
    for (int s = 0; s < players; s++) {
        PyObject *x = PyLong_FromLong(scores[s]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, x);
    }
    return out;
}

/* ------------------------------------------------------------------ sequences and codes */

/* sorted(items, key=keys.__getitem__): stable insertion sort. Random play orders a hand by one
 * random key per tile number rather than by a Fisher-Yates shuffle: any part of a hand is then
 * in the same order as within the whole, so a playout with a tile forced is the playout of the
 * position after that tile was chosen, from the same seed (tests/test_playout.py). */
static void sort_by_key(long *items, int n, const double *keys) {
    for (int i = 1; i < n; i++) {
        long x = items[i];
        double kx = keys[x];
        int j = i - 1;
        while (j >= 0 && keys[items[j]] > kx) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = x;
    }
}

static void sort_codes(long *codes, int n) {
    for (int i = 1; i < n; i++) {
        long x = codes[i];
        int j = i - 1;
        while (j >= 0 && codes[j] > x) {
            codes[j + 1] = codes[j];
            j--;
        }
        codes[j + 1] = x;
    }
}

/* _codes(seqs, first_turn): the codes turn << 12 | tile << 4 | seat of every seat's sequence
 * (skip_seat's left out), appended to codes at *n, sorted turn by turn. */
static int append_codes(long *codes, int *n, IntList *seqs, int players, int first_turn,
                        int skip_seat) {
    int longest = 0;
    for (int s = 0; s < players; s++)
        if (s != skip_seat && seqs[s].n > longest) longest = seqs[s].n;
    for (int k = 0; k < longest; k++) {
        int start = *n;
        for (int s = 0; s < players; s++) {
            if (s == skip_seat || k >= seqs[s].n) continue;
            if (*n >= MAX_CODES) {
                PyErr_SetString(PyExc_ValueError, "too many tiles to place");
                return -1;
            }
            codes[(*n)++] = ((long)(first_turn + k) << 12) | (seqs[s].v[k] << 4) | s;
        }
        sort_codes(codes + start, *n - start);
    }
    return 0;
}

/* Merge two sorted code arrays into out. */
static int merge_codes(const long *a, int na, const long *b, int nb, long *out) {
    int i = 0, j = 0, k = 0;
    while (i < na && j < nb) out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na) out[k++] = a[i++];
    while (j < nb) out[k++] = b[j++];
    return k;
}

/* ------------------------------------------------------------------ the loops */

typedef struct {
    long kind[MAX_ROWS * 16];
    long inc[NTILES];
    long bh[NTILES];
    long stride, shift;
    int nkind;
} BasicBoard;

/* a[1..j] = a[0..j-1] (j is small: a plain loop beats a call to memmove) */
static inline void shift_up(long *a, int j) {
    for (int k = j; k > 0; k--) a[k] = a[k - 1];
}

static inline void copy_rows(Rows *to, const Rows *from) {
    int n = from->n;
    to->n = n;
    to->empty = from->empty;
    for (int k = 0; k < n; k++) {
        to->ends[k] = from->ends[k];
        to->state[k] = from->state[k];
        to->rows[k] = from->rows[k];
    }
}

static int bit_length(uint64_t x) {
    int n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

/* _basic_loop */
static int basic_loop(Rows *r, long *scores, const long *codes, int ncodes, const BasicBoard *b) {
    long mask = (1L << b->shift) - 1;
    for (int c = 0; c < ncodes; c++) {
        long code = codes[c];
        long t = (code >> 4) & 255;
        int seat = (int)(code & 15);
        if (t >= NTILES || r->n == 0) {
            PyErr_SetString(PyExc_ValueError, "tile out of range");
            return -1;
        }
        int i = bisect_right(r->ends, r->n, t) - 1;
        if (i < 0) { /* lower than every row: the row with the highest end takes it */
            long last = r->state[r->n - 1];
            shift_up(r->ends, r->n - 1);
            shift_up(r->state, r->n - 1);
            r->state[0] = last;
            i = 0;
        }
        r->ends[i] = t;
        long x = r->state[i];
        long slot = x & mask;
        if (slot >= b->nkind) {
            PyErr_SetString(PyExc_ValueError, "row state out of range");
            return -1;
        }
        long m = b->kind[slot];
        if (!m) {
            r->state[i] = x + b->inc[t];
        } else if (m == 2) { /* final space */
            scores[seat] -= x >> b->shift;
            uint64_t low = r->empty & (~r->empty + 1);
            r->empty ^= low | ((uint64_t)1 << (slot / b->stride));
            r->state[i] = b->inc[t] + (bit_length(low) - 1) * b->stride;
        } else {
            r->state[i] = x + b->inc[t];
            scores[seat] += m * b->bh[t];
        }
    }
    return 0;
}

/* _CLASSIC_INC: 64 + the card game's bullheads of t, filled in at import */
static long classic_inc_table[256];

static void fill_classic_inc(void) {
    for (long t = 0; t < 256; t++) {
        long b = t == 55 ? 7 : t % 11 == 0 ? 5 : t % 10 == 0 ? 3 : t % 5 == 0 ? 2 : 1;
        classic_inc_table[t] = 64 + b;
    }
}

#define classic_inc(t) (classic_inc_table[(t)])

typedef struct {
    const unsigned char *bytes;
    Py_ssize_t n, i;
    const NimmtPolicy *policy; /* PICK_POLICY: its card_row names the row */
} RowDraws;

#define PICK_POLICY (-2)

/* The card game's placements: a card lower than every row takes the row pick_row names (the
 * first time; pick_row >= 0), or the policy's row (PICK_POLICY, every time), or else a random
 * row from ``draws``; ``rec``: the record whose last turn receives the row choices; ``cells``
 * (or NULL): the rows' cards, CLASSIC_ROW_CARDS a row by row number, kept up to date for the
 * environments, which show them (arena/env/core.py). */
#define CLASSIC_ROW_CARDS 5
static int classic_loop(Rows *r, long *scores, const long *codes, int ncodes, long pick_row,
                        RowDraws *draws, PyObject *rec, int *cells) {
    for (int c = 0; c < ncodes; c++) {
        long code = codes[c];
        long t = (code >> 4) & 255;
        int seat = (int)(code & 15);
        int i = bisect_right(r->ends, r->n, t) - 1;
        if (i >= 0) {
            r->ends[i] = t;
            long x = r->state[i];
            if (cells != NULL) {
                int *row = cells + r->rows[i] * CLASSIC_ROW_CARDS;
                if (x >= CLASSIC_FULL) {
                    row[0] = (int)t;
                    for (int k = 1; k < CLASSIC_ROW_CARDS; k++) row[k] = 0;
                } else {
                    row[x >> 6] = (int)t;
                }
            }
            if (x >= CLASSIC_FULL) {
                scores[seat] += x & 63;
                r->state[i] = classic_inc(t);
            } else {
                r->state[i] = x + classic_inc(t);
            }
            continue;
        }
        int j = -1;
        if (pick_row == PICK_POLICY) {
            j = draws->policy->card_row(r);
        } else if (pick_row >= 0) {
            for (int k = 0; k < r->n; k++)
                if (r->rows[k] == pick_row) j = k;
            if (j < 0) {
                PyErr_Format(PyExc_ValueError, "row %ld is not on the board", pick_row);
                return -1;
            }
            pick_row = -1;
        } else {
            if (draws->i >= draws->n) {
                PyErr_SetString(PyExc_RuntimeError, "out of drawn rows");
                return -1;
            }
            j = draws->bytes[draws->i++];
        }
        if (j >= r->n) {
            PyErr_SetString(PyExc_ValueError, "fewer than four rows");
            return -1;
        }
        long row = r->rows[j];
        if (rec != NULL) { /* the row choice, in the last turn's choices */
            Py_ssize_t nrec = PyList_Size(rec);
            PyObject *choices = nrec > 0 ? PyDict_GetItemString(PyList_GET_ITEM(rec, nrec - 1),
                                                                "choices")
                                         : NULL;
            PyObject *choice = choices == NULL ? NULL
                                               : Py_BuildValue("{s:i,s:s,s:l}", "seat", seat,
                                                               "kind", "take_row", "row", row);
            int rc = choice == NULL ? -1 : PyList_Append(choices, choice);
            Py_XDECREF(choice);
            if (rc < 0) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the record has no turn");
                return -1;
            }
        }
        scores[seat] += r->state[j] & 63;
        if (cells != NULL) {
            int *cards = cells + row * CLASSIC_ROW_CARDS;
            cards[0] = (int)t;
            for (int k = 1; k < CLASSIC_ROW_CARDS; k++) cards[k] = 0;
        }
        shift_up(r->ends, j);
        shift_up(r->state, j);
        shift_up(r->rows, j);
        r->ends[0] = t;
        r->state[0] = classic_inc(t);
        r->rows[0] = row;
    }
    return 0;
}

/* The loops turn by turn, each turn appended to ``rec`` in the replay's form ({"plays",
 * "choices", "scores"}; the card game's row choices among its choices). ``mid_turn``: the
 * codes of turn 0 finish a turn whose entry the record already has. */
static int play_recorded(Rows *r, long *scores, const long *codes, int ncodes,
                         const BasicBoard *b, long pick_row, RowDraws *draws, PyObject *rec,
                         int players, int mid_turn) {
    int c = 0;
    while (c < ncodes) {
        long turn = codes[c] >> 12;
        int end = c;
        while (end < ncodes && codes[end] >> 12 == turn) end++;
        if (!(mid_turn && turn == 0)) {
            PyObject *plays = PyList_New(players);
            if (plays == NULL) return -1;
            for (int s = 0; s < players; s++) {
                Py_INCREF(Py_None);
                PyList_SET_ITEM(plays, s, Py_None);
            }
            for (int k = c; k < end; k++)
                if (PyList_SetItem(plays, codes[k] & 15, PyLong_FromLong((codes[k] >> 4) & 255)) <
                    0) {
                    Py_DECREF(plays);
                    return -1;
                }
            PyObject *entry = Py_BuildValue("{s:N,s:[],s:[]}", "plays", plays, "choices", "scores");
            int rc = entry == NULL ? -1 : PyList_Append(rec, entry);
            Py_XDECREF(entry);
            if (rc < 0) return -1;
        }
        int rc = b != NULL ? basic_loop(r, scores, codes + c, end - c, b)
                           : classic_loop(r, scores, codes + c, end - c, pick_row, draws, rec, NULL);
        if (rc < 0) return -1;
        if (pick_row != PICK_POLICY) pick_row = -1;
        PyObject *list = scores_list(scores, players);
        Py_ssize_t nrec = PyList_Size(rec);
        rc = list == NULL || nrec <= 0
                 ? -1
                 : PyDict_SetItemString(PyList_GET_ITEM(rec, nrec - 1), "scores", list);
        Py_XDECREF(list);
        if (rc < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the record has no turn");
            return -1;
        }
        c = end;
    }
    return 0;
}

/* ------------------------------------------------------------------ boards */

static void board_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, "nimmt.basic_board"));
}

/* basic_board(fast_kind, inc, bh, stride, shift): the basic loop's tables, once per board */
static PyObject *py_basic_board(PyObject *self, PyObject *args) {
    PyObject *kind, *inc, *bh;
    long stride, shift;
    if (!PyArg_ParseTuple(args, "OOOll", &kind, &inc, &bh, &stride, &shift)) return NULL;
    BasicBoard *b = PyMem_Calloc(1, sizeof(BasicBoard));
    if (b == NULL) return PyErr_NoMemory();
    int n = read_ints(kind, b->kind, MAX_ROWS * 16, "fast_kind");
    if (n < 0 || read_ints(inc, b->inc, NTILES, "inc") < 0 ||
        read_ints(bh, b->bh, NTILES, "bh") < 0) {
        PyMem_Free(b);
        return NULL;
    }
    if (stride <= 0 || shift <= 0 || shift > 20) {
        PyMem_Free(b);
        PyErr_SetString(PyExc_ValueError, "bad stride or shift");
        return NULL;
    }
    b->nkind = n;
    b->stride = stride;
    b->shift = shift;
    return PyCapsule_New(b, "nimmt.basic_board", board_free);
}

static int read_rows(Rows *r, PyObject *ends, PyObject *state, PyObject *rows,
                     unsigned long long empty) {
    memset(r, 0, sizeof(Rows));
    int n = read_ints(ends, r->ends, MAX_ROWS, "ends");
    if (n < 0) return -1;
    if (read_ints(state, r->state, MAX_ROWS, "state") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one state per row end");
        return -1;
    }
    if (rows != Py_None && read_ints(rows, r->rows, MAX_ROWS, "rows") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one row per row end");
        return -1;
    }
    r->n = n;
    r->empty = empty;
    return 0;
}

/* ------------------------------------------------------------------ entry points */

/* tile_playouts(rng, board, ends, state, rows, empty, scores, hands, chosen, second, seat,
 *               tiles, turns, left, repeat)
 *
 * Position.playout / Position.playouts on the fast loops with a tile choice pending
 * (board: a basic_board, or None for the card game). ``second``: each seat's second set
 * (basic, 2-3 players) or None. ``tiles``: ``seat``'s tile decisions (a list, one result
 * each), or None for one playout where seat (or -1) plays nothing forced. ``left``: how many
 * rows the card game draws up front. ``repeat``: how many times the whole call is repeated
 * with the generator running on (results concatenated): ``repeat`` calls in one. */
static PyObject *py_tile_playouts(PyObject *self, PyObject *args) {
    PyObject *rng, *board, *ends, *state, *rows, *scores_in, *hands_in, *chosen_in, *second_in,
        *tiles_in, *record = Py_None;
    unsigned long long empty;
    int seat, turns, repeat;
    Py_ssize_t left;
    if (!PyArg_ParseTuple(args, "OOOOOKOOOOiOini|O", &rng, &board, &ends, &state, &rows, &empty,
                          &scores_in, &hands_in, &chosen_in, &second_in, &seat, &tiles_in, &turns,
                          &left, &repeat, &record))
        return NULL;
    if (record != Py_None && (!PyList_Check(record) || repeat != 1 ||
                              (tiles_in != Py_None && PySequence_Size(tiles_in) != 1))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "record: a list, for one playout only");
        return NULL;
    }
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    const BasicBoard *b = NULL;
    if (board != Py_None) {
        b = PyCapsule_GetPointer(board, "nimmt.basic_board");
        if (b == NULL) return NULL;
    }
    Rows start;
    if (read_rows(&start, ends, state, rows, empty) < 0) return NULL;
    long scores0[MAX_SEATS];
    IntList hands[MAX_SEATS], second[MAX_SEATS];
    long chosen[MAX_SEATS];
    int players, p2 = 0;
    if (read_hands(hands_in, hands, &players, "hands") < 0) return NULL;
    if (read_ints(scores_in, scores0, MAX_SEATS, "scores") != players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one score per seat");
        return NULL;
    }
    if (read_chosen(chosen_in, chosen, players) < 0) return NULL;
    if (second_in != Py_None) {
        if (read_hands(second_in, second, &p2, "second") < 0) return NULL;
        if (p2 != players) {
            PyErr_SetString(PyExc_ValueError, "second: one set per seat");
            return NULL;
        }
    }
    long tiles[MAX_HAND];
    int ntiles = 1, forced = 0;
    if (tiles_in != Py_None) {
        ntiles = read_ints(tiles_in, tiles, MAX_HAND, "tiles");
        if (ntiles < 0) return NULL;
        forced = 1;
    }
    if (seat >= players || (forced && seat < 0) || left < 0 || left > 4096 || repeat < 1) {
        PyErr_SetString(PyExc_ValueError, "bad seat, left or repeat");
        return NULL;
    }
    for (int s = 0; s < players; s++)
        for (int k = 0; k < hands[s].n; k++)
            if (hands[s].v[k] <= 0 || hands[s].v[k] >= NTILES) {
                PyErr_SetString(PyExc_ValueError, "a tile out of range");
                return NULL;
            }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    unsigned char draws[4096];
    for (int rep = 0; rep < repeat; rep++) {
        if (rep > 0 && !PyLong_Check(rng) && gen_seed(rng, gen) < 0) { /* a round: a call */
            Py_XDECREF(out);
            return NULL;
        }
        double keys[NTILES];
        for (int i = 0; i < NTILES; i++) keys[i] = gen_random(gen);
        /* _sequences(key, None, None): each seat's tiles in a random playing order */
        IntList seqs[MAX_SEATS];
        for (int s = 0; s < players; s++) {
            IntList *q = &seqs[s];
            q->n = 0;
            if (chosen[s]) q->v[q->n++] = chosen[s];
            memcpy(q->v + q->n, hands[s].v, (size_t)hands[s].n * sizeof(long));
            sort_by_key(q->v + q->n, hands[s].n, keys);
            q->n += hands[s].n;
            if (p2) {
                if (q->n + second[s].n > MAX_HAND) {
                    Py_DECREF(out);
                    PyErr_SetString(PyExc_ValueError, "hand too long");
                    return NULL;
                }
                memcpy(q->v + q->n, second[s].v, (size_t)second[s].n * sizeof(long));
                sort_by_key(q->v + q->n, second[s].n, keys);
                q->n += second[s].n;
            }
            if (turns && q->n > turns) q->n = turns;
        }
        RowDraws rd = {draws, 0, 0, NULL};
        if (b == NULL) {
            random_rows(gen, draws, left);
            rd.n = left;
        }
        long others[MAX_CODES], own[MAX_CODES], codes[MAX_CODES];
        int nothers = 0;
        if (append_codes(others, &nothers, seqs, players, 0, forced ? seat : -1) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        for (int d = 0; d < ntiles; d++) {
            int ncodes = nothers;
            const long *play = others;
            if (forced) {
                /* own = [tile, *(t for t in hand if t != tile)], cut to turns */
                IntList mine;
                mine.n = 0;
                long tile = tiles[d];
                IntList *hand = &hands[seat];
                int found = 0;
                for (int k = 0; k < hand->n; k++) found |= hand->v[k] == tile;
                if (!found || chosen[seat]) {
                    Py_DECREF(out);
                    PyErr_Format(PyExc_ValueError, "tile %ld is not a choice of seat %d", tile,
                                 seat);
                    return NULL;
                }
                mine.v[mine.n++] = tile;
                /* seqs[seat] may be cut to turns: the first turns - 1 tiles other than
                 * tile are the same as the uncut sequence's */
                const IntList full_seq = seqs[seat];
                for (int k = 0; k < full_seq.n; k++)
                    if (full_seq.v[k] != tile) mine.v[mine.n++] = full_seq.v[k];
                if (turns && mine.n > turns) mine.n = turns;
                int nown = 0;
                if (append_codes(own, &nown, &mine, 1, 0, -1) < 0) {
                    Py_DECREF(out);
                    return NULL;
                }
                for (int k = 0; k < nown; k++) own[k] = (own[k] & ~15L) | seat;
                ncodes = merge_codes(others, nothers, own, nown, codes);
                play = codes;
            }
            Rows r;
            copy_rows(&r, &start);
            long scores[MAX_SEATS];
            memcpy(scores, scores0, sizeof(scores));
            rd.i = 0;
            int rc = record != Py_None ? play_recorded(&r, scores, play, ncodes, b, -1, &rd,
                                                       record, players, 0)
                     : b != NULL ? basic_loop(&r, scores, play, ncodes, b)
                                 : classic_loop(&r, scores, play, ncodes, -1, &rd, NULL, NULL);
            PyObject *result = rc < 0 ? NULL : scores_list(scores, players);
            if (result == NULL || PyList_Append(out, result) < 0) {
                Py_XDECREF(result);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(result);
        }
    }
    return out;
}

/* row_playouts(rng, ends, state, rows, scores, head, hands, turns, left, picks, repeat)
 *
 * The card game with a row choice pending: ``head`` the codes of this turn's tiles still to
 * place (the asking one first), ``hands`` the tiles for the later turns, ``picks`` the rows
 * to try (one result each) or None for a random pick. */
static PyObject *py_row_playouts(PyObject *self, PyObject *args) {
    PyObject *rng, *ends, *state, *rows, *scores_in, *head_in, *hands_in, *picks_in,
        *record = Py_None;
    int turns, repeat;
    Py_ssize_t left;
    if (!PyArg_ParseTuple(args, "OOOOOOOinOi|O", &rng, &ends, &state, &rows, &scores_in,
                          &head_in, &hands_in, &turns, &left, &picks_in, &repeat, &record))
        return NULL;
    if (record != Py_None && (!PyList_Check(record) || repeat != 1 ||
                              (picks_in != Py_None && PySequence_Size(picks_in) != 1))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "record: a list, for one playout only");
        return NULL;
    }
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    Rows start;
    if (read_rows(&start, ends, state, rows, 0) < 0) return NULL;
    IntList hands[MAX_SEATS];
    int players;
    if (read_hands(hands_in, hands, &players, "hands") < 0) return NULL;
    long scores0[MAX_SEATS];
    if (read_ints(scores_in, scores0, MAX_SEATS, "scores") != players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one score per seat");
        return NULL;
    }
    long head[MAX_SEATS * 4];
    int nhead = read_ints(head_in, head, MAX_SEATS * 4, "head");
    if (nhead < 0) return NULL;
    long picks[MAX_ROWS];
    int npicks = 1;
    long no_pick = -1;
    const long *pick = &no_pick;
    if (picks_in != Py_None) {
        npicks = read_ints(picks_in, picks, MAX_ROWS, "picks");
        if (npicks < 0) return NULL;
        pick = picks;
    }
    if (left < 0 || left > 4096 || repeat < 1) {
        PyErr_SetString(PyExc_ValueError, "bad left or repeat");
        return NULL;
    }
    for (int s = 0; s < players; s++)
        for (int k = 0; k < hands[s].n; k++)
            if (hands[s].v[k] <= 0 || hands[s].v[k] >= NTILES) {
                PyErr_SetString(PyExc_ValueError, "a tile out of range");
                return NULL;
            }
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    unsigned char draws[4096];
    for (int rep = 0; rep < repeat; rep++) {
        if (rep > 0 && !PyLong_Check(rng) && gen_seed(rng, gen) < 0) { /* a round: a call */
            Py_XDECREF(out);
            return NULL;
        }
        double keys[NTILES];
        for (int i = 0; i < NTILES; i++) keys[i] = gen_random(gen);
        random_rows(gen, draws, left);
        IntList later[MAX_SEATS];
        for (int s = 0; s < players; s++) {
            later[s] = hands[s];
            sort_by_key(later[s].v, later[s].n, keys);
            if (turns && later[s].n > turns - 1) later[s].n = turns - 1;
        }
        long codes[MAX_CODES];
        int ncodes = nhead;
        memcpy(codes, head, (size_t)nhead * sizeof(long));
        if (append_codes(codes, &ncodes, later, players, 1, -1) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        for (int d = 0; d < npicks; d++) {
            Rows r;
            copy_rows(&r, &start);
            long scores[MAX_SEATS];
            memcpy(scores, scores0, sizeof(scores));
            RowDraws rd = {draws, left, 0, NULL};
            long first = pick[picks_in == Py_None ? 0 : d];
            int rc = record != Py_None ? play_recorded(&r, scores, codes, ncodes, NULL, first, &rd,
                                                       record, players, 1)
                                       : classic_loop(&r, scores, codes, ncodes, first, &rd, NULL, NULL);
            PyObject *result = rc < 0
                                   ? NULL
                                   : scores_list(scores, players);
            if (result == NULL || PyList_Append(out, result) < 0) {
                Py_XDECREF(result);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(result);
        }
    }
    return out;
}

/* random_games(board, players, tiles, hand_size, second, rng, count[, record])
 *
 * Whole random games of basic (board: a basic_board) or the card game (board None), ``count``
 * of them, their final scores. Each is dealt as Game.new deals from a seed (RULES.md 2: the
 * tiles 1..``tiles`` in a Fisher-Yates order of SplitMix64, as arena/engine/rng.py's
 * DealRandom.shuffle; four rows, then a hand of ``hand_size`` per seat, the rest the supply,
 * of which 2-3 players draw a second hand each when ``second``), and played at random: each
 * seat plays its hand in the order dealt (a uniformly random order), a card lower than every
 * row takes a uniformly random row. The generator runs on from the deal into the play and
 * from one game into the next. ``record`` (one game): a list that receives the turns. */
static PyObject *py_random_games(PyObject *self, PyObject *args) {
    PyObject *board, *rng, *record = Py_None;
    int players, ntiles, hs, second, count;
    if (!PyArg_ParseTuple(args, "OiiipOi|O", &board, &players, &ntiles, &hs, &second, &rng,
                          &count, &record))
        return NULL;
    const BasicBoard *b = NULL;
    if (board != Py_None) {
        b = PyCapsule_GetPointer(board, "nimmt.basic_board");
        if (b == NULL) return NULL;
    }
    int sets = second ? 2 : 1;
    if (players < 1 || players > 10 || ntiles < 1 || ntiles >= NTILES || hs < 1 || count < 0 ||
        4 + players * hs * sets > ntiles || players * hs * sets > MAX_CODES ||
        hs * sets >= 4096 || (b != NULL && b->nkind / b->stride < 4)) {
        PyErr_SetString(PyExc_ValueError, "random_games: bad players, tiles or hand size");
        return NULL;
    }
    if (record != Py_None && (!PyList_Check(record) || count != 1)) {
        PyErr_SetString(PyExc_ValueError, "record: a list, for one game only");
        return NULL;
    }
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    int nrows = b != NULL ? (int)(b->nkind / b->stride) : 4;
    long tiles[NTILES], codes[MAX_CODES];
    unsigned char draws[MAX_CODES];
    for (int game = 0; game < count; game++) {
        for (int i = 0; i < ntiles; i++) tiles[i] = i + 1;
        for (int i = ntiles - 1; i > 0; i--) { /* DealRandom.shuffle */
            int j = (int)gen_below(gen, (uint64_t)i + 1);
            long x = tiles[i];
            tiles[i] = tiles[j];
            tiles[j] = x;
        }
        /* the codes turn << 12 | tile << 4 | seat, turn by turn, sorted within each turn */
        int n = 0;
        for (int k = 0; k < hs * sets; k++) {
            int set = k / hs, i = k % hs, start = n;
            for (int s = 0; s < players; s++) {
                long t = tiles[4 + set * players * hs + s * hs + i];
                long code = ((long)k << 12) | (t << 4) | s;
                int j = n++;
                while (j > start && codes[j - 1] > code) {
                    codes[j] = codes[j - 1];
                    j--;
                }
                codes[j] = code;
            }
        }
        Rows r;
        r.n = 4;
        r.empty = b != NULL ? (((uint64_t)1 << nrows) - 1) & ~(uint64_t)15 : 0;
        for (int i = 0; i < 4; i++) { /* rows 0-3 by their tiles, sorted */
            int j = i;
            while (j > 0 && r.ends[j - 1] > tiles[i]) {
                r.ends[j] = r.ends[j - 1];
                r.rows[j] = r.rows[j - 1];
                j--;
            }
            r.ends[j] = tiles[i];
            r.rows[j] = i;
        }
        for (int i = 0; i < 4; i++)
            r.state[i] = b != NULL ? b->inc[r.ends[i]] + r.rows[i] * b->stride
                                   : classic_inc(r.ends[i]);
        RowDraws rd = {draws, 0, 0, NULL};
        if (b == NULL) {
            random_rows(gen, draws, n);
            rd.n = n;
        }
        long scores[MAX_SEATS] = {0};
        int rc = record != Py_None ? play_recorded(&r, scores, codes, n, b, -1, &rd, record,
                                                   players, 0)
                 : b != NULL ? basic_loop(&r, scores, codes, n, b)
                             : classic_loop(&r, scores, codes, n, -1, &rd, NULL, NULL);
        PyObject *result = rc < 0 ? NULL : scores_list(scores, players);
        if (result == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, game, result);
    }
    return out;
}

/* deal_orders(seed, sizes) -> (orders, state)
 *
 * Game.new's shuffles from ``seed`` (arena/engine/rng.py's DealRandom.shuffle, one after the
 * other): for each size n in ``sizes`` the order of positions 0..n-1, and the generator's state
 * after the last (the play goes on from there). */
static PyObject *py_deal_orders(PyObject *self, PyObject *args) {
    PyObject *rng, *sizes_in;
    if (!PyArg_ParseTuple(args, "OO", &rng, &sizes_in)) return NULL;
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    long sizes[8];
    int nsizes = read_ints(sizes_in, sizes, 8, "sizes");
    if (nsizes < 0) return NULL;
    PyObject *orders = PyList_New(nsizes);
    if (orders == NULL) return NULL;
    for (int k = 0; k < nsizes; k++) {
        long n = sizes[k], order[4096];
        if (n < 0 || n > 4096) {
            Py_DECREF(orders);
            PyErr_SetString(PyExc_ValueError, "deal_orders: a size from 0 to 4096");
            return NULL;
        }
        for (long i = 0; i < n; i++) order[i] = i;
        for (long i = n - 1; i > 0; i--) {
            long j = (long)gen_below(gen, (uint64_t)i + 1), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        PyObject *list = PyList_New(n);
        if (list == NULL) {
            Py_DECREF(orders);
            return NULL;
        }
        for (long i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(order[i]));
        PyList_SET_ITEM(orders, k, list);
    }
    return Py_BuildValue("(NK)", orders, (unsigned long long)gen->state);
}

/* rule_playouts(rng, policy, rows, hands, chosen, scores, seat, tiles, explore[, record])
 *
 * The card game played on by a policy (a capsule; arena/bots/rollouts.py's classic_playouts
 * passes the house bots' rule): one playout per tile of ``seat`` in ``tiles``, every seat
 * after that playing the card the policy's card_tile names (``explore``: its share of random
 * cards) and taking the row its card_row names, each from the same generator state.
 * ``rows``: the board's rows, their tiles. ``record``: a list for the turns (one tile). */
static PyObject *py_rule_playouts(PyObject *self, PyObject *args) {
    PyObject *rng, *policy_in, *rows_in, *hands_in, *chosen_in, *scores_in, *tiles_in,
        *record = Py_None;
    int seat;
    double explore;
    if (!PyArg_ParseTuple(args, "OOOOOOiOd|O", &rng, &policy_in, &rows_in, &hands_in, &chosen_in,
                          &scores_in, &seat, &tiles_in, &explore, &record))
        return NULL;
    const NimmtPolicy *policy = read_policy(policy_in);
    if (policy == NULL || policy->card_tile == NULL || policy->card_row == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rule_playouts: a policy of the card game's tiles and rows");
        return NULL;
    }
    if (record != Py_None && (!PyList_Check(record) || PySequence_Size(tiles_in) != 1)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "record: a list, for one playout only");
        return NULL;
    }
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    IntList rows[MAX_SEATS], hands0[MAX_SEATS];
    int nrows, players;
    if (read_hands(rows_in, rows, &nrows, "rows") < 0) return NULL;
    if (read_hands(hands_in, hands0, &players, "hands") < 0) return NULL;
    long chosen[MAX_SEATS], scores0[MAX_SEATS], tiles[MAX_HAND];
    if (read_chosen(chosen_in, chosen, players) < 0) return NULL;
    if (read_ints(scores_in, scores0, MAX_SEATS, "scores") != players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one score per seat");
        return NULL;
    }
    int ntiles = read_ints(tiles_in, tiles, MAX_HAND, "tiles");
    if (ntiles < 0) return NULL;
    if (seat < 0 || seat >= players || nrows < 1 || nrows > MAX_ROWS) {
        PyErr_SetString(PyExc_ValueError, "bad seat or rows");
        return NULL;
    }
    for (int s = 0; s < players; s++)
        for (int k = 0; k < hands0[s].n; k++)
            if (hands0[s].v[k] <= 0 || hands0[s].v[k] >= NTILES) {
                PyErr_SetString(PyExc_ValueError, "a tile out of range");
                return NULL;
            }
    for (int s = 0; s < players; s++)
        if (chosen[s] < 0 || chosen[s] >= NTILES) {
            PyErr_SetString(PyExc_ValueError, "a tile out of range");
            return NULL;
        }
    /* the rows by their last card, as classic_loop keeps them */
    Rows start;
    memset(&start, 0, sizeof(Rows));
    for (int r = 0; r < nrows; r++) {
        if (rows[r].n < 1 || rows[r].n > 5) {
            PyErr_SetString(PyExc_ValueError, "a row of the card game holds 1 to 5 cards");
            return NULL;
        }
        long last = rows[r].v[rows[r].n - 1], heads = 0;
        for (int k = 0; k < rows[r].n; k++) {
            if (rows[r].v[k] <= 0 || rows[r].v[k] >= NTILES) {
                PyErr_SetString(PyExc_ValueError, "a tile out of range");
                return NULL;
            }
            heads += classic_inc(rows[r].v[k]) - 64;
        }
        int j = r; /* insertion by last card */
        while (j > 0 && start.ends[j - 1] > last) {
            start.ends[j] = start.ends[j - 1];
            start.state[j] = start.state[j - 1];
            start.rows[j] = start.rows[j - 1];
            j--;
        }
        start.ends[j] = last;
        start.state[j] = ((long)rows[r].n << 6) | heads;
        start.rows[j] = r;
    }
    start.n = nrows;
    Gen saved = *gen;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (int d = 0; d < ntiles; d++) {
        *gen = saved;
        IntList hands[MAX_SEATS];
        long first[MAX_SEATS], scores[MAX_SEATS];
        int found = -1;
        for (int s = 0; s < players; s++) {
            hands[s].n = hands0[s].n;
            memcpy(hands[s].v, hands0[s].v, (size_t)hands0[s].n * sizeof(long));
            first[s] = chosen[s];
            scores[s] = scores0[s];
        }
        first[seat] = tiles[d];
        for (int k = 0; k < hands[seat].n && found < 0; k++)
            if (hands[seat].v[k] == tiles[d]) found = k;
        if (found < 0) {
            Py_DECREF(out);
            PyErr_Format(PyExc_ValueError, "tile %ld is not in the hand of seat %d", tiles[d],
                         seat);
            return NULL;
        }
        for (int k = found; k + 1 < hands[seat].n; k++) hands[seat].v[k] = hands[seat].v[k + 1];
        hands[seat].n--;
        Rows r;
        copy_rows(&r, &start);
        RowDraws rd = {NULL, 0, 0, policy};
        int forced = 1;
        for (long turn = 0;; turn++) {
            long plays[MAX_SEATS];
            int nplays = 0;
            for (int s = 0; s < players; s++) {
                if (forced && first[s]) {
                    plays[nplays++] = turn << 12 | first[s] << 4 | s;
                    continue;
                }
                IntList *hand = &hands[s];
                if (!hand->n) continue;
                int k = policy->card_tile(gen, &r, hand, explore);
                if (k < 0 || k >= hand->n) {
                    Py_DECREF(out);
                    PyErr_SetString(PyExc_ValueError, "the policy chose no card of the hand");
                    return NULL;
                }
                plays[nplays++] = turn << 12 | hand->v[k] << 4 | s;
                for (int j = k; j + 1 < hand->n; j++) hand->v[j] = hand->v[j + 1];
                hand->n--;
            }
            forced = 0;
            if (!nplays) break;
            sort_codes(plays, nplays);
            int rc = record != Py_None
                         ? play_recorded(&r, scores, plays, nplays, NULL, PICK_POLICY, &rd,
                                         record, players, 0)
                         : classic_loop(&r, scores, plays, nplays, PICK_POLICY, &rd, NULL, NULL);
            if (rc < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        PyObject *result = scores_list(scores, players);
        if (result == NULL || PyList_Append(out, result) < 0) {
            Py_XDECREF(result);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(result);
    }
    return out;
}

/* ------------------------------------------------------------------ general simulator */
/* Basic + luck and the professional version (basic too, from any point), random
 * decisions (the first one forced if asked). Cards are codes: luck 0 plus5, 1 final10;
 * actions by their index in ACTION_CARDS. */

static const char *const action_names[8] = {"stop",      "swap",     "skip",    "front",
                                            "ascending", "anywhere", "another", "plus5"};
static const char *const luck_names[2] = {"plus5", "final10"};

/* Recording (Sim.rec): each turn a {"plays", "choices", "scores"} dict, as a replay has it. */
static void rec_turn(Sim *m, const int *codes, int n) {
    PyObject *plays = PyList_New(m->players);
    if (plays == NULL) goto fail;
    for (int s = 0; s < m->players; s++) {
        Py_INCREF(Py_None);
        PyList_SET_ITEM(plays, s, Py_None);
    }
    for (int i = 0; i < n; i++) {
        PyObject *t = PyLong_FromLong(codes[i] >> 4);
        if (t == NULL) {
            Py_DECREF(plays);
            goto fail;
        }
        PyList_SetItem(plays, codes[i] & 15, t);
    }
    PyObject *turn = Py_BuildValue("{s:N,s:[],s:[]}", "plays", plays, "choices", "scores");
    if (turn == NULL || PyList_Append(m->rec, turn) < 0) {
        Py_XDECREF(turn);
        goto fail;
    }
    Py_DECREF(turn);
    return;
fail:
    m->err = 2;
}

/* the last turn's entry under key (a borrowed reference), NULL with m->err set if none */
static PyObject *rec_last(Sim *m, const char *key) {
    Py_ssize_t n = PyList_Size(m->rec);
    PyObject *item = n > 0 ? PyDict_GetItemString(PyList_GET_ITEM(m->rec, n - 1), key) : NULL;
    if (item == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the record has no turn");
        m->err = 2;
    }
    return item;
}

static int rec_set(PyObject *dict, const char *key, long value) {
    PyObject *v = PyLong_FromLong(value);
    int rc = v == NULL ? -1 : PyDict_SetItemString(dict, key, v);
    Py_XDECREF(v);
    return rc;
}

static void rec_choice(Sim *m, PyObject *choice) {
    PyObject *choices = choice == NULL ? NULL : rec_last(m, "choices");
    if (choices == NULL || PyList_Append(choices, choice) < 0) m->err = 2;
    Py_XDECREF(choice);
}

static void rec_scores(Sim *m) {
    Py_ssize_t n = PyList_Size(m->rec);
    PyObject *scores = PyList_New(m->players);
    if (n <= 0 || scores == NULL) {
        Py_XDECREF(scores);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the record has no turn");
        m->err = 2;
        return;
    }
    for (int s = 0; s < m->players; s++) PyList_SET_ITEM(scores, s, PyLong_FromLong(m->scores[s]));
    if (PyErr_Occurred() ||
        PyDict_SetItemString(PyList_GET_ITEM(m->rec, n - 1), "scores", scores) < 0)
        m->err = 2;
    Py_DECREF(scores);
}

static inline double g_random(Sim *m) { return gen_random(m->gen); }

static int g_bisect(const Sim *m, int x) {
    int lo = 0;
    for (int k = 0; k < m->nends; k++) lo += m->ends[k] <= x;
    return lo;
}

static void g_insert_end(Sim *m, int end, int row) {
    int k = g_bisect(m, end);
    for (int j = m->nends; j > k; j--) {
        m->ends[j] = m->ends[j - 1];
        m->erow[j] = m->erow[j - 1];
    }
    m->ends[k] = end;
    m->erow[k] = row;
    m->nends++;
}

static void g_del_end(Sim *m, int i) {
    for (int j = i; j + 1 < m->nends; j++) {
        m->ends[j] = m->ends[j + 1];
        m->erow[j] = m->erow[j + 1];
    }
    m->nends--;
}

static void g_set_end(Sim *m, int i, int end, int row) {
    if ((i == 0 || m->ends[i - 1] < end) && (i + 1 == m->nends || end < m->ends[i + 1])) {
        m->ends[i] = end;
        m->erow[i] = row;
    } else {
        g_del_end(m, i);
        g_insert_end(m, end, row);
    }
}

static void g_to_hand(Sim *m, int seat, int tile) {
    int n = m->nh[seat];
    if (n >= G_HAND) {
        m->err = 1;
        return;
    }
    int at = (int)(g_random(m) * (n + 1));
    int *hand = m->hands[seat];
    for (int j = n; j > at; j--) hand[j] = hand[j - 1];
    hand[at] = tile;
    m->nh[seat] = n + 1;
}

static int g_target(const Sim *m, int t) {
    int i = g_bisect(m, t) - 1;
    return i >= 0 ? i : m->nends - 1;
}

static int g_index_of_row(const Sim *m, int row) {
    for (int k = 0; k < m->nends; k++)
        if (m->erow[k] == row) return k;
    return -1;
}

static void g_after_loss(Sim *m, int seat);

static void g_land(Sim *m, int seat, int t, int row, int space, int bonus, int i) {
    const GBoard *b = m->board;
    int len = b->length[row];
    if (i < 0 || space >= len) {
        m->err = 1;
        return;
    }
    int *spaces = m->spaces[row];
    spaces[space] = t;
    long delta = bonus;
    if (space == len - 1) { /* the row is complete */
        if (m->f10[row]) {
            delta += 10;
            m->f10[row] = 0;
        }
        if (b->claim[row]) {
            int taken[G_SPACES], n = 0;
            for (int s = 0; s < len; s++)
                if (spaces[s] > 0 && spaces[s] != t) taken[n++] = spaces[s];
            for (int k = 0; k < n; k++) g_to_hand(m, seat, taken[k]);
        } else {
            delta -= m->rsum[row];
        }
        for (int s = 0; s < len; s++) spaces[s] = 0;
        for (int s = 0; s < len; s++) m->kind[row][s] = b->kinds[row][s];
        m->fill[row] = 0;
        int dest = 0;
        while (dest < b->nrows && (dest == row || m->fill[dest])) dest++;
        if (dest >= b->nrows) {
            m->err = 1;
            return;
        }
        m->spaces[dest][0] = t;
        m->fill[dest] = 1;
        m->rsum[row] = 0;
        m->rsum[dest] = m->bh[t];
        g_set_end(m, i, t, dest);
    } else {
        m->fill[row] = space + 1;
        m->rsum[row] += m->bh[t];
        g_set_end(m, i, t, row);
        int k = m->kind[row][space];
        if (bonus && m->plus5_replaces) {
            /* a Plus five card: a +5 space for this placement, nothing else happens */
        } else if (k == K_PLUS5) {
            delta += 5;
        } else if (k == K_PLUS) {
            delta += m->bh[t];
        } else if (k == K_MINUS) {
            delta -= m->bh[t];
        } else if (k == K_DRAW) {
            if (m->sup_i < m->nsupply) g_to_hand(m, seat, m->supply[m->sup_i++]);
        } else if (k == K_ACTION && m->act_i < m->nactions) {
            if (m->nheld[seat] >= G_HELD) {
                m->err = 1;
                return;
            }
            m->held[seat][m->nheld[seat]++] = m->actions[m->act_i++];
        }
    }
    m->scores[seat] += delta;
    if (delta < 0 && m->luck_i < m->nluck) g_after_loss(m, seat);
}

static void g_place_normally(Sim *m, int seat, int t, int bonus) {
    int i = g_target(m, t);
    if (i < 0) {
        m->err = 1;
        return;
    }
    int row = m->erow[i];
    g_land(m, seat, t, row, m->fill[row], bonus, i);
}

/* _free_spaces: the first free space (first_only) or a uniform one among all; -1: none */
static int g_free_spaces(const Sim *m, int card, int *rs, int *ss) {
    int n = 0;
    const GBoard *b = m->board;
    if (card == 0) {
        for (int r = 0; r < b->nrows; r++) {
            int from = m->fill[r] ? m->fill[r] : 1;
            for (int s = from; s < b->length[r] - 1; s++)
                if (m->kind[r][s] != K_PLUS5) {
                    rs[n] = r;
                    ss[n++] = s;
                }
        }
    } else {
        for (int r = 0; r < b->nrows; r++)
            if (!m->f10[r]) {
                rs[n] = r;
                ss[n++] = b->length[r] - 1;
            }
    }
    return n;
}

/* _random_space: 1 and the space, or 0 if there is none */
static int g_random_space(Sim *m, int card, int *row, int *space) {
    const GBoard *b = m->board;
    if (card == 0) {
        int n = b->nmiddle;
        for (int k = 0; k < 8; k++) {
            int j = (int)(g_random(m) * n);
            if (j >= n) {
                m->err = 1;
                return 0;
            }
            int r = b->middle_r[j], s = b->middle_s[j];
            if (s >= m->fill[r] && m->kind[r][s] != K_PLUS5) {
                *row = r;
                *space = s;
                return 1;
            }
        }
    } else {
        int n = b->nrows;
        for (int k = 0; k < 4; k++) {
            int r = (int)(g_random(m) * n);
            if (!m->f10[r]) {
                *row = r;
                *space = b->length[r] - 1;
                return 1;
            }
        }
    }
    int rs[G_ROWS * G_SPACES], ss[G_ROWS * G_SPACES];
    int n = g_free_spaces(m, card, rs, ss);
    if (!n) return 0;
    int j = (int)(g_random(m) * n);
    *row = rs[j];
    *space = ss[j];
    return 1;
}

static void g_put_marker(Sim *m, int seat, int card, int row, int space) {
    if (m->rec != NULL)
        rec_choice(m, Py_BuildValue("{s:i,s:s,s:s,s:i,s:i}", "seat", seat, "kind", "luck", "card",
                                    luck_names[card], "row", row, "space", space));
    if (card == 0)
        m->kind[row][space] = K_PLUS5;
    else
        m->f10[row] = 1;
}

/* Sim.err when a step-by-step Sim stops at a decision it has no answer for (Sim.script) */
#define G_ASKED 3

/* the next answer of m->script, which must be of ``kind``: 1 with it in *d; -1 with m->err set
 * if there is none (G_ASKED: the question is in m->ask, ``what`` the card or the tile) or it is
 * of another kind */
static int g_answer(Sim *m, int kind, int seat, int what, Forced *d) {
    if (m->iscript >= m->nscript) {
        m->ask.kind = kind;
        m->ask.a = seat;
        m->ask.b = what;
        m->err = G_ASKED;
        return -1;
    }
    *d = m->script[m->iscript++];
    if (d->kind != kind) {
        m->err = 1;
        return -1;
    }
    return 1;
}

static void g_luck(Sim *m, int seat, int card) {
    int row, space;
    if (m->forced.kind != F_NONE || m->script != NULL) {
        Forced d = m->forced;
        if (m->forced.kind != F_NONE) {
            m->forced.kind = F_NONE;
            if (d.kind != F_LUCK) {
                m->err = 1;
                return;
            }
        } else if (g_answer(m, F_LUCK, seat, card, &d) < 0) {
            return;
        }
        row = d.a;
        space = d.b;
        if (row < 0 || row >= m->board->nrows || space < 0 || space >= m->board->length[row]) {
            m->err = 1;
            return;
        }
    } else if (!g_random_space(m, card, &row, &space)) {
        m->err = 1;
        return;
    }
    g_put_marker(m, seat, card, row, space);
}

static void g_after_loss(Sim *m, int seat) {
    int card = m->luck[m->luck_i];
    if (m->forced.kind != F_NONE || m->script != NULL) {
        int rs[G_ROWS * G_SPACES], ss[G_ROWS * G_SPACES];
        if (g_free_spaces(m, card, rs, ss)) {
            m->luck_i++;
            g_luck(m, seat, card);
        }
        return;
    }
    int row, space;
    if (g_random_space(m, card, &row, &space)) {
        m->luck_i++;
        g_put_marker(m, seat, card, row, space);
    }
}

static int g_holds(const Sim *m, int seat, int card) {
    for (int k = 0; k < m->nheld[seat]; k++)
        if (m->held[seat][k] == card) return 1;
    return 0;
}

static int g_front_rows(const Sim *m, int t, int *rows) {
    int n = 0;
    for (int k = 0; k < m->nends; k++) {
        int r = m->erow[k];
        const int *spaces = m->spaces[r];
        int len = m->board->length[r];
        if (spaces[0] > t && len - m->fill[r] >= 2) {
            int skipped = 0;
            for (int s = 0; s < len; s++) skipped |= spaces[s] == -1;
            if (!skipped) rows[n++] = r;
        }
    }
    return n;
}

/* Every option of an action decision on tile t (Game._action_options): declining first, then
 * each held card (in ACTION_CARDS order) with each of its targets, as F_ACTION decisions (card
 * a, row b, new tile c; -1 where the card takes none). The count, or -1 with m->err set. */
#define G_OPTIONS (1 + 4 * G_ROWS + 2 * G_HAND + 2)
static int g_action_options(Sim *m, int seat, int t, Forced *out) {
    int ti = g_target(m, t);
    if (ti < 0) {
        m->err = 1;
        return -1;
    }
    int target = m->erow[ti], n = 0;
    out[n++] = (Forced){F_ACTION, A_NONE, -1, -1};
    for (int c = 0; c < 8; c++) {
        if (!g_holds(m, seat, c)) continue;
        if (c == A_STOP) { /* at least one row stays active */
            for (int k = 0; k < m->nends; k++)
                if (m->stop_own ? m->nends > 1 : m->erow[k] != target)
                    out[n++] = (Forced){F_ACTION, c, m->erow[k], -1};
        } else if (c == A_SWAP || c == A_ANOTHER) {
            for (int k = 0; k < m->nh[seat]; k++)
                out[n++] = (Forced){F_ACTION, c, -1, m->hands[seat][k]};
        } else if (c == A_SKIP) {
            if (m->fill[target] + 1 < m->board->length[target])
                out[n++] = (Forced){F_ACTION, c, -1, -1};
        } else if (c == A_FRONT) {
            int front[G_ROWS], nf = g_front_rows(m, t, front);
            for (int k = 0; k < nf; k++) out[n++] = (Forced){F_ACTION, c, front[k], -1};
        } else if (c == A_ASCENDING || c == A_ANYWHERE) {
            int upto = c == A_ASCENDING ? g_bisect(m, t) : m->nends;
            for (int k = 0; k < upto; k++) out[n++] = (Forced){F_ACTION, c, m->erow[k], -1};
        } else {
            out[n++] = (Forced){F_ACTION, c, -1, -1};
        }
    }
    return n;
}

/* _random_action: 1 with (card, row, new) set (card -1: declined), 0 if the Game would not
 * ask */
static int g_random_action(Sim *m, int seat, int t, int *card, int *row, int *newt) {
    Forced options[G_OPTIONS];
    int n = g_action_options(m, seat, t, options);
    if (n <= 1) return 0;
    int k = (int)(g_random(m) * n);
    if (k >= n) {
        m->err = 1;
        return 0;
    }
    *card = options[k].a;
    *row = options[k].b;
    *newt = options[k].c;
    return 1;
}

static int g_remove(int *a, int *n, int x) {
    for (int k = 0; k < *n; k++)
        if (a[k] == x) {
            for (int j = k; j + 1 < *n; j++) a[j] = a[j + 1];
            (*n)--;
            return 1;
        }
    return 0;
}

static void g_push(Sim *m, int code) {
    if (m->nq >= G_QUEUE) {
        m->err = 1;
        return;
    }
    m->queue[m->nq++] = code;
}

static void g_play_action(Sim *m, int seat, int t, int card, int row, int newt) {
    if (card == A_NONE) {
        g_place_normally(m, seat, t, 0);
        return;
    }
    if (!g_remove(m->held[seat], &m->nheld[seat], card)) {
        m->err = 1;
        return;
    }
    if (m->rec != NULL) {
        PyObject *entry = Py_BuildValue("{s:i,s:s,s:s,s:i}", "seat", seat, "kind", "action",
                                        "card", action_names[card], "tile", t);
        if (entry != NULL && row >= 0 && rec_set(entry, "row", row) < 0) Py_CLEAR(entry);
        if (entry != NULL && newt >= 0 && rec_set(entry, "new_tile", newt) < 0) Py_CLEAR(entry);
        rec_choice(m, entry);
        if (m->err) return;
    }
    if (card == A_STOP) {
        int j = g_index_of_row(m, row);
        if (j < 0 || m->nstops >= G_ROWS) {
            m->err = 1;
            return;
        }
        g_del_end(m, j);
        m->stops[m->nstops++] = row;
        g_place_normally(m, seat, t, 0);
    } else if (card == A_SWAP) {
        if (!g_remove(m->hands[seat], &m->nh[seat], newt)) {
            m->err = 1;
            return;
        }
        g_to_hand(m, seat, t);
        g_place_normally(m, seat, newt, 0);
    } else if (card == A_ANOTHER) {
        if (!g_remove(m->hands[seat], &m->nh[seat], newt)) {
            m->err = 1;
            return;
        }
        if (!m->another_low ||
            (newt > t && !(m->nq && (m->queue[m->nq - 1] & 15) == seat))) {
            g_push(m, newt << 4 | seat);
            g_place_normally(m, seat, t, 0);
            return;
        }
        int own[G_QUEUE], n = 0;
        own[n++] = t << 4 | seat;
        own[n++] = newt << 4 | seat;
        while (m->nq && (m->queue[m->nq - 1] & 15) == seat && n < G_QUEUE)
            own[n++] = m->queue[--m->nq];
        for (int i = 1; i < n; i++) { /* sort descending */
            int x = own[i], j = i - 1;
            while (j >= 0 && own[j] < x) {
                own[j + 1] = own[j];
                j--;
            }
            own[j + 1] = x;
        }
        for (int i = 0; i < n; i++) g_push(m, own[i]);
        if (!m->carded[t]) m->ncarded++;
        m->carded[t] = 1;
    } else if (card == A_SKIP) {
        int i = g_target(m, t);
        if (i < 0) {
            m->err = 1;
            return;
        }
        int target = m->erow[i];
        if (m->fill[target] + 1 >= m->board->length[target]) {
            m->err = 1;
            return;
        }
        m->spaces[target][m->fill[target]] = -1;
        g_land(m, seat, t, target, m->fill[target] + 1, 0, i);
    } else if (card == A_FRONT) {
        if (row < 0 || row >= m->board->nrows || m->fill[row] + 1 >= m->board->length[row]) {
            m->err = 1;
            return;
        }
        int *spaces = m->spaces[row];
        for (int s = m->fill[row]; s > 0; s--) spaces[s] = spaces[s - 1];
        spaces[0] = t;
        m->fill[row]++;
        m->rsum[row] += m->bh[t];
    } else if (card == A_ASCENDING || card == A_ANYWHERE) {
        int j = row < 0 ? -1 : g_index_of_row(m, row);
        if (j < 0) {
            m->err = 1;
            return;
        }
        g_land(m, seat, t, row, m->fill[row], 0, j);
    } else {
        g_place_normally(m, seat, t, 5);
    }
}

static void g_place_queue(Sim *m) {
    const GBoard *b = m->board;
    while (m->nq && !m->err) {
        int c = m->queue[--m->nq];
        int t = c >> 4, seat = c & 15;
        if (m->nheld[seat] && !(m->ncarded && m->carded[t])) {
            int card, row, newt, act;
            if (m->forced.kind != F_NONE) {
                if (m->forced.kind != F_ACTION) {
                    m->err = 1;
                    return;
                }
                card = m->forced.a;
                row = m->forced.b;
                newt = m->forced.c;
                m->forced.kind = F_NONE;
                act = 1;
            } else if (m->script != NULL) { /* asked only where the Game asks */
                Forced options[G_OPTIONS], d;
                int n = g_action_options(m, seat, t, options);
                act = n > 1 ? g_answer(m, F_ACTION, seat, t, &d) : 0;
                if (n < 0 || act < 0) return;
                if (act) {
                    card = d.a;
                    row = d.b;
                    newt = d.c;
                }
            } else {
                act = g_random_action(m, seat, t, &card, &row, &newt);
            }
            if (m->err) return;
            if (act) {
                g_play_action(m, seat, t, card, row, newt);
                continue;
            }
        }
        int i = g_bisect(m, t) - 1;
        int row;
        if (i >= 0) {
            row = m->erow[i];
            int f = m->fill[row];
            if (f + 1 < b->length[row]) {
                m->ends[i] = t;
                m->spaces[row][f] = t;
                m->fill[row] = f + 1;
                m->rsum[row] += m->bh[t];
                int k = m->kind[row][f];
                if (k == K_PLUS) {
                    m->scores[seat] += m->bh[t];
                } else if (k == K_MINUS) {
                    m->scores[seat] -= m->bh[t];
                    if (m->luck_i < m->nluck) g_after_loss(m, seat);
                } else if (k == K_PLUS5) {
                    m->scores[seat] += 5;
                } else if (k == K_DRAW) {
                    if (m->sup_i < m->nsupply) g_to_hand(m, seat, m->supply[m->sup_i++]);
                } else if (k == K_ACTION && m->act_i < m->nactions) {
                    if (m->nheld[seat] >= G_HELD) {
                        m->err = 1;
                        return;
                    }
                    m->held[seat][m->nheld[seat]++] = m->actions[m->act_i++];
                }
                continue;
            }
        } else {
            i = m->nends - 1;
            if (i < 0) {
                m->err = 1;
                return;
            }
            row = m->erow[i];
        }
        g_land(m, seat, t, row, m->fill[row], 0, i);
    }
}

static void g_end_turn(Sim *m) {
    if (m->ncarded) {
        memset(m->carded, 0, sizeof(m->carded));
        m->ncarded = 0;
    }
    for (int k = 0; k < m->nstops; k++) {
        int r = m->stops[k];
        g_insert_end(m, m->spaces[r][m->fill[r] - 1], r);
    }
    m->nstops = 0;
    if (m->rec != NULL) {
        rec_scores(m);
        if (m->err) return;
    }
    int over = m->pro && m->nturns >= 200; /* PRO_TURN_CAP */
    int all = 1, any = 0;
    for (int s = 0; s < m->players; s++) {
        all &= m->nh[s] > 0;
        any |= m->nh[s] > 0;
    }
    int set_over = m->pro ? !all : !any;
    if (set_over) {
        /* second_set_due: 2-3 players, first set, the supply holds a hand each */
        if (m->players <= 3 && m->set_number == 1 &&
            m->nsupply - m->sup_i >= m->hs * m->players) {
            m->set_number = 2;
            for (int s = 0; s < m->players; s++)
                for (int k = 0; k < m->hs; k++) g_to_hand(m, s, m->supply[m->sup_i++]);
        } else {
            over = 1;
        }
    }
    if (over) {
        m->over = 1;
        for (int s = 0; s < m->players; s++) {
            m->final[s] = m->scores[s];
            if (m->pro)
                for (int k = 0; k < m->nh[s]; k++) m->final[s] -= m->bh[m->hands[s][k]];
        }
    }
}

/* _turn: chosen tiles (0: none) and the seats that still choose, the first one the forced
 * tile's if there is one */
static void g_turn(Sim *m, const long *chosen, const int *to_choose, int nchoose) {
    int codes[G_SEATS * 2], n = 0;
    if (chosen != NULL)
        for (int s = 0; s < m->players; s++)
            if (chosen[s]) codes[n++] = (int)chosen[s] << 4 | s;
    int k0 = 0;
    if (m->forced.kind != F_NONE) {
        if (m->forced.kind != F_TILE || nchoose < 1) {
            m->err = 1;
            return;
        }
        int first = to_choose[0], tile = m->forced.a;
        m->forced.kind = F_NONE;
        if (!g_remove(m->hands[first], &m->nh[first], tile)) {
            m->err = 1;
            return;
        }
        codes[n++] = tile << 4 | first;
        k0 = 1;
    }
    for (int k = k0; k < nchoose; k++) {
        int s = to_choose[k];
        if (!m->nh[s]) {
            m->err = 1;
            return;
        }
        int k = m->nh[s] - 1; /* random play: the hand is in a random order */
        if (m->policy != NULL && m->policy->board_tile != NULL) {
            k = m->policy->board_tile(m, s, m->explore);
            if (k < 0 || k >= m->nh[s]) {
                m->err = 1;
                return;
            }
        }
        int t = m->hands[s][k];
        for (int j = k; j + 1 < m->nh[s]; j++) m->hands[s][j] = m->hands[s][j + 1];
        m->nh[s]--;
        codes[n++] = t << 4 | s;
    }
    if (m->err) return;
    m->nturns++;
    if (m->rec != NULL) {
        rec_turn(m, codes, n);
        if (m->err) return;
    }
    for (int i = 1; i < n; i++) { /* sort descending: a stack, lowest last */
        int x = codes[i], j = i - 1;
        while (j >= 0 && codes[j] < x) {
            codes[j + 1] = codes[j];
            j--;
        }
        codes[j + 1] = x;
    }
    m->nq = 0;
    for (int i = 0; i < n; i++) m->queue[m->nq++] = codes[i];
    g_place_queue(m);
    if (!m->err) g_end_turn(m);
}

static void gboard_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, "nimmt.general_board"));
}

/* general_board(kinds, claim, middle): a board for the general simulator: each row's space
 * kinds (codes), whether its final space is a claim space, the (row, space) pairs of middle */
static PyObject *py_general_board(PyObject *self, PyObject *args) {
    PyObject *kinds, *claim, *middle;
    if (!PyArg_ParseTuple(args, "OOO", &kinds, &claim, &middle)) return NULL;
    GBoard *b = PyMem_Calloc(1, sizeof(GBoard));
    if (b == NULL) return PyErr_NoMemory();
    IntList rows[MAX_SEATS * 2];
    long cl[G_ROWS], mid[2 * G_ROWS * G_SPACES];
    int n, nm;
    PyObject *fast = PySequence_Fast(kinds, "kinds");
    if (fast == NULL) goto fail;
    n = (int)PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > G_ROWS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "kinds: 1 to 26 rows");
        goto fail;
    }
    for (int r = 0; r < n; r++) {
        if (read_list(PySequence_Fast_GET_ITEM(fast, r), &rows[r], "kinds") < 0 ||
            rows[r].n < 2 || rows[r].n > G_SPACES) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kinds: 2 to 24 spaces");
            goto fail;
        }
    }
    Py_DECREF(fast);
    if (read_ints(claim, cl, G_ROWS, "claim") != n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "claim: one per row");
        goto fail;
    }
    nm = read_ints(middle, mid, 2 * G_ROWS * G_SPACES, "middle");
    if (nm < 0) goto fail;
    b->nrows = n;
    for (int r = 0; r < n; r++) {
        b->length[r] = rows[r].n;
        b->claim[r] = (int)cl[r];
        for (int s = 0; s < rows[r].n; s++) b->kinds[r][s] = (int)rows[r].v[s];
    }
    b->nmiddle = nm / 2;
    for (int j = 0; j < nm / 2; j++) {
        b->middle_r[j] = (int)mid[2 * j];
        b->middle_s[j] = (int)mid[2 * j + 1];
        if (b->middle_r[j] < 0 || b->middle_r[j] >= n || b->middle_s[j] < 1 ||
            b->middle_s[j] >= b->length[b->middle_r[j]] - 1) {
            PyErr_SetString(PyExc_ValueError, "middle: a space neither first nor final");
            goto fail;
        }
    }
    return PyCapsule_New(b, "nimmt.general_board", gboard_free);
fail:
    PyMem_Free(b);
    return NULL;
}

static int g_ints(PyObject *tuple, int k, int *out, int cap, const char *what) {
    long tmp[G_DECK];
    int n = read_ints(PyTuple_GET_ITEM(tuple, k), tmp, cap < G_DECK ? cap : G_DECK, what);
    for (int i = 0; i < n; i++) out[i] = (int)tmp[i];
    return n;
}

/* a list of int lists into rows of ``out`` (``cap`` ints each, the row stride) */
static int g_rows(PyObject *tuple, int k, int *out, int *lens, int cap_rows, int cap,
                  const char *what) {
    PyObject *fast = PySequence_Fast(PyTuple_GET_ITEM(tuple, k), what);
    if (fast == NULL) return -1;
    int n = (int)PySequence_Fast_GET_SIZE(fast);
    if (n > cap_rows) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return -1;
    }
    for (int r = 0; r < n; r++) {
        long tmp[G_HAND];
        int m = read_ints(PySequence_Fast_GET_ITEM(fast, r), tmp, cap, what);
        if (m < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < m; i++) out[r * cap + i] = (int)tmp[i];
        if (lens) lens[r] = m;
    }
    Py_DECREF(fast);
    return n;
}

static long g_long(PyObject *tuple, int k) { return PyLong_AsLong(PyTuple_GET_ITEM(tuple, k)); }

#define G_FIELDS 31

typedef struct {
    Sim sim;
    int pending, pending_seat, pending_card, cur_tile, cur_seat, nchoose, to_choose[G_SEATS];
    long chosen[G_SEATS];
} GStart;

static int g_read(PyObject *st, const GBoard *b, GStart *g) {
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != G_FIELDS) {
        PyErr_SetString(PyExc_TypeError, "state: a tuple of the position's fields");
        return -1;
    }
    Sim *m = &g->sim;
    memset(g, 0, sizeof(GStart));
    m->board = b;
    m->players = (int)g_long(st, 0);
    m->pro = (int)g_long(st, 1);
    m->hs = (int)g_long(st, 2);
    m->stop_own = (int)g_long(st, 3);
    m->another_low = (int)g_long(st, 4);
    m->plus5_replaces = (int)g_long(st, 5);
    if (PyErr_Occurred()) return -1;
    if (m->players < 1 || m->players > G_SEATS) {
        PyErr_SetString(PyExc_ValueError, "players: 1 to 10");
        return -1;
    }
    if (read_ints(PyTuple_GET_ITEM(st, 6), m->bh, NTILES, "bh") != NTILES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bh: 105 entries");
        return -1;
    }
    int lens[G_ROWS];
    if (g_rows(st, 7, &m->spaces[0][0], lens, G_ROWS, G_SPACES, "spaces") != b->nrows) goto shape;
    for (int r = 0; r < b->nrows; r++) {
        if (lens[r] != b->length[r]) goto shape;
        for (int s = 0; s < lens[r]; s++)
            if (m->spaces[r][s] < -1 || m->spaces[r][s] >= NTILES) goto range;
    }
    if (g_ints(st, 8, m->fill, G_ROWS, "fill") != b->nrows) goto shape;
    if (g_rows(st, 9, &m->kind[0][0], lens, G_ROWS, G_SPACES, "kind") != b->nrows) goto shape;
    for (int r = 0; r < b->nrows; r++) {
        if (lens[r] != b->length[r] || m->fill[r] < 0 || m->fill[r] > b->length[r]) goto shape;
    }
    if (g_ints(st, 10, m->f10, G_ROWS, "f10") != b->nrows) goto shape;
    long rsum[G_ROWS];
    if (read_ints(PyTuple_GET_ITEM(st, 11), rsum, G_ROWS, "rsum") != b->nrows) goto shape;
    for (int r = 0; r < b->nrows; r++) m->rsum[r] = rsum[r];
    m->nends = g_ints(st, 12, m->ends, G_ROWS, "ends");
    if (g_ints(st, 13, m->erow, G_ROWS, "erow") != m->nends || m->nends < 0) goto shape;
    for (int k = 0; k < m->nends; k++)
        if (m->erow[k] < 0 || m->erow[k] >= b->nrows) goto range;
    m->nstops = g_ints(st, 14, m->stops, G_ROWS, "stops");
    if (m->nstops < 0) goto shape;
    for (int k = 0; k < m->nstops; k++)
        if (m->stops[k] < 0 || m->stops[k] >= b->nrows || m->fill[m->stops[k]] < 1) goto range;
    if (g_rows(st, 15, &m->held[0][0], m->nheld, G_SEATS, G_HELD, "held") != m->players) goto shape;
    if (read_ints(PyTuple_GET_ITEM(st, 16), m->scores, G_SEATS, "scores") != m->players)
        goto shape;
    m->nsupply = g_ints(st, 17, m->supply, G_DECK, "supply");
    m->nluck = g_ints(st, 18, m->luck, G_DECK, "luck");
    m->nactions = g_ints(st, 19, m->actions, G_DECK, "actions");
    if (m->nsupply < 0 || m->nluck < 0 || m->nactions < 0) goto shape;
    for (int k = 0; k < m->nsupply; k++)
        if (m->supply[k] <= 0 || m->supply[k] >= NTILES) goto range;
    for (int k = 0; k < m->nluck; k++)
        if (m->luck[k] < 0 || m->luck[k] > 1) goto range;
    for (int k = 0; k < m->nactions; k++)
        if (m->actions[k] < 0 || m->actions[k] > 7) goto range;
    for (int s = 0; s < m->players; s++)
        for (int k = 0; k < m->nheld[s]; k++)
            if (m->held[s][k] < 0 || m->held[s][k] > 7) goto range;
    m->nturns = (int)g_long(st, 20);
    m->set_number = (int)g_long(st, 21);
    m->nq = g_ints(st, 22, m->queue, G_QUEUE, "queue");
    if (m->nq < 0) goto shape;
    for (int k = 0; k < m->nq; k++)
        if ((m->queue[k] >> 4) <= 0 || (m->queue[k] >> 4) >= NTILES ||
            (m->queue[k] & 15) >= m->players)
            goto range;
    int carded[G_QUEUE];
    int nc = g_ints(st, 23, carded, G_QUEUE, "carded");
    if (nc < 0) goto shape;
    for (int k = 0; k < nc; k++) {
        if (carded[k] <= 0 || carded[k] >= NTILES) goto range;
        if (!m->carded[carded[k]]) m->ncarded++;
        m->carded[carded[k]] = 1;
    }
    if (g_rows(st, 24, &m->hands[0][0], m->nh, G_SEATS, G_HAND, "hands") != m->players) goto shape;
    for (int s = 0; s < m->players; s++)
        for (int k = 0; k < m->nh[s]; k++)
            if (m->hands[s][k] <= 0 || m->hands[s][k] >= NTILES) goto range;
    g->pending = (int)g_long(st, 25);
    g->pending_seat = (int)g_long(st, 26);
    g->pending_card = (int)g_long(st, 27);
    PyObject *cur = PyTuple_GET_ITEM(st, 28);
    if (!PyTuple_Check(cur) || PyTuple_GET_SIZE(cur) != 2) goto shape;
    g->cur_tile = (int)g_long(cur, 0);
    g->cur_seat = (int)g_long(cur, 1);
    g->nchoose = g_ints(st, 29, g->to_choose, G_SEATS, "to_choose");
    if (g->nchoose < 0) goto shape;
    for (int k = 0; k < g->nchoose; k++)
        if (g->to_choose[k] < 0 || g->to_choose[k] >= m->players) goto range;
    if (read_chosen(PyTuple_GET_ITEM(st, 30), g->chosen, m->players) < 0) return -1;
    for (int s = 0; s < m->players; s++)
        if (g->chosen[s] < 0 || g->chosen[s] >= NTILES) goto range;
    if (PyErr_Occurred()) return -1;
    if (g->pending == F_LUCK && (g->pending_seat < 0 || g->pending_seat >= m->players ||
                                 g->pending_card < 0 || g->pending_card > 1))
        goto range;
    if (g->pending == F_ACTION && (g->cur_tile <= 0 || g->cur_tile >= NTILES ||
                                   g->cur_seat < 0 || g->cur_seat >= m->players))
        goto range;
    return 0;
shape:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "state: fields of the wrong shape");
    return -1;
range:
    PyErr_SetString(PyExc_ValueError, "state: a value out of range");
    return -1;
}

/* Play on play to the end (or ``turns`` turns); ``first``: the forced tile's seat or -1 */
static void g_run(Sim *m, const GStart *g, int first, int turns) {
    int pending = g->pending;
    int limit = turns ? g->sim.nturns + turns - (pending != F_TILE) : 1 << 30;
    if (pending == F_TILE) {
        int order[G_SEATS], n = 0;
        if (first >= 0) order[n++] = first;
        for (int k = 0; k < g->nchoose; k++)
            if (first < 0 || g->to_choose[k] != first) order[n++] = g->to_choose[k];
        g_turn(m, g->chosen, order, n);
    } else if (pending != F_NONE) {
        if (pending == F_LUCK)
            g_luck(m, g->pending_seat, g->pending_card);
        else
            g_push(m, g->cur_tile << 4 | g->cur_seat);
        if (!m->err) g_place_queue(m);
        if (!m->err) g_end_turn(m);
    }
    while (!m->over && !m->err && m->nturns < limit) {
        int order[G_SEATS], n = 0;
        for (int s = 0; s < m->players; s++)
            if (m->nh[s]) order[n++] = s;
        g_turn(m, NULL, order, n);
    }
}

/* cut_scores (or the final scores) as a list: ints, floats where a hand is charged */
static PyObject *g_result(const Sim *m, int turns) {
    PyObject *out = PyList_New(m->players);
    if (out == NULL) return NULL;
    int shortest = 1 << 30;
    for (int s = 0; s < m->players; s++)
        if (m->nh[s] < shortest) shortest = m->nh[s];
    for (int s = 0; s < m->players; s++) {
        PyObject *x;
        if (m->over) {
            x = PyLong_FromLong(m->final[s]);
        } else if (turns && m->pro && m->nh[s] > shortest) {
            long sum = 0;
            for (int k = 0; k < m->nh[s]; k++) sum += m->bh[m->hands[s][k]];
            double charged = (double)((m->nh[s] - shortest) * sum) / (double)m->nh[s];
            x = PyFloat_FromDouble((double)m->scores[s] - charged);
        } else {
            x = PyLong_FromLong(m->scores[s]);
        }
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, x);
    }
    return out;
}

/* general_playouts(rng, board, state, seat, decisions, turns, repeat[, policy, explore, record])
 *
 * Position.playouts (and .playout) on the general simulator: for each decision (kind, a, b, c)
 * in ``decisions`` (or one free playout for None) one playout from the same generator state,
 * ``repeat`` rounds; ``state``: the position's fields (playout.py, Position._core_state);
 * ``policy``: None (random tiles) or a policy's capsule, whose board_tile chooses the tiles
 * (``explore``: its share of random ones). ``record``: a list for the turns (one playout). */
static PyObject *py_general_playouts(PyObject *self, PyObject *args) {
    PyObject *rng, *board, *st, *decisions, *policy_in = Py_None, *record = Py_None;
    int seat, turns, repeat;
    double explore = 0.0;
    if (!PyArg_ParseTuple(args, "OOOiOii|OdO", &rng, &board, &st, &seat, &decisions, &turns,
                          &repeat, &policy_in, &explore, &record))
        return NULL;
    const NimmtPolicy *policy = read_policy(policy_in);
    if (policy == NULL && PyErr_Occurred()) return NULL;
    if (record != Py_None && (!PyList_Check(record) || repeat != 1 ||
                              (decisions != Py_None && PySequence_Size(decisions) != 1))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "record: a list, for one playout only");
        return NULL;
    }
    Gen genv, *gen = &genv;
    if (gen_seed(rng, gen) < 0) return NULL;
    const GBoard *b = PyCapsule_GetPointer(board, "nimmt.general_board");
    if (b == NULL) return NULL;
    if (repeat < 1 || turns < 0) {
        PyErr_SetString(PyExc_ValueError, "bad turns or repeat");
        return NULL;
    }
    GStart *g = PyMem_Malloc(sizeof(GStart));
    Sim *m = PyMem_Malloc(sizeof(Sim));
    Forced forced[G_HAND];
    int nd = 1;
    PyObject *out = NULL;
    if (g == NULL || m == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (g_read(st, b, g) < 0) goto done;
    g->sim.policy = policy;
    g->sim.explore = explore;
    forced[0].kind = F_NONE;
    if (decisions != Py_None) {
        PyObject *fast = PySequence_Fast(decisions, "decisions");
        if (fast == NULL) goto done;
        nd = (int)PySequence_Fast_GET_SIZE(fast);
        if (nd > G_HAND) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "too many decisions");
            goto done;
        }
        for (int d = 0; d < nd; d++) {
            long v[4];
            if (read_ints(PySequence_Fast_GET_ITEM(fast, d), v, 4, "decision") != 4) {
                Py_DECREF(fast);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a decision: 4 ints");
                goto done;
            }
            forced[d].kind = (int)v[0];
            forced[d].a = (int)v[1];
            forced[d].b = (int)v[2];
            forced[d].c = (int)v[3];
            if (forced[d].kind < F_NONE || forced[d].kind > F_ACTION ||
                (forced[d].kind == F_ACTION && (forced[d].a < A_NONE || forced[d].a > 7))) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "a decision out of range");
                goto done;
            }
        }
        Py_DECREF(fast);
    }
    if (seat >= g->sim.players) {
        PyErr_SetString(PyExc_ValueError, "bad seat");
        goto done;
    }
    out = PyList_New(0);
    if (out == NULL) goto done;
    /* each playout puts the hands in a random order first; each round is seeded as a call is
     * (an int seed runs on from round to round) */
    for (int rep = 0; rep < repeat; rep++) {
        if (rep > 0 && !PyLong_Check(rng) && gen_seed(rng, gen) < 0) {
            Py_CLEAR(out);
            goto done;
        }
        Gen saved = *gen;
        for (int d = 0; d < nd; d++) {
            *gen = saved;
            memcpy(m, &g->sim, sizeof(Sim));
            m->gen = gen;
            m->rec = record == Py_None ? NULL : record;
            double keys[NTILES];
            for (int i = 0; i < NTILES; i++) keys[i] = gen_random(gen);
            for (int s = 0; s < m->players; s++) { /* sorted(h, key=key): stable */
                int *h = m->hands[s];
                for (int i = 1; i < m->nh[s]; i++) {
                    int x = h[i], j = i - 1;
                    while (j >= 0 && keys[h[j]] > keys[x]) {
                        h[j + 1] = h[j];
                        j--;
                    }
                    h[j + 1] = x;
                }
            }
            m->forced = forced[d];
            int first = forced[d].kind == F_TILE && seat >= 0 ? seat : -1;
            g_run(m, g, first, turns);
            if (m->err) {
                Py_CLEAR(out);
                if (m->err == 1 || !PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError,
                                    "the position or decision breaks the rules the simulator plays");
                goto done;
            }
            PyObject *result = g_result(m, turns);
            if (result == NULL || PyList_Append(out, result) < 0) {
                Py_XDECREF(result);
                Py_CLEAR(out);
                goto done;
            }
            Py_DECREF(result);
        }
    }
done:
    PyMem_Free(g);
    PyMem_Free(m);
    return out;
}

/* ------------------------------------------------------------------ the sampler's deal */

/* What one view fixes for arena.engine.sampling.Sampler._deal, read once (deal_plan) and
 * dealt from many times (deal): dealt as the Python method deals (from another generator). */
typedef struct {
    int nhidden, ngone, nknown;
    long hidden[NTILES], gone[NTILES], known[NTILES];
    int box_size, supply_size, players, seat;
    int need[MAX_SEATS], chose[MAX_SEATS], nret[MAX_SEATS];
    long ret[MAX_SEATS][MAX_HAND];
    PyObject *hand;       /* the seat's own tiles */
    PyObject *own_chosen; /* its chosen tile or None */
    PyObject *own_cards;  /* its action cards */
    PyObject *luck;       /* the luck cards left unseen (a list of str) */
    PyObject *cards;      /* the action cards left unseen (a list of str) */
    int luck_size, deck_size;
    int counts[MAX_SEATS];
} DealPlan;

static void plan_free(PyObject *capsule) {
    DealPlan *p = PyCapsule_GetPointer(capsule, "nimmt.deal_plan");
    if (p == NULL) return;
    Py_XDECREF(p->hand);
    Py_XDECREF(p->own_chosen);
    Py_XDECREF(p->own_cards);
    Py_XDECREF(p->luck);
    Py_XDECREF(p->cards);
    PyMem_Free(p);
}

static int read_tiles(PyObject *seq, long *out, int cap, const char *what) {
    int n = read_ints(seq, out, cap, what);
    for (int i = 0; i < n; i++)
        if (out[i] <= 0 || out[i] >= NTILES) {
            PyErr_Format(PyExc_ValueError, "%s: tile %ld out of range", what, out[i]);
            return -1;
        }
    return n;
}

/* deal_plan(hidden, gone, box_known, box_size, supply_size, seat, need, returned, chose,
 *           hand, chosen, own_cards, luck_pool, luck_size, action_pool, action_counts,
 *           deck_size): the Sampler's fields, in a capsule for deal(). */
static PyObject *py_deal_plan(PyObject *self, PyObject *args) {
    PyObject *hidden, *gone, *known, *need, *returned, *chose, *hand, *own_chosen, *own_cards;
    PyObject *luck, *cards, *counts;
    int box_size, supply_size, seat, luck_size, deck_size;
    if (!PyArg_ParseTuple(args, "OOOiiiOOOOOOO!iO!Oi", &hidden, &gone, &known, &box_size,
                          &supply_size, &seat, &need, &returned, &chose, &hand, &own_chosen,
                          &own_cards, &PyList_Type, &luck, &luck_size, &PyList_Type, &cards,
                          &counts, &deck_size))
        return NULL;
    DealPlan *p = PyMem_Calloc(1, sizeof(DealPlan));
    if (p == NULL) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(p, "nimmt.deal_plan", plan_free);
    if (capsule == NULL) {
        PyMem_Free(p);
        return NULL;
    }
    long buf[MAX_SEATS];
    int players;
    IntList rets[MAX_SEATS];
    if ((p->nhidden = read_tiles(hidden, p->hidden, NTILES, "hidden")) < 0 ||
        (p->ngone = read_tiles(gone, p->gone, NTILES, "gone")) < 0 ||
        (p->nknown = read_tiles(known, p->known, NTILES, "box_known")) < 0 ||
        read_hands(returned, rets, &players, "returned") < 0)
        goto fail;
    p->players = players;
    if (read_ints(need, buf, MAX_SEATS, "need") != players) goto shape;
    for (int s = 0; s < players; s++) p->need[s] = (int)buf[s];
    if (read_ints(chose, buf, MAX_SEATS, "chose") != players) goto shape;
    for (int s = 0; s < players; s++) p->chose[s] = buf[s] != 0;
    if (read_ints(counts, buf, MAX_SEATS, "action_counts") != players) goto shape;
    for (int s = 0; s < players; s++) p->counts[s] = (int)buf[s];
    long pooled = 0, handed = 0, dealt = 0;
    for (int s = 0; s < players; s++) {
        p->nret[s] = rets[s].n;
        memcpy(p->ret[s], rets[s].v, sizeof(long) * (size_t)rets[s].n);
        if (s == seat) continue;
        if (p->need[s] < 0 || p->need[s] + rets[s].n > MAX_HAND || p->counts[s] < 0) goto shape;
        if (p->chose[s] && p->need[s] + rets[s].n == 0) goto shape;
        handed += p->need[s];
        dealt += p->counts[s];
    }
    pooled = p->nhidden + p->ngone + p->nknown;
    int take = box_size - p->nknown < p->ngone ? box_size - p->nknown : p->ngone;
    int short_ = box_size - p->nknown - take;
    if (p->nhidden < short_ + supply_size || seat < 0 || seat >= players || box_size < p->nknown || supply_size < 0 ||
        pooled != box_size + supply_size + handed || luck_size < 0 ||
        luck_size > PyList_GET_SIZE(luck) || PyList_GET_SIZE(luck) > NTILES ||
        PyList_GET_SIZE(cards) > NTILES || deck_size < 0 ||
        dealt + deck_size > PyList_GET_SIZE(cards))
        goto shape;
    p->box_size = box_size;
    p->supply_size = supply_size;
    p->seat = seat;
    p->luck_size = luck_size;
    p->deck_size = deck_size;
    Py_INCREF(hand);
    p->hand = hand;
    Py_INCREF(own_chosen);
    p->own_chosen = own_chosen;
    Py_INCREF(own_cards);
    p->own_cards = own_cards;
    Py_INCREF(luck);
    p->luck = luck;
    Py_INCREF(cards);
    p->cards = cards;
    return capsule;
shape:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "deal_plan: the deal does not add up");
fail:
    Py_DECREF(capsule);
    return NULL;
}

static PyObject *tile_list(const long *tiles, int n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(tiles[i]);
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* items[order[from .. from + n]] as a new list */
static PyObject *picked(PyObject *items, const long *order, int from, int n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(items, order[from + i]);
        Py_INCREF(x);
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* shuffled(items, key): the positions of items sorted by their keys */
static int shuffle_order(PyObject *items, const double *keys, long *order) {
    int n = (int)PyList_GET_SIZE(items);
    for (int i = 0; i < n; i++) order[i] = i;
    sort_by_key(order, n, keys);
    return n;
}

/* deal(rng, plan) -> (hands, chosen, held, supply, luck, actions, box): Sampler._deal. */
static PyObject *py_deal(PyObject *self, PyObject *args) {
    PyObject *rngobj, *capsule;
    if (!PyArg_ParseTuple(args, "OO", &rngobj, &capsule)) return NULL;
    Gen genv, *gen = &genv;
    if (gen_seed(rngobj, gen) < 0) return NULL;
    DealPlan *p = PyCapsule_GetPointer(capsule, "nimmt.deal_plan");
    if (p == NULL) return NULL;
    double keys[NTILES];
    for (int i = 0; i < NTILES; i++) keys[i] = gen_random(gen); /* sampling.random_keys */
    long hidden[NTILES], gone[NTILES], box[NTILES], pool[2 * NTILES];
    memcpy(hidden, p->hidden, sizeof(long) * (size_t)p->nhidden);
    memcpy(gone, p->gone, sizeof(long) * (size_t)p->ngone);
    sort_by_key(hidden, p->nhidden, keys);
    sort_by_key(gone, p->ngone, keys);
    /* The box: known boxed tiles, then gone tiles, then (set-up tiles) hidden ones. */
    int nbox = p->nknown;
    memcpy(box, p->known, sizeof(long) * (size_t)nbox);
    int take = p->box_size - nbox < p->ngone ? p->box_size - nbox : p->ngone;
    memcpy(box + nbox, gone, sizeof(long) * (size_t)take);
    nbox += take;
    int short_ = p->box_size - nbox;
    memcpy(box + nbox, hidden, sizeof(long) * (size_t)short_);
    nbox += short_;
    const long *supply = hidden + short_;
    int npool = p->nhidden - short_ - p->supply_size;
    memcpy(pool, hidden + short_ + p->supply_size, sizeof(long) * (size_t)npool);
    if (take < p->ngone) { /* sorted(pool + rest_gone, key=key), stable */
        memcpy(pool + npool, gone + take, sizeof(long) * (size_t)(p->ngone - take));
        npool += p->ngone - take;
        sort_by_key(pool, npool, keys);
    }
    PyObject *hands = PyList_New(p->players), *chosen = PyList_New(p->players);
    PyObject *held = PyList_New(p->players), *out = NULL;
    PyObject *luck = NULL, *actions = NULL, *supply_list = NULL, *box_list = NULL;
    if (hands == NULL || chosen == NULL || held == NULL) goto done;
    int pos = 0;
    for (int s = 0; s < p->players; s++) {
        PyObject *hand, *pick;
        if (s == p->seat) {
            hand = PySequence_List(p->hand);
            pick = p->own_chosen;
            Py_INCREF(pick);
        } else {
            long h[MAX_HAND];
            int n = p->need[s];
            memcpy(h, pool + pos, sizeof(long) * (size_t)n);
            pos += n;
            memcpy(h + n, p->ret[s], sizeof(long) * (size_t)p->nret[s]);
            n += p->nret[s];
            if (p->chose[s]) { /* hand.pop(int(rng.random() * len(hand))) */
                int i = (int)(gen_random(gen) * n);
                pick = PyLong_FromLong(h[i]);
                memmove(h + i, h + i + 1, sizeof(long) * (size_t)(n - i - 1));
                n--;
            } else {
                pick = Py_None;
                Py_INCREF(pick);
            }
            sort_codes(h, n);
            hand = tile_list(h, n);
        }
        if (hand == NULL || pick == NULL) {
            Py_XDECREF(hand);
            Py_XDECREF(pick);
            goto done;
        }
        PyList_SET_ITEM(hands, s, hand);
        PyList_SET_ITEM(chosen, s, pick);
    }
    long order[NTILES];
    int nluck = shuffle_order(p->luck, keys, order);
    luck = picked(p->luck, order, 0, nluck ? p->luck_size : 0);
    if (luck == NULL) goto done;
    shuffle_order(p->cards, keys, order);
    pos = 0;
    for (int s = 0; s < p->players; s++) {
        PyObject *cards;
        if (s == p->seat) {
            cards = PySequence_List(p->own_cards);
        } else {
            cards = picked(p->cards, order, pos, p->counts[s]);
            pos += p->counts[s];
        }
        if (cards == NULL) goto done;
        PyList_SET_ITEM(held, s, cards);
    }
    actions = picked(p->cards, order, pos, p->deck_size);
    supply_list = tile_list(supply, p->supply_size);
    box_list = tile_list(box, nbox);
    if (actions == NULL || supply_list == NULL || box_list == NULL) goto done;
    out = PyTuple_Pack(7, hands, chosen, held, supply_list, luck, actions, box_list);
done:
    Py_XDECREF(hands);
    Py_XDECREF(chosen);
    Py_XDECREF(held);
    Py_XDECREF(luck);
    Py_XDECREF(actions);
    Py_XDECREF(supply_list);
    Py_XDECREF(box_list);
    return out;
}

/* draw_by_weight(rng, hands, chosen, seats, weight): for each of seats in turn whose hand is
 * not empty, the first tile of hands[s] whose running total of weight[tile] passes
 * rng.random() times the whole (the last if rounding leaves none) moves to chosen[s]: the
 * search bot's opponent model, arena.engine.sampling.draw_by_weight. */
static PyObject *py_draw_by_weight(PyObject *self, PyObject *args) {
    PyObject *rngobj, *hands, *chosen, *seats, *weight;
    if (!PyArg_ParseTuple(args, "OO!O!OO!", &rngobj, &PyList_Type, &hands, &PyList_Type,
                          &chosen, &seats, &PyList_Type, &weight))
        return NULL;
    Gen genv, *gen = &genv;
    if (gen_seed(rngobj, gen) < 0) return NULL;
    long order[MAX_SEATS];
    int nseats = read_ints(seats, order, MAX_SEATS, "seats");
    if (nseats < 0) return NULL;
    Py_ssize_t players = PyList_GET_SIZE(hands), ntiles = PyList_GET_SIZE(weight);
    for (int k = 0; k < nseats; k++) {
        long s = order[k];
        if (s < 0 || s >= players || s >= PyList_GET_SIZE(chosen)) {
            PyErr_SetString(PyExc_ValueError, "draw_by_weight: seat out of range");
            return NULL;
        }
        PyObject *hand = PyList_GET_ITEM(hands, s);
        if (!PyList_Check(hand)) {
            PyErr_SetString(PyExc_TypeError, "draw_by_weight: a hand is a list");
            return NULL;
        }
        Py_ssize_t n = PyList_GET_SIZE(hand);
        if (n == 0) continue;
        if (n > MAX_HAND) {
            PyErr_SetString(PyExc_ValueError, "draw_by_weight: hand too long");
            return NULL;
        }
        double cumulative[MAX_HAND], total = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            long t = PyLong_AsLong(PyList_GET_ITEM(hand, i));
            if (t == -1 && PyErr_Occurred()) return NULL;
            if (t < 0 || t >= ntiles) {
                PyErr_SetString(PyExc_ValueError, "draw_by_weight: tile out of range");
                return NULL;
            }
            double w = PyFloat_AsDouble(PyList_GET_ITEM(weight, t));
            if (w == -1.0 && PyErr_Occurred()) return NULL;
            total = i ? total + w : w;
            cumulative[i] = total;
        }
        double x = gen_random(gen) * cumulative[n - 1];
        Py_ssize_t lo = 0, hi = n; /* bisect.bisect(cumulative, x) */
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (x < cumulative[mid])
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo > n - 1) lo = n - 1;
        PyObject *tile = PyList_GET_ITEM(hand, lo);
        Py_INCREF(tile);
        if (PySequence_DelItem(hand, lo) < 0) {
            Py_DECREF(tile);
            return NULL;
        }
        PyList_SetItem(chosen, s, tile); /* steals the reference */
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ the card game, step by step */
/* The environments' tables (arena/env/core.py): ClassicTable records in one writable buffer,
 * dealt as Game.new deals, stepped one decision point at a time by classic_loop's placements,
 * and shown to each seat as the environments' vector and mask (arena/env/features.py). */

/* a writable C-contiguous buffer of exactly ``size`` bytes (or any multiple of ``unit`` when
 * size < 0); the count of units in *n */
static int ct_buffer_flags(PyObject *obj, Py_buffer *view, Py_ssize_t size, Py_ssize_t unit,
                           const char *what, int flags) {
    if (PyObject_GetBuffer(obj, view, flags | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if ((size >= 0 && view->len != size) || (size < 0 && (view->len == 0 || view->len % unit))) {
        PyErr_Format(PyExc_ValueError, "%s: a buffer of %zd bytes, not %zd", what,
                     size >= 0 ? size : unit, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int ct_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t size, Py_ssize_t unit,
                     const char *what) {
    return ct_buffer_flags(obj, view, size, unit, what, PyBUF_WRITABLE);
}

static int ct_tables(PyObject *obj, Py_buffer *view, Py_ssize_t *n) {
    if (ct_buffer(obj, view, -1, sizeof(ClassicTable), "tables") < 0) return -1;
    *n = view->len / (Py_ssize_t)sizeof(ClassicTable);
    return 0;
}

/* ct_tables for the calls that only read them: a read-only buffer will do */
static int ct_tables_read(PyObject *obj, Py_buffer *view, Py_ssize_t *n) {
    if (ct_buffer_flags(obj, view, -1, sizeof(ClassicTable), "tables", PyBUF_SIMPLE) < 0)
        return -1;
    *n = view->len / (Py_ssize_t)sizeof(ClassicTable);
    return 0;
}

/* (tables, i) -> table i of the buffer, held in *view (release it); NULL with an error set */
static const ClassicTable *ct_table_arg(PyObject *args, Py_buffer *view) {
    PyObject *tables_in;
    Py_ssize_t i, n;
    if (!PyArg_ParseTuple(args, "On", &tables_in, &i)) return NULL;
    if (ct_tables_read(tables_in, view, &n) < 0) return NULL;
    if (i < 0 || i >= n) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    return (const ClassicTable *)view->buf + i;
}

/* whether the numbers of a table of ``players`` that the core indexes its arrays by (seats,
 * phase, queue, cards chosen and on the rows) are in range: NULL, or what is wrong. Enough to
 * compare a caller's ``shown`` table with (ct_observe_delta); ct_check asks for the rest. */
static const char *ct_check_indices(const ClassicTable *t, int players) {
    if (t->players != players) return "players: not the tables' count of seats";
    if (t->phase < CT_OVER || t->phase > CT_TAKE_ROW) return "phase: over, tile or take_row";
    if (t->turn < 0 || t->turn > CT_TILES) return "turn: out of range";
    if (t->asked < 0 || t->asked >= players) return "asked: not a seat";
    if (t->current < 0 || t->current > CT_TILES ||
        (t->phase == CT_TAKE_ROW && t->current == 0))
        return "current: not a card";
    if (t->nq < 0 || t->nq >= players) return "queue: out of range";
    for (int k = 0; k < t->nq; k++)
        if ((t->queue[k] >> 4) < 1 || (t->queue[k] >> 4) > CT_TILES ||
            (t->queue[k] & 15) >= players)
            return "queue: an entry that is not a card and a seat";
    for (int s = 0; s < players; s++)
        if (t->chosen[s] < 0 || t->chosen[s] > CT_TILES) return "chosen: not a card";
    for (int c = 0; c < CT_ROWS * CT_CARDS; c++)
        if (t->cells[c] < 0 || t->cells[c] > CT_TILES) return "cells: not a card";
    return NULL;
}

/* whether a table of ``players`` holds only what the core's own steps can make of one, as far
 * as any call indexes or counts by it: NULL, or what is wrong */
static const char *ct_check(const ClassicTable *t, int players) {
    const char *wrong = ct_check_indices(t, players);
    if (wrong != NULL) return wrong;
    if (t->supply < 0 || t->supply > CT_TILES) return "supply: out of range";
    for (int r = 0; r < CT_ROWS; r++)
        if (t->start[r] < 0 || t->start[r] > CT_TILES) return "start: not a card";
    if (t->revealed[0] != 0) return "revealed: not 0 or 1 a card";
    for (int c = 1; c <= CT_TILES; c++)
        if (t->revealed[c] > 1) return "revealed: not 0 or 1 a card";
    for (int s = 0; s < players; s++) {
        if (t->latest[s] < 0 || t->latest[s] > CT_TILES) return "latest: not a card";
        if (t->hand[s][0] != 0) return "hand: not 0 or 1 a card";
        int held = 0;
        for (int c = 1; c <= CT_TILES; c++) {
            if (t->hand[s][c] > 1) return "hand: not 0 or 1 a card";
            held += t->hand[s][c];
        }
        if (t->nhand[s] != held) return "nhand: not the count of the hand's cards";
    }
    return NULL;
}

/* classic_check(tables, players): ValueError naming the first table that is not one the core
 * could have made (ct_check), else None */
static PyObject *py_classic_check(PyObject *self, PyObject *args) {
    PyObject *tables_in;
    int players;
    if (!PyArg_ParseTuple(args, "Oi", &tables_in, &players)) return NULL;
    Py_buffer tv;
    Py_ssize_t n;
    if (ct_tables_read(tables_in, &tv, &n) < 0) return NULL;
    const ClassicTable *g = tv.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *wrong = ct_check(g + i, players);
        if (wrong != NULL) {
            PyBuffer_Release(&tv);
            PyErr_Format(PyExc_ValueError, "table %zd: %s", i, wrong);
            return NULL;
        }
    }
    PyBuffer_Release(&tv);
    Py_RETURN_NONE;
}

static void ct_deal(ClassicTable *g, int players, uint64_t seed) {
    Gen gen = {seed};
    int tiles[CT_TILES];
    for (int i = 0; i < CT_TILES; i++) tiles[i] = i + 1;
    for (int i = CT_TILES - 1; i > 0; i--) { /* DealRandom.shuffle, as Game.new */
        int j = (int)gen_below(&gen, (uint64_t)i + 1), x = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = x;
    }
    memset(g, 0, sizeof(*g));
    g->players = players;
    g->phase = CT_TILE;
    g->seed = seed;
    for (int r = 0; r < CT_ROWS; r++) {
        g->cells[r * CT_CARDS] = tiles[r];
        g->start[r] = tiles[r];
    }
    for (int s = 0; s < players; s++) {
        for (int i = 0; i < 10; i++) g->hand[s][tiles[CT_ROWS + s * 10 + i]] = 1;
        g->nhand[s] = 10;
    }
    g->supply = CT_TILES - CT_ROWS - 10 * players;
}

/* classic_table_size() -> bytes of one table */
static PyObject *py_classic_table_size(PyObject *self, PyObject *args) {
    return PyLong_FromSsize_t((Py_ssize_t)sizeof(ClassicTable));
}

/* a deal's seeds (uint64) and, unless which_in is None, its which (uint8), ``n`` of each: 0,
 * or -1 with an error set and neither held */
static int deal_buffers(PyObject *seeds_in, PyObject *which_in, Py_ssize_t n, Py_buffer *sv,
                        Py_buffer *wv) {
    if (ct_buffer(seeds_in, sv, n * 8, 8, "seeds") < 0) return -1;
    if (which_in != Py_None && ct_buffer(which_in, wv, n, 1, "which") < 0) {
        PyBuffer_Release(sv);
        return -1;
    }
    return 0;
}

/* classic_deal(tables, players, seeds, which): deal table i from seeds[i] (uint64) where which
 * is None or which[i] (uint8) is set */
static PyObject *py_classic_deal(PyObject *self, PyObject *args) {
    PyObject *tables_in, *seeds_in, *which_in;
    int players;
    if (!PyArg_ParseTuple(args, "OiOO", &tables_in, &players, &seeds_in, &which_in)) return NULL;
    if (players < 2 || players > CT_SEATS) {
        PyErr_SetString(PyExc_ValueError, "the card game seats 2 to 10 players");
        return NULL;
    }
    Py_buffer tv, sv, wv = {0};
    Py_ssize_t n;
    if (ct_tables(tables_in, &tv, &n) < 0) return NULL;
    if (deal_buffers(seeds_in, which_in, n, &sv, &wv) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    ClassicTable *g = tv.buf;
    const uint64_t *seeds = sv.buf;
    const unsigned char *which = which_in != Py_None ? wv.buf : NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (which == NULL || which[i]) ct_deal(g + i, players, seeds[i]);
    PyBuffer_Release(&tv);
    PyBuffer_Release(&sv);
    if (which != NULL) PyBuffer_Release(&wv);
    Py_RETURN_NONE;
}

/* the rows as classic_loop takes them, from the table's cells */
static void ct_rows(const ClassicTable *g, Rows *r) {
    r->n = CT_ROWS;
    r->empty = 0;
    for (int row = 0; row < CT_ROWS; row++) {
        int f = ct_fill(g, row);
        long end = g->cells[row * CT_CARDS + f - 1], state = 0;
        for (int k = 0; k < f; k++) state += classic_inc(g->cells[row * CT_CARDS + k]);
        int j = row;
        while (j > 0 && r->ends[j - 1] > end) {
            r->ends[j] = r->ends[j - 1];
            r->state[j] = r->state[j - 1];
            r->rows[j] = r->rows[j - 1];
            j--;
        }
        r->ends[j] = end;
        r->state[j] = state;
        r->rows[j] = row;
    }
}

/* place codes (sorted; the first takes pick_row if lower than every row), end the turn */
static int ct_place(ClassicTable *g, const long *codes, int n, long pick_row) {
    Rows r;
    ct_rows(g, &r);
    long scores[MAX_SEATS];
    for (int s = 0; s < g->players; s++) scores[s] = g->scores[s];
    RowDraws none = {NULL, 0, 0, NULL};
    if (classic_loop(&r, scores, codes, n, pick_row, &none, NULL, g->cells) < 0) return -1;
    for (int s = 0; s < g->players; s++) g->scores[s] = (int)scores[s];
    g->nq = 0;
    g->phase = CT_OVER;
    for (int s = 0; s < g->players; s++)
        if (g->nhand[s] > 0) g->phase = CT_TILE;
    return 0;
}

/* every chosen card revealed: placed, or a row asked of the lowest card's seat */
static int ct_reveal(ClassicTable *g) {
    long codes[CT_SEATS];
    int n = 0;
    g->turn++;
    for (int s = 0; s < g->players; s++) {
        int t = g->chosen[s];
        g->latest[s] = t;
        g->chosen[s] = 0;
        if (t == 0) continue;
        g->revealed[t] = 1;
        long code = ((long)t << 4) | s;
        int j = n++;
        while (j > 0 && codes[j - 1] > code) {
            codes[j] = codes[j - 1];
            j--;
        }
        codes[j] = code;
    }
    int lowest_end = CT_TILES + 1;
    for (int row = 0; row < CT_ROWS; row++) {
        int end = g->cells[row * CT_CARDS + ct_fill(g, row) - 1];
        if (end < lowest_end) lowest_end = end;
    }
    if (n > 0 && (codes[0] >> 4) < lowest_end) {
        g->phase = CT_TAKE_ROW;
        g->current = (int)(codes[0] >> 4);
        g->asked = (int)(codes[0] & 15);
        g->nq = n - 1;
        for (int k = 1; k < n; k++) g->queue[k - 1] = (int)codes[k];
        return 0;
    }
    return ct_place(g, codes, n, -1);
}

/* one table's step: actions[s] for every seat (-1: no answer yet). An asked seat's illegal
 * action is flagged 1 in illegal[s], an answer of a seat not asked 2 (and ignored); with
 * ``strict`` the table is then left as it was, else the arena's fault default is played for an
 * illegal action and written over actions[s] (what was played). */
static int ct_step(ClassicTable *g, int64_t *actions, unsigned char *illegal, long take_row,
                   int strict) {
    int players = g->players, wrong = 0;
    for (int s = 0; s < players; s++) {
        int asked = g->phase == CT_TILE ? g->nhand[s] > 0 && g->chosen[s] == 0
                                        : g->phase == CT_TAKE_ROW && g->asked == s;
        if (!asked && actions[s] >= 0) {
            illegal[s] = 2;
            wrong = 1;
        }
    }
    if (wrong && strict) return 0;
    wrong = 0;
    if (g->phase == CT_TILE) {
        int waiting = 0;
        for (int s = 0; s < players; s++) {
            if (g->nhand[s] == 0 || g->chosen[s] != 0) continue;
            int64_t a = actions[s];
            if (a < 0) {
                waiting = 1;
            } else if (a < 1 || a > CT_TILES || !g->hand[s][a]) {
                illegal[s] = 1;
                wrong = 1;
                if (!strict) { /* the lowest card in hand */
                    a = 1;
                    while (!g->hand[s][a]) a++;
                    actions[s] = a;
                }
            }
        }
        if (wrong && strict) return 0;
        for (int s = 0; s < players; s++) {
            if (g->nhand[s] == 0 || g->chosen[s] != 0 || actions[s] < 0) continue;
            int64_t a = actions[s];
            g->hand[s][a] = 0;
            g->nhand[s]--;
            g->chosen[s] = (int)a;
        }
        return waiting ? 0 : ct_reveal(g);
    }
    if (g->phase == CT_TAKE_ROW) {
        int s = g->asked;
        int64_t a = actions[s];
        if (a < 0) return 0;
        long row = a - take_row;
        if (row < 0 || row >= CT_ROWS) {
            illegal[s] = 1;
            if (strict) return 0;
            row = ct_cheapest_row(g);
            actions[s] = take_row + row;
        }
        long codes[CT_SEATS];
        codes[0] = ((long)g->current << 4) | s;
        for (int k = 0; k < g->nq; k++) codes[k + 1] = g->queue[k];
        return ct_place(g, codes, g->nq + 1, row);
    }
    return 0;
}

/* a step's actions (int64), rewards (float32) and illegal flags (uint8), ``cells`` of each
 * (tables x seats): 0, or -1 with an error set and none of them held */
static int step_buffers(PyObject *actions_in, PyObject *rewards_in, PyObject *illegal_in,
                        Py_ssize_t cells, Py_buffer *av, Py_buffer *rv, Py_buffer *iv) {
    if (ct_buffer(actions_in, av, cells * 8, 8, "actions") < 0) return -1;
    if (ct_buffer(rewards_in, rv, cells * 4, 4, "rewards") < 0) {
        PyBuffer_Release(av);
        return -1;
    }
    if (ct_buffer(illegal_in, iv, cells, 1, "illegal") < 0) {
        PyBuffer_Release(av);
        PyBuffer_Release(rv);
        return -1;
    }
    return 0;
}

/* classic_step(tables, actions, rewards, illegal, take_row[, strict]): every table one step;
 * actions int64 (n, players) (ct_step: the defaults played are written back), rewards float32
 * (n, players) (the change of score, penalty negative), illegal uint8 (n, players) set where an
 * asked seat's action was not legal (reset first) */
static PyObject *py_classic_step(PyObject *self, PyObject *args) {
    PyObject *tables_in, *actions_in, *rewards_in, *illegal_in;
    long take_row;
    int strict = 0;
    if (!PyArg_ParseTuple(args, "OOOOl|p", &tables_in, &actions_in, &rewards_in, &illegal_in,
                          &take_row, &strict))
        return NULL;
    Py_buffer tv, av, rv, iv;
    Py_ssize_t n;
    if (ct_tables(tables_in, &tv, &n) < 0) return NULL;
    ClassicTable *g = tv.buf;
    int players = g[0].players;
    if (players < 2 || players > CT_SEATS) {
        PyBuffer_Release(&tv);
        PyErr_SetString(PyExc_ValueError, "tables not dealt");
        return NULL;
    }
    Py_ssize_t cells = n * players;
    if (step_buffers(actions_in, rewards_in, illegal_in, cells, &av, &rv, &iv) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    int64_t *actions = av.buf;
    float *rewards = rv.buf;
    unsigned char *illegal = iv.buf;
    memset(illegal, 0, (size_t)cells);
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        ClassicTable *t = g + i;
        if (t->players != players) {
            PyErr_SetString(PyExc_ValueError, "tables of different sizes, or not dealt");
            rc = -1;
            break;
        }
        int before[CT_SEATS];
        for (int s = 0; s < players; s++) before[s] = t->scores[s];
        rc = ct_step(t, actions + i * players, illegal + i * players, take_row, strict);
        for (int s = 0; s < players; s++)
            rewards[i * players + s] = (float)(before[s] - t->scores[s]);
    }
    PyBuffer_Release(&tv);
    PyBuffer_Release(&av);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&iv);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* The blocks of the vector (arena/env/features.py's BLOCKS starts), as the caller gives them. */
enum {
    B_DECISION, B_HAND, B_CHOSEN, B_PLACING, B_REVEALED, B_TO_PLACE, B_SPACES, B_ROWS, B_SEATS,
    B_COUNTERS, B_SPACES_PER_ROW, B_SPACE_FEATURES, B_TILES, B_SIZE, B_TAKE_ROW, B_ACTIONS, B_N
};

/* one seat's vector (over the static template already copied into out) and mask */
/* out[t - 1] = 1 for every t in 1..104 with bytes[t] set (bytes: 105 of them, mostly 0) */
static inline void ct_ones(const unsigned char *bytes, float *out) {
    for (int t = 1; t <= CT_TILES; t += 8) {
        uint64_t w;
        memcpy(&w, bytes + t, 8);
        if (w == 0) continue;
        for (int k = 0; k < 8; k++)
            if (bytes[t + k]) out[t + k - 1] = 1.0f;
    }
}

static signed char ct_heads_table[CT_TILES + 1];

/* one seat's vector (over the static template, or over what this wrote before with the
 * entries it sets cleared: see classic_observe) and mask. ``shared``: the vector of another
 * seat of the same table, written just before: what every seat sees alike is copied from it */
static void ct_observe(const ClassicTable *g, int seat, const long *b, float *out,
                       signed char *mask, const float *shared) {
    int players = g->players;
    float tiles = (float)b[B_TILES];
    int asked_tile = g->phase == CT_TILE && g->nhand[seat] > 0 && g->chosen[seat] == 0;
    int asked_row = g->phase == CT_TAKE_ROW && g->asked == seat;
    if (out != NULL) {
        out[b[B_DECISION] + (asked_tile ? 1 : asked_row ? 4 : 0)] = 1.0f;
        ct_ones(g->hand[seat], out + b[B_HAND]);
        if (g->chosen[seat]) out[b[B_CHOSEN] + g->chosen[seat] - 1] = 1.0f;
        int placing[CT_SEATS] = {0};
        if (g->phase == CT_TAKE_ROW) {
            if (asked_row) out[b[B_PLACING] + g->current - 1] = 1.0f;
            for (int k = 0; k < g->nq; k++) placing[g->queue[k] & 15] = 1;
        }
        if (shared != NULL) { /* revealed, to place; the rows' spaces; the rows; counters */
            long from = b[B_REVEALED], to = b[B_TO_PLACE] + b[B_TILES];
            memcpy(out + from, shared + from, (size_t)(to - from) * 4);
            for (int r = 0; r < CT_ROWS; r++) /* a space's card and "has a card" only */
                for (int c = 0; c < CT_CARDS; c++) {
                    long i = b[B_SPACES] + (r * b[B_SPACES_PER_ROW] + c) * b[B_SPACE_FEATURES];
                    out[i + 1] = shared[i + 1];
                    out[i + 2] = shared[i + 2];
                }
            memcpy(out + b[B_ROWS], shared + b[B_ROWS], CT_ROWS * 5 * 4);
            memcpy(out + b[B_COUNTERS], shared + b[B_COUNTERS], 5 * 4);
        } else {
            ct_ones(g->revealed, out + b[B_REVEALED]);
            if (g->phase == CT_TAKE_ROW)
                for (int k = 0; k < g->nq; k++)
                    out[b[B_TO_PLACE] + (g->queue[k] >> 4) - 1] = 1.0f;
            for (int row = 0; row < CT_ROWS; row++) {
                int filled = 0, last = 0, heads = 0;
                for (int s = 0; s < CT_CARDS; s++) {
                    int t = g->cells[row * CT_CARDS + s];
                    if (t <= 0) continue;
                    long i = b[B_SPACES] + (row * b[B_SPACES_PER_ROW] + s) * b[B_SPACE_FEATURES];
                    out[i + 1] = (float)t / tiles;
                    out[i + 2] = 1.0f;
                    filled = s + 1;
                    last = t;
                    heads += ct_heads_table[t];
                }
                float *r = out + b[B_ROWS] + row * 5;
                r[0] = filled > 0 ? 1.0f : 0.0f;
                r[2] = (float)last / tiles;
                r[3] = (float)filled / (float)b[B_SPACES_PER_ROW];
                r[4] = (float)heads / 64.0f;
            }
            int turn = g->turn + (g->phase == CT_TILE);
            out[b[B_COUNTERS]] = (float)turn / 24.0f;
            out[b[B_COUNTERS] + 2] = (float)g->supply / tiles;
        }
        float *x = out + b[B_SEATS];
        for (int s = seat, rel = 0; rel < players; rel++, s = s + 1 == players ? 0 : s + 1, x += 6) {
            float score = (float)g->scores[s] / 50.0f;
            x[0] = 1.0f;
            x[1] = score > 20.0f ? 20.0f : score < -20.0f ? -20.0f : score;
            x[2] = (float)(g->nhand[s] + (g->chosen[s] != 0)) / 24.0f;
            x[4] = g->turn > 0 ? (float)g->latest[s] / tiles : 0.0f;
            x[5] = placing[s] ? 1.0f : 0.0f;
        }
    }
    if (mask != NULL) {
        memset(mask, 0, (size_t)b[B_ACTIONS]);
        if (asked_tile) {
            memcpy(mask + 1, g->hand[seat] + 1, CT_TILES); /* 0 or 1 a card */
        } else if (asked_row) {
            for (int r = 0; r < CT_ROWS; r++) mask[b[B_TAKE_ROW] + r] = 1;
        } else {
            mask[0] = 1;
        }
    }
}

/* What a seat's vector and mask show of a table, as ct_observe writes them: the delta update
 * (ct_observe_delta) compares these of the state last shown with the state now. */
static inline int ct_decision(const ClassicTable *g, int seat) {
    if (g->phase == CT_TILE && g->nhand[seat] > 0 && g->chosen[seat] == 0) return 1;
    if (g->phase == CT_TAKE_ROW && g->asked == seat) return 4;
    return 0;
}

/* the tiles (1..104) set in a but not in b, and in b but not in a, by 8-byte words: set
 * out[t - 1] to b's value where they differ (bytes 0 or 1) */
static inline void ct_diff_ones(const unsigned char *a, const unsigned char *b, float *out) {
    for (int t = 1; t <= CT_TILES; t += 8) {
        uint64_t x, y;
        memcpy(&x, a + t, 8);
        memcpy(&y, b + t, 8);
        if (x == y) continue;
        for (int k = 0; k < 8; k++)
            if (a[t + k] != b[t + k]) out[t + k - 1] = b[t + k] ? 1.0f : 0.0f;
    }
}

static inline int ct_placing_seat(const ClassicTable *g, int s) {
    if (g->phase != CT_TAKE_ROW) return 0;
    for (int k = 0; k < g->nq; k++)
        if ((g->queue[k] & 15) == s) return 1;
    return 0;
}

/* What changed between two states of a table that every seat sees alike, worked out once a
 * table for all its seats: the entries of the vector to write (offset, value; in order: an
 * entry may be cleared and then set), and per seat (not relative to the viewer) the entries of
 * its part of the seats block that change (bits 1 score, 2 cards held, 4 latest, 8 placing). */
#define CT_SHARED_MAX (CT_TILES + 2 * CT_SEATS + 2 * CT_ROWS * CT_CARDS + 4 * CT_ROWS + 2)
typedef struct {
    int n;
    int at[CT_SHARED_MAX];
    float val[CT_SHARED_MAX];
    int seat_bits[CT_SEATS];
    float seat_val[CT_SEATS][4];
} CtShared;

static inline void ct_put(CtShared *d, long at, float value) {
    d->at[d->n] = (int)at;
    d->val[d->n] = value;
    d->n++;
}

static void ct_shared_delta(const ClassicTable *prev, const ClassicTable *g, const long *b,
                            CtShared *d) {
    int players = g->players;
    float tiles = (float)b[B_TILES];
    d->n = 0;
    for (int t = 1; t <= CT_TILES; t += 8) { /* revealed: by 8-byte words, as ct_diff_ones */
        uint64_t x, y;
        memcpy(&x, prev->revealed + t, 8);
        memcpy(&y, g->revealed + t, 8);
        if (x == y) continue;
        for (int k = 0; k < 8; k++)
            if (prev->revealed[t + k] != g->revealed[t + k])
                ct_put(d, b[B_REVEALED] + t + k - 1, g->revealed[t + k] ? 1.0f : 0.0f);
    }
    if (prev->phase == CT_TAKE_ROW)
        for (int k = 0; k < prev->nq; k++)
            ct_put(d, b[B_TO_PLACE] + (prev->queue[k] >> 4) - 1, 0.0f);
    if (g->phase == CT_TAKE_ROW)
        for (int k = 0; k < g->nq; k++)
            ct_put(d, b[B_TO_PLACE] + (g->queue[k] >> 4) - 1, 1.0f);
    for (int row = 0; row < CT_ROWS; row++) {
        const int *was_cells = prev->cells + row * CT_CARDS, *cells = g->cells + row * CT_CARDS;
        if (memcmp(was_cells, cells, CT_CARDS * sizeof(int)) == 0) continue;
        int filled = 0, last = 0, heads = 0;
        for (int s = 0; s < CT_CARDS; s++) {
            int t = cells[s];
            if (t > 0) {
                filled = s + 1;
                last = t;
                heads += ct_heads_table[t];
            }
            if (t == was_cells[s]) continue;
            long i = b[B_SPACES] + (row * b[B_SPACES_PER_ROW] + s) * b[B_SPACE_FEATURES];
            ct_put(d, i + 1, t > 0 ? (float)t / tiles : 0.0f);
            ct_put(d, i + 2, t > 0 ? 1.0f : 0.0f);
        }
        long r = b[B_ROWS] + row * 5;
        ct_put(d, r, filled > 0 ? 1.0f : 0.0f);
        ct_put(d, r + 2, (float)last / tiles);
        ct_put(d, r + 3, (float)filled / (float)b[B_SPACES_PER_ROW]);
        ct_put(d, r + 4, (float)heads / 64.0f);
    }
    if (prev->turn != g->turn || prev->phase != g->phase)
        ct_put(d, b[B_COUNTERS], (float)(g->turn + (g->phase == CT_TILE)) / 24.0f);
    if (prev->supply != g->supply) ct_put(d, b[B_COUNTERS] + 2, (float)g->supply / tiles);
    for (int s = 0; s < players; s++) {
        int bits = 0;
        float *v = d->seat_val[s];
        if (prev->scores[s] != g->scores[s]) {
            float score = (float)g->scores[s] / 50.0f;
            v[0] = score > 20.0f ? 20.0f : score < -20.0f ? -20.0f : score;
            bits |= 1;
        }
        int held = g->nhand[s] + (g->chosen[s] != 0);
        if (prev->nhand[s] + (prev->chosen[s] != 0) != held) {
            v[1] = (float)held / 24.0f;
            bits |= 2;
        }
        int latest = g->turn > 0 ? g->latest[s] : 0;
        if ((prev->turn > 0 ? prev->latest[s] : 0) != latest) {
            v[2] = (float)latest / tiles;
            bits |= 4;
        }
        int placing = ct_placing_seat(g, s);
        if (ct_placing_seat(prev, s) != placing) {
            v[3] = placing ? 1.0f : 0.0f;
            bits |= 8;
        }
        d->seat_bits[s] = bits;
    }
}

/* one seat's vector and mask brought from what ``prev`` showed to what ``g`` shows, writing only
 * the entries that change; ``d``: ct_shared_delta of the two */
static void ct_observe_delta(const ClassicTable *prev, const ClassicTable *g, int seat,
                             const long *b, float *out, signed char *mask, const CtShared *d,
                             int prefetch_next) {
    int players = g->players;
    int was = ct_decision(prev, seat), now = ct_decision(g, seat);
    if (out != NULL) {
        if (was != now) {
            out[b[B_DECISION] + was] = 0.0f;
            out[b[B_DECISION] + now] = 1.0f;
        }
        ct_diff_ones(prev->hand[seat], g->hand[seat], out + b[B_HAND]);
        if (prev->chosen[seat] != g->chosen[seat]) {
            if (prev->chosen[seat]) out[b[B_CHOSEN] + prev->chosen[seat] - 1] = 0.0f;
            if (g->chosen[seat]) out[b[B_CHOSEN] + g->chosen[seat] - 1] = 1.0f;
        }
        int placed_was = was == 4 ? prev->current : 0, placed_now = now == 4 ? g->current : 0;
        if (placed_was != placed_now) {
            if (placed_was) out[b[B_PLACING] + placed_was - 1] = 0.0f;
            if (placed_now) out[b[B_PLACING] + placed_now - 1] = 1.0f;
        }
        for (int k = 0; k < d->n; k++) out[d->at[k]] = d->val[k];
        if (prefetch_next) /* the next seat's vector, the same entries: their lines on the way */
            for (int k = 0; k < d->n; k++) __builtin_prefetch(out + b[B_SIZE] + d->at[k], 1);
        float *x = out + b[B_SEATS];
        for (int s = seat, rel = 0; rel < players;
             rel++, s = s + 1 == players ? 0 : s + 1, x += 6) {
            int bits = d->seat_bits[s];
            if (bits == 0) continue;
            const float *v = d->seat_val[s];
            if (bits & 1) x[1] = v[0];
            if (bits & 2) x[2] = v[1];
            if (bits & 4) x[4] = v[2];
            if (bits & 8) x[5] = v[3];
        }
    }
    if (mask != NULL) {
        if (was != now) {
            if (was == 1) {
                memset(mask + 1, 0, CT_TILES);
            } else if (was == 4) {
                memset(mask + b[B_TAKE_ROW], 0, CT_ROWS);
            } else {
                mask[0] = 0;
            }
            if (now == 1) {
                memcpy(mask + 1, g->hand[seat] + 1, CT_TILES); /* 0 or 1 a card */
            } else if (now == 4) {
                memset(mask + b[B_TAKE_ROW], 1, CT_ROWS);
            } else {
                mask[0] = 1;
            }
        } else if (now == 1) {
            const unsigned char *a = prev->hand[seat], *h = g->hand[seat];
            for (int t = 1; t <= CT_TILES; t += 8) {
                uint64_t x, y;
                memcpy(&x, a + t, 8);
                memcpy(&y, h + t, 8);
                if (x != y) memcpy(mask + t, h + t, 8);
            }
        }
    }
}

/* the part of a table ct_observe_delta compares: everything but the hands of seats not dealt */
static void ct_keep(ClassicTable *prev, const ClassicTable *g) {
    memcpy(prev, g, offsetof(ClassicTable, hand));
    memcpy(prev->hand, g->hand, (size_t)g->players * sizeof(g->hand[0]));
    memcpy(prev->revealed, g->revealed, sizeof(g->revealed));
    prev->seed = g->seed;
}

/* classic_observe(tables, blocks, template, seat, obs, mask[, which, primed]): the vectors
 * (float32, over the static entries of ``template``) and masks (int8) of every table, of every
 * seat (obs (n, players, size), mask (n, players, actions)) or of ``seat`` (obs (n, size),
 * ...); obs or mask may be None; ``which`` (uint8 (n,), or None): only the tables where it is
 * set. ``primed``: obs holds vectors this call wrote before (the same tables and seats), so
 * only the entries that change are cleared, not the template copied again. ``shown`` (a
 * writable buffer of n tables, or None): with obs and mask, the tables as obs and mask show
 * them, kept by this call; primed, only the entries that differ from what they show are
 * written (a table in ``shown`` that is not one of this size, say never filled: all of it). */
static PyObject *py_classic_observe(PyObject *self, PyObject *args) {
    PyObject *tables_in, *blocks_in, *template_in, *obs_in, *mask_in, *which_in = Py_None;
    PyObject *shown_in = Py_None;
    int seat, primed = 0;
    if (!PyArg_ParseTuple(args, "OOOiOO|OpO", &tables_in, &blocks_in, &template_in, &seat,
                          &obs_in, &mask_in, &which_in, &primed, &shown_in))
        return NULL;
    long b[B_N];
    if (read_ints(blocks_in, b, B_N, "blocks") != B_N) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "blocks: the layout's numbers");
        return NULL;
    }
    Py_buffer tv, pv = {0}, ov = {0}, mv = {0}, wv = {0}, sv = {0};
    Py_ssize_t n;
    if (ct_tables_read(tables_in, &tv, &n) < 0) return NULL;
    const ClassicTable *g = tv.buf;
    if (which_in != Py_None && ct_buffer_flags(which_in, &wv, n, 1, "which", PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    const unsigned char *which = which_in != Py_None ? wv.buf : NULL;
    int players = g[0].players;
    if (players < 2 || players > CT_SEATS || seat >= players) {
        PyBuffer_Release(&tv);
        if (which != NULL) PyBuffer_Release(&wv);
        PyErr_SetString(PyExc_ValueError, "tables not dealt, or no such seat");
        return NULL;
    }
    Py_ssize_t per = seat < 0 ? n * players : n;
    int ok = ct_buffer_flags(template_in, &pv, b[B_SIZE] * 4, 4, "template", PyBUF_SIMPLE) == 0;
    int have_obs = ok && obs_in != Py_None;
    if (have_obs && ct_buffer(obs_in, &ov, per * b[B_SIZE] * 4, 4, "obs") < 0) {
        ok = 0;
        have_obs = 0;
    }
    int have_mask = ok && mask_in != Py_None;
    if (have_mask && ct_buffer(mask_in, &mv, per * b[B_ACTIONS], 1, "mask") < 0) {
        ok = 0;
        have_mask = 0;
    }
    int have_shown = ok && shown_in != Py_None;
    if (have_shown && (!have_obs || !have_mask)) {
        PyErr_SetString(PyExc_ValueError, "shown: with obs and mask only");
        ok = have_shown = 0;
    }
    if (have_shown && ct_buffer(shown_in, &sv, n * (Py_ssize_t)sizeof(ClassicTable), 1,
                                "shown") < 0) {
        ok = have_shown = 0;
    }
    if (ok) {
        float *obs = have_obs ? ov.buf : NULL;
        signed char *mask = have_mask ? mv.buf : NULL;
        ClassicTable *shown = have_shown ? sv.buf : NULL;
        size_t bytes = (size_t)b[B_SIZE] * 4;
        Py_ssize_t k = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (which != NULL && !which[i]) {
                k += seat < 0 ? players : 1;
                continue;
            }
            if (g[i].players != players) { /* a table not dealt: shown as nothing */
                ok = 0;
                PyErr_SetString(PyExc_ValueError, "tables of different sizes, or not dealt");
                break;
            }
            int first = seat < 0 ? 0 : seat;
            if (shown != NULL) {
                int delta = primed && ct_check_indices(shown + i, players) == NULL;
                int last = seat < 0 ? players : seat + 1;
                CtShared shared;
                if (delta) ct_shared_delta(shown + i, g + i, b, &shared);
                for (int s = first; s < last; s++, k++) {
                    float *o = obs + k * b[B_SIZE];
                    signed char *m = mask + k * b[B_ACTIONS];
                    if (delta) {
                        ct_observe_delta(shown + i, g + i, s, b, o, m, &shared, s + 1 < last);
                    } else {
                        memcpy(o, pv.buf, bytes);
                        ct_observe(g + i, s, b, o, m, NULL);
                    }
                }
                ct_keep(shown + i, g + i);
                continue;
            }
            Py_ssize_t k0 = k;
            for (int s = first; s < (seat < 0 ? players : seat + 1); s++, k++) {
                float *o = obs == NULL ? NULL : obs + k * b[B_SIZE];
                const float *shared = o != NULL && s != first ? obs + k0 * b[B_SIZE] : NULL;
                if (o != NULL && !primed) {
                    memcpy(o, pv.buf, bytes);
                } else if (o != NULL) { /* what ct_observe may have set, and only that */
                    long upto = shared != NULL ? b[B_REVEALED] : b[B_TO_PLACE] + b[B_TILES];
                    memset(o + b[B_DECISION], 0, (size_t)(upto - b[B_DECISION]) * 4);
                    for (int r = 0; shared == NULL && r < CT_ROWS; r++)
                        for (int c = 0; c < CT_CARDS; c++) {
                            float *x = o + b[B_SPACES] +
                                       (r * b[B_SPACES_PER_ROW] + c) * b[B_SPACE_FEATURES];
                            x[1] = x[2] = 0.0f;
                        }
                }
                ct_observe(g + i, s, b, o, mask == NULL ? NULL : mask + k * b[B_ACTIONS], shared);
            }
        }
    }
    PyBuffer_Release(&tv);
    if (which != NULL) PyBuffer_Release(&wv);
    if (pv.obj != NULL) PyBuffer_Release(&pv);
    if (have_obs) PyBuffer_Release(&ov);
    if (have_mask) PyBuffer_Release(&mv);
    if (have_shown) PyBuffer_Release(&sv);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* classic_view(tables, i) -> dict: table i's state as plain values (tests, rendering) */
static PyObject *py_classic_view(PyObject *self, PyObject *args) {
    Py_buffer tv;
    const ClassicTable *g = ct_table_arg(args, &tv);
    if (g == NULL) return NULL;
    int p = g->players < 0 || g->players > CT_SEATS ? 0 : g->players;
    PyObject *rows = PyList_New(CT_ROWS), *hands = PyList_New(p), *scores = PyList_New(p),
             *chosen = PyList_New(p);
    PyObject *out = NULL;
    if (rows && hands && scores && chosen) {
        for (int r = 0; r < CT_ROWS; r++) {
            PyObject *row = PyList_New(0);
            for (int k = 0; row && k < CT_CARDS; k++)
                if (g->cells[r * CT_CARDS + k] > 0) {
                    PyObject *x = PyLong_FromLong(g->cells[r * CT_CARDS + k]);
                    PyList_Append(row, x);
                    Py_XDECREF(x);
                }
            PyList_SET_ITEM(rows, r, row ? row : PyList_New(0));
        }
        for (int s = 0; s < p; s++) {
            PyObject *hand = PyList_New(0);
            for (int t = 1; hand && t <= CT_TILES; t++)
                if (g->hand[s][t]) {
                    PyObject *x = PyLong_FromLong(t);
                    PyList_Append(hand, x);
                    Py_XDECREF(x);
                }
            PyList_SET_ITEM(hands, s, hand ? hand : PyList_New(0));
            PyList_SET_ITEM(scores, s, PyLong_FromLong(g->scores[s]));
            PyList_SET_ITEM(chosen, s, PyLong_FromLong(g->chosen[s]));
        }
        out = Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:O,s:O,s:O,s:O,s:K}", "players", g->players,
                            "phase", g->phase, "asked", g->asked, "current", g->current, "turn",
                            g->turn, "rows", rows, "hands", hands, "scores", scores, "chosen",
                            chosen, "seed", (unsigned long long)g->seed);
    }
    Py_XDECREF(rows);
    Py_XDECREF(hands);
    Py_XDECREF(scores);
    Py_XDECREF(chosen);
    PyBuffer_Release(&tv);
    return out;
}

/* classic_status(tables, phase, asked[, scores]): each table's phase (0 over, 1 cards, 2 a
 * row) and the seat a row is asked of (-1: none), int8 (n,) each; scores (int64 (n, players),
 * or None): the penalty points */
static PyObject *py_classic_status(PyObject *self, PyObject *args) {
    PyObject *tables_in, *phase_in, *asked_in, *scores_in = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O", &tables_in, &phase_in, &asked_in, &scores_in))
        return NULL;
    Py_buffer tv, pv, av;
    Py_ssize_t n;
    if (ct_tables_read(tables_in, &tv, &n) < 0) return NULL;
    if (ct_buffer(phase_in, &pv, n, 1, "phase") < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    if (ct_buffer(asked_in, &av, n, 1, "asked") < 0) {
        PyBuffer_Release(&tv);
        PyBuffer_Release(&pv);
        return NULL;
    }
    const ClassicTable *g = tv.buf;
    signed char *phase = pv.buf, *asked = av.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        phase[i] = (signed char)g[i].phase;
        asked[i] = (signed char)(g[i].phase == CT_TAKE_ROW ? g[i].asked : -1);
    }
    int rc = 0;
    if (scores_in != Py_None) {
        Py_buffer sv;
        int players = n > 0 ? g[0].players : 0;
        if (players < 2 || players > CT_SEATS) {
            PyErr_SetString(PyExc_ValueError, "tables not dealt");
            rc = -1;
        } else if (ct_buffer(scores_in, &sv, n * players * 8, 8, "scores") < 0) {
            rc = -1;
        } else {
            int64_t *scores = sv.buf;
            for (Py_ssize_t i = 0; i < n; i++)
                for (int s = 0; s < players; s++)
                    scores[i * players + s] = g[i].players == players ? g[i].scores[s] : 0;
            PyBuffer_Release(&sv);
        }
    }
    PyBuffer_Release(&tv);
    PyBuffer_Release(&pv);
    PyBuffer_Release(&av);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* classic_asked(tables, i) -> tuple: the seats table i waits for (none once it is over) */
static PyObject *py_classic_asked(PyObject *self, PyObject *args) {
    Py_buffer tv;
    const ClassicTable *g = ct_table_arg(args, &tv);
    if (g == NULL) return NULL;
    int seats[CT_SEATS], k = 0;
    if (g->phase == CT_TAKE_ROW && g->asked >= 0 && g->asked < CT_SEATS) {
        seats[k++] = g->asked;
    } else if (g->phase == CT_TILE) {
        for (int s = 0; s < g->players && s < CT_SEATS; s++)
            if (g->nhand[s] > 0 && g->chosen[s] == 0) seats[k++] = s;
    }
    PyBuffer_Release(&tv);
    PyObject *out = PyTuple_New(k);
    for (int j = 0; out != NULL && j < k; j++) PyTuple_SET_ITEM(out, j, PyLong_FromLong(seats[j]));
    return out;
}

/* ------------------------------------------------------------ the board game, step by step */
/* The environments' tables of the board game (arena/env/core.py): BoardTable records in one
 * writable buffer, dealt as Game.new deals, played by the general simulator's rules (Sim) one
 * decision point at a time, and shown to each seat as the environments' vector and mask
 * (arena/env/features.py, arena/env/actions.py).
 *
 * A table keeps its turn as it was at the reveal (start) and the luck and action decisions
 * answered since (answers). To go on, the Sim plays the turn again from the reveal, taking the
 * answers where the Game asks for them (Sim.script), and stops at the first decision that has
 * none: that is the position now (now), the question the table asks. A turn asks few
 * decisions, so playing it again costs less than a Sim that could pause. */

#define BT_ANSWERS 128
#define BT_LEGAL (G_ROWS * G_SPACES > G_OPTIONS ? G_ROWS * G_SPACES : G_OPTIONS)
/* the phases (arena/env/core.py names them); 2 is the card game's row choice */
enum { BT_OVER, BT_TILE, BT_LUCK = 3, BT_ACTION };

typedef struct {
    int players;
    int phase;  /* BT_TILE: every seat holding tiles and without a chosen one */
    int asked;  /* BT_LUCK, BT_ACTION: the seat asked */
    int what;   /* BT_LUCK: the luck card (0 plus5, 1 final10); BT_ACTION: the tile */
    int chosen[G_SEATS]; /* this turn's tile, before the reveal (0: none yet) */
    int latest[G_SEATS]; /* the tiles revealed in the latest turn (0: none) */
    int nanswers;
    Forced answers[BT_ANSWERS]; /* this turn's luck and action decisions so far */
    unsigned char revealed[NTILES]; /* 1: revealed in some turn so far */
    uint64_t seed;                  /* the deal's */
    Sim start; /* the turn at its reveal */
    Sim now;   /* the position now */
} BoardTable;

/* The vector's blocks and scales (arena/env/features.py) and the action space's blocks
 * (arena/env/actions.py), as board_rules takes them. */
enum {
    BO_DECISION, BO_HAND, BO_CHOSEN, BO_PLACING, BO_LUCK_CARD, BO_REVEALED, BO_TO_PLACE,
    BO_SPACES, BO_ROWS, BO_SEATS, BO_CARDS, BO_PLAYED, BO_COUNTERS, BO_SIZE, BO_SPACE_FEATURES,
    BO_TILES, BO_LUCK_DECK, BO_ACTION_DECK, BO_N
};
enum { BA_LUCK, BA_SPACES, BA_NONE, BA_CARDS, BA_COUNT = BA_CARDS + 8, BA_N };

/* A variant under one reading of the rules, with the vector's and the action space's layout */
typedef struct {
    GBoard board;
    int pro, hs, tiles, start_rows, stop_own, another_low, plus5_replaces;
    long bh[NTILES];
    int nluck, luck[G_DECK], nactions, actions[G_DECK]; /* the decks, unshuffled */
    long ob[BO_N], at[BA_N];
} BoardRules;

#define BOARD_RULES_CAPSULE "nimmt.board_rules"

static void board_rules_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, BOARD_RULES_CAPSULE));
}

/* what is wrong with the layouts of r (each block within the vector or the action space, in
 * the order the features give them), or NULL */
static const char *br_check_layout(const BoardRules *r) {
    const long *o = r->ob, *a = r->at;
    long rows = r->board.nrows, spaces = a[BA_SPACES], tiles = o[BO_TILES];
    for (int k = 0; k < BO_N; k++)
        if (o[k] < 0) return "vector layout: a negative number";
    for (int k = 0; k < BA_N; k++)
        if (a[k] < 0) return "action layout: a negative number";
    for (int row = 0; row < rows; row++)
        if (r->board.length[row] > spaces) return "action layout: fewer spaces than a row has";
    if (tiles < r->tiles || o[BO_SPACE_FEATURES] < 13 || o[BO_LUCK_DECK] < 1 ||
        o[BO_ACTION_DECK] < 1)
        return "vector layout: a scale too small";
    const long blocks[][2] = {
        {o[BO_DECISION], 5},     {o[BO_HAND], tiles},    {o[BO_CHOSEN], tiles},
        {o[BO_PLACING], tiles},  {o[BO_LUCK_CARD], 2},   {o[BO_REVEALED], tiles},
        {o[BO_TO_PLACE], tiles}, {o[BO_SPACES], rows * spaces * o[BO_SPACE_FEATURES]},
        {o[BO_ROWS], rows * 5},  {o[BO_SEATS], G_SEATS * 6},
        {o[BO_CARDS], 8},        {o[BO_PLAYED], 8},
        {o[BO_COUNTERS], 5},
    };
    for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
        long end = blocks[k][0] + blocks[k][1];
        long next = k + 1 < sizeof(blocks) / sizeof(blocks[0]) ? blocks[k + 1][0] : o[BO_SIZE];
        if (end > next) return "vector layout: blocks that overlap or leave the vector";
    }
    const long cards[][2] = {
        {a[BA_LUCK], rows * spaces}, {a[BA_NONE], 1},
        {a[BA_CARDS + A_STOP], rows}, {a[BA_CARDS + A_SWAP], r->tiles},
        {a[BA_CARDS + A_SKIP], 1}, {a[BA_CARDS + A_FRONT], rows},
        {a[BA_CARDS + A_ASCENDING], rows}, {a[BA_CARDS + A_ANYWHERE], rows},
        {a[BA_CARDS + A_ANOTHER], r->tiles}, {a[BA_CARDS + A_PLUS5], 1},
    };
    if (r->tiles >= a[BA_LUCK]) return "action layout: the tiles overlap the luck block";
    for (size_t k = 0; k < sizeof(cards) / sizeof(cards[0]); k++)
        if (cards[k][0] < 1 || cards[k][0] + cards[k][1] > a[BA_COUNT])
            return "action layout: a block outside the action space";
    return NULL;
}

/* board_rules(board, bh, luck, actions, numbers, vector, action_space) -> capsule
 *
 * A board variant under one reading, for the board tables: ``board`` a general_board capsule,
 * ``bh`` the reading's bullheads (105 entries), ``luck`` and ``actions`` the decks' cards as
 * codes in the variant's (unshuffled) order, ``numbers`` (professional, hand size, tiles,
 * starting rows, stop on the own row, another lowest first, plus five replaces), ``vector``
 * the BO_* numbers (block starts, then size, space features, tile scale, deck scales),
 * ``action_space`` the BA_* numbers (luck block, spaces a row, none, the eight cards' blocks in
 * ACTION_CARDS order, the count of actions). */
static PyObject *py_board_rules(PyObject *self, PyObject *args) {
    PyObject *board_in, *bh_in, *luck_in, *actions_in, *numbers_in, *vector_in, *space_in;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &board_in, &bh_in, &luck_in, &actions_in, &numbers_in,
                          &vector_in, &space_in))
        return NULL;
    if (!PyCapsule_IsValid(board_in, "nimmt.general_board")) {
        PyErr_SetString(PyExc_ValueError, "board: not general_board's capsule");
        return NULL;
    }
    const GBoard *b = PyCapsule_GetPointer(board_in, "nimmt.general_board");
    if (b == NULL) return NULL;
    BoardRules *r = PyMem_Calloc(1, sizeof(BoardRules));
    if (r == NULL) return PyErr_NoMemory();
    r->board = *b;
    long numbers[7], codes[G_DECK];
    const char *wrong = NULL;
    if (read_ints(bh_in, r->bh, NTILES, "bh") != NTILES) {
        wrong = "bh: 105 entries";
        goto fail;
    }
    int n = read_ints(luck_in, codes, G_DECK, "luck");
    if (n < 0) goto fail;
    r->nluck = n;
    for (int k = 0; k < n; k++) {
        if (codes[k] < 0 || codes[k] > 1) wrong = "luck: card codes 0 (plus5) and 1 (final10)";
        r->luck[k] = (int)codes[k];
    }
    n = read_ints(actions_in, codes, G_DECK, "actions");
    if (n < 0) goto fail;
    r->nactions = n;
    for (int k = 0; k < n; k++) {
        if (codes[k] < 0 || codes[k] > 7) wrong = "actions: card codes 0 to 7";
        r->actions[k] = (int)codes[k];
    }
    if (read_ints(numbers_in, numbers, 7, "numbers") != 7) {
        wrong = "numbers: seven of them";
        goto fail;
    }
    r->pro = (int)numbers[0];
    r->hs = (int)numbers[1];
    r->tiles = (int)numbers[2];
    r->start_rows = (int)numbers[3];
    r->stop_own = (int)numbers[4];
    r->another_low = (int)numbers[5];
    r->plus5_replaces = (int)numbers[6];
    if (r->tiles < 1 || r->tiles >= NTILES || r->hs < 1 || r->hs > G_HAND ||
        r->start_rows < 1 || r->start_rows > b->nrows)
        wrong = "numbers: tiles 1 to 104, a hand of 1 to 128, 1 to all rows to start";
    if (read_ints(vector_in, r->ob, BO_N, "vector") != BO_N) {
        wrong = "vector: the vector's block starts and scales";
        goto fail;
    }
    if (read_ints(space_in, r->at, BA_N, "action_space") != BA_N) {
        wrong = "action_space: the action space's block starts";
        goto fail;
    }
    if (wrong == NULL) wrong = br_check_layout(r);
fail:
    if (wrong != NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, wrong);
    if (PyErr_Occurred()) {
        PyMem_Free(r);
        return NULL;
    }
    return PyCapsule_New(r, BOARD_RULES_CAPSULE, board_rules_free);
}

/* the BoardRules of a board_rules capsule, or NULL with an error set */
static const BoardRules *br_arg(PyObject *obj) {
    if (!PyCapsule_IsValid(obj, BOARD_RULES_CAPSULE)) {
        PyErr_SetString(PyExc_ValueError,
                        "rules: not board_rules' capsule (" BOARD_RULES_CAPSULE ")");
        return NULL;
    }
    return PyCapsule_GetPointer(obj, BOARD_RULES_CAPSULE);
}

/* the Sim's pointers, which a table's buffer does not keep */
static void bt_bind(Sim *m, const BoardRules *r, Gen *gen) {
    m->board = &r->board;
    m->gen = gen;
    m->policy = NULL;
    m->rec = NULL;
    m->script = NULL;
    m->forced.kind = F_NONE;
    m->err = 0;
}

/* what is wrong with a Sim of a table (a number the core indexes by out of range), or NULL */
static const char *bt_check_sim(const Sim *m, const BoardRules *r, int players) {
    const GBoard *b = &r->board;
    if (m->players != players) return "players: not the tables' count of seats";
    for (int row = 0; row < b->nrows; row++) {
        if (m->fill[row] < 0 || m->fill[row] > b->length[row]) return "fill: out of range";
        for (int s = 0; s < b->length[row]; s++)
            if (m->spaces[row][s] < -1 || m->spaces[row][s] > r->tiles ||
                m->kind[row][s] < K_PLAIN || m->kind[row][s] > K_ACTION)
                return "spaces: out of range";
    }
    if (m->nends < 0 || m->nends > b->nrows || m->nstops < 0 || m->nstops > b->nrows)
        return "rows: out of range";
    for (int k = 0; k < m->nends; k++)
        if (m->erow[k] < 0 || m->erow[k] >= b->nrows) return "rows: out of range";
    for (int k = 0; k < m->nstops; k++)
        if (m->stops[k] < 0 || m->stops[k] >= b->nrows || m->fill[m->stops[k]] < 1)
            return "stops: out of range";
    for (int s = 0; s < players; s++) {
        if (m->nh[s] < 0 || m->nh[s] > G_HAND || m->nheld[s] < 0 || m->nheld[s] > G_HELD)
            return "hands: out of range";
        for (int k = 0; k < m->nh[s]; k++)
            if (m->hands[s][k] < 1 || m->hands[s][k] > r->tiles) return "hands: not a tile";
        for (int k = 0; k < m->nheld[s]; k++)
            if (m->held[s][k] < 0 || m->held[s][k] > 7) return "held: not an action card";
    }
    if (m->nsupply < 0 || m->nsupply > G_DECK || m->sup_i < 0 || m->sup_i > m->nsupply ||
        m->nluck < 0 || m->nluck > G_DECK || m->luck_i < 0 || m->luck_i > m->nluck ||
        m->nactions < 0 || m->nactions > G_DECK || m->act_i < 0 || m->act_i > m->nactions)
        return "decks: out of range";
    for (int k = 0; k < m->nsupply; k++)
        if (m->supply[k] < 1 || m->supply[k] > r->tiles) return "supply: not a tile";
    for (int k = 0; k < m->nluck; k++)
        if (m->luck[k] < 0 || m->luck[k] > 1) return "luck: not a luck card";
    for (int k = 0; k < m->nactions; k++)
        if (m->actions[k] < 0 || m->actions[k] > 7) return "actions: not an action card";
    if (m->nq < 0 || m->nq > G_QUEUE) return "queue: out of range";
    for (int k = 0; k < m->nq; k++)
        if ((m->queue[k] >> 4) < 1 || (m->queue[k] >> 4) > r->tiles ||
            (m->queue[k] & 15) >= players)
            return "queue: an entry that is not a tile and a seat";
    if (m->nturns < 0 || m->set_number < 1 || m->set_number > 2) return "turns: out of range";
    return NULL;
}

/* what is wrong with a table of ``players`` (bt_check_sim of its position now), or NULL */
static const char *bt_check(const BoardTable *g, const BoardRules *r, int players) {
    if (g->players != players) return "players: not the tables' count of seats";
    if (g->phase != BT_OVER && g->phase != BT_TILE && g->phase != BT_LUCK &&
        g->phase != BT_ACTION)
        return "phase: over, tile, luck or action";
    if ((g->phase == BT_LUCK || g->phase == BT_ACTION) && (g->asked < 0 || g->asked >= players))
        return "asked: not a seat";
    if (g->phase == BT_LUCK && (g->what < 0 || g->what > 1)) return "what: not a luck card";
    if (g->phase == BT_ACTION && (g->what < 1 || g->what > r->tiles)) return "what: not a tile";
    if (g->nanswers < 0 || g->nanswers > BT_ANSWERS) return "answers: out of range";
    for (int s = 0; s < players; s++)
        if (g->chosen[s] < 0 || g->chosen[s] > r->tiles || g->latest[s] < 0 ||
            g->latest[s] > r->tiles)
            return "chosen: not a tile";
    return bt_check_sim(&g->now, r, players);
}

static void bt_shuffle(Gen *gen, int *items, int n) { /* DealRandom.shuffle */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gen_below(gen, (uint64_t)i + 1), x = items[i];
        items[i] = items[j];
        items[j] = x;
    }
}

/* Game.new(variant, players, seed): the tiles, the luck deck and the action deck shuffled in
 * that order, a tile on each starting row, hand_size tiles a seat, the rest the supply */
static void bt_deal(BoardTable *g, const BoardRules *r, int players, uint64_t seed) {
    Gen gen = {seed};
    int tiles[NTILES];
    for (int i = 0; i < r->tiles; i++) tiles[i] = i + 1;
    memset(g, 0, sizeof(*g));
    Sim *m = &g->now;
    bt_shuffle(&gen, tiles, r->tiles);
    memcpy(m->luck, r->luck, sizeof(r->luck));
    m->nluck = r->nluck;
    bt_shuffle(&gen, m->luck, m->nluck);
    memcpy(m->actions, r->actions, sizeof(r->actions));
    m->nactions = r->nactions;
    bt_shuffle(&gen, m->actions, m->nactions);
    g->players = players;
    g->phase = BT_TILE;
    g->seed = seed;
    m->players = players;
    m->pro = r->pro;
    m->hs = r->hs;
    m->stop_own = r->stop_own;
    m->another_low = r->another_low;
    m->plus5_replaces = r->plus5_replaces;
    m->set_number = 1;
    memcpy(m->bh, r->bh, sizeof(r->bh));
    for (int row = 0; row < r->board.nrows; row++)
        for (int s = 0; s < r->board.length[row]; s++) m->kind[row][s] = r->board.kinds[row][s];
    for (int row = 0; row < r->start_rows; row++) {
        int t = tiles[row];
        m->spaces[row][0] = t;
        m->fill[row] = 1;
        m->rsum[row] = m->bh[t];
        g_insert_end(m, t, row);
    }
    int at = r->start_rows;
    for (int s = 0; s < players; s++) {
        for (int k = 0; k < r->hs; k++) m->hands[s][k] = tiles[at++];
        m->nh[s] = r->hs;
    }
    while (at < r->tiles) m->supply[m->nsupply++] = tiles[at++];
}

/* play the turn from its reveal with the answers so far, to the next decision (BT_LUCK,
 * BT_ACTION) or the turn's end (BT_TILE, BT_OVER): 0, or -1 with an error set */
static int bt_run(BoardTable *g, const BoardRules *r) {
    const char *wrong = bt_check_sim(&g->start, r, g->players);
    if (wrong != NULL) {
        PyErr_Format(PyExc_ValueError, "a board table's turn start: %s", wrong);
        return -1;
    }
    Sim *m = &g->now;
    /* a tile going back to a hand goes to a random place in it, which shows nowhere: the
     * same generator each time the turn is played again keeps it the same place */
    Gen gen = {g->seed};
    memcpy(m, &g->start, sizeof(Sim));
    bt_bind(m, r, &gen);
    m->script = g->answers;
    m->nscript = g->nanswers;
    m->iscript = 0;
    long plays[G_SEATS];
    for (int s = 0; s < g->players; s++) plays[s] = g->latest[s];
    g_turn(m, plays, NULL, 0);
    int err = m->err, used = m->iscript;
    m->gen = NULL;
    m->script = NULL;
    m->err = 0;
    if ((err != 0 && err != G_ASKED) || used != g->nanswers) {
        PyErr_SetString(PyExc_ValueError,
                        "a board table whose turn breaks the rules the core plays");
        return -1;
    }
    if (err == G_ASKED) {
        g->phase = m->ask.kind == F_LUCK ? BT_LUCK : BT_ACTION;
        g->asked = m->ask.a;
        g->what = m->ask.b;
    } else {
        g->phase = m->over ? BT_OVER : BT_TILE;
        g->asked = g->what = 0;
        g->nanswers = 0;
    }
    return 0;
}

/* every chosen tile revealed: the turn played from here (bt_run) */
static int bt_reveal(BoardTable *g, const BoardRules *r) {
    for (int s = 0; s < g->players; s++) {
        g->latest[s] = g->chosen[s];
        g->revealed[g->chosen[s]] = 1;
        g->chosen[s] = 0;
    }
    g->revealed[0] = 0;
    memcpy(&g->start, &g->now, sizeof(Sim));
    g->nanswers = 0;
    return bt_run(g, r);
}

/* what is asked of seat, as the vector's decision block counts: 0 nothing, 1 a tile, 2 a luck
 * card's space, 3 an action card */
static inline int bt_decision(const BoardTable *g, int seat) {
    if (g->phase == BT_TILE) return g->now.nh[seat] > 0 && g->chosen[seat] == 0;
    if (g->asked != seat) return 0;
    return g->phase == BT_LUCK ? 2 : g->phase == BT_ACTION ? 3 : 0;
}

/* the action an action-card decision is (arena/env/actions.py) */
static long bt_action_of(const BoardRules *r, const Forced *d) {
    if (d->a == A_NONE) return r->at[BA_NONE];
    long start = r->at[BA_CARDS + d->a];
    if (d->a == A_STOP || d->a == A_FRONT || d->a == A_ASCENDING || d->a == A_ANYWHERE)
        return start + d->b;
    if (d->a == A_SWAP || d->a == A_ANOTHER) return start + d->c - 1;
    return start;
}

/* seat's legal actions now and the decisions they are (Game.legal, in its order): their
 * count (0: nothing asked), or -1 with an error set. The table's Sim must be bound. */
static int bt_legal(BoardTable *g, const BoardRules *r, int seat, long *actions,
                    Forced *decisions) {
    Sim *m = &g->now;
    int n = 0, kind = bt_decision(g, seat);
    if (kind == 1) {
        for (int k = 0; k < m->nh[seat]; k++) {
            actions[n] = m->hands[seat][k];
            decisions[n++] = (Forced){F_TILE, m->hands[seat][k], 0, 0};
        }
    } else if (kind == 2) {
        int rs[G_ROWS * G_SPACES], ss[G_ROWS * G_SPACES];
        n = g_free_spaces(m, g->what, rs, ss);
        for (int k = 0; k < n; k++) {
            actions[k] = r->at[BA_LUCK] + rs[k] * r->at[BA_SPACES] + ss[k];
            decisions[k] = (Forced){F_LUCK, rs[k], ss[k], 0};
        }
    } else if (kind == 3) {
        n = g_action_options(m, seat, g->what, decisions);
        for (int k = 0; k < n; k++) actions[k] = bt_action_of(r, decisions + k);
    }
    if (m->err) {
        m->err = 0;
        PyErr_SetString(PyExc_ValueError, "a board table whose position breaks the rules");
        return -1;
    }
    return n;
}

static int bt_lowest(const Sim *m, int seat) {
    int low = NTILES;
    for (int k = 0; k < m->nh[seat]; k++)
        if (m->hands[seat][k] < low) low = m->hands[seat][k];
    return low;
}

/* one table's step, as ct_step: actions[s] for every seat (-1: no answer yet); an asked seat's
 * illegal action flagged 1 in illegal[s], an answer of a seat not asked 2 (and ignored); with
 * ``strict`` the table is then left as it was, else the arena's fault default is played for an
 * illegal action (the lowest tile, the first free space, no action card) and written over
 * actions[s]. 0, or -1 with an error set. */
static int bt_step(BoardTable *g, const BoardRules *r, int64_t *actions, unsigned char *illegal,
                   int strict) {
    int players = g->players, wrong = 0;
    Sim *m = &g->now;
    for (int s = 0; s < players; s++)
        if (!bt_decision(g, s) && actions[s] >= 0) {
            illegal[s] = 2;
            wrong = 1;
        }
    if (wrong && strict) return 0;
    if (g->phase == BT_TILE) {
        int waiting = 0, asked[G_SEATS];
        wrong = 0;
        for (int s = 0; s < players; s++) {
            asked[s] = bt_decision(g, s);
            if (!asked[s]) continue;
            int64_t a = actions[s];
            int held = 0;
            for (int k = 0; k < m->nh[s] && !held; k++) held = m->hands[s][k] == a;
            if (a < 0) {
                waiting = 1;
            } else if (!held) {
                illegal[s] = 1;
                wrong = 1;
                if (!strict) actions[s] = bt_lowest(m, s);
            }
        }
        if (wrong && strict) return 0;
        for (int s = 0; s < players; s++) {
            if (!asked[s] || actions[s] < 0) continue;
            g_remove(m->hands[s], &m->nh[s], (int)actions[s]);
            g->chosen[s] = (int)actions[s];
        }
        return waiting ? 0 : bt_reveal(g, r);
    }
    if (g->phase != BT_LUCK && g->phase != BT_ACTION) return 0;
    int s = g->asked;
    int64_t a = actions[s];
    if (a < 0) return 0;
    long legal[BT_LEGAL];
    Forced decisions[BT_LEGAL];
    int n = bt_legal(g, r, s, legal, decisions), k = 0;
    if (n <= 0) {
        if (n == 0) PyErr_SetString(PyExc_ValueError, "a board table asks a seat with no options");
        return -1;
    }
    while (k < n && legal[k] != a) k++;
    if (k == n) {
        illegal[s] = 1;
        if (strict) return 0;
        k = 0; /* Game.legal's first: the first free space; no action card */
        actions[s] = legal[0];
    }
    if (g->nanswers >= BT_ANSWERS) {
        PyErr_SetString(PyExc_ValueError, "a turn of more decisions than a board table keeps");
        return -1;
    }
    g->answers[g->nanswers++] = decisions[k];
    return bt_run(g, r);
}

/* a seat's points as the environments count them: the score, the final score once over */
static inline long bt_points(const BoardTable *g, int s) {
    return g->phase == BT_OVER ? g->now.final[s] : g->now.scores[s];
}

/* 1/3 added up k times, as arena/env/features.py adds the action cards up */
static inline float bt_thirds(int k) {
    double x = 0.0;
    while (k-- > 0) x += 1.0 / 3.0;
    return (float)x;
}

/* one seat's vector (over the static ``template``) and mask, as arena/env/features.py and
 * arena/env/encoding.py make them of the Game's view; the table's Sim bound. 0 or -1. */
static int bt_observe(BoardTable *g, const BoardRules *r, int seat, const float *template,
                      float *out, signed char *mask) {
    const Sim *m = &g->now;
    const GBoard *b = &r->board;
    const long *o = r->ob;
    int players = g->players, kind = bt_decision(g, seat);
    int in_turn = g->phase == BT_LUCK || g->phase == BT_ACTION;
    double tiles = (double)o[BO_TILES], spaces = (double)r->at[BA_SPACES];
    if (out != NULL) {
        memcpy(out, template, (size_t)o[BO_SIZE] * 4);
        out[o[BO_DECISION] + kind] = 1.0f;
        for (int k = 0; k < m->nh[seat]; k++) out[o[BO_HAND] + m->hands[seat][k] - 1] = 1.0f;
        if (g->chosen[seat]) out[o[BO_CHOSEN] + g->chosen[seat] - 1] = 1.0f;
        if (kind == 3) out[o[BO_PLACING] + g->what - 1] = 1.0f;
        if (kind == 2) out[o[BO_LUCK_CARD] + g->what] = 1.0f;
        for (int t = 1; t <= r->tiles; t++)
            if (g->revealed[t]) out[o[BO_REVEALED] + t - 1] = 1.0f;
        int placing[G_SEATS] = {0};
        for (int k = 0; in_turn && k < m->nq; k++) {
            out[o[BO_TO_PLACE] + (m->queue[k] >> 4) - 1] = 1.0f;
            placing[m->queue[k] & 15] = 1;
        }
        for (int row = 0; row < b->nrows; row++) {
            int len = b->length[row], filled = 0, last = 0;
            long heads = 0;
            float *x = out + o[BO_SPACES] + row * r->at[BA_SPACES] * o[BO_SPACE_FEATURES];
            for (int s = 0; s < len; s++, x += o[BO_SPACE_FEATURES]) {
                int t = m->spaces[row][s];
                if (t > 0) {
                    x[1] = (float)(t / tiles);
                    x[2] = 1.0f;
                    filled = s + 1;
                    last = t;
                    heads += m->bh[t];
                } else if (t < 0) {
                    x[3] = 1.0f;
                    filled = s + 1;
                }
                if (m->kind[row][s] == K_PLUS5) x[11] = 1.0f;
                if (s == len - 1 && m->f10[row]) x[12] = 1.0f;
            }
            int stopped = 0;
            for (int k = 0; k < m->nstops; k++) stopped |= m->stops[k] == row;
            float *y = out + o[BO_ROWS] + row * 5;
            y[0] = filled > 0 && !stopped ? 1.0f : 0.0f;
            y[1] = stopped ? 1.0f : 0.0f;
            y[2] = (float)(last / tiles);
            y[3] = (float)(filled / spaces);
            y[4] = (float)(heads / 64.0);
        }
        float *x = out + o[BO_SEATS];
        for (int s = seat, rel = 0; rel < players;
             rel++, s = s + 1 == players ? 0 : s + 1, x += 6) {
            double score = (double)m->scores[s] / 50.0;
            x[0] = 1.0f;
            x[1] = (float)(score > 20.0 ? 20.0 : score < -20.0 ? -20.0 : score);
            x[2] = (float)((m->nh[s] + (g->chosen[s] != 0)) / 24.0);
            x[3] = (float)(m->nheld[s] / 8.0);
            x[4] = m->nturns > 0 ? (float)(g->latest[s] / tiles) : 0.0f;
            x[5] = placing[s] ? 1.0f : 0.0f;
        }
        int held[8] = {0}, played[8] = {0};
        for (int k = 0; k < m->nheld[seat]; k++) held[m->held[seat][k]]++;
        for (int k = 0; in_turn && k < g->nanswers; k++)
            if (g->answers[k].kind == F_ACTION && g->answers[k].a >= 0 && g->answers[k].a < 8)
                played[g->answers[k].a]++;
        for (int c = 0; c < 8; c++) {
            out[o[BO_CARDS] + c] = bt_thirds(held[c]);
            out[o[BO_PLAYED] + c] = bt_thirds(played[c]);
        }
        float *c = out + o[BO_COUNTERS];
        c[0] = (float)((m->nturns + (g->phase == BT_TILE)) / 24.0);
        c[1] = (float)(m->set_number - 1);
        c[2] = (float)((m->nsupply - m->sup_i) / tiles);
        c[3] = (float)((m->nluck - m->luck_i) / (double)o[BO_LUCK_DECK]);
        c[4] = (float)((m->nactions - m->act_i) / (double)o[BO_ACTION_DECK]);
    }
    if (mask != NULL) {
        long legal[BT_LEGAL];
        Forced decisions[BT_LEGAL];
        int n = bt_legal(g, r, seat, legal, decisions);
        if (n < 0) return -1;
        memset(mask, 0, (size_t)r->at[BA_COUNT]);
        for (int k = 0; k < n; k++) mask[legal[k]] = 1;
        if (n == 0) mask[0] = 1; /* WAIT */
    }
    return 0;
}

/* the rules capsule and the tables buffer of a call (writable: the core binds its Sims'
 * pointers there), every table checked (bt_check: of the first table's count of seats); *n
 * the count. 0, or -1 with an error set (and nothing held). */
static int bt_args(PyObject *tables_in, PyObject *rules_in, Py_buffer *view, const BoardRules **r,
                   Py_ssize_t *n) {
    *r = br_arg(rules_in);
    if (*r == NULL) return -1;
    if (ct_buffer(tables_in, view, -1, sizeof(BoardTable), "tables") < 0) return -1;
    *n = view->len / (Py_ssize_t)sizeof(BoardTable);
    BoardTable *g = view->buf;
    int players = g[0].players;
    if (players < 2 || players > G_SEATS) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "board tables not dealt");
        return -1;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        const char *wrong = bt_check(g + i, *r, players);
        if (wrong != NULL) {
            PyBuffer_Release(view);
            PyErr_Format(PyExc_ValueError, "board table %zd: %s", i, wrong);
            return -1;
        }
        bt_bind(&g[i].now, *r, NULL);
    }
    return 0;
}

/* board_table_size() -> bytes of one table */
static PyObject *py_board_table_size(PyObject *self, PyObject *args) {
    return PyLong_FromSsize_t((Py_ssize_t)sizeof(BoardTable));
}

/* board_deal(tables, rules, players, seeds, which): deal table i from seeds[i] (uint64) where
 * which is None or which[i] (uint8) is set */
static PyObject *py_board_deal(PyObject *self, PyObject *args) {
    PyObject *tables_in, *rules_in, *seeds_in, *which_in;
    int players;
    if (!PyArg_ParseTuple(args, "OOiOO", &tables_in, &rules_in, &players, &seeds_in, &which_in))
        return NULL;
    const BoardRules *r = br_arg(rules_in);
    if (r == NULL) return NULL;
    if (players < 2 || players > G_SEATS || r->start_rows + players * r->hs > r->tiles) {
        PyErr_Format(PyExc_ValueError, "players %d: from 2 to as many as the variant's tiles deal",
                     players);
        return NULL;
    }
    Py_buffer tv, sv, wv = {0};
    Py_ssize_t n;
    if (ct_buffer(tables_in, &tv, -1, sizeof(BoardTable), "tables") < 0) return NULL;
    n = tv.len / (Py_ssize_t)sizeof(BoardTable);
    if (deal_buffers(seeds_in, which_in, n, &sv, &wv) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    BoardTable *g = tv.buf;
    const uint64_t *seeds = sv.buf;
    const unsigned char *which = which_in != Py_None ? wv.buf : NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (which == NULL || which[i]) bt_deal(g + i, r, players, seeds[i]);
    PyBuffer_Release(&tv);
    PyBuffer_Release(&sv);
    if (which != NULL) PyBuffer_Release(&wv);
    Py_RETURN_NONE;
}

/* board_step(tables, rules, actions, rewards, illegal[, strict]): every table one step, as
 * classic_step (bt_step): actions int64 (n, players), the defaults played written back;
 * rewards float32 (n, players), the change of points; illegal uint8 (n, players) */
static PyObject *py_board_step(PyObject *self, PyObject *args) {
    PyObject *tables_in, *rules_in, *actions_in, *rewards_in, *illegal_in;
    int strict = 0;
    if (!PyArg_ParseTuple(args, "OOOOO|p", &tables_in, &rules_in, &actions_in, &rewards_in,
                          &illegal_in, &strict))
        return NULL;
    Py_buffer tv, av, rv, iv;
    Py_ssize_t n;
    const BoardRules *r;
    if (bt_args(tables_in, rules_in, &tv, &r, &n) < 0) return NULL;
    BoardTable *g = tv.buf;
    int players = g[0].players;
    Py_ssize_t cells = n * players;
    if (step_buffers(actions_in, rewards_in, illegal_in, cells, &av, &rv, &iv) < 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    int64_t *actions = av.buf;
    float *rewards = rv.buf;
    unsigned char *illegal = iv.buf;
    memset(illegal, 0, (size_t)cells);
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        BoardTable *t = g + i;
        long before[G_SEATS];
        for (int s = 0; s < players; s++) before[s] = bt_points(t, s);
        rc = bt_step(t, r, actions + i * players, illegal + i * players, strict);
        for (int s = 0; s < players; s++)
            rewards[i * players + s] = (float)(bt_points(t, s) - before[s]);
    }
    PyBuffer_Release(&tv);
    PyBuffer_Release(&av);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&iv);
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* board_observe(tables, rules, template, seat, obs, mask[, which]): the vectors (float32, over
 * the static entries of ``template``) and masks (int8) of every table, of every seat (obs (n,
 * players, size), mask (n, players, actions)) or of ``seat`` (obs (n, size), ...); obs or mask
 * may be None; ``which`` (uint8 (n,), or None): only the tables where it is set */
static PyObject *py_board_observe(PyObject *self, PyObject *args) {
    PyObject *tables_in, *rules_in, *template_in, *obs_in, *mask_in, *which_in = Py_None;
    int seat;
    if (!PyArg_ParseTuple(args, "OOOiOO|O", &tables_in, &rules_in, &template_in, &seat, &obs_in,
                          &mask_in, &which_in))
        return NULL;
    Py_buffer tv, pv = {0}, ov = {0}, mv = {0}, wv = {0};
    Py_ssize_t n;
    const BoardRules *r;
    if (bt_args(tables_in, rules_in, &tv, &r, &n) < 0) return NULL;
    BoardTable *g = tv.buf;
    int players = g[0].players, ok = 1;
    if (seat >= players) {
        PyErr_Format(PyExc_ValueError, "seat %d: the tables seat %d", seat, players);
        ok = 0;
    }
    Py_ssize_t per = seat < 0 ? n * players : n;
    const long size = r->ob[BO_SIZE], count = r->at[BA_COUNT];
    if (ok && ct_buffer_flags(template_in, &pv, size * 4, 4, "template", PyBUF_SIMPLE) < 0) ok = 0;
    int have_obs = ok && obs_in != Py_None;
    if (have_obs && ct_buffer(obs_in, &ov, per * size * 4, 4, "obs") < 0) ok = have_obs = 0;
    int have_mask = ok && mask_in != Py_None;
    if (have_mask && ct_buffer(mask_in, &mv, per * count, 1, "mask") < 0) ok = have_mask = 0;
    int have_which = ok && which_in != Py_None;
    if (have_which && ct_buffer_flags(which_in, &wv, n, 1, "which", PyBUF_SIMPLE) < 0)
        ok = have_which = 0;
    const unsigned char *which = have_which ? wv.buf : NULL;
    float *obs = have_obs ? ov.buf : NULL;
    signed char *mask = have_mask ? mv.buf : NULL;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        int first = seat < 0 ? 0 : seat, last = seat < 0 ? players : seat + 1;
        for (int s = first; s < last; s++, k++) {
            if (which != NULL && !which[i]) continue;
            if (bt_observe(g + i, r, s, pv.buf, obs == NULL ? NULL : obs + k * size,
                           mask == NULL ? NULL : mask + k * count) < 0) {
                ok = 0;
                break;
            }
        }
    }
    PyBuffer_Release(&tv);
    if (pv.obj != NULL) PyBuffer_Release(&pv);
    if (have_obs) PyBuffer_Release(&ov);
    if (have_mask) PyBuffer_Release(&mv);
    if (have_which) PyBuffer_Release(&wv);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* board_status(tables, rules, phase, asked[, scores]): each table's phase (0 over, 1 tiles, 3
 * a luck card, 4 an action card) and the seat a luck or action card is asked of (-1: none),
 * int8 (n,) each; scores (int64 (n, players), or None): the scores, the final ones once over */
static PyObject *py_board_status(PyObject *self, PyObject *args) {
    PyObject *tables_in, *rules_in, *phase_in, *asked_in, *scores_in = Py_None;
    if (!PyArg_ParseTuple(args, "OOOO|O", &tables_in, &rules_in, &phase_in, &asked_in,
                          &scores_in))
        return NULL;
    Py_buffer tv, pv, av, sv = {0};
    Py_ssize_t n;
    const BoardRules *r;
    if (bt_args(tables_in, rules_in, &tv, &r, &n) < 0) return NULL;
    const BoardTable *g = tv.buf;
    int players = g[0].players, ok = 1;
    if (ct_buffer(phase_in, &pv, n, 1, "phase") < 0) ok = 0;
    if (ok && ct_buffer(asked_in, &av, n, 1, "asked") < 0) {
        PyBuffer_Release(&pv);
        ok = 0;
    }
    int have_scores = ok && scores_in != Py_None;
    if (have_scores && ct_buffer(scores_in, &sv, n * players * 8, 8, "scores") < 0) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&av);
        ok = have_scores = 0;
    }
    if (ok) {
        signed char *phase = pv.buf, *asked = av.buf;
        for (Py_ssize_t i = 0; i < n; i++) {
            phase[i] = (signed char)g[i].phase;
            asked[i] = (signed char)(g[i].phase == BT_LUCK || g[i].phase == BT_ACTION
                                         ? g[i].asked : -1);
        }
        if (have_scores) {
            int64_t *scores = sv.buf;
            for (Py_ssize_t i = 0; i < n; i++)
                for (int s = 0; s < players; s++) scores[i * players + s] = bt_points(g + i, s);
            PyBuffer_Release(&sv);
        }
        PyBuffer_Release(&pv);
        PyBuffer_Release(&av);
    }
    PyBuffer_Release(&tv);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* (tables, rules, i) -> table i, its buffer held in *view (release it); NULL with an error */
static BoardTable *bt_table_arg(PyObject *args, Py_buffer *view, const BoardRules **r) {
    PyObject *tables_in, *rules_in;
    Py_ssize_t i, n;
    if (!PyArg_ParseTuple(args, "OOn", &tables_in, &rules_in, &i)) return NULL;
    if (bt_args(tables_in, rules_in, view, r, &n) < 0) return NULL;
    if (i < 0 || i >= n) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_IndexError, "no such table");
        return NULL;
    }
    return (BoardTable *)view->buf + i;
}

/* board_asked(tables, rules, i) -> tuple: the seats table i waits for (none once it is over) */
static PyObject *py_board_asked(PyObject *self, PyObject *args) {
    Py_buffer tv;
    const BoardRules *r;
    const BoardTable *g = bt_table_arg(args, &tv, &r);
    if (g == NULL) return NULL;
    int seats[G_SEATS], k = 0;
    for (int s = 0; s < g->players; s++)
        if (bt_decision(g, s)) seats[k++] = s;
    PyBuffer_Release(&tv);
    PyObject *out = PyTuple_New(k);
    for (int j = 0; out != NULL && j < k; j++) PyTuple_SET_ITEM(out, j, PyLong_FromLong(seats[j]));
    return out;
}

static PyObject *int_list(const int *items, int n) {
    PyObject *out = PyList_New(n);
    for (int k = 0; out != NULL && k < n; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(items[k]));
    return out;
}

/* board_view(tables, rules, i) -> dict: table i's state as plain values (tests, debugging):
 * phase, asked, what, turn, set, scores, final (None until over), hands (sorted), held (card
 * codes), chosen, latest, rows (each row's spaces), answers ((kind, a, b, c) each), seed */
static PyObject *py_board_view(PyObject *self, PyObject *args) {
    Py_buffer tv;
    const BoardRules *r;
    const BoardTable *g = bt_table_arg(args, &tv, &r);
    if (g == NULL) return NULL;
    const Sim *m = &g->now;
    int p = g->players;
    PyObject *hands = PyList_New(p), *held = PyList_New(p), *rows = PyList_New(r->board.nrows);
    PyObject *answers = PyList_New(g->nanswers), *scores = NULL, *final = NULL, *out = NULL;
    long points[G_SEATS];
    for (int s = 0; s < p; s++) points[s] = m->scores[s];
    scores = scores_list(points, p);
    if (g->phase == BT_OVER) {
        for (int s = 0; s < p; s++) points[s] = m->final[s];
        final = scores_list(points, p);
    } else {
        final = Py_NewRef(Py_None);
    }
    if (hands && held && rows && answers && scores && final) {
        for (int s = 0; s < p; s++) {
            int hand[G_HAND], n = m->nh[s];
            memcpy(hand, m->hands[s], sizeof(int) * (size_t)n);
            for (int i = 1; i < n; i++) { /* sorted, as the Game keeps a hand */
                int x = hand[i], j = i - 1;
                while (j >= 0 && hand[j] > x) {
                    hand[j + 1] = hand[j];
                    j--;
                }
                hand[j + 1] = x;
            }
            PyList_SET_ITEM(hands, s, int_list(hand, n));
            PyList_SET_ITEM(held, s, int_list(m->held[s], m->nheld[s]));
        }
        for (int row = 0; row < r->board.nrows; row++)
            PyList_SET_ITEM(rows, row, int_list(m->spaces[row], r->board.length[row]));
        for (int k = 0; k < g->nanswers; k++) {
            const Forced *d = g->answers + k;
            PyList_SET_ITEM(answers, k, Py_BuildValue("(iiii)", d->kind, d->a, d->b, d->c));
        }
        if (!PyErr_Occurred())
            out = Py_BuildValue(
                "{s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:O,s:O,s:O,s:N,s:N,s:O,s:O,s:i,s:i,s:i,s:K}",
                "players", p, "phase", g->phase, "asked", g->asked, "what", g->what, "turn",
                m->nturns + (g->phase == BT_TILE), "set", m->set_number, "scores", scores,
                "final", final, "hands", hands, "held", held, "chosen", int_list(g->chosen, p),
                "latest", int_list(g->latest, p), "rows", rows, "answers", answers, "supply",
                m->nsupply - m->sup_i, "luck_deck", m->nluck - m->luck_i, "action_deck",
                m->nactions - m->act_i, "seed", (unsigned long long)g->seed);
    }
    Py_XDECREF(hands);
    Py_XDECREF(held);
    Py_XDECREF(rows);
    Py_XDECREF(answers);
    Py_XDECREF(scores);
    Py_XDECREF(final);
    PyBuffer_Release(&tv);
    return out;
}

static PyMethodDef methods[] = {
    {"basic_board", py_basic_board, METH_VARARGS, "The basic loop's tables of a board."},
    {"tile_playouts", py_tile_playouts, METH_VARARGS,
     "Basic and card game playouts from a tile choice."},
    {"row_playouts", py_row_playouts, METH_VARARGS, "Card game playouts from a row choice."},
    {"deal_orders", py_deal_orders, METH_VARARGS, "Game.new's shuffles from a seed."},
    {"random_games", py_random_games, METH_VARARGS,
     "Whole random games of basic or the card game, dealt as Game.new deals."},
    {"general_board", py_general_board, METH_VARARGS, "A board of the general simulator."},
    {"general_playouts", py_general_playouts, METH_VARARGS,
     "Playouts of basic + luck and the professional version."},
    {"rule_playouts", py_rule_playouts, METH_VARARGS,
     "Card game playouts by the rule of arena.bots.rollouts."},
    {"deal_plan", py_deal_plan, METH_VARARGS, "What one view fixes for the sampler's deal."},
    {"deal", py_deal, METH_VARARGS, "A sample's deal of the unseen tiles and cards."},
    {"draw_by_weight", py_draw_by_weight, METH_VARARGS,
     "Each seat's tile of this turn drawn by the weights of its hand."},
    {"classic_table_size", py_classic_table_size, METH_NOARGS,
     "Bytes of one card-game table of the environments."},
    {"classic_deal", py_classic_deal, METH_VARARGS, "Deal card-game tables as Game.new deals."},
    {"classic_check", py_classic_check, METH_VARARGS,
     "ValueError for a card-game table the core could not have made."},
    {"classic_step", py_classic_step, METH_VARARGS, "One decision point of card-game tables."},
    {"classic_observe", py_classic_observe, METH_VARARGS,
     "The environments' vectors and masks of card-game tables."},
    {"classic_view", py_classic_view, METH_VARARGS, "One card-game table as plain values."},
    {"classic_asked", py_classic_asked, METH_VARARGS, "The seats a card-game table waits for."},
    {"classic_status", py_classic_status, METH_VARARGS, "Card-game tables' phases, at once."},
    {"board_rules", py_board_rules, METH_VARARGS,
     "A board variant under one reading, for the board tables of the environments."},
    {"board_table_size", py_board_table_size, METH_NOARGS,
     "Bytes of one board-game table of the environments."},
    {"board_deal", py_board_deal, METH_VARARGS, "Deal board tables as Game.new deals."},
    {"board_step", py_board_step, METH_VARARGS, "One decision point of board tables."},
    {"board_observe", py_board_observe, METH_VARARGS,
     "The environments' vectors and masks of board tables."},
    {"board_status", py_board_status, METH_VARARGS, "Board tables' phases and scores, at once."},
    {"board_asked", py_board_asked, METH_VARARGS, "The seats a board table waits for."},
    {"board_view", py_board_view, METH_VARARGS, "One board table as plain values."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout_core",
                                    "The compiled core of the rules (arena.engine.playout).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playout_core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    fill_classic_inc();
    for (int t = 1; t <= CT_TILES; t++) ct_heads_table[t] = (signed char)classic_bullheads(t);
    return m;
}
