/* The double-dummy solver in C: the algorithm of belote/solver/alphabeta.py, whose docstring
 * explains it; the functions here have the names of the methods there.
 *
 * The card tables (order, points, higher cards, trumps), the play options' bits and the rules of
 * which card beats which and which cards may be played are in _play.h, shared with the play state:
 * the tables are read at import from belote.play, and the capot bonus from belote.scoring, the one
 * place each is defined; the rules mirror belote.play.beats and legal_mask line for line. A solve
 * reads its position, a belote.solver.Position, by the names of its fields. The tests check both
 * solvers against a plain minimax.
 *
 * Each thread has a table of its own, and the search touches no Python object: it runs with the GIL
 * released, so that several threads solve at once.
 *
 * Two and three hands: the number of players is a field of the search, each seat's side comes from
 * camp_bits (bit s: the side of seat s), and at two hands the cards lying face down under others
 * (under[c], tops the mask of the cards with one under them) join their owners' hands when the trick
 * with the card above is taken. Four hands with the usual sides take the same paths, and every test
 * of tops is false for them.
 *
 * A solve may be given a limit of nodes: the search that would visit one more gives up (a jump back
 * to the entry point: nothing is allocated in the search, and the table holds only true bounds) and
 * the call answers None. The count of nodes is a property of the position, so where it stops is too:
 * a bot bounded by nodes replays exactly, where a bound in seconds would not.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_play.h"

#define INF 1000 /* more than any value */
#define GUESS 81 /* where the null windows start when nothing better is known: half a deal */

/* Derived: the cards of each suit strongest first; the stronger cards of the same suit and points
 * (the only candidates for an equivalent card above); the points of a suit's byte of a mask. */
static int SUIT_ORDER[NMODES][4][8];
static uint32_t SAME_POINTS_ABOVE[NMODES][32];
static int BYTE_POINTS[NMODES][4][256];
static int CAPOT_BONUS, MAX_VALUE;

/* Without -mpopcnt the builtin calls into libgcc; this is as fast as it gets in portable C. */
static inline int popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* ------------------------------------------------------------------ the transposition table */

/* The key of a trick boundary: the 32 cards left, the leader (2 bits), whether capot is still open
 * (1 bit), the side counted for (1 bit: the same in every node of one solve; it tells the solves
 * that share a kept table apart, below, and is left out of the hash). It is exact: each card stays with one seat for the whole search, so the cards held tell
 * every hand; and at two hands the cards still face down are exactly those under the cards held (a
 * card under another turns up when the trick with that card is taken, and at a boundary no trick is
 * half played), so the cards held tell them too. An entry is one 64-bit word, so that a bucket of four shares a cache line with another:
 * the key, a generation number (so that a new solve starts with an empty table without clearing
 * it), the lower and upper bounds (a value is at most 252; an upper bound of 255 is none yet) and
 * the card to try first, plus one (0: none). */
typedef uint64_t Entry;
#define KEY_BITS 37
#define HASHED_KEY (((1ull << 35) - 1) | 1ull << 36) /* the side's bit is in the tag, not in the hash */
#define GEN_BITS 5
#define TAG_MASK ((1ull << (KEY_BITS + GEN_BITS)) - 1)
#define LOWER_SHIFT (KEY_BITS + GEN_BITS)
#define UPPER_SHIFT (LOWER_SHIFT + 8)
#define HINT_SHIFT (UPPER_SHIFT + 8)
#define NO_UPPER 255

#define TT_BITS 19
#define TT_SIZE (1u << TT_BITS)
#define BUCKET 4

/* One table per thread, so that bots in several threads solve at once with the GIL released.
 *
 * Each solve starts from an empty table (a new generation), except those asked to keep theirs: they
 * share a second table of the thread, whose entries stay true while every position solved in it is
 * a position of one deal. An entry is keyed by the cards left, and stands for one position only if
 * each of those cards is held by the same seat in every solve that reads it: the kept table
 * remembers which seat held each card (kept_owner) and the rules of its solves (mode, turn, sides,
 * cards face down), and a position that disagrees with them starts it anew. The solves of a bot
 * never keep (the nodes a solve visits depend on what the table holds, and a bot bounded by nodes
 * decides from them); analysing a deal position after position does. */
static _Thread_local Entry *table, *fresh_table, *kept_table;
static _Thread_local uint64_t generation, fresh_generation, kept_generation;
static _Thread_local uint32_t kept_owner[4];
static _Thread_local int kept_rules[6], kept_open;
static _Thread_local int8_t kept_under[32];

static inline uint64_t tag_of(uint64_t key) { return key | generation << KEY_BITS; }
static inline uint64_t key_of(uint32_t cards, int leader, int capot, int side, int open) {
    return (uint64_t)cards | (uint64_t)leader << 32 | (uint64_t)capot << 34 | (uint64_t)side << 35 | (uint64_t)open << 36;
}
static inline int lower_of(Entry e) { return (int)(e >> LOWER_SHIFT & 255); }
static inline int upper_of(Entry e) { return (int)(e >> UPPER_SHIFT & 255); }
static inline int hint_of(Entry e) { return (int)(e >> HINT_SHIFT) - 1; }
static inline Entry entry(uint64_t tag, int lower, int upper, int hint) {
    return tag | (uint64_t)lower << LOWER_SHIFT | (uint64_t)upper << UPPER_SHIFT | (uint64_t)(hint + 1) << HINT_SHIFT;
}

static inline Entry *bucket_of(uint64_t key) {
    uint64_t h = ((key & HASHED_KEY) * 0x9E3779B97F4A7C15ull) >> (64 - TT_BITS);
    return table + (h & ~(uint64_t)(BUCKET - 1));
}

/* The entry of key, or NULL. */
static inline Entry *find_entry(uint64_t key) {
    Entry *bucket = bucket_of(key);
    uint64_t tag = tag_of(key);
    for (int i = 0; i < BUCKET; i++)
        if ((bucket[i] & TAG_MASK) == tag) return bucket + i;
    return NULL;
}

/* The entry of key, made (with no bounds yet) if missing, in place of a stale entry or else of the one
 * with the fewest cards left (the cheapest to find again). */
static inline Entry *probe_entry(uint64_t key) {
    Entry *bucket = bucket_of(key);
    uint64_t tag = tag_of(key);
    Entry *victim = NULL;
    int victim_cards = 99;
    for (int i = 0; i < BUCKET; i++) {
        Entry e = bucket[i];
        if ((e & TAG_MASK) == tag) return bucket + i;
        int cards = (e >> KEY_BITS & ((1u << GEN_BITS) - 1)) != generation ? -1 : popcount((uint32_t)e);
        if (cards < victim_cards) {
            victim = bucket + i;
            victim_cards = cards;
        }
    }
    *victim = entry(tag, 0, NO_UPPER, -1);
    return victim;
}

/* ------------------------------------------------------------------ the position searched */

typedef struct {
    uint32_t hands[4]; /* the seats beyond players hold nothing */
    int trick[4];
    int ntrick;
    uint32_t on_table;
    int leader, best, best_seat;
    int capot, side, step, play_flags, mode; /* play_flags: belote.play.PlayRules.flags */
    int won;              /* the side we count for has taken a trick of the deal (the other's capot is shut) */
    int players, shape;
    int leaf;             /* at a trick boundary with this many cards a hand: the learned value (0: none) */
    unsigned camp_bits;   /* bit s: the side of seat s */
    uint32_t tops;        /* the cards with another lying under them */
    int8_t under[32];     /* the card under each card, or -1 */
    int8_t seat_at[4][4]; /* seat_at[leader][i]: who plays the i-th card of a trick leader leads */
    const int *key, *points;
    const uint32_t *higher, *same_points_above;
    long long nodes, limit; /* nodes visited; the most it may visit */
    jmp_buf stop;           /* where a search past its limit jumps back to */
} Search;

/* Counts a node; past the limit the search is given up. */
static inline void visit(Search *s) {
    if (++s->nodes > s->limit) longjmp(s->stop, 1);
}

/* The search is compiled twice (turn_four and turn_any, boundary_four and boundary_any): for the
 * shape FOUR, four hands with the sides seat & 1 and no card under another, where the number of
 * players, the sides and the cards under others are constants the compiler folds away, so that the
 * four-hand game pays nothing for the others; and for ANY shape, where they are read from the
 * search. Each function below that depends on the shape takes it as a constant argument and is
 * inlined into those four. */
enum { FOUR, ANY };
#define INLINE static inline __attribute__((always_inline))

INLINE int nplayers(const Search *s, int shape) { return shape == FOUR ? 4 : s->players; }
INLINE int camp(const Search *s, int seat, int shape) {
    return shape == FOUR ? seat & 1 : (int)(s->camp_bits >> seat & 1);
}
INLINE uint32_t tops(const Search *s, int shape) { return shape == FOUR ? 0 : s->tops; }
/* Who plays the i-th card of a trick leader leads. */
INLINE int seat_at(const Search *s, int leader, int i, int shape) {
    return shape == FOUR ? (leader + s->step * i) & 3 : s->seat_at[leader][i];
}

/* The cards face down under those of over. */
INLINE uint32_t hidden(const Search *s, uint32_t over, int shape) {
    uint32_t out = 0;
    for (uint32_t m = over & tops(s, shape); m; m &= m - 1) out |= 1u << s->under[__builtin_ctz(m)];
    return out;
}

static inline void push(Search *s, int c, int seat) {
    s->trick[s->ntrick++] = c;
    s->on_table |= 1u << c;
    if (s->best < 0 || beats(s->key, c, s->best)) {
        s->best = c;
        s->best_seat = seat;
    }
}

INLINE int seat_to_move(const Search *s, int shape) { return seat_at(s, s->leader, s->ntrick, shape); }

static inline uint32_t held(const Search *s) { return s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3]; }

INLINE uint32_t legal(const Search *s, int seat, int shape) {
    uint32_t hand = s->hands[seat];
    if (s->ntrick == 0) return hand;
    int bs = s->best_seat;
    int partner_winning = bs != seat && camp(s, bs, shape) == camp(s, seat, shape);
    return legal_mask(s->mode, hand, s->best, partner_winning, s->play_flags, s->trick[0] >> 3);
}

/* ------------------------------------------------------------------ which cards to try, in which order */

/* The cards of another hand, on the table or face down, as seen from seat. */
INLINE uint32_t others_of(const Search *s, int seat, int shape) {
    uint32_t m = held(s) | s->on_table;
    if (tops(s, shape)) m |= hidden(s, m, shape);
    return m & ~s->hands[seat];
}

/* Is c equivalent to a stronger legal card: same suit and points, and no card of another hand (on
 * the table or face down) between them? Then that card stands for it. lg holds no card with another
 * under it: each of those turns up a card of its own, so it stands for no other and none for it. */
static inline int stood_for(const Search *s, int c, uint32_t lg, uint32_t others) {
    for (uint32_t m = lg & s->same_points_above[c]; m; m &= m - 1) {
        int d = __builtin_ctz(m);
        if (!(s->higher[c] & ~s->higher[d] & ~(1u << d) & others)) return 1;
    }
    return 0;
}

/* One card of each class of equivalent legal cards (the strongest) as a mask. */
INLINE uint32_t representatives(const Search *s, uint32_t lg, uint32_t others, int shape) {
    uint32_t reps = lg, plain = lg & ~tops(s, shape);
    for (uint32_t m = plain; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (plain & s->same_points_above[c] && stood_for(s, c, plain, others)) reps &= ~(1u << c);
    }
    return reps;
}

/* How promising a card looks (higher first); the same heuristic as alphabeta.Search.score. A card's
 * rank orders the cards of a suit, and puts trumps above every plain card. */
INLINE int score(const Search *s, int seat, int c, int hint, uint32_t others, int shape) {
    if (c == hint) return 1000;
    int key = s->key[c], points = s->points[c];
    int rank = key >= TRUMP_BONUS ? key - TRUMP_BONUS + 8 : key;
    if (s->ntrick == 0) {
        if (!(others & s->higher[c])) return 200 + points; /* a master: cash it */
        return 100 - points - rank;                        /* else a low card, to keep the high ones */
    }
    if (camp(s, s->best_seat, shape) == camp(s, seat, shape)) return 100 + points; /* partner is winning: give them points */
    if (beats(s->key, c, s->best)) return s->ntrick == nplayers(s, shape) - 1 ? 300 - rank : 300 + rank; /* win: cheaply if last, else high */
    return 100 - points - rank; /* cannot win: the cheapest */
}

INLINE int ordered(const Search *s, int seat, int hint, int *moves, int shape) {
    uint32_t lg = legal(s, seat, shape);
    if (!(lg & (lg - 1))) {
        moves[0] = __builtin_ctz(lg);
        return 1;
    }
    uint32_t others = others_of(s, seat, shape);
    int sc[16], n = 0;
    for (uint32_t m = representatives(s, lg, others, shape); m; m &= m - 1) {
        int c = __builtin_ctz(m), v = score(s, seat, c, hint, others, shape), j = n++;
        while (j > 0 && sc[j - 1] < v) {
            sc[j] = sc[j - 1];
            moves[j] = moves[j - 1];
            j--;
        }
        sc[j] = v;
        moves[j] = c;
    }
    return n;
}

/* ------------------------------------------------------------------ the learned leaf value */

/* belote.solver.leaf describes it (its features and its integer network, which this mirrors bit for
 * bit): at a trick boundary with Search.leaf cards in each hand, it stands for the rest of the
 * search. Set once (set_leaf) before any solve asks for it, then only read, by every thread. */
#define LEAF_INPUTS 128
#define LEAF_MAX_HIDDEN 256
static int LEAF_CAPOT; /* card points: a leaf valued this near a capot is searched to the end (alphabeta's) */
static int32_t *LEAF_W1, *LEAF_B1, *LEAF_W2; /* (3, 128, H), (3, H), (3, H) */
static int64_t LEAF_B2[3];
static int LEAF_HIDDEN, LEAF_SHIFT;
/* The input of each card in a mode: the trump suit first, the other suits in their order. */
static int LEAF_CARD[NMODES][32];

/* The value the network gives the leader's side: the card points and the last trick's ten it takes
 * from here (capot left aside), clamped to what is left (all). */
static int leaf_value(const Search *s, int all) {
    int k = s->mode < 4 ? 0 : s->mode - 3, h = LEAF_HIDDEN;
    const int32_t *w1 = LEAF_W1 + (size_t)k * LEAF_INPUTS * h;
    int32_t acc[LEAF_MAX_HIDDEN];
    memcpy(acc, LEAF_B1 + (size_t)k * h, sizeof(int32_t) * h);
    for (int r = 0; r < 4; r++)
        for (uint32_t m = s->hands[(s->leader + s->step * r) & 3]; m; m &= m - 1) {
            const int32_t *row = w1 + (size_t)(32 * r + LEAF_CARD[s->mode][__builtin_ctz(m)]) * h;
            for (int j = 0; j < h; j++) acc[j] += row[j];
        }
    const int32_t *w2 = LEAF_W2 + (size_t)k * h;
    int64_t out = LEAF_B2[k];
    for (int j = 0; j < h; j++)
        if (acc[j] > 0) out += (int64_t)w2[j] * acc[j];
    int64_t v = (out + ((int64_t)1 << (LEAF_SHIFT - 1))) >> LEAF_SHIFT;
    return v < 0 ? 0 : v > all ? all : (int)v;
}

/* ------------------------------------------------------------------ the search */

static int turn_four(Search *s, int alpha, int beta, int hint, int *best_card);
static int turn_any(Search *s, int alpha, int beta, int hint, int *best_card);
static int boundary_four(Search *s, int alpha, int beta);
static int boundary_any(Search *s, int alpha, int beta);

INLINE int turn(Search *s, int alpha, int beta, int hint, int *best_card, int shape) {
    return shape == FOUR ? turn_four(s, alpha, beta, hint, best_card) : turn_any(s, alpha, beta, hint, best_card);
}

INLINE int boundary(Search *s, int alpha, int beta, int shape) {
    return shape == FOUR ? boundary_four(s, alpha, beta) : boundary_any(s, alpha, beta);
}

/* Enhanced transposition cutoff: the last card of a trick leads to a trick boundary, whose table
 * entry (if any) may settle this node before any card is searched. Returns 1 with *g set if so. */
INLINE int etc(Search *s, int seat, int maximise, const int *moves, int n, int alpha, int beta, int *g, int *bc,
               int shape) {
    uint32_t rest = held(s);
    /* The cards under those of the trick turn up when it is taken: they are in the key after it. */
    uint32_t turned = 0;
    int cards = popcount(rest);
    if (tops(s, shape)) {
        turned = hidden(s, s->on_table, shape);
        cards += popcount(hidden(s, rest, shape)) + popcount(turned);
    }
    if (cards == nplayers(s, shape) + 1) return 0; /* the last trick follows: no table there */
    const int *p = s->points;
    int base = 0;
    for (int i = 0; i < nplayers(s, shape) - 1; i++) base += p[s->trick[i]];
    /* Every key first, fetching their buckets from memory together. */
    uint64_t keys[16];
    int winners[16];
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        int winner = winners[i] = beats(s->key, c, s->best) ? seat : s->best_seat;
        int ours = camp(s, winner, shape) == s->side;
        uint32_t after = (rest & ~(1u << c)) | turned;
        if (tops(s, shape) >> c & 1) after |= 1u << s->under[c];
        keys[i] = key_of(after, winner, s->capot && ours, s->side, s->leaf && !(s->won || ours));
        __builtin_prefetch(bucket_of(keys[i]));
    }
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        int ours = camp(s, winners[i], shape) == s->side;
        uint64_t key = keys[i];
        const Entry *e = find_entry(key);
        if (e == NULL) continue;
        int gain = ours ? base + p[c] : 0;
        if (maximise ? gain + lower_of(*e) >= beta : gain + upper_of(*e) <= alpha) {
            *g = gain + (maximise ? lower_of(*e) : upper_of(*e));
            *bc = c;
            return 1;
        }
    }
    return 0;
}

/* The trick on the table is complete: its points go to the winner, who leads next. */
INLINE int trick_taken(Search *s, int alpha, int beta, int shape) {
    const int *p = s->points;
    int players = nplayers(s, shape);
    int points = 0;
    for (int i = 0; i < players; i++) points += p[s->trick[i]];
    int ours = camp(s, s->best_seat, shape) == s->side;
    int leader = s->leader, capot = s->capot, won = s->won;
    /* The cards under those of the trick turn up, each for the player of the card above it. */
    uint32_t hands[4] = {0};
    int turned = (tops(s, shape) & s->on_table) != 0;
    if (turned) {
        memcpy(hands, s->hands, sizeof hands);
        for (int i = 0; i < players; i++) {
            int c = s->trick[i];
            if (s->tops >> c & 1) s->hands[seat_at(s, leader, i, shape)] |= 1u << s->under[c];
        }
    }
    if (!held(s)) { /* nothing turned up, then */
        if (!ours) return 0;
        return points + LAST_TRICK + (capot ? CAPOT_BONUS : 0);
    }
    int gain = ours ? points : 0;
    int trick[4];
    memcpy(trick, s->trick, sizeof trick);
    s->capot = capot && ours;
    s->won = won || ours;
    s->ntrick = 0;
    s->leader = s->best_seat;
    s->on_table = 0;
    s->best = s->best_seat = -1;
    int v = gain + boundary(s, alpha - gain, beta - gain, shape);
    memcpy(s->trick, trick, sizeof trick);
    s->ntrick = players;
    s->leader = leader;
    s->capot = capot;
    s->won = won;
    if (turned) memcpy(s->hands, hands, sizeof hands);
    /* The caller restores best, best_seat and on_table. */
    return v;
}

/* The value once seat has played c. */
INLINE int after(Search *s, int seat, int c, int alpha, int beta, int shape) {
    s->hands[seat] ^= 1u << c;
    int best = s->best, best_seat = s->best_seat;
    uint32_t on_table = s->on_table;
    push(s, c, seat);
    int v = s->ntrick < nplayers(s, shape) ? turn(s, alpha, beta, -1, NULL, shape) : trick_taken(s, alpha, beta, shape);
    s->ntrick--;
    s->best = best;
    s->best_seat = best_seat;
    s->on_table = on_table;
    s->hands[seat] ^= 1u << c;
    return v;
}

/* The value for the side we count for, fail-soft; *best_card gets the best card found. */
INLINE int turn_body(Search *s, int alpha, int beta, int hint, int *best_card, int shape) {
    visit(s);
    int seat = seat_to_move(s, shape);
    int maximise = camp(s, seat, shape) == s->side;
    int moves[16];
    int n = ordered(s, seat, hint, moves, shape);
    int g = maximise ? -INF : INF, bc = -1;
    if (!(s->ntrick == nplayers(s, shape) - 1 && n > 1 &&
          etc(s, seat, maximise, moves, n, alpha, beta, &g, &bc, shape))) {
        for (int i = 0; i < n; i++) {
            int c = moves[i];
            int v = after(s, seat, c, alpha, beta, shape);
            if (maximise ? v > g : v < g) {
                g = v;
                bc = c;
                if (maximise ? g >= beta : g <= alpha) break;
                if (maximise && g > alpha) alpha = g;
                if (!maximise && g < beta) beta = g;
            }
        }
    }
    if (best_card) *best_card = bc;
    return g;
}

/* One card each: no choice is left; top is what the trick is worth to a side winning it. */
INLINE int last_trick(Search *s, int top, int shape) {
    visit(s);
    int best_seat = s->leader;
    int best = __builtin_ctz(s->hands[best_seat]);
    for (int i = 1; i < nplayers(s, shape); i++) {
        int seat = seat_at(s, s->leader, i, shape);
        int c = __builtin_ctz(s->hands[seat]);
        if (beats(s->key, c, best)) {
            best = c;
            best_seat = seat;
        }
    }
    return camp(s, best_seat, shape) == s->side ? top : 0;
}

/* The master trumps: the strongest trumps left, as far down as one side holds them all. Whoever
 * plays one of them wins that trick (only a stronger trump could take it), so their points are
 * sure for that side, and the other side cannot make capot. Returns the side, or -1 (no trumps
 * left, or no trump suit); *points gets their points. rest is every card still in play, those face
 * down included: each is the side's that will turn it up, and will be played before the deal ends. */
INLINE int master_trumps(const Search *s, uint32_t rest, int *points, int shape) {
    *points = 0;
    if (s->mode >= 4) return -1;
    const int *order = SUIT_ORDER[s->mode][s->mode];
    uint32_t ns = 0; /* the cards of side 0 */
    for (int i = 0; i < nplayers(s, shape); i++)
        if (!camp(s, i, shape)) ns |= s->hands[i];
    if (tops(s, shape)) ns |= hidden(s, ns, shape);
    int side = -1;
    for (int i = 0; i < 8; i++) {
        int c = order[i];
        if (!(rest >> c & 1)) continue;
        int owner = !(ns >> c & 1);
        if (side < 0) side = owner;
        else if (owner != side) break;
        *points += s->points[c];
    }
    return side;
}

/* A trick to lead: the value of the rest of the deal, through the table. */
INLINE int boundary_body(Search *s, int alpha, int beta, int shape) {
    uint32_t rest = held(s);
    /* Every card still in play: the key needs only those held (see the key above). */
    uint32_t cards = tops(s, shape) ? rest | hidden(s, rest, shape) : rest;
    const int(*bp)[256] = BYTE_POINTS[s->mode];
    int all = bp[0][cards & 255] + bp[1][cards >> 8 & 255] + bp[2][cards >> 16 & 255] + bp[3][cards >> 24] + LAST_TRICK;
    if (popcount(cards) == nplayers(s, shape)) return last_trick(s, all + (s->capot ? CAPOT_BONUS : 0), shape);
    int sure, master = master_trumps(s, cards, &sure, shape);
    int top = all, low = 0;
    if (master == s->side) low = sure;
    else if (master >= 0) top -= sure;
    if (s->capot && master != 1 - s->side) top += CAPOT_BONUS;
    if (top <= alpha) return top;
    if (low >= beta) return low;
    if (shape == FOUR && s->leaf && popcount(rest) == 4 * s->leaf) {
        visit(s);
        int v = leaf_value(s, all);
        if (camp(s, s->leader, shape) != s->side) v = all - v;
        /* The network leaves capot aside: where a side that may still make capot is valued within
         * LEAF_CAPOT of every point left (or the other side of none), the rest is searched exactly;
         * not where the other side holds the master trump (it takes a trick with it).
         * Whether the other side may is then part of the key (only with leaves: an exact value does
         * not depend on it). */
        if (!(s->capot && master != 1 - s->side && v >= all - LEAF_CAPOT) &&
            !(!s->won && master != s->side && v <= LEAF_CAPOT))
            return v < low ? low : v > top ? top : v;
    }
    uint64_t key = key_of(rest, s->leader, s->capot, s->side, s->leaf && !s->won);
    Entry *e = probe_entry(key);
    int lower = lower_of(*e) > low ? lower_of(*e) : low, upper = upper_of(*e) < top ? upper_of(*e) : top;
    if (lower >= beta) return lower;
    if (upper <= alpha) return upper;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    int card;
    int g = turn(s, alpha, beta, hint_of(*e), &card, shape);
    /* The search below may have given the entry's place to another: find it again (or anew). */
    if ((*e & TAG_MASK) != tag_of(key)) e = probe_entry(key);
    lower = lower_of(*e);
    upper = upper_of(*e);
    if (g <= alpha) {
        if (g < upper) upper = g;
    } else if (g >= beta) {
        if (g > lower) lower = g;
    } else {
        lower = upper = g;
    }
    /* The card that refuted the window (or reached into it) is worth trying first next time; when
     * every card failed, the one found is no better than the others. */
    int hint = (camp(s, s->leader, shape) == s->side ? g > alpha : g < beta) ? card : hint_of(*e);
    *e = entry(tag_of(key), lower, upper, hint);
    return g;
}

static int turn_four(Search *s, int alpha, int beta, int hint, int *best_card) {
    return turn_body(s, alpha, beta, hint, best_card, FOUR);
}
static int turn_any(Search *s, int alpha, int beta, int hint, int *best_card) {
    return turn_body(s, alpha, beta, hint, best_card, ANY);
}
static int boundary_four(Search *s, int alpha, int beta) { return boundary_body(s, alpha, beta, FOUR); }
static int boundary_any(Search *s, int alpha, int beta) { return boundary_body(s, alpha, beta, ANY); }

/* The value of the position (c < 0), or of seat's card c in it, for one window. */
static int probe(Search *s, int seat, int c, int alpha, int beta) {
    if (s->shape == FOUR) {
        if (c >= 0) return after(s, seat, c, alpha, beta, FOUR);
        return s->ntrick ? turn_four(s, alpha, beta, -1, NULL) : boundary_four(s, alpha, beta);
    }
    if (c >= 0) return after(s, seat, c, alpha, beta, ANY);
    return s->ntrick ? turn_any(s, alpha, beta, -1, NULL) : boundary_any(s, alpha, beta);
}

/* ------------------------------------------------------------------ exact values by null windows */

/* MTD(f), galloping: each probe asks "is the value at least beta?" and its fail-soft answer moves a
 * bound; while the answers keep going one way, the next question goes twice as far. */
static _Thread_local long long probes;
static int mtd(Search *s, int seat, int c, int guess) {
    int lower = 0, upper = MAX_VALUE, step = 1, dir = 0;
    int beta = guess < 1 ? 1 : guess > upper ? upper : guess;
    while (1) {
        probes++;
        int g = probe(s, seat, c, beta - 1, beta);
        int d = g < beta ? -1 : 1;
        if (d < 0) upper = g;
        else lower = g;
        if (lower >= upper) return lower;
        step = d == dir ? 2 * step : 1;
        dir = d;
        beta = d > 0 ? lower + step : upper + 1 - step;
        if (beta <= lower) beta = lower + 1;
        if (beta > upper) beta = upper;
    }
}

/* ------------------------------------------------------------------ the Python interface */

static _Thread_local long long last_nodes, last_probes;

static int read_mask(PyObject *o, uint32_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v >> 32) {
        PyErr_SetString(PyExc_ValueError, "a hand is a mask of the 32-card pack");
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int read_int(PyObject *o, int lo, int hi, const char *what, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %d to %d, not %ld", what, lo, hi, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A sequence of small ints into out[0..n), each from lo to hi; -1 with an exception if it is not. */
static int read_ints(PyObject *o, int n, int lo, int hi, const char *what, int *out) {
    PyObject *seq = PySequence_Fast(o, what);
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: %d of them", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (read_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, what, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* Four masks into out[0..4). */
static int read_ints_masks(PyObject *o, uint32_t *out) {
    PyObject *seq = PySequence_Fast(o, "hands must be four masks");
    if (seq == NULL) return -1;
    int r = PySequence_Fast_GET_SIZE(seq) == 4 ? 0 : -1;
    if (r < 0) PyErr_SetString(PyExc_ValueError, "hands must be four masks");
    for (int i = 0; r == 0 && i < 4; i++) r = read_mask(PySequence_Fast_GET_ITEM(seq, i), &out[i]);
    Py_DECREF(seq);
    return r;
}

/* A new generation of the table t: every entry of earlier solves in it is now stale. */
static void new_generation(Entry *t, uint64_t *gen) {
    if (++*gen >> GEN_BITS) {
        memset(t, 0, TT_SIZE * sizeof(Entry));
        *gen = 1;
    }
}

/* Whether the position s may read and write the kept table: the same rules as the solves before it,
 * and no card held (or on the table) by another seat than there. It joins them if so. */
static int joins_kept(const Search *s, const int rules[6], const uint32_t owner[4]) {
    if (!kept_open || memcmp(rules, kept_rules, sizeof kept_rules) || memcmp(s->under, kept_under, sizeof kept_under))
        return 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != j && owner[i] & kept_owner[j]) return 0;
    for (int i = 0; i < 4; i++) kept_owner[i] |= owner[i];
    return 1;
}

/* The table of the solve s, with its generation: a new generation of the thread's fresh table, or
 * (keep) the kept table, anew unless s joins the solves kept there. */
static int choose_table(const Search *s, int keep) {
    Entry **t = keep ? &kept_table : &fresh_table;
    if (*t == NULL && (*t = calloc(TT_SIZE, sizeof(Entry))) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    table = *t;
    if (!keep) {
        new_generation(table, &fresh_generation);
        generation = fresh_generation;
        return 0;
    }
    int rules[6] = {s->mode, s->step, s->play_flags, s->players, (int)s->camp_bits, s->leaf};
    uint32_t owner[4];
    memcpy(owner, s->hands, sizeof owner);
    for (int i = 0; i < s->ntrick; i++) owner[s->seat_at[s->leader][i]] |= 1u << s->trick[i];
    if (!joins_kept(s, rules, owner)) {
        new_generation(table, &kept_generation);
        memcpy(kept_rules, rules, sizeof kept_rules);
        memcpy(kept_under, s->under, sizeof kept_under);
        memcpy(kept_owner, owner, sizeof kept_owner);
        kept_open = 1;
    }
    generation = kept_generation;
    return 0;
}

/* The fields of belote.solver.Position that the search reads, by their names: the position is
 * described there, once, and any object with these attributes is read as one. */
enum { F_HANDS, F_MODE, F_LEADER, F_TRICK, F_STEP, F_RULES, F_TRICKS_WON, F_CAMPS, F_UNDER, F_LEAF, NFIELDS };
static const char *const FIELD_NAMES[NFIELDS] = {
    [F_HANDS] = "hands", [F_MODE] = "mode",         [F_LEADER] = "leader", [F_TRICK] = "trick", [F_STEP] = "step",
    [F_RULES] = "rules", [F_TRICKS_WON] = "tricks_won", [F_CAMPS] = "camps",   [F_UNDER] = "under", [F_LEAF] = "leaf",
};
static PyObject *FIELDS[NFIELDS]; /* the names, interned at import */

/* The search s set up from the position's fields f (see FIELDS), and the solve's limit and keep. */
static int setup_fields(Search *s, PyObject *const *f, long long limit, int keep) {
    memset(s, 0, sizeof *s);
    s->limit = limit;
    PyObject *hands = PySequence_Fast(f[F_HANDS], "hands must be a sequence of two to four masks");
    if (hands == NULL) return -1;
    int n = (int)PySequence_Fast_GET_SIZE(hands);
    if (n < 2 || n > 4) {
        Py_DECREF(hands);
        PyErr_SetString(PyExc_ValueError, "hands must be two to four masks");
        return -1;
    }
    s->players = n;
    for (int i = 0; i < n; i++)
        if (read_mask(PySequence_Fast_GET_ITEM(hands, i), &s->hands[i]) < 0) {
            Py_DECREF(hands);
            return -1;
        }
    Py_DECREF(hands);
    if (read_int(f[F_MODE], 0, NMODES - 1, "mode", &s->mode) < 0 ||
        read_int(f[F_LEADER], 0, n - 1, "leader", &s->leader) < 0 ||
        read_int(f[F_STEP], 1, n - 1, "step", &s->step) < 0)
        return -1;
    if (s->step != 1 && s->step != n - 1) {
        PyErr_Format(PyExc_ValueError, "step must be 1 or %d", n - 1);
        return -1;
    }
    PyObject *flags = PyObject_GetAttrString(f[F_RULES], "flags"); /* a belote.play.PlayRules */
    if (flags == NULL) return -1;
    int r = read_int(flags, 0, INT_MAX, "the play rules' flags", &s->play_flags);
    Py_DECREF(flags);
    if (r < 0) return -1;
    for (int l = 0; l < n; l++)
        for (int i = 0; i < 4; i++) s->seat_at[l][i] = (int8_t)((l + s->step * i) % n);
    s->shape = ANY; /* until the sides and the cards under others are known */
    /* The sides: seat & 1 unless given. */
    for (int i = 0; i < n; i++) s->camp_bits |= (unsigned)(i & 1) << i;
    memset(s->under, -1, sizeof s->under);
    if (f[F_CAMPS] != Py_None) {
        int camps[4];
        if (read_ints(f[F_CAMPS], n, 0, 1, "camps gives each seat its side, 0 or 1", camps) < 0) return -1;
        s->camp_bits = 0;
        for (int i = 0; i < n; i++) s->camp_bits |= (unsigned)camps[i] << i;
        if (s->camp_bits == 0 || s->camp_bits == (1u << n) - 1) {
            PyErr_SetString(PyExc_ValueError, "camps must put a seat on each side");
            return -1;
        }
    }
    if (f[F_UNDER] != Py_None) {
        int under[32];
        if (read_ints(f[F_UNDER], 32, -1, 31, "under gives the card under each card, or -1", under) < 0) return -1;
        for (int c = 0; c < 32; c++) {
            s->under[c] = (int8_t)under[c];
            if (under[c] >= 0) s->tops |= 1u << c;
        }
    }
    s->key = KEY[s->mode];
    s->points = POINTS[s->mode];
    s->higher = HIGHER[s->mode];
    s->same_points_above = SAME_POINTS_ABOVE[s->mode];
    s->best = s->best_seat = -1;
    PyObject *trick = PySequence_Fast(f[F_TRICK], "the trick must be a sequence of cards");
    if (trick == NULL) return -1;
    int nt = (int)PySequence_Fast_GET_SIZE(trick);
    if (nt >= n) {
        Py_DECREF(trick);
        PyErr_SetString(PyExc_ValueError, "the trick on the table holds a card of each player but one at most");
        return -1;
    }
    for (int i = 0; i < nt; i++) {
        int c;
        if (read_int(PySequence_Fast_GET_ITEM(trick, i), 0, 31, "a card", &c) < 0) {
            Py_DECREF(trick);
            return -1;
        }
        push(s, c, s->seat_at[s->leader][i]);
    }
    Py_DECREF(trick);
    /* The search trusts the position: check that it can arise (belote.solver.Position says why not). */
    uint32_t all = held(s);
    int total = 0, count[4];
    for (int i = 0; i < n; i++) total += count[i] = popcount(s->hands[i]);
    int ok = total == popcount(all) && !(all & s->on_table) && popcount(s->on_table) == nt;
    /* The cards face down: under a card in play, each once, none in play, none with another under it;
     * each counts for the seat that will turn it up. */
    uint32_t in_play = all | s->on_table, down = 0;
    for (int i = 0; ok && i < n + nt; i++) {
        int seat = i < n ? i : s->seat_at[s->leader][i - n];
        uint32_t over = (i < n ? s->hands[i] : 1u << s->trick[i - n]) & s->tops;
        for (; ok && over; over &= over - 1) {
            int u = s->under[__builtin_ctz(over)];
            ok = !((in_play | down) >> u & 1) && s->under[u] < 0;
            down |= 1u << u;
            count[seat]++;
        }
    }
    int cards = total + popcount(down) + nt;
    ok = ok && cards % n == 0;
    for (int i = 0; ok && i < n; i++) ok = count[s->seat_at[s->leader][i]] == cards / n - (i < nt);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a position of a deal: see belote.solver.Position");
        return -1;
    }
    s->shape = n == 4 && s->camp_bits == 0xA && !s->tops ? FOUR : ANY; /* 0xA: seats 1 and 3 on side 1 */
    if (read_int(f[F_LEAF], 0, 8, "leaf", &s->leaf) < 0) return -1;
    if (s->leaf && s->shape != FOUR) {
        PyErr_SetString(PyExc_ValueError, "the leaf value is for four hands in two partnerships");
        return -1;
    }
    if (s->leaf && LEAF_W1 == NULL) {
        PyErr_SetString(PyExc_ValueError, "no leaf value is set: belote.solver.leaf sets it");
        return -1;
    }
    s->side = camp(s, seat_to_move(s, ANY), ANY);
    PyObject *won = PySequence_Fast(f[F_TRICKS_WON], "tricks_won must be two counts");
    if (won == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(won) != 2) {
        Py_DECREF(won);
        PyErr_SetString(PyExc_ValueError, "tricks_won must be two counts");
        return -1;
    }
    long other = PyLong_AsLong(PySequence_Fast_GET_ITEM(won, 1 - s->side));
    long ours = other == -1 && PyErr_Occurred() ? -1 : PyLong_AsLong(PySequence_Fast_GET_ITEM(won, s->side));
    Py_DECREF(won);
    if ((other == -1 || ours == -1) && PyErr_Occurred()) return -1;
    /* Capot is open for the side we count for while the other side has taken no trick. */
    s->capot = other == 0;
    s->won = ours > 0;
    if (choose_table(s, keep) < 0) return -1;
    probes = 0;
    return 0;
}

/* Arguments: a position (belote.solver.Position)[, limit[, keep]], as alphabeta.value. */
static int setup(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError, "expected (position[, limit[, keep]])");
        return -1;
    }
    int keep = 0;
    if (nargs == 3 && (keep = PyObject_IsTrue(args[2])) < 0) return -1;
    long long limit = LLONG_MAX;
    if (nargs >= 2 && args[1] != Py_None) {
        limit = PyLong_AsLongLong(args[1]);
        if (limit == -1 && PyErr_Occurred()) return -1;
        if (limit < 0) {
            PyErr_SetString(PyExc_ValueError, "the limit of nodes must be 0 or more");
            return -1;
        }
    }
    PyObject *f[NFIELDS] = {NULL};
    int r = 0;
    for (int i = 0; r == 0 && i < NFIELDS; i++) r = (f[i] = PyObject_GetAttr(args[0], FIELDS[i])) == NULL ? -1 : 0;
    if (r == 0) r = setup_fields(s, f, limit, keep);
    for (int i = 0; i < NFIELDS; i++) Py_XDECREF(f[i]);
    return r;
}

/* The value of the position into *v; 0, or 1 when the search passed its limit. (setjmp is called
 * here, where nothing the jump back could leave stale is read after it.) */
static int solve_value(Search *s, int *v) {
    if (setjmp(s->stop)) return 1;
    *v = legal(s, seat_to_move(s, ANY), ANY) ? mtd(s, -1, -1, GUESS) : 0;
    return 0;
}

/* The value of each representative card into vals, each search from the value the last one gave. */
static int solve_cards(Search *s, int seat, uint32_t reps, int *vals) {
    if (setjmp(s->stop)) return 1;
    int guess = GUESS;
    for (uint32_t m = reps; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        vals[c] = guess = mtd(s, seat, c, guess);
    }
    return 0;
}

static PyObject *dds_value(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Search s;
    if (setup(&s, args, nargs) < 0) return NULL;
    int v = 0, stopped;
    /* The search touches no Python object: other threads run meanwhile. */
    Py_BEGIN_ALLOW_THREADS
    stopped = solve_value(&s, &v);
    Py_END_ALLOW_THREADS
    last_nodes = s.nodes;
    last_probes = probes;
    if (stopped) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *dds_card_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Search s;
    if (setup(&s, args, nargs) < 0) return NULL;
    int seat = seat_to_move(&s, ANY);
    uint32_t lg = legal(&s, seat, ANY), others = others_of(&s, seat, ANY);
    uint32_t reps = representatives(&s, lg, others, ANY);
    int vals[32], stopped;
    /* One search for each class of equivalent cards. */
    Py_BEGIN_ALLOW_THREADS
    stopped = solve_cards(&s, seat, reps, vals);
    Py_END_ALLOW_THREADS
    last_nodes = s.nodes;
    last_probes = probes;
    if (stopped) Py_RETURN_NONE;
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (uint32_t m = lg; m; m &= m - 1) {
        int c = __builtin_ctz(m), rep = c;
        /* A card stood for by others takes the value of the strongest of them (none stands for a card
         * with another under it, nor is stood for by one). */
        uint32_t above = s.tops >> c & 1 ? 0 : reps & ~s.tops & s.same_points_above[c];
        for (uint32_t a = above; a; a &= a - 1) {
            int d = __builtin_ctz(a);
            if (!(s.higher[c] & ~s.higher[d] & ~(1u << d) & others) && (rep == c || s.key[d] > s.key[rep])) rep = d;
        }
        PyObject *k = PyLong_FromLong(c), *v = PyLong_FromLong(vals[rep]);
        if (k == NULL || v == NULL || PyDict_SetItem(out, k, v) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return out;
}

/* Copies n items of size bytes each from a buffer of exactly that size into a new array. */
static void *copy_buffer(PyObject *o, Py_ssize_t n, Py_ssize_t size, const char *what) {
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_SIMPLE) < 0) return NULL;
    void *out = NULL;
    if (view.len != n * size) PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view.len, n * size);
    else if ((out = malloc((size_t)view.len)) == NULL) PyErr_NoMemory();
    else memcpy(out, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return out;
}

/* set_leaf(hidden, shift, w1, b1, w2, b2): the network of belote.solver.leaf, its arrays as bytes
 * (int32, int32, int32 and int64, C order). Once only: solves in other threads read it unlocked. */
static PyObject *dds_set_leaf(PyObject *module, PyObject *args) {
    int hidden, shift;
    PyObject *w1, *b1, *w2, *b2;
    if (!PyArg_ParseTuple(args, "iiOOOO", &hidden, &shift, &w1, &b1, &w2, &b2)) return NULL;
    if (LEAF_W1 != NULL) {
        PyErr_SetString(PyExc_ValueError, "the leaf value is set once");
        return NULL;
    }
    if (hidden < 1 || hidden > LEAF_MAX_HIDDEN || shift < 1 || shift > 62) {
        PyErr_Format(PyExc_ValueError, "a leaf network of 1 to %d hidden units and a shift of 1 to 62",
                     LEAF_MAX_HIDDEN);
        return NULL;
    }
    int32_t *a = copy_buffer(w1, 3 * LEAF_INPUTS * hidden, 4, "w1"), *b = NULL, *c = NULL;
    int64_t *d = NULL;
    if (a) b = copy_buffer(b1, 3 * hidden, 4, "b1");
    if (b) c = copy_buffer(w2, 3 * hidden, 4, "w2");
    if (c) d = copy_buffer(b2, 3, 8, "b2");
    if (d == NULL) {
        free(a);
        free(b);
        free(c);
        return NULL;
    }
    memcpy(LEAF_B2, d, sizeof LEAF_B2);
    free(d);
    LEAF_HIDDEN = hidden;
    LEAF_SHIFT = shift;
    LEAF_B1 = b;
    LEAF_W2 = c;
    LEAF_W1 = a;
    Py_RETURN_NONE;
}

/* leaf_value(hands, mode, leader, step) -> what the network gives the leader's side (the tests hold
 * it to belote.solver.leaf's plain Python). */
static PyObject *dds_leaf_value(PyObject *module, PyObject *args) {
    PyObject *hands;
    Search s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "Oiii", &hands, &s.mode, &s.leader, &s.step)) return NULL;
    if (LEAF_W1 == NULL) {
        PyErr_SetString(PyExc_ValueError, "no leaf value is set: belote.solver.leaf sets it");
        return NULL;
    }
    if (s.mode < 0 || s.mode >= NMODES || s.leader < 0 || s.leader > 3 || (s.step != 1 && s.step != 3)) {
        PyErr_SetString(PyExc_ValueError, "a mode 0..5, a leader 0..3 and a step 1 or 3");
        return NULL;
    }
    if (read_ints_masks(hands, s.hands) < 0) return NULL;
    uint32_t all_cards = held(&s);
    const int(*bp)[256] = BYTE_POINTS[s.mode];
    int all = bp[0][all_cards & 255] + bp[1][all_cards >> 8 & 255] + bp[2][all_cards >> 16 & 255] +
              bp[3][all_cards >> 24] + LAST_TRICK;
    return PyLong_FromLong(leaf_value(&s, all));
}

/* ------------------------------------------------------------------ drawing a deal (belote.knowledge) */

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number in 0..n-1 (n at most 32): the top 32 bits of a draw scaled to n. */
static int below(uint64_t *state, int n) { return (int)(((splitmix(state) >> 32) * (uint64_t)n) >> 32); }

#define MAX_HOLDERS 8

/* n numbers from a Python sequence, each 0..2**64-1 */
static int read_numbers(PyObject *seq, Py_ssize_t n, unsigned long long *out) {
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        if (item == NULL) return -1;
        out[i] = PyLong_AsUnsignedLongLong(item);
        Py_DECREF(item);
        if (out[i] == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* deal(seed, cards, allowed, room, hands, attempts) -> hands, or None when no attempt placed every
 * card: belote.knowledge._deal_plain, step for step (the tests hold the two to the same draws). */
static PyObject *dds_deal(PyObject *module, PyObject *args) {
    unsigned long long seed;
    PyObject *cards_o, *allowed_o, *room_o, *hands_o;
    int attempts;
    if (!PyArg_ParseTuple(args, "KOOOOi", &seed, &cards_o, &allowed_o, &room_o, &hands_o, &attempts)) return NULL;
    Py_ssize_t n = PySequence_Size(cards_o), holders = PySequence_Size(room_o);
    if (n < 0 || holders < 0) return NULL;
    if (n > 32 || holders > MAX_HOLDERS || PySequence_Size(allowed_o) != n || PySequence_Size(hands_o) != holders) {
        PyErr_SetString(PyExc_ValueError, "at most 32 cards, as many holder masks, at most 8 holders with their hands");
        return NULL;
    }
    unsigned long long cards_in[32], allowed_in[32], need[MAX_HOLDERS], start[MAX_HOLDERS];
    if (read_numbers(cards_o, n, cards_in) < 0 || read_numbers(allowed_o, n, allowed_in) < 0 ||
        read_numbers(room_o, holders, need) < 0 || read_numbers(hands_o, holders, start) < 0)
        return NULL;
    for (Py_ssize_t h = 0; h < holders; h++)
        if (need[h] > 32) {
            PyErr_SetString(PyExc_ValueError, "a holder takes at most 32 cards");
            return NULL;
        }
    int cards[32], by_card[32]; /* the holders each card may go to, by card */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cards_in[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "a card is 0..31");
            return NULL;
        }
        cards[i] = (int)cards_in[i];
        by_card[cards[i]] = (int)(allowed_in[i] & ((1u << holders) - 1));
    }
    uint64_t state = seed;
    for (int attempt = 0; attempt < attempts; attempt++) {
        int order[32], sorted[32], m = 0;
        for (Py_ssize_t i = 0; i < n; i++) order[i] = cards[i];
        for (Py_ssize_t i = n - 1; i > 0; i--) {
            int j = below(&state, (int)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        /* the most constrained cards first, the shuffled order kept among equals */
        for (int k = 0; k <= holders; k++)
            for (Py_ssize_t i = 0; i < n; i++)
                if (__builtin_popcount(by_card[order[i]]) == k) sorted[m++] = order[i];
        int room[MAX_HOLDERS], left = 0;
        uint64_t hands[MAX_HOLDERS];
        for (Py_ssize_t h = 0; h < holders; h++) {
            room[h] = (int)need[h];
            left += (int)need[h];
            hands[h] = start[h];
        }
        for (int i = 0; i < m; i++) {
            int c = sorted[i], may = by_card[c], total = 0;
            for (int h = 0; h < holders; h++)
                if (may >> h & 1) total += room[h];
            if (!total) break; /* every holder it may go to is full (in the bidding, every holder) */
            int x = below(&state, total), h = 0;
            for (;; h++)
                if (may >> h & 1) {
                    if (x < room[h]) break;
                    x -= room[h];
                }
            hands[h] |= 1ULL << c;
            room[h]--;
            left--;
        }
        if (left == 0) {
            PyObject *out = PyList_New(holders);
            if (out == NULL) return NULL;
            for (Py_ssize_t h = 0; h < holders; h++) {
                PyObject *v = PyLong_FromUnsignedLongLong(hands[h]);
                if (v == NULL) {
                    Py_DECREF(out);
                    return NULL;
                }
                PyList_SET_ITEM(out, h, v);
            }
            return out;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *dds_forget(PyObject *module, PyObject *unused) {
    kept_open = 0;
    Py_RETURN_NONE;
}

static PyObject *dds_stats(PyObject *module, PyObject *unused) {
    return Py_BuildValue("{s:L,s:L,s:k}", "nodes", last_nodes, "probes", last_probes, "table_entries",
                         (unsigned long)TT_SIZE);
}

static PyMethodDef dds_methods[] = {
    {"value", (PyCFunction)(void (*)(void))dds_value, METH_FASTCALL,
     "value(position[, limit[, keep]]) -> the exact value of a belote.solver.Position for the side to move, or "
     "None when the search would visit more than limit nodes"},
    {"card_values", (PyCFunction)(void (*)(void))dds_card_values, METH_FASTCALL,
     "card_values(position[, limit[, keep]]) -> {card: value} for the legal cards of a belote.solver.Position, or "
     "None when the search would visit more than limit nodes"},
    {"set_leaf", (PyCFunction)dds_set_leaf, METH_VARARGS,
     "set_leaf(hidden, shift, w1, b1, w2, b2) -> None: the learned leaf value's network (belote.solver.leaf), once"},
    {"leaf_value", (PyCFunction)dds_leaf_value, METH_VARARGS,
     "leaf_value(hands, mode, leader, step) -> the learned value of a trick boundary for the leader's side"},
    {"deal", (PyCFunction)dds_deal, METH_VARARGS,
     "deal(seed, cards, allowed, room, hands, attempts) -> every holder's cards, or None: belote.knowledge's draw"},
    {"forget", (PyCFunction)dds_forget, METH_NOARGS,
     "forget() -> None: the next solve that keeps its table starts it anew (the thread's kept table)"},
    {"stats", (PyCFunction)dds_stats, METH_NOARGS,
     "What the last solve did: {'nodes': ..., 'probes': ..., 'table_entries': ...}"},
    {NULL},
};

/* ------------------------------------------------------------------ the tables derived from belote.play's */

static int module_exec(PyObject *m) {
    for (int i = 0; i < NFIELDS; i++)
        if (FIELDS[i] == NULL && (FIELDS[i] = PyUnicode_InternFromString(FIELD_NAMES[i])) == NULL) return -1;
    PyObject *scoring = PyImport_ImportModule("belote.scoring");
    if (scoring == NULL || load_play_tables() < 0) goto fail;
    int deal_points, capot_points;
    if (load_int(scoring, "DEAL_POINTS", &deal_points) < 0 || load_int(scoring, "CAPOT_POINTS", &capot_points) < 0)
        goto fail;
    CAPOT_BONUS = capot_points - deal_points;
    PyObject *twin = PyImport_ImportModule("belote.solver.alphabeta"); /* the plain solver: LEAF_CAPOT's one place */
    if (twin == NULL) goto fail;
    int leaf_capot = load_int(twin, "LEAF_CAPOT", &LEAF_CAPOT);
    Py_DECREF(twin);
    if (leaf_capot < 0) goto fail;
    MAX_VALUE = capot_points;
    if (MAX_VALUE >= NO_UPPER) {
        PyErr_SetString(PyExc_ImportError, "the solver's table keeps values in a byte: 252 at most");
        goto fail;
    }
    for (int md = 0; md < NMODES; md++)
        for (int c = 0; c < 32; c++) {
            int suit = c >> 3, place = suit; /* the trump suit first, the others in their order */
            if (md < 4) place = suit == md ? 0 : suit < md ? suit + 1 : suit;
            LEAF_CARD[md][c] = 8 * place + (c & 7);
        }
    for (int md = 0; md < NMODES; md++)
        for (int suit = 0; suit < 4; suit++) {
            int *order = SUIT_ORDER[md][suit];
            for (int r = 0; r < 8; r++) {
                int c = suit * 8 + r, j = r;
                while (j > 0 && KEY[md][order[j - 1]] < KEY[md][c]) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = c;
            }
            for (int r = 0; r < 8; r++) {
                int c = suit * 8 + r;
                SAME_POINTS_ABOVE[md][c] = 0;
                for (int d = suit * 8; d < suit * 8 + 8; d++)
                    if (HIGHER[md][c] >> d & 1 && POINTS[md][d] == POINTS[md][c]) SAME_POINTS_ABOVE[md][c] |= 1u << d;
            }
            for (int b = 0; b < 256; b++) {
                int p = 0;
                for (int r = 0; r < 8; r++)
                    if (b >> r & 1) p += POINTS[md][suit * 8 + r];
                BYTE_POINTS[md][suit][b] = p;
            }
        }
    Py_DECREF(scoring);
    return 0;
fail:
    Py_XDECREF(scoring);
    return -1;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "The double-dummy solver, in C.", 0, dds_methods, module_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) { return PyModuleDef_Init(&module); }
