/* The compiled playout core: the lean path's basic and card-game loops in C.
 *
 * arena/engine/playout.py is the reference; this file plays the same games from the same
 * random generator, draw for draw, so that a seed gives the same playouts on both backends
 * (tests/test_playout_core.py compares them game by game).
 *
 * Randomness: the playouts draw from the caller's random.Random. Its Mersenne Twister state is
 * read and advanced in place, exactly as CPython's _random module does (genrand_uint32,
 * random() as genrand_res53, getrandbits for randbytes), so the Python code that continues
 * with the same generator sees the stream where the lean path would have left it. The layout
 * of _random.Random is checked when the module is imported (size, and a self-test against
 * random() itself); if it differs, usable() is False and playout.py keeps the pure path.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ Mersenne Twister */

#define MT_N 624
#define MT_M 397

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} RandomObject; /* CPython's Modules/_randommodule.c */

static PyTypeObject *random_type = NULL; /* _random.Random */
static int layout_ok = 0;

static uint32_t genrand_uint32(RandomObject *self) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = self->state;
    if (self->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        self->index = 0;
    }
    y = mt[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random() */
static double genrand_res53(RandomObject *self) {
    uint32_t a = genrand_uint32(self) >> 5, b = genrand_uint32(self) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* rng.randbytes(n).translate(b & 3): n sorted row positions 0..3, as getrandbits(8 n) draws
 * them (32-bit words from the least significant, the last one's high bits kept). */
static void random_rows(RandomObject *self, unsigned char *out, Py_ssize_t n) {
    Py_ssize_t k = 8 * n, j = 0;
    while (k > 0) {
        uint32_t r = genrand_uint32(self);
        int bits = k < 32 ? (int)k : 32;
        if (k < 32) r >>= (32 - k);
        for (int b = 0; b < bits; b += 8) out[j++] = (unsigned char)((r >> b) & 3);
        k -= 32;
    }
}

/* The generator of a call; the caller (playout.py) passes only exact random.Random
 * instances, whose random() and getrandbits() are _random.Random's. */
static RandomObject *as_random(PyObject *rng) {
    if (!layout_ok) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled playout core is not usable here");
        return NULL;
    }
    if (!PyObject_TypeCheck(rng, random_type)) {
        PyErr_SetString(PyExc_TypeError, "rng must be a random.Random");
        return NULL;
    }
    return (RandomObject *)rng;
}

/* ------------------------------------------------------------------ argument helpers */

#define MAX_CODES 512
#define MAX_SEATS 16
#define MAX_ROWS 32
#define MAX_HAND 64
#define NTILES 105 /* random_keys: one key per entry of CARD_BULLHEADS */

typedef struct {
    int n;
    long v[MAX_HAND];
} IntList;

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

/* sorted(items, key=keys.__getitem__): stable insertion sort */
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

#define CLASSIC_FULL (5 << 6)

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
} RowDraws;

/* _classic_loop: pick_row >= 0 names the first row a card lower than every row takes */
static int classic_loop(Rows *r, long *scores, const long *codes, int ncodes, long pick_row,
                        RowDraws *draws) {
    for (int c = 0; c < ncodes; c++) {
        long code = codes[c];
        long t = (code >> 4) & 255;
        int seat = (int)(code & 15);
        int i = bisect_right(r->ends, r->n, t) - 1;
        if (i >= 0) {
            r->ends[i] = t;
            long x = r->state[i];
            if (x >= CLASSIC_FULL) {
                scores[seat] += x & 63;
                r->state[i] = classic_inc(t);
            } else {
                r->state[i] = x + classic_inc(t);
            }
            continue;
        }
        int j = -1;
        if (pick_row >= 0) {
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
        scores[seat] += r->state[j] & 63;
        shift_up(r->ends, j);
        shift_up(r->state, j);
        shift_up(r->rows, j);
        r->ends[0] = t;
        r->state[0] = classic_inc(t);
        r->rows[0] = row;
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
        *tiles_in;
    unsigned long long empty;
    int seat, turns, repeat;
    Py_ssize_t left;
    if (!PyArg_ParseTuple(args, "OOOOOKOOOOiOini", &rng, &board, &ends, &state, &rows, &empty,
                          &scores_in, &hands_in, &chosen_in, &second_in, &seat, &tiles_in, &turns,
                          &left, &repeat))
        return NULL;
    RandomObject *gen = as_random(rng);
    if (gen == NULL) return NULL;
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
        double keys[NTILES];
        for (int i = 0; i < NTILES; i++) keys[i] = genrand_res53(gen);
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
        RowDraws rd = {draws, 0, 0};
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
            int rc = b != NULL ? basic_loop(&r, scores, play, ncodes, b)
                               : (rd.i = 0, classic_loop(&r, scores, play, ncodes, -1, &rd));
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
    PyObject *rng, *ends, *state, *rows, *scores_in, *head_in, *hands_in, *picks_in;
    int turns, repeat;
    Py_ssize_t left;
    if (!PyArg_ParseTuple(args, "OOOOOOOinOi", &rng, &ends, &state, &rows, &scores_in, &head_in,
                          &hands_in, &turns, &left, &picks_in, &repeat))
        return NULL;
    RandomObject *gen = as_random(rng);
    if (gen == NULL) return NULL;
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
        double keys[NTILES];
        for (int i = 0; i < NTILES; i++) keys[i] = genrand_res53(gen);
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
            RowDraws rd = {draws, left, 0};
            PyObject *result = classic_loop(&r, scores, codes, ncodes, pick[picks_in == Py_None ? 0 : d], &rd) < 0
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

/* rule_playouts(rng, rows, hands, chosen, scores, seat, tiles, explore)
 *
 * arena/bots/rollouts.py's classic_playouts: one playout per tile of ``seat`` in ``tiles``,
 * every seat after that playing by the rule (a card that takes no row, else the cheapest by
 * the board; with probability ``explore`` a random card), each from the same generator state;
 * the generator is left where the last one ended. ``rows``: the board's rows, their tiles. */
static PyObject *py_rule_playouts(PyObject *self, PyObject *args) {
    PyObject *rng, *rows_in, *hands_in, *chosen_in, *scores_in, *tiles_in;
    int seat;
    double explore;
    if (!PyArg_ParseTuple(args, "OOOOOiOd", &rng, &rows_in, &hands_in, &chosen_in, &scores_in,
                          &seat, &tiles_in, &explore))
        return NULL;
    RandomObject *gen = as_random(rng);
    if (gen == NULL) return NULL;
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
    /* the rows by their last card: ends (sorted), cards and bullheads of each */
    long ends0[MAX_ROWS], count0[MAX_ROWS], heads0[MAX_ROWS];
    for (int r = 0; r < nrows; r++) {
        if (rows[r].n < 1) {
            PyErr_SetString(PyExc_ValueError, "an empty row");
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
        int j = r; /* insertion by last card (sorted(start, key=last), stable) */
        while (j > 0 && ends0[j - 1] > last) {
            ends0[j] = ends0[j - 1];
            count0[j] = count0[j - 1];
            heads0[j] = heads0[j - 1];
            j--;
        }
        ends0[j] = last;
        count0[j] = rows[r].n;
        heads0[j] = heads;
    }
    RandomObject saved;
    saved.index = gen->index;
    memcpy(saved.state, gen->state, sizeof(saved.state));
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    for (int d = 0; d < ntiles; d++) {
        gen->index = saved.index;
        memcpy(gen->state, saved.state, sizeof(saved.state));
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
        long ends[MAX_ROWS], count[MAX_ROWS], heads[MAX_ROWS];
        for (int r = 0; r < nrows; r++) {
            ends[r] = ends0[r];
            count[r] = count0[r];
            heads[r] = heads0[r];
        }
        int forced = 1;
        for (;;) {
            long plays[MAX_SEATS];
            int nplays = 0;
            for (int s = 0; s < players; s++) {
                if (forced && first[s]) {
                    plays[nplays++] = first[s] << 4 | s;
                    continue;
                }
                IntList *hand = &hands[s];
                if (!hand->n) continue;
                int k = 0;
                if (genrand_res53(gen) < explore) {
                    k = (int)(genrand_res53(gen) * hand->n);
                } else {
                    long cheapest = heads[0];
                    for (int r = 1; r < nrows; r++)
                        if (heads[r] < cheapest) cheapest = heads[r];
                    long best = 1L << 30;
                    int ties = 0;
                    for (int j = 0; j < hand->n; j++) {
                        int i = bisect_right(ends, nrows, hand->v[j]) - 1;
                        long cost = i < 0 ? cheapest : (count[i] == 5 ? heads[i] : 0);
                        if (cost < best) {
                            best = cost;
                            k = j;
                            ties = 1;
                        } else if (cost == best) {
                            ties++;
                            if (genrand_res53(gen) * ties < 1) k = j;
                        }
                    }
                }
                plays[nplays++] = hand->v[k] << 4 | s;
                for (int j = k; j + 1 < hand->n; j++) hand->v[j] = hand->v[j + 1];
                hand->n--;
            }
            forced = 0;
            if (!nplays) break;
            sort_codes(plays, nplays);
            for (int p = 0; p < nplays; p++) {
                long t = plays[p] >> 4;
                int s = (int)(plays[p] & 15);
                int i = bisect_right(ends, nrows, t) - 1;
                long bh = classic_inc(t) - 64;
                if (i < 0) { /* lower than every row: take the cheapest (the first such) */
                    i = 0;
                    for (int r = 1; r < nrows; r++)
                        if (heads[r] < heads[i]) i = r;
                    scores[s] += heads[i];
                    shift_up(ends, i);
                    shift_up(count, i);
                    shift_up(heads, i);
                    ends[0] = t;
                    count[0] = 1;
                    heads[0] = bh;
                } else if (count[i] == 5) {
                    scores[s] += heads[i];
                    ends[i] = t;
                    count[i] = 1;
                    heads[i] = bh;
                } else {
                    ends[i] = t;
                    count[i]++;
                    heads[i] += bh;
                }
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

static PyObject *py_usable(PyObject *self, PyObject *args) {
    return PyBool_FromLong(layout_ok);
}

static PyMethodDef methods[] = {
    {"basic_board", py_basic_board, METH_VARARGS, "The basic loop's tables of a board."},
    {"tile_playouts", py_tile_playouts, METH_VARARGS,
     "Basic and card game playouts from a tile choice."},
    {"row_playouts", py_row_playouts, METH_VARARGS, "Card game playouts from a row choice."},
    {"rule_playouts", py_rule_playouts, METH_VARARGS,
     "Card game playouts by the rule of arena.bots.rollouts."},
    {"usable", py_usable, METH_NOARGS,
     "Whether this interpreter's random.Random has the layout the core reads."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout_core",
                                    "The compiled playout core (arena.engine.playout).", -1,
                                    methods};

/* The layout check: _random.Random's size, then the next random() computed here against the
 * generator's own, on a copy of its state. */
static int check_layout(void) {
    PyObject *mod = PyImport_ImportModule("_random");
    if (mod == NULL) return -1;
    PyObject *type = PyObject_GetAttrString(mod, "Random");
    Py_DECREF(mod);
    if (type == NULL) return -1;
    if (!PyType_Check(type)) {
        Py_DECREF(type);
        return 0;
    }
    random_type = (PyTypeObject *)type; /* kept */
    if (random_type->tp_basicsize != (Py_ssize_t)sizeof(RandomObject)) return 0;
    for (long seed = 1; seed <= 3; seed++) {
        PyObject *a = PyObject_CallFunction(type, "l", seed);
        PyObject *b = a ? PyObject_CallFunction(type, "l", seed) : NULL;
        if (b == NULL) {
            Py_XDECREF(a);
            return -1;
        }
        int ok = 1;
        for (int i = 0; i < 700 && ok; i++) { /* past one regeneration of the state */
            double mine = genrand_res53((RandomObject *)a);
            PyObject *theirs = PyObject_CallMethod(b, "random", NULL);
            if (theirs == NULL) {
                Py_DECREF(a);
                Py_DECREF(b);
                return -1;
            }
            ok = PyFloat_AsDouble(theirs) == mine;
            Py_DECREF(theirs);
        }
        if (ok) { /* and randbytes' words */
            unsigned char rows[7];
            random_rows((RandomObject *)a, rows, 7);
            PyObject *bytes = PyObject_CallMethod(b, "getrandbits", "i", 56);
            long long v = bytes ? PyLong_AsLongLong(bytes) : -1;
            Py_XDECREF(bytes);
            for (int j = 0; j < 7 && ok; j++) ok = rows[j] == ((v >> (8 * j)) & 3);
        }
        Py_DECREF(a);
        Py_DECREF(b);
        if (PyErr_Occurred()) return -1;
        if (!ok) return 0;
    }
    return 1;
}

PyMODINIT_FUNC PyInit__playout_core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    int ok = check_layout();
    if (ok < 0) {
        Py_DECREF(m);
        return NULL;
    }
    layout_ok = ok;
    fill_classic_inc();
    return m;
}
