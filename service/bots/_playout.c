/* The play search's sampled deals, compiled: service/bots/fast_playout.py says why and how it
 * is checked. Every function here mirrors one in Python, named alike, and computes the same
 * values in the same order, floats included (built with -ffp-contract=off, so that no
 * multiply-add is fused):
 * - twister_*: CPython's Mersenne Twister (Modules/_randommodule.c), from and back to the
 *   state `random.Random.getstate()` gives, and Random._randbelow, .random and .sample;
 * - rank_points: service.scoring.show.rank_points;
 * - kept_hand, sample_hands: service.bots.belief.Belief._kept_hand and .sample;
 * - laid_points, expected_reply, choose_card, play_out, award: service.bots.playout;
 * - search: the deal loop of service.bots.pegging (fast_playout.play_outs).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define TWISTER_N 624
#define TWISTER_M 397
#define MAX_SEATS 6
#define MAX_HELD 5
#define MAX_PILE 32
#define MAX_DRAWS 40
#define UNSEEN 40
#define DECK_SIZE 52

static int RANK[DECK_SIZE], VALUE[DECK_SIZE];
static int tables_ready = 0;
static const int RANK_VALUE[14] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
static const int SAME_RANK_POINTS[5] = {0, 0, 2, 6, 12};
static double HOLDS[MAX_HELD + 1][5];  /* _holds_rank(held, copies) */

/* random ------------------------------------------------------------------------------------ */
typedef struct {
    uint32_t mt[TWISTER_N];
    int index;
} Twister;

static uint32_t twister_next(Twister *t)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = t->mt, y;
    if (t->index >= TWISTER_N) {
        int kk;
        for (kk = 0; kk < TWISTER_N - TWISTER_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + TWISTER_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < TWISTER_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (TWISTER_M - TWISTER_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[TWISTER_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[TWISTER_N - 1] = mt[TWISTER_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        t->index = 0;
    }
    y = mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double twister_random(Twister *t)
{
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int twister_below(Twister *t, int n)  /* n in 1..2**31 */
{
    int k = 0;
    while ((n >> k) != 0)
        k++;
    uint32_t r = twister_next(t) >> (32 - k);
    while (r >= (uint32_t)n)
        r = twister_next(t) >> (32 - k);
    return (int)r;
}

/* Random.sample(population[:n], k) for k <= 5 (its set size is then 21). */
static void twister_sample(Twister *t, const int *population, int n, int k, int *result)
{
    if (n <= 21) {
        int pool[DECK_SIZE];
        memcpy(pool, population, sizeof(int) * n);
        for (int i = 0; i < k; i++) {
            int j = twister_below(t, n - i);
            result[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
        return;
    }
    uint64_t selected = 0;
    for (int i = 0; i < k; i++) {
        int j = twister_below(t, n);
        while (selected >> j & 1)
            j = twister_below(t, n);
        selected |= (uint64_t)1 << j;
        result[i] = population[j];
    }
}

/* the belief ---------------------------------------------------------------------------------- */
static int rank_points(const int *ranks, int n)
{
    int ways[16] = {1};
    int counts[15] = {0};
    for (int i = 0; i < n; i++) {
        int value = RANK_VALUE[ranks[i]];
        for (int total = 15; total >= value; total--)
            ways[total] += ways[total - value];
        counts[ranks[i]]++;
    }
    int points = 2 * ways[15];
    int run_length = 0, run_ways = 1;
    for (int rank = 1; rank <= 14; rank++) {
        int count = counts[rank];
        points += count * (count - 1);
        if (count) {
            run_length++;
            run_ways *= count;
            continue;
        }
        if (run_length >= 3)
            points += run_length * run_ways;
        run_length = 0;
        run_ways = 1;
    }
    return points;
}

typedef struct {
    int pool[DECK_SIZE], pool_size;
    int seats;                           /* other seats */
    int sizes[MAX_SEATS], above[MAX_SEATS], order[MAX_SEATS];
    int played[MAX_SEATS][MAX_HELD], played_count[MAX_SEATS];
    const double *ratios[MAX_SEATS];     /* NULL: every hand weighs 1 */
    double ratio_rows[MAX_SEATS][32];
    double top[MAX_SEATS];
    int kept_size, top_bucket;
} Belief;

static double kept_weight(const Belief *b, int seat, const int *hand, int k)
{
    if (b->ratios[seat] == NULL || b->played_count[seat] + k != b->kept_size)
        return 1.0;
    int ranks[2 * MAX_HELD], n = 0;
    for (int i = 0; i < b->played_count[seat]; i++)
        ranks[n++] = b->played[seat][i];
    for (int i = 0; i < k; i++)
        ranks[n++] = RANK[hand[i]];
    int bucket = rank_points(ranks, n);
    return b->ratios[seat][bucket < b->top_bucket ? bucket : b->top_bucket];
}

static void kept_hand(const Belief *b, int seat, const int *fitting, int n, Twister *t, int *hand)
{
    int k = b->sizes[seat];
    for (int draw = 0; draw < MAX_DRAWS; draw++) {
        twister_sample(t, fitting, n, k, hand);
        double weight = kept_weight(b, seat, hand, k);
        if (twister_random(t) * b->top[seat] < weight)
            break;
    }
}

/* -1 when a seat's cards do not fit in what is left of the pool (Random.sample's ValueError) */
static int sample_hands(const Belief *b, Twister *t, int hands[][MAX_HELD])
{
    int pool[DECK_SIZE], pool_size = b->pool_size;
    memcpy(pool, b->pool, sizeof(int) * pool_size);
    for (int o = 0; o < b->seats; o++) {
        int seat = b->order[o], fitting[DECK_SIZE], n = 0;
        for (int i = 0; i < pool_size; i++)
            if (VALUE[pool[i]] > b->above[seat])
                fitting[n++] = pool[i];
        if (n < b->sizes[seat])
            return -1;
        kept_hand(b, seat, fitting, n, t, hands[seat]);
        for (int h = 0; h < b->sizes[seat]; h++) {
            int i = 0;
            while (pool[i] != hands[seat][h])
                i++;
            memmove(pool + i, pool + i + 1, sizeof(int) * (pool_size - i - 1));
            pool_size--;
        }
    }
    return 0;
}

/* the play-out -------------------------------------------------------------------------------- */
static void laid_points(const int *ranks, int n, int *points)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += RANK_VALUE[ranks[i]];
    for (int rank = 0; rank < 14; rank++)
        points[rank] = -1;
    int highest = count > 21 ? (31 - count < 13 ? 31 - count : 13) : 13;
    for (int rank = 1; rank <= highest; rank++) {
        int after = count + RANK_VALUE[rank];
        points[rank] = after == 15 || after == 31 ? 2 : 0;
    }
    if (n >= 4) {
        int copies[14] = {0};
        for (int i = 0; i < n; i++)
            copies[ranks[i]]++;
        for (int rank = 1; rank < 14; rank++)
            if (copies[rank] == 4)
                points[rank] = -1;
    }
    if (!n)
        return;
    int last = ranks[n - 1], same = 1;
    while (same < n && ranks[n - 1 - same] == last)
        same++;
    if (points[last] >= 0)
        points[last] += SAME_RANK_POINTS[same + 1];
    int runs[15] = {0};
    int seen = 0, low = 14, high = 0;
    for (int length = 1; length <= n; length++) {
        int rank = ranks[n - length];
        if (seen & 1 << rank)
            break;
        seen |= 1 << rank;
        if (rank < low)
            low = rank;
        if (rank > high)
            high = rank;
        if (length < 2)
            continue;
        if (high - low == length - 1) {
            runs[low - 1] = length + 1;
            runs[high + 1] = length + 1;
        } else if (high - low == length) {
            int missing = low + 1;
            while (seen & 1 << missing)
                missing++;
            runs[missing] = length + 1;
        }
    }
    for (int rank = 1; rank < 14; rank++)
        if (runs[rank] && points[rank] >= 0)
            points[rank] += runs[rank];
}

static double expected_reply(const int *ranks, int n, int held)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += RANK_VALUE[ranks[i]];
    if (!held || count == 31)
        return 0.0;
    int laid[14], reply_points[13], reply_rank[13], replies = 0;
    laid_points(ranks, n, laid);
    for (int rank = 13; rank >= 1; rank--) {  /* best first: points, then rank, descending */
        if (laid[rank] <= 0)
            continue;
        int at = replies++;
        while (at > 0 && reply_points[at - 1] < laid[rank]) {
            reply_points[at] = reply_points[at - 1];
            reply_rank[at] = reply_rank[at - 1];
            at--;
        }
        reply_points[at] = laid[rank];
        reply_rank[at] = rank;
    }
    double expected = 0.0, none_better = 1.0;
    int tail_start = n > 4 ? n - 4 : 0;
    for (int r = 0; r < replies; r++) {
        int copies = 4;
        for (int i = tail_start; i < n; i++)
            copies -= ranks[i] == reply_rank[r];
        double holds = HOLDS[held][copies];
        expected += reply_points[r] * holds * none_better;
        none_better *= 1.0 - holds;
    }
    return expected;
}

static int choose_card(double caution, const int *hand, int held, int *ranks, int n,
                       int next_held)
{
    int laid[14], best = -1;
    double best_value = 0.0;
    laid_points(ranks, n, laid);
    for (int i = 0; i < held; i++) {
        int card = hand[i], rank = RANK[card];
        if (laid[rank] < 0)
            continue;
        double value;
        if (caution != 0.0) {
            ranks[n] = rank;
            value = laid[rank] - caution * expected_reply(ranks, n + 1, next_held);
        } else {
            value = (double)laid[rank];
        }
        if (best < 0 || value > best_value
                || (value == best_value && (VALUE[card] > VALUE[best]
                                            || (VALUE[card] == VALUE[best] && card < best)))) {
            best = card;
            best_value = value;
        }
    }
    return best;
}

static int award(int *points, const int *needs, int side, int scored, int exact_finish,
                 int first_out)
{
    if (exact_finish && points[side] + scored > needs[side])
        return first_out;
    points[side] += scored;
    if (first_out < 0 && points[side] >= needs[side])
        return side;
    return first_out;
}

static int play_out(int seats, int hands[][MAX_HELD], int *held, const int *pile, int pile_size,
                    int count, int card, const double *cautions, const int *side_of,
                    const int *needs, int exact_finish, int *points)
{
    int ranks[MAX_PILE], n = pile_size, first_out = -1, cards_left = 0, seat = 0;
    memcpy(ranks, pile, sizeof(int) * pile_size);
    for (int s = 0; s < seats; s++)
        cards_left += held[s];
    for (;;) {
        int i = 0;
        while (hands[seat][i] != card)
            i++;
        memmove(hands[seat] + i, hands[seat] + i + 1, sizeof(int) * (held[seat] - i - 1));
        held[seat]--;
        cards_left--;
        int laid[14];
        laid_points(ranks, n, laid);
        int scored = laid[RANK[card]];
        count += VALUE[card];
        ranks[n++] = RANK[card];
        int last = seat;
        if (!cards_left) {
            scored += count != 31;
            if (scored)
                first_out = award(points, needs, side_of[last], scored, exact_finish, first_out);
            return first_out;
        }
        if (scored)
            first_out = award(points, needs, side_of[last], scored, exact_finish, first_out);
        seat = -1;
        int room = 31 - count;
        for (int step = 1; step <= seats && seat < 0; step++) {
            int candidate = (last + step) % seats;
            for (int h = 0; h < held[candidate]; h++)
                if (VALUE[hands[candidate][h]] <= room) {
                    seat = candidate;
                    break;
                }
        }
        if (seat < 0) {
            if (room)
                first_out = award(points, needs, side_of[last], 1, exact_finish, first_out);
            count = 0;
            n = 0;
            for (int step = 1; step <= seats; step++)
                if (held[(last + step) % seats]) {
                    seat = (last + step) % seats;
                    break;
                }
        }
        int following = seat;
        for (int step = 1; step < seats; step++)
            if (held[(seat + step) % seats]) {
                following = (seat + step) % seats;
                break;
            }
        int next_held = following != seat ? held[following] : 0;
        card = choose_card(cautions[seat], hands[seat], held[seat], ranks, n, next_held);
    }
}

/* Python ------------------------------------------------------------------------------------- */
/* `sequence` as a fast sequence of at most `most` items (its size in *size), or NULL with the
   error set. */
static PyObject *bounded_sequence(PyObject *sequence, int most, const char *name,
                                  Py_ssize_t *size)
{
    PyObject *fast = PySequence_Fast(sequence, name);
    if (fast == NULL)
        return NULL;
    *size = PySequence_Fast_GET_SIZE(fast);
    if (*size > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", name, most);
        return NULL;
    }
    return fast;
}

static int read_ints(PyObject *sequence, int *out, int most, const char *name)
{
    Py_ssize_t size;
    PyObject *fast = bounded_sequence(sequence, most, name, &size);
    if (fast == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            size = -1;
            break;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return (int)size;
}

static int read_doubles(PyObject *sequence, double *out, int most, const char *name)
{
    Py_ssize_t size;
    PyObject *fast = bounded_sequence(sequence, most, name, &size);
    if (fast == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            size = -1;
            break;
        }
    }
    Py_DECREF(fast);
    return (int)size;
}

static PyObject *set_tables(PyObject *self, PyObject *args)
{
    PyObject *ranks, *values;
    if (!PyArg_ParseTuple(args, "OO", &ranks, &values))
        return NULL;
    if (read_ints(ranks, RANK, DECK_SIZE, "ranks") != DECK_SIZE
            || read_ints(values, VALUE, DECK_SIZE, "values") != DECK_SIZE) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a deck has 52 cards");
        return NULL;
    }
    for (int held = 0; held <= MAX_HELD; held++)
        for (int copies = 0; copies <= 4; copies++) {
            double miss = 1.0;
            for (int drawn = 0; drawn < held; drawn++)
                miss *= (double)(UNSEEN - copies - drawn) / (double)(UNSEEN - drawn);
            HOLDS[held][copies] = 1.0 - miss;
        }
    tables_ready = 1;
    Py_RETURN_NONE;
}

static int read_belief(PyObject *belief, Belief *b)
{
    PyObject *pool, *sizes, *above, *played, *ratios, *tops, *order;
    if (!PyArg_ParseTuple(belief, "OOOOOOOii", &pool, &sizes, &above, &played, &ratios, &tops,
                          &order, &b->kept_size, &b->top_bucket))
        return -1;
    if ((b->pool_size = read_ints(pool, b->pool, DECK_SIZE, "pool")) < 0
            || (b->seats = read_ints(sizes, b->sizes, MAX_SEATS - 1, "sizes")) < 0
            || read_ints(above, b->above, MAX_SEATS - 1, "above") != b->seats
            || read_doubles(tops, b->top, MAX_SEATS - 1, "tops") != b->seats
            || read_ints(order, b->order, MAX_SEATS - 1, "order") != b->seats)
        goto bad;
    if (b->top_bucket < 0 || b->top_bucket > 31)
        goto bad;
    for (int seat = 0; seat < b->seats; seat++) {
        if (b->sizes[seat] < 0 || b->sizes[seat] > MAX_HELD || b->order[seat] < 0
                || b->order[seat] >= b->seats)
            goto bad;
        PyObject *row = PySequence_GetItem(played, seat);
        if (row == NULL)
            return -1;
        b->played_count[seat] = read_ints(row, b->played[seat], MAX_HELD, "played");
        Py_DECREF(row);
        if (b->played_count[seat] < 0)
            return -1;
        row = PySequence_GetItem(ratios, seat);
        if (row == NULL)
            return -1;
        b->ratios[seat] = NULL;
        if (row != Py_None) {
            int read = read_doubles(row, b->ratio_rows[seat], 32, "ratios");
            if (read != b->top_bucket + 1) {
                Py_DECREF(row);
                goto bad;
            }
            b->ratios[seat] = b->ratio_rows[seat];
        }
        Py_DECREF(row);
    }
    return 0;
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "the belief does not fit");
    return -1;
}

static int read_state(PyObject *state, Twister *t)
{
    PyObject *fast = PySequence_Fast(state, "state");
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != TWISTER_N + 1) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "state: 625 numbers");
        return -1;
    }
    for (int i = 0; i <= TWISTER_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (word == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (i < TWISTER_N)
            t->mt[i] = (uint32_t)word;
        else
            t->index = (int)word;
    }
    Py_DECREF(fast);
    if (t->index < 0 || t->index > TWISTER_N) {
        PyErr_SetString(PyExc_ValueError, "state: index out of range");
        return -1;
    }
    return 0;
}

static PyObject *state_tuple(const Twister *t)
{
    PyObject *state = PyTuple_New(TWISTER_N + 1);
    if (state == NULL)
        return NULL;
    for (int i = 0; i <= TWISTER_N; i++) {
        PyObject *word = PyLong_FromUnsignedLong(i < TWISTER_N ? t->mt[i]
                                                               : (unsigned long)t->index);
        if (word == NULL) {
            Py_DECREF(state);
            return NULL;
        }
        PyTuple_SET_ITEM(state, i, word);
    }
    return state;
}

static PyObject *search(PyObject *self, PyObject *args)
{
    PyObject *state, *belief_args, *mix_arg, *hand_arg, *playable_arg, *pile_arg, *side_arg,
        *needs_arg;
    double own_caution;
    int deals, count, exact_finish, record;
    if (!PyArg_ParseTuple(args, "OOOdiOOOiOOpp", &state, &belief_args, &mix_arg, &own_caution,
                          &deals, &hand_arg, &playable_arg, &pile_arg, &count, &side_arg,
                          &needs_arg, &exact_finish, &record))
        return NULL;
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "set_tables first");
        return NULL;
    }
    Twister twister;
    Belief b;
    double mix[16];
    int hand[MAX_HELD], playable[MAX_HELD], pile[MAX_PILE], side_of[MAX_SEATS], needs[MAX_SEATS];
    if (read_state(state, &twister) < 0 || read_belief(belief_args, &b) < 0)
        return NULL;
    int mixes = read_doubles(mix_arg, mix, 16, "mix");
    int held = read_ints(hand_arg, hand, MAX_HELD, "hand");
    int options = read_ints(playable_arg, playable, MAX_HELD, "playable");
    int pile_size = read_ints(pile_arg, pile, 13, "pile");
    int seats = read_ints(side_arg, side_of, MAX_SEATS, "side_of");
    int sides = read_ints(needs_arg, needs, MAX_SEATS, "needs");
    if (mixes < 0 || held < 0 || options < 0 || pile_size < 0 || seats < 0 || sides < 0)
        return NULL;
    if (mixes < 1 || seats != b.seats + 1 || sides < 2 || deals < 0) {
        PyErr_SetString(PyExc_ValueError, "the search does not fit");
        return NULL;
    }
    for (int s = 0; s < seats; s++)
        if (side_of[s] < 0 || side_of[s] >= sides) {
            PyErr_SetString(PyExc_ValueError, "side_of: a side without a need");
            return NULL;
        }
    for (int option = 0; option < options; option++) {
        int found = 0;
        for (int i = 0; i < held; i++)
            found |= hand[i] == playable[option];
        if (!found) {
            PyErr_SetString(PyExc_ValueError, "playable: a card not in the hand");
            return NULL;
        }
    }
    double for_totals[MAX_HELD] = {0}, against_totals[MAX_HELD] = {0};
    PyObject *records = NULL;
    if (record && (records = PyList_New((Py_ssize_t)deals * options * (sides + 1))) == NULL)
        return NULL;
    Py_ssize_t at = 0;
    for (int deal = 0; deal < deals; deal++) {
        int others[MAX_SEATS][MAX_HELD];
        double cautions[MAX_SEATS];
        if (sample_hands(&b, &twister, others) < 0) {
            Py_XDECREF(records);
            PyErr_SetString(PyExc_ValueError, "Sample larger than population or is negative");
            return NULL;
        }
        cautions[0] = own_caution;
        for (int s = 1; s < seats; s++)
            cautions[s] = mix[twister_below(&twister, mixes)];
        for (int option = 0; option < options; option++) {
            int hands[MAX_SEATS][MAX_HELD], sizes[MAX_SEATS], points[MAX_SEATS] = {0};
            memcpy(hands[0], hand, sizeof(int) * held);
            sizes[0] = held;
            for (int s = 1; s < seats; s++) {
                memcpy(hands[s], others[s - 1], sizeof(int) * b.sizes[s - 1]);
                sizes[s] = b.sizes[s - 1];
            }
            int first_out = play_out(seats, hands, sizes, pile, pile_size, count,
                                     playable[option], cautions, side_of, needs, exact_finish,
                                     points);
            int against = 0;
            for (int side = 1; side < sides; side++)
                against += points[side];
            for_totals[option] += points[0];
            against_totals[option] += (double)against / (double)(sides - 1);
            if (records) {
                for (int side = 0; side < sides; side++)
                    PyList_SET_ITEM(records, at++, PyLong_FromLong(points[side]));
                PyList_SET_ITEM(records, at++, PyLong_FromLong(first_out));
            }
        }
    }
    PyObject *for_list = PyList_New(options), *against_list = PyList_New(options);
    PyObject *new_state = state_tuple(&twister);
    if (for_list == NULL || against_list == NULL || new_state == NULL)
        goto fail;
    for (int option = 0; option < options; option++) {
        PyList_SET_ITEM(for_list, option, PyFloat_FromDouble(for_totals[option]));
        PyList_SET_ITEM(against_list, option, PyFloat_FromDouble(against_totals[option]));
    }
    if (records == NULL) {
        records = Py_None;
        Py_INCREF(records);
    }
    return Py_BuildValue("(NNNN)", new_state, for_list, against_list, records);
fail:
    Py_XDECREF(for_list);
    Py_XDECREF(against_list);
    Py_XDECREF(new_state);
    Py_XDECREF(records);
    return NULL;
}

static PyMethodDef methods[] = {
    {"set_tables", set_tables, METH_VARARGS, "set_tables(ranks, values): the deck's 52 cards."},
    {"search", search, METH_VARARGS, "The sampled deals of one play decision: see fast_playout."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "service.bots._playout",
    "The play search's sampled deals, compiled (service.bots.fast_playout).", -1, methods,
};

PyMODINIT_FUNC PyInit__playout(void)
{
    return PyModule_Create(&module);
}
