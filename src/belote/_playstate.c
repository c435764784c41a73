/* The play state of one deal, in C: the same interface and behaviour as belote/playstate.py.
 *
 * The card tables (order, points, higher cards), the play options' bits and the rules of which card
 * beats which and which cards may be played are in _play.h, shared with the solver: the tables are
 * read at import from belote.play, the one place they are defined, and the rules mirror
 * belote.play.beats and legal_mask line for line. The tests play both
 * implementations side by side.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#include "_play.h"

#define MAX_PLAYERS 4

static PyObject *CARDS;      /* tuple of the 32 Card objects */
static PyObject *CARD_TYPE;  /* belote.cards.Card */
static PyObject *TRICK_TYPE; /* belote.playstate.Trick */
static PyObject *S_BIDDING, *S_PLAY, *S_DONE;
static PyObject *S_APPLY_SLOW, *S_BID_ACTIONS, *S_SCORE;
static int DEFAULT_PLAY_FLAGS; /* belote.playstate's: the default rules' play options */

/* Everything from players on is plain data: copy_play_state copies it in one block. */
typedef struct {
    PyObject_HEAD
    PyObject *phase;
    int players, step, play_flags, mode; /* play_flags: belote.play.PlayRules.flags */
    /* the side each seat plays for (0 or 1), as many as were set (four by default) */
    int camps[MAX_PLAYERS];
    int ncamps;
    int ntricks; /* tricks in the deal: the last one is worth the ten of der */
    /* two hands: under[c] is the card lying face down under c, or -1; has_under 0 for None */
    int has_under;
    int8_t under[32];
    uint32_t hands[MAX_PLAYERS];
    int trick[MAX_PLAYERS];
    int trick_len;
    int plays[32];
    int nplays;
    int t_leader[32], t_winner[32], t_points[32];
    int ntaken; /* tricks taken so far */
    int won[2], won_tricks[2];
    int leader, to_move, best, best_seat, led;
    int64_t legal;
} PS;

/* What reset_play leaves alone (as the Python twin does): camps, ntricks, the cards under others. */
static void defaults(PS *s) {
    s->players = 4;
    s->step = 1;
    s->play_flags = DEFAULT_PLAY_FLAGS;
    s->ncamps = MAX_PLAYERS;
    for (int i = 0; i < MAX_PLAYERS; i++) s->camps[i] = i & 1;
    s->ntricks = 8;
    s->has_under = 0;
    memset(s->under, -1, sizeof s->under);
}

static void reset(PS *s, int mode, int leader) {
    s->mode = mode;
    s->trick_len = 0;
    s->nplays = 0;
    s->ntaken = 0;
    s->won[0] = s->won[1] = 0;
    s->won_tricks[0] = s->won_tricks[1] = 0;
    s->leader = s->to_move = leader;
    s->best = s->best_seat = s->led = -1;
    s->legal = -1;
}

static int PS_init(PS *s, PyObject *args, PyObject *kw) {
    defaults(s);
    for (int i = 0; i < MAX_PLAYERS; i++) s->hands[i] = 0;
    reset(s, -1, 0);
    Py_INCREF(S_BIDDING);
    Py_XSETREF(s->phase, S_BIDDING);
    return 0;
}

static PyObject *PS_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PS *s = (PS *)type->tp_alloc(type, 0);
    if (s == NULL) return NULL;
    defaults(s);
    reset(s, -1, 0);
    Py_INCREF(S_BIDDING);
    s->phase = S_BIDDING;
    return (PyObject *)s;
}

static int PS_traverse(PS *s, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(s));
    return 0;
}

static void PS_dealloc(PS *s) {
    PyTypeObject *tp = Py_TYPE(s);
    PyObject_GC_UnTrack(s);
    Py_CLEAR(s->phase);
    tp->tp_free((PyObject *)s);
    Py_DECREF(tp);
}

static uint32_t legal(PS *s) {
    if (s->legal >= 0) return (uint32_t)s->legal;
    int seat = s->to_move;
    uint32_t m = s->hands[seat];
    if (s->trick_len) {
        int partner = s->best_seat != seat && s->camps[s->best_seat] == s->camps[seat];
        m = legal_mask(s->mode, m, s->best, partner, s->play_flags, s->led);
    }
    s->legal = m;
    return m;
}

/* Turn up (up = 1) or back down (0) the cards lying under those of the trick just taken, which
 * s->leader led. */
static void turn_up(PS *s, int up) {
    for (int i = 0; i < s->players; i++) {
        int u = s->under[s->trick[i]];
        if (u < 0) continue;
        int seat = (s->leader + s->step * i) % s->players;
        if (up) s->hands[seat] |= 1u << u;
        else s->hands[seat] &= ~(1u << u);
    }
}

/* Play a legal card; returns -1 with an exception set if the scoring hook failed. */
static int play(PS *s, int c) {
    int seat = s->to_move;
    s->hands[seat] ^= 1u << c;
    s->trick[s->trick_len++] = c;
    s->plays[s->nplays++] = c;
    s->legal = -1;
    if (s->trick_len == 1) {
        s->led = c >> 3;
        s->best = c;
        s->best_seat = seat;
        s->to_move = (seat + s->step) % s->players;
        return 0;
    }
    if (beats(KEY[s->mode], c, s->best)) {
        s->best = c;
        s->best_seat = seat;
    }
    if (s->trick_len < s->players) {
        s->to_move = (seat + s->step) % s->players;
        return 0;
    }
    const int *pts = POINTS[s->mode];
    int points = 0;
    for (int i = 0; i < s->trick_len; i++) points += pts[s->trick[i]];
    int last = s->ntaken == s->ntricks - 1;
    if (last) points += LAST_TRICK;
    int winner = s->best_seat;
    s->t_leader[s->ntaken] = s->leader;
    s->t_winner[s->ntaken] = winner;
    s->t_points[s->ntaken] = points;
    s->ntaken++;
    s->won[s->camps[winner]] += points;
    s->won_tricks[s->camps[winner]] += 1;
    if (s->has_under) turn_up(s, 1);
    s->trick_len = 0;
    s->leader = s->to_move = winner;
    if (last) {
        Py_INCREF(S_DONE);
        Py_SETREF(s->phase, S_DONE);
        PyObject *r = PyObject_CallMethodNoArgs((PyObject *)s, S_SCORE);
        if (r == NULL) return -1;
        Py_DECREF(r);
    }
    return 0;
}

static PyObject *cards_tuple(uint32_t m) {
    PyObject *t = PyTuple_New(__builtin_popcount(m));
    if (t == NULL) return NULL;
    Py_ssize_t i = 0;
    while (m) {
        int c = __builtin_ctz(m);
        m &= m - 1;
        PyObject *card = PyTuple_GET_ITEM(CARDS, c);
        Py_INCREF(card);
        PyTuple_SET_ITEM(t, i++, card);
    }
    return t;
}

static PyObject *PS_legal_mask(PS *s, PyObject *unused) {
    if (s->phase != S_PLAY) return PyLong_FromLong(0);
    return PyLong_FromUnsignedLong(legal(s));
}

static PyObject *PS_legal_actions(PS *s, PyObject *unused) {
    if (s->phase == S_PLAY) return cards_tuple(legal(s));
    return PyObject_CallMethodNoArgs((PyObject *)s, S_BID_ACTIONS);
}

static PyObject *PS_apply(PS *s, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw < 1 || nargs + nkw > 2 || nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "apply(action, seat=None)");
        return NULL;
    }
    PyObject *action = args[0];
    PyObject *seat = nargs + nkw == 2 ? args[1] : Py_None;
    if (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "seat") != 0) {
        PyErr_SetString(PyExc_TypeError, "apply(action, seat=None)");
        return NULL;
    }
    if (s->phase == S_PLAY && (Py_IS_TYPE(action, &PyLong_Type) || (PyObject *)Py_TYPE(action) == CARD_TYPE)) {
        int seat_ok = seat == Py_None;
        if (!seat_ok && Py_IS_TYPE(seat, &PyLong_Type)) {
            long v = PyLong_AsLong(seat);
            if (v == -1 && PyErr_Occurred()) PyErr_Clear();
            else seat_ok = v == s->to_move;
        }
        if (seat_ok) {
            long c = PyLong_AsLong(action);
            if (c == -1 && PyErr_Occurred()) PyErr_Clear();
            else if (c >= 0 && c < 32 && (legal(s) >> c & 1)) {
                if (play(s, (int)c) < 0) return NULL;
                Py_RETURN_NONE;
            }
        }
    }
    PyObject *call[3] = {(PyObject *)s, action, seat};
    return PyObject_VectorcallMethod(S_APPLY_SLOW, call, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

static PyObject *PS_play_card(PS *s, PyObject *arg) {
    long c = PyLong_AsLong(arg);
    if (c == -1 && PyErr_Occurred()) return NULL;
    if (c < 0 || c >= 32) {
        PyErr_SetString(PyExc_ValueError, "not a card");
        return NULL;
    }
    if (s->nplays >= 32) { /* no check of the card, but no write past the end either */
        PyErr_SetString(PyExc_ValueError, "every card is played");
        return NULL;
    }
    if (play(s, (int)c) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *PS_undo_card(PS *s, PyObject *unused) {
    if (s->nplays == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    int c = s->plays[--s->nplays];
    if (s->trick_len == 0) {
        int t = --s->ntaken;
        int side = s->camps[s->t_winner[t]];
        s->won[side] -= s->t_points[t];
        s->won_tricks[side] -= 1;
        s->trick_len = s->players;
        for (int i = 0; i < s->players; i++) s->trick[i] = s->plays[t * s->players + i];
        s->leader = s->t_leader[t];
        if (s->has_under) turn_up(s, 0);
    }
    s->trick_len--;
    int seat = (s->leader + s->step * s->trick_len) % s->players;
    s->hands[seat] |= 1u << c;
    s->to_move = seat;
    Py_INCREF(S_PLAY);
    Py_SETREF(s->phase, S_PLAY);
    s->legal = -1;
    if (s->trick_len == 0) {
        s->best = s->best_seat = s->led = -1;
    } else {
        s->led = s->trick[0] >> 3;
        s->best = s->trick[0];
        s->best_seat = s->leader;
        for (int i = 1; i < s->trick_len; i++) {
            int x = s->trick[i];
            if (beats(KEY[s->mode], x, s->best)) {
                s->best = x;
                s->best_seat = (s->leader + s->step * i) % s->players;
            }
        }
    }
    return PyLong_FromLong(c);
}

static PyObject *PS_reset_play(PS *s, PyObject *args) {
    PyObject *hands;
    int mode, leader;
    if (!PyArg_ParseTuple(args, "Oii", &hands, &mode, &leader)) return NULL;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence of masks");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_PLAYERS || mode < -1 || mode >= NMODES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "at most four hands and a trump mode from -1 to 5");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < MAX_PLAYERS; i++) {
        unsigned long v = 0;
        if (i < n) {
            v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == (unsigned long)-1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return NULL;
            }
        }
        s->hands[i] = (uint32_t)v;
    }
    Py_DECREF(seq);
    reset(s, mode, leader);
    Py_RETURN_NONE;
}

static PyObject *PS_copy_play_state(PS *s, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, Py_TYPE(s)) && !PyObject_TypeCheck(s, Py_TYPE(arg))) {
        PyErr_SetString(PyExc_TypeError, "copy_play_state needs another play state");
        return NULL;
    }
    PS *o = (PS *)arg;
    PyObject *phase = s->phase;
    memcpy((char *)s + offsetof(PS, players), (char *)o + offsetof(PS, players), sizeof(PS) - offsetof(PS, players));
    Py_INCREF(o->phase);
    s->phase = o->phase;
    Py_XDECREF(phase);
    Py_RETURN_NONE;
}

static PyObject *PS_hand_mask(PS *s, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= MAX_PLAYERS) {
        PyErr_SetString(PyExc_IndexError, "no such seat");
        return NULL;
    }
    return PyLong_FromUnsignedLong(s->hands[seat]);
}

static PyObject *int_list(const int *a, int n) {
    PyObject *l = PyList_New(n);
    if (l == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (v == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *PS_get_hands(PS *s, void *c) {
    PyObject *l = PyList_New(s->players);
    if (l == NULL) return NULL;
    for (int i = 0; i < s->players; i++) {
        PyObject *v = PyLong_FromUnsignedLong(s->hands[i]);
        if (v == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *PS_get_plays(PS *s, void *c) { return int_list(s->plays, s->nplays); }
static PyObject *PS_get_trick(PS *s, void *c) { return int_list(s->trick, s->trick_len); }

static PyObject *PS_get_tricks(PS *s, void *c) {
    PyObject *l = PyList_New(s->ntaken);
    if (l == NULL) return NULL;
    for (int t = 0; t < s->ntaken; t++) {
        PyObject *cards = PyTuple_New(s->players);
        if (cards == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        for (int i = 0; i < s->players; i++) PyTuple_SET_ITEM(cards, i, PyLong_FromLong(s->plays[t * s->players + i]));
        PyObject *tr = PyObject_CallFunction(TRICK_TYPE, "iNii", s->t_leader[t], cards, s->t_winner[t], s->t_points[t]);
        if (tr == NULL) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, t, tr);
    }
    return l;
}

static PyObject *PS_get_won(PS *s, void *c) { return Py_BuildValue("(ii)", s->won[0], s->won[1]); }
static PyObject *PS_get_won_tricks(PS *s, void *c) { return Py_BuildValue("(ii)", s->won_tricks[0], s->won_tricks[1]); }

static PyObject *PS_get_phase(PS *s, void *c) {
    Py_INCREF(s->phase);
    return s->phase;
}

static int PS_set_phase(PS *s, PyObject *v, void *c) {
    PyObject *canon = NULL;
    if (v != NULL && PyUnicode_Check(v)) {
        if (PyUnicode_Compare(v, S_PLAY) == 0) canon = S_PLAY;
        else if (PyUnicode_Compare(v, S_BIDDING) == 0) canon = S_BIDDING;
        else if (PyUnicode_Compare(v, S_DONE) == 0) canon = S_DONE;
    }
    if (canon == NULL) {
        PyErr_SetString(PyExc_ValueError, "phase is 'bidding', 'play' or 'done'");
        return -1;
    }
    Py_INCREF(canon);
    Py_SETREF(s->phase, canon);
    s->legal = -1;
    return 0;
}

static PyObject *PS_get_camps(PS *s, void *c) { return int_list(s->camps, s->ncamps); }

static int PS_set_camps(PS *s, PyObject *v, void *c) {
    PyObject *seq = v == NULL ? NULL : PySequence_Fast(v, "camps must be a list of sides, 0 or 1");
    if (seq == NULL) {
        if (v == NULL) PyErr_SetString(PyExc_AttributeError, "camps cannot be deleted");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int camps[MAX_PLAYERS];
    int ok = n <= MAX_PLAYERS;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        long side = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (side == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        ok = side == 0 || side == 1;
        camps[i] = (int)side;
    }
    Py_DECREF(seq);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "camps gives each seat (four at most) its side, 0 or 1");
        return -1;
    }
    /* Seats beyond those given keep a side, so that no index ever leaves the two counts. */
    for (int i = 0; i < MAX_PLAYERS; i++) s->camps[i] = i < n ? camps[i] : i & 1;
    s->ncamps = (int)n;
    s->legal = -1;
    return 0;
}

static PyObject *PS_get_players(PS *s, void *c) { return PyLong_FromLong(s->players); }

static int PS_set_players(PS *s, PyObject *v, void *c) {
    long n = v == NULL ? -1 : PyLong_AsLong(v);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 2 || n > MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "players is 2, 3 or 4");
        return -1;
    }
    s->players = (int)n;
    s->legal = -1;
    return 0;
}

static PyObject *PS_get_under(PS *s, void *c) {
    if (!s->has_under) Py_RETURN_NONE;
    PyObject *t = PyTuple_New(32);
    if (t == NULL) return NULL;
    for (int i = 0; i < 32; i++) {
        PyObject *v = PyLong_FromLong(s->under[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *PS_set_under(PS *s, PyObject *arg) {
    if (arg == Py_None) {
        s->has_under = 0;
        memset(s->under, -1, sizeof s->under);
        Py_RETURN_NONE;
    }
    PyObject *seq = PySequence_Fast(arg, "under must give 32 cards or -1");
    if (seq == NULL) return NULL;
    int8_t under[32];
    int ok = PySequence_Fast_GET_SIZE(seq) == 32;
    for (int i = 0; ok && i < 32; i++) {
        long u = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (u == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        ok = -1 <= u && u < 32;
        under[i] = (int8_t)u;
    }
    Py_DECREF(seq);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "under must give 32 cards or -1");
        return NULL;
    }
    memcpy(s->under, under, sizeof under);
    s->has_under = 1;
    Py_RETURN_NONE;
}

static PyMethodDef PS_methods[] = {
    {"legal_mask", (PyCFunction)PS_legal_mask, METH_NOARGS, "The legal cards of the player to move, as a mask."},
    {"legal_actions", (PyCFunction)PS_legal_actions, METH_NOARGS, "The legal cards or bids of the player to move."},
    {"apply", (PyCFunction)(void (*)(void))PS_apply, METH_FASTCALL | METH_KEYWORDS,
     "Play a card or make a bid for the player to move."},
    {"play_card", (PyCFunction)PS_play_card, METH_O, "Play a card already known to be legal."},
    {"undo_card", (PyCFunction)PS_undo_card, METH_NOARGS, "Take back the last card played."},
    {"reset_play", (PyCFunction)PS_reset_play, METH_VARARGS, "Set the hands, the trump mode and the leader."},
    {"copy_play_state", (PyCFunction)PS_copy_play_state, METH_O, "Copy another play state into this one."},
    {"hand_mask", (PyCFunction)PS_hand_mask, METH_O, "A seat's cards as a mask."},
    {"set_under", (PyCFunction)PS_set_under, METH_O,
     "Lay cards face down under others (two hands): under[c] lies under c, or -1; None for none."},
    {NULL},
};

static PyMemberDef PS_members[] = {
    {"ntricks", T_INT, offsetof(PS, ntricks), 0, "Tricks in the deal: 8, or 16 at two hands."},
    {"step", T_INT, offsetof(PS, step), 0, NULL},
    {"play_flags", T_INT, offsetof(PS, play_flags), 0, "The play options: belote.play.PlayRules.flags."},
    {"mode", T_INT, offsetof(PS, mode), READONLY, NULL},
    {"leader", T_INT, offsetof(PS, leader), 0, NULL},
    {"to_move", T_INT, offsetof(PS, to_move), 0, NULL},
    {"best", T_INT, offsetof(PS, best), READONLY, NULL},
    {"best_seat", T_INT, offsetof(PS, best_seat), READONLY, NULL},
    {"led", T_INT, offsetof(PS, led), READONLY, NULL},
    {NULL},
};

static PyGetSetDef PS_getset[] = {
    {"phase", (getter)PS_get_phase, (setter)PS_set_phase, NULL, NULL},
    {"players", (getter)PS_get_players, (setter)PS_set_players, "2, 3 or 4.", NULL},
    {"camps", (getter)PS_get_camps, (setter)PS_set_camps,
     "The side (0 or 1) each seat plays for, as a new list: assign a whole list to change it.", NULL},
    {"under", (getter)PS_get_under, NULL, "The card under each card (-1 for none), or None.", NULL},
    {"hands", (getter)PS_get_hands, NULL, "Each seat's cards as a mask (a copy).", NULL},
    {"plays", (getter)PS_get_plays, NULL, "Every card played so far, in order.", NULL},
    {"trick", (getter)PS_get_trick, NULL, "The cards of the trick on the table.", NULL},
    {"tricks", (getter)PS_get_tricks, NULL, "The completed tricks.", NULL},
    {"won", (getter)PS_get_won, NULL, "Points taken so far by each side.", NULL},
    {"won_tricks", (getter)PS_get_won_tricks, NULL, "Tricks taken so far by each side.", NULL},
    {NULL},
};

static PyType_Slot PS_slots[] = {
    {Py_tp_new, PS_new},
    {Py_tp_init, PS_init},
    {Py_tp_dealloc, PS_dealloc},
    {Py_tp_traverse, PS_traverse},
    {Py_tp_methods, PS_methods},
    {Py_tp_members, PS_members},
    {Py_tp_getset, PS_getset},
    {Py_tp_doc, "The play state of one deal (C implementation of belote.playstate.PlayState)."},
    {0, NULL},
};

static PyType_Spec PS_spec = {
    "belote._playstate.PlayState",
    sizeof(PS),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    PS_slots,
};

static int module_exec(PyObject *m) {
    PyObject *cards = PyImport_ImportModule("belote.cards");
    PyObject *ps = PyImport_ImportModule("belote.playstate");
    if (cards == NULL || ps == NULL || load_play_tables() < 0) goto fail;
    if (load_int(ps, "DEFAULT_PLAY_FLAGS", &DEFAULT_PLAY_FLAGS) < 0) goto fail;
    CARDS = PyObject_GetAttrString(cards, "CARDS");
    CARD_TYPE = PyObject_GetAttrString(cards, "Card");
    TRICK_TYPE = PyObject_GetAttrString(ps, "Trick");
    S_BIDDING = PyObject_GetAttrString(ps, "BIDDING");
    S_PLAY = PyObject_GetAttrString(ps, "PLAY");
    S_DONE = PyObject_GetAttrString(ps, "DONE");
    if (!CARDS || !CARD_TYPE || !TRICK_TYPE || !S_BIDDING || !S_PLAY || !S_DONE) goto fail;
    S_APPLY_SLOW = PyUnicode_InternFromString("_apply_slow");
    S_BID_ACTIONS = PyUnicode_InternFromString("_bid_actions");
    S_SCORE = PyUnicode_InternFromString("_score");
    PyObject *type = PyType_FromModuleAndSpec(m, &PS_spec, NULL);
    if (type == NULL) goto fail;
    if (PyModule_AddObject(m, "PlayState", type) < 0) {
        Py_DECREF(type);
        goto fail;
    }
    Py_DECREF(cards);
    Py_DECREF(ps);
    return 0;
fail:
    Py_XDECREF(cards);
    Py_XDECREF(ps);
    return -1;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_playstate", "The play state of a deal, in C.", 0, NULL, module_slots,
};

PyMODINIT_FUNC PyInit__playstate(void) { return PyModuleDef_Init(&module); }
