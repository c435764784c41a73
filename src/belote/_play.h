/* belote.play in C, for the play state (_playstate.c) and the solver (solver/_dds.c): the card
 * tables, the play options' bits, and the rules of which card beats which and which cards may be
 * played, written once here for both.
 *
 * The tables are not written here: load_play_tables reads them at import from belote.play, the one
 * place they are defined. They are static, so each module including this has its own copy (the two
 * are separate extensions, which share no symbols): each fills it once, from its exec function,
 * before anything reads them.
 */
#ifndef BELOTE_PLAY_H
#define BELOTE_PLAY_H

#include <Python.h>
#include <stdint.h>

#define NMODES 6
#define ALL_TRUMP 5

/* KEY[mode][card]: the card's strength, TRUMP_BONUS more for a trump; POINTS[mode][card]: its
 * points; HIGHER[mode][card]: the cards of its suit that beat it; TRUMPS[mode]: the trump suit (none
 * at no trumps or all trumps, where nobody cuts). */
static int KEY[NMODES][32];
static int POINTS[NMODES][32];
static uint32_t HIGHER[NMODES][32];
static uint32_t TRUMPS[NMODES];
static int TRUMP_BONUS, LAST_TRICK;

/* The play options, the bits of belote.play.PlayRules.flags: constants here (the rules of play test
 * them in the solver's hot loop), checked at import against belote.play's by name (PLAY_FLAGS). */
enum { UNDERTRUMP = 1 };
static const struct {
    const char *name;
    int bit;
} PLAY_FLAGS[] = {{"UNDERTRUMP", UNDERTRUMP}};
#define NPLAY_FLAGS ((int)(sizeof PLAY_FLAGS / sizeof PLAY_FLAGS[0]))

/* belote.play.beats: does card c take the trick from best, the card now winning it? A card wins
 * only in the suit led or in trumps, and best is always one of those. key is the trump mode's row
 * of KEY (the solver keeps it at hand: finding the row again at every node costs it about 1%). */
static inline int beats(const int *key, int c, int best) {
    int k = key[c];
    return k > key[best] && ((c >> 3) == (best >> 3) || k >= TRUMP_BONUS);
}

/* belote.play.legal_mask, line for line: the cards of hand that may be played to a trick. best is
 * the card winning it (-1 when leading), flags the play options, led the suit led (-1: the suit of
 * best). Always inlined: the solver asks at every node of its search, and folds the constants of its
 * callers into it. */
static inline __attribute__((always_inline)) uint32_t legal_mask(int mode, uint32_t hand, int best,
                                                                 int partner_winning, int flags, int led) {
    if (best < 0) return hand;
    if (led < 0) led = best >> 3;
    uint32_t follow = hand & (0xFFu << (8 * led));
    if (follow) {
        if ((best >> 3) == led && (mode == led || mode == ALL_TRUMP)) {
            uint32_t over = follow & HIGHER[mode][best];
            return over ? over : follow;
        }
        return follow;
    }
    uint32_t trumps = hand & TRUMPS[mode];
    if (!trumps || partner_winning) return hand;
    if ((best >> 3) == mode) {
        uint32_t over = trumps & HIGHER[mode][best];
        if (over) return over;
        return flags & UNDERTRUMP ? trumps : hand;
    }
    return trumps;
}

static int load_int(PyObject *mod, const char *name, int *out) {
    PyObject *v = PyObject_GetAttrString(mod, name);
    if (v == NULL) return -1;
    *out = (int)PyLong_AsLong(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

/* n numbers of a sequence. Masks need all 32 bits: they are read as unsigned (the other tables are
 * small and positive). */
static int load_row(PyObject *seq, int n, uint32_t *out) {
    for (int i = 0; i < n; i++) {
        PyObject *v = PySequence_GetItem(seq, i);
        if (v == NULL) return -1;
        out[i] = (uint32_t)PyLong_AsUnsignedLong(v);
        Py_DECREF(v);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* A table of belote.play indexed by mode, then by card. */
static int load_table(PyObject *play, const char *name, uint32_t out[NMODES][32]) {
    PyObject *t = PyObject_GetAttrString(play, name);
    if (t == NULL) return -1;
    int r = 0;
    for (int md = 0; r == 0 && md < NMODES; md++) {
        PyObject *row = PySequence_GetItem(t, md);
        r = row == NULL ? -1 : load_row(row, 32, out[md]);
        Py_XDECREF(row);
    }
    Py_DECREF(t);
    return r;
}

/* The bits of PLAY_FLAGS are belote.play's, and it has no other play option. */
static int check_play_flags(PyObject *play) {
    for (int i = 0; i < NPLAY_FLAGS; i++) {
        int bit;
        if (load_int(play, PLAY_FLAGS[i].name, &bit) < 0) return -1;
        if (bit != PLAY_FLAGS[i].bit) {
            PyErr_Format(PyExc_ImportError, "belote.play.%s is %d, and %d in _play.h", PLAY_FLAGS[i].name, bit,
                         PLAY_FLAGS[i].bit);
            return -1;
        }
    }
    PyObject *options = PyObject_GetAttrString(play, "PLAY_OPTIONS");
    if (options == NULL) return -1;
    Py_ssize_t n = PyObject_Length(options);
    Py_DECREF(options);
    if (n >= 0 && n != NPLAY_FLAGS)
        PyErr_Format(PyExc_ImportError, "belote.play has %zd play options, and _play.h %d", n, (int)NPLAY_FLAGS);
    return n == NPLAY_FLAGS ? 0 : -1;
}

/* Fill the tables above from belote.play; -1 with an exception set if that fails. */
static int load_play_tables(void) {
    PyObject *play = PyImport_ImportModule("belote.play");
    if (play == NULL) return -1;
    uint32_t key[NMODES][32], points[NMODES][32];
    PyObject *trumps = NULL;
    int r = -1;
    if (load_table(play, "KEY", key) < 0 || load_table(play, "POINTS", points) < 0 ||
        load_table(play, "HIGHER", HIGHER) < 0)
        goto done;
    trumps = PyObject_GetAttrString(play, "TRUMPS");
    if (trumps == NULL || load_row(trumps, NMODES, TRUMPS) < 0) goto done;
    if (load_int(play, "TRUMP_BONUS", &TRUMP_BONUS) < 0 || load_int(play, "LAST_TRICK", &LAST_TRICK) < 0) goto done;
    if (check_play_flags(play) < 0) goto done;
    for (int md = 0; md < NMODES; md++)
        for (int c = 0; c < 32; c++) {
            KEY[md][c] = (int)key[md][c];
            POINTS[md][c] = (int)points[md][c];
        }
    r = 0;
done:
    Py_XDECREF(trumps);
    Py_DECREF(play);
    return r;
}

#endif
