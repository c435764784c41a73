/* belote.env.batch in C: many deals stepped at once, each writing the observation and the action
 * mask of the seat to move into arrays the caller made (numpy's), with no Python call per step.
 *
 * The rules are those of belote.game for the classic game, Coinche and the three-handed game, one
 * deal an episode (the research environments' default): the deal from a shuffled deck, the auction
 * (the turned card's two rounds, or Coinche's contracts, coinche and surcoinche), the play (the
 * rules of which card may be played are _play.h's, shared with the play state and the solver),
 * declarations announced with each seat's first card and shown after the first trick, belote, and
 * the deal's scoring (belote.scoring: score_deal, score_contract, score_three) with every rule
 * option those read. The tables come from the Python modules that define them (belote.play at
 * import; the places of the deck, the observation's layout and the rules from belote.env.batch at
 * construction); the tests play each deal beside belote.game's Deal and compare every
 * observation with belote.env.encoding.encode.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_play.h"

#define MAXP 4
#define NACTIONS_MAX 256
#define MAX_BIDS 64
#define MAX_DECL 8

/* Actions (belote.actions, belote.contracts), checked against the Python modules at construction. */
static int A_PASS, A_TAKE, A_NAME, A_CONTRACT, A_COINCHE, A_SURCOINCHE, N_ACTIONS, N_LEVELS;
static int TRUMP_ORDER[8];
/* belote.contracts' capot and générale levels; belote.scoring's points of a deal, a capot, belote and
 * their rounded counts; belote.env.encoding's scales of the declarations announced */
static int CAPOT, GENERALE, DEAL_POINTS, CAPOT_POINTS, BELOTE_POINTS, ROUNDED_DEAL_POINTS, ROUNDED_CAPOT_POINTS,
    MAX_SEQUENCES, MAX_FOURS;
static int SEQ_POINTS[9];  /* by length */
static int FOUR_POINTS[8]; /* by rank */

/* The observation's fields this module writes: their offsets and widths, from belote.env.encoding. */
enum {
    F_HAND, F_TRICK, F_PLAYED, F_TURNED, F_SHOWN, F_GAME, F_PHASE, F_OPTIONS, F_DEALER, F_TO_MOVE,
    F_BID_ROUND, F_LAST_BID, F_HIGHEST_BID, F_BIDDER, F_LEVEL, F_MODE, F_COINCHED, F_TAKER, F_TRUMP,
    F_DECLARED, F_BELOTE, F_HAND_SIZES, F_WON_POINTS, F_WON_TRICKS, F_TABLE, F_COVERING, F_FACE_DOWN, NFIELDS
};

typedef struct {
    uint64_t rng;
    int8_t deck[32];
    int dealer, phase; /* 0 bidding, 1 play, 2 over */
    int order[MAXP];   /* the seats in playing order from the one next to the dealer */
    uint32_t hands[MAXP];
    int turned;    /* the turned card, -1 for none (Coinche) */
    int turned_up; /* it lies face up (until it is played) */
    int nbids;
    uint8_t bids[MAX_BIDS], bid_seats[MAX_BIDS];
    int last_bid[MAXP], highest[MAXP]; /* -1 for none */
    int to_move;
    int c_level, c_mode, c_bidder, c_mult; /* the contract (Coinche): c_level is an index of LEVELS, -1 none */
    int taker, mode;
    int camps[MAXP];
    /* the play */
    int leader, trick_len, trick[MAXP], best, best_seat, led;
    uint32_t played[MAXP];
    int8_t plays[32], play_seats[32]; /* every card played, in order, and by whom */
    int ntaken, cards_played;
    int won[2], won_tricks[2];
    int by_seat[MAXP], tricks_by_seat[MAXP];
    /* declarations and belote */
    int decl_seq[MAXP], decl_four[MAXP];
    uint32_t decl_cards[MAXP];
    int ndecl[MAXP];
    int decl_side; /* the camp whose declarations score, -1 none */
    int any_declared;
    int belote_holder, belote_said;
    /* two hands: each seat's table cards (face up and face down), those dealt face up, and the card
     * under each face-up one (-1 none) */
    uint32_t tables[MAXP], ups[MAXP];
    int8_t under[32];
} Env;

typedef struct {
    PyObject_HEAD
    int n, players, teams, step, flags, contracts, three, two, ntricks, game;
    int playing_hand, out_of_play; /* cards each holds when play starts; cards dealt to nobody (three hands) */
    int declarations, declaration_option, card_reuse, tie_none, rounding, five_up, litige_carry, belote_counts;
    int modes, max_bid;   /* Coinche: the modes bid (4 or 6), the highest level bid below capot */
    int take_extra;       /* the game's Variant.take_extra (the heuristic bot's) */
    int learner;          /* the seat the caller plays, the bots the others; -1: every seat */
    int bots_in_c;        /* the heuristic bot plays the others inside the step; 0: the caller's bots (act) */
    int level_ok[32];     /* Coinche: whether a level index may be bid */
    int levels[32];       /* LEVELS */
    int capot_level, generale_level;
    int coinche_made_points, coinche_failed, surcoinche;
    float reward_scale;
    /* The deal as the games deal it (belote.variants, read through belote.env.batch: each table is
     * the game's own function applied to a deck of cards in order, so it gives places of the deck):
     * by dealer, the seats in playing order, each seat's places in the first distribution and the
     * turned card's (-1 none); by dealer and taker, each seat's places once the deal is complete,
     * its table cards and those dealt face up (two hands), the place under each place (-1 none); the
     * camps before anyone takes, and by taker. */
    int order[MAXP][MAXP], turned_at[MAXP], parity[MAXP], team_of[MAXP], camps[MAXP][MAXP];
    uint32_t first[MAXP][MAXP], second[MAXP][MAXP][MAXP], tables[MAXP][MAXP][MAXP], ups[MAXP][MAXP][MAXP];
    int8_t under[MAXP][MAXP][32];
    int off[NFIELDS], width[NFIELDS];
    int obs_size;
    Env *envs;
    Py_buffer b_obs, b_mask, b_seat, b_rewards, b_dones;
    int have_buffers;
} Engine;

/* ------------------------------------------------------------------ random numbers */

static inline uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline int below(uint64_t *s, int n) { return (int)(((unsigned __int128)splitmix(s) * (unsigned)n) >> 64); }

/* ------------------------------------------------------------------ declarations */

typedef struct {
    int kind; /* 2 a four, 1 a sequence */
    uint32_t cards;
    int key, points;
} Decl;

static int runs_of(int bits, int *low, int *len) {
    int k = 0, rank = 0;
    while (rank < 8) {
        int end = rank;
        while (end < 8 && (bits >> end & 1)) end++;
        if (end - rank >= 3) {
            low[k] = rank;
            len[k++] = end - rank;
        }
        rank = end + 1;
    }
    return k;
}

static int sequences(uint32_t hand, int mode, Decl *out) {
    int k = 0;
    if (!(hand & hand >> 1 & hand >> 2 & 0x3F3F3F3Fu)) return 0;
    for (int suit = 0; suit < 4; suit++) {
        int low[3], len[3];
        int r = runs_of((int)(hand >> (8 * suit) & 0xFF), low, len);
        for (int i = 0; i < r; i++) {
            int trump = mode == suit || mode == ALL_TRUMP;
            int top = 8 * suit + low[i] + len[i] - 1;
            out[k].kind = 1;
            out[k].cards = ((1u << len[i]) - 1) << (8 * suit + low[i]);
            out[k].key = 1 * 1000000 + len[i] * 10000 + (top & 7) * 10 + trump;
            out[k].points = SEQ_POINTS[len[i]];
            k++;
        }
    }
    return k;
}

static int fours(uint32_t hand, Decl *out) {
    uint32_t ranks = hand & hand >> 8 & hand >> 16 & hand >> 24 & 0xFC;
    int k = 0;
    while (ranks) {
        int rank = __builtin_ctz(ranks);
        ranks &= ranks - 1;
        out[k].kind = 2;
        out[k].cards = 0x01010101u << rank;
        out[k].key = 2 * 1000000 + TRUMP_ORDER[rank] * 10;
        out[k].points = FOUR_POINTS[rank];
        k++;
    }
    return k;
}

/* belote.declarations.find_declarations: fours first, then sequences. */
static int find_declarations(uint32_t hand, int mode, int reuse, Decl *out) {
    Decl f[4];
    int nf = fours(hand, f);
    if (reuse || !nf) {
        memcpy(out, f, sizeof(Decl) * nf);
        return nf + sequences(hand, mode, out + nf);
    }
    int best_n = 0, best_points = -1, best_fours = 0;
    Decl found[MAX_DECL];
    for (int choice = 0; choice < (1 << nf); choice++) {
        int k = 0, kept = 0;
        uint32_t rest = hand;
        for (int i = 0; i < nf; i++)
            if (choice >> i & 1) {
                found[k++] = f[i];
                rest &= ~f[i].cards;
                kept++;
            }
        k += sequences(rest, mode, found + k);
        int points = 0;
        for (int i = 0; i < k; i++) points += found[i].points;
        if (points > best_points || (points == best_points && kept > best_fours)) {
            memcpy(out, found, sizeof(Decl) * k);
            best_n = k;
            best_points = points;
            best_fours = kept;
        }
    }
    return best_n;
}

/* ------------------------------------------------------------------ one deal */

static void new_deal(Engine *g, Env *e) {
    int n = g->players;
    for (int i = 0; i < 32; i++) e->deck[i] = (int8_t)i;
    for (int i = 31; i > 0; i--) {
        int j = below(&e->rng, i + 1);
        int8_t t = e->deck[i];
        e->deck[i] = e->deck[j];
        e->deck[j] = t;
    }
    e->dealer = below(&e->rng, n);
}

/* The cards at the places of the deck a mask gives. */
static inline uint32_t dealt(const Env *e, uint32_t places) {
    uint32_t m = 0;
    for (; places; places &= places - 1) m |= 1u << e->deck[__builtin_ctz(places)];
    return m;
}

/* The deal's first distribution and the auction's start, from e->deck and e->dealer. */
static void start_deal(Engine *g, Env *e) {
    int n = g->players;
    for (int i = 0; i < n; i++) e->order[i] = g->order[e->dealer][i];
    for (int i = 0; i < MAXP; i++) {
        e->hands[i] = 0;
        e->last_bid[i] = e->highest[i] = -1;
        e->played[i] = 0;
        e->by_seat[i] = e->tricks_by_seat[i] = 0;
        e->decl_seq[i] = e->decl_four[i] = 0;
        e->decl_cards[i] = 0;
        e->ndecl[i] = 0;
        e->camps[i] = g->parity[i];
        e->tables[i] = e->ups[i] = 0;
    }
    for (int s = 0; s < n; s++) e->hands[s] = dealt(e, g->first[e->dealer][s]);
    e->turned = g->turned_at[e->dealer] < 0 ? -1 : e->deck[g->turned_at[e->dealer]];
    e->turned_up = e->turned >= 0;
    e->phase = 0;
    e->nbids = 0;
    e->to_move = e->order[0];
    e->c_level = -1;
    e->c_mode = e->c_bidder = -1;
    e->c_mult = 1;
    e->taker = e->mode = -1;
    e->leader = e->order[0];
    e->trick_len = 0;
    e->best = e->best_seat = e->led = -1;
    e->ntaken = e->cards_played = 0;
    e->won[0] = e->won[1] = e->won_tricks[0] = e->won_tricks[1] = 0;
    e->decl_side = -1;
    e->any_declared = 0;
    e->belote_holder = -1;
    e->belote_said = 0;
}

/* The auction is over: the second distribution, the camps, the declarations, then play. */
static void start_play(Engine *g, Env *e, int taker, int mode) {
    int n = g->players;
    int d = e->dealer;
    for (int s = 0; s < n; s++) {
        e->hands[s] = dealt(e, g->second[d][taker][s]);
        e->tables[s] = dealt(e, g->tables[d][taker][s]);
        e->ups[s] = dealt(e, g->ups[d][taker][s]);
        e->camps[s] = g->camps[taker][s];
    }
    if (g->two) {
        memset(e->under, -1, sizeof e->under);
        for (int at = 0; at < 32; at++)
            if (g->under[d][taker][at] >= 0) e->under[e->deck[at]] = e->deck[g->under[d][taker][at]];
    }
    e->taker = taker;
    e->mode = mode;
    e->phase = 1;
    e->leader = e->to_move = e->order[0];
    if (mode < 4) {
        uint32_t pair = (1u << (8 * mode + 5)) | (1u << (8 * mode + 6));
        for (int s = 0; s < n; s++)
            if (((e->hands[s] | e->tables[s]) & pair) == pair) e->belote_holder = s;
    }
    if (g->declarations) {
        /* belote.declarations.best_side, over the seats in playing order */
        int top = -1, top_side = -1, tied = 0;
        for (int k = 0; k < n; k++) {
            int s = e->order[k];
            Decl d[MAX_DECL];
            int nd = find_declarations(e->hands[s], mode, g->card_reuse, d);
            e->ndecl[s] = nd;
            for (int i = 0; i < nd; i++) {
                e->decl_cards[s] |= d[i].cards;
                if (d[i].kind == 2) e->decl_four[s] += d[i].points;
                else e->decl_seq[s] += d[i].points;
                if (d[i].key > top) {
                    top = d[i].key;
                    top_side = e->camps[s];
                    tied = 0;
                } else if (d[i].key == top && e->camps[s] != top_side) {
                    tied = 1;
                }
            }
        }
        e->decl_side = top < 0 || (tied && g->tie_none) ? -1 : top_side;
    }
}

static inline int team_of(Engine *g, int seat) { return g->team_of[seat]; }

static inline int round_points(int p, int five_up) { return (p + (five_up ? 5 : 4)) / 10 * 10; }

/* The deal's points by score (two sides, or three players): belote.scoring. */
static void score(Engine *g, Env *e, int *points) {
    int n = g->players;
    int decl[MAXP] = {0}, bel[MAXP] = {0};
    if (e->decl_side >= 0)
        for (int s = 0; s < n; s++)
            if (e->camps[s] == e->decl_side) decl[team_of(g, s)] += e->decl_seq[s] + e->decl_four[s];
    if (e->belote_holder >= 0) bel[team_of(g, e->belote_holder)] = BELOTE_POINTS;
    if (g->three) {
        int taker = e->taker, def[2] = {0, 0}, k = 0;
        for (int i = 0; i < n; i++)
            if (e->order[i] != taker) def[k++] = e->order[i];
        int *cards = e->by_seat, *tricks = e->tricks_by_seat;
        int deal_total = cards[0] + cards[1] + cards[2];
        int totals[MAXP] = {0};
        for (int s = 0; s < n; s++) totals[s] = cards[s] + decl[s] + (g->belote_counts ? bel[s] : 0);
        int theirs = totals[def[0]] + totals[def[1]];
        int all_decl = decl[0] + decl[1] + decl[2];
        for (int s = 0; s < n; s++) points[s] = bel[s];
        int def_tricks = tricks[def[0]] + tricks[def[1]];
        if (def_tricks == 0 || tricks[taker] == 0) deal_total += CAPOT_POINTS - DEAL_POINTS;
        if (def_tricks == 0) {
            points[taker] += deal_total + decl[taker];
            for (int i = 0; i < 2; i++) points[def[i]] += decl[def[i]];
        } else if (totals[taker] > theirs && tricks[taker]) {
            for (int s = 0; s < n; s++) points[s] += cards[s] + decl[s];
        } else if (totals[taker] < theirs || !tricks[taker]) {
            int all = deal_total + all_decl;
            points[def[0]] += all / 2 + all % 2;
            points[def[1]] += all / 2;
        } else if (g->litige_carry) {
            for (int i = 0; i < 2; i++) points[def[i]] += cards[def[i]] + decl[def[i]];
        }
        if (g->rounding)
            for (int s = 0; s < n; s++) points[s] = round_points(points[s], g->five_up);
        return;
    }
    int *cards = e->won, *tricks = e->won_tricks;
    if (g->contracts) { /* score_contract */
        int t = e->c_bidder & 1, d = 1 - t;
        int capot = tricks[d] == 0 ? t : tricks[t] == 0 ? d : -1;
        int made_cards[2] = {cards[0], cards[1]};
        if (capot >= 0) made_cards[capot] += CAPOT_POINTS - DEAL_POINTS;
        int made_points = made_cards[t] + decl[t] + (g->belote_counts ? bel[t] : 0);
        int level = g->levels[e->c_level], made;
        if (e->c_level == g->generale_level) {
            made = e->tricks_by_seat[e->c_bidder] == g->ntricks;
        } else if (e->c_level == g->capot_level) {
            made = capot == t;
        } else {
            made = made_points >= level;
        }
        int winner = made ? t : d;
        int all_decl = decl[0] + decl[1];
        points[0] = bel[0];
        points[1] = bel[1];
        if (e->c_mult > 1) {
            points[winner] += (g->coinche_failed + level) * e->c_mult + all_decl;
        } else if (made) {
            points[t] += level + decl[t];
            if (g->coinche_made_points) points[t] += made_cards[t];
            points[d] += made_cards[d] + decl[d];
        } else {
            points[d] += g->coinche_failed + level + all_decl;
        }
        if (g->rounding)
            for (int s = 0; s < 2; s++) points[s] = round_points(points[s], g->five_up);
        return;
    }
    /* score_deal */
    int t = e->taker & 1, d = 1 - t;
    int deal_total = DEAL_POINTS, capot_total = CAPOT_POINTS;
    int own[2] = {cards[0], cards[1]};
    if (g->rounding) {
        deal_total = ROUNDED_DEAL_POINTS;
        capot_total = ROUNDED_CAPOT_POINTS;
        own[t] = round_points(cards[t], g->five_up);
        own[d] = deal_total - own[t];
    }
    int totals[2];
    for (int i = 0; i < 2; i++) totals[i] = cards[i] + decl[i] + (g->belote_counts ? bel[i] : 0);
    int all_decl = decl[0] + decl[1];
    if (tricks[d] == 0) {
        points[t] = capot_total + decl[t] + bel[t];
        points[d] = decl[d] + bel[d];
    } else if (tricks[t] == 0) {
        points[d] = capot_total + all_decl + bel[d];
        points[t] = bel[t];
    } else if (totals[t] > totals[d]) {
        for (int i = 0; i < 2; i++) points[i] = own[i] + decl[i] + bel[i];
    } else if (totals[t] < totals[d]) {
        points[d] = deal_total + all_decl + bel[d];
        points[t] = bel[t];
    } else if (g->litige_carry) {
        points[d] = own[d] + decl[d] + bel[d];
        points[t] = bel[t];
    } else {
        points[0] = bel[0];
        points[1] = bel[1];
    }
}

/* The legal actions of the player to move: cards as a mask, bids as a list (returned count). */
static int legal_bids(Engine *g, Env *e, int *out) {
    int k = 0;
    out[k++] = A_PASS;
    if (!g->contracts) {
        if (e->nbids < g->players) {
            out[k++] = A_TAKE;
        } else {
            for (int s = 0; s < 4; s++)
                if (s != (e->turned >> 3)) out[k++] = A_NAME + s;
        }
        return k;
    }
    if (e->c_level >= 0 && e->c_mult > 1) {
        out[k++] = A_SURCOINCHE;
        return k;
    }
    for (int lv = e->c_level + 1; lv < N_LEVELS; lv++)
        if (g->level_ok[lv])
            for (int m = 0; m < g->modes; m++) out[k++] = A_CONTRACT + 6 * lv + m;
    if (e->c_level >= 0 && (e->c_bidder & 1) != (e->to_move & 1)) out[k++] = A_COINCHE;
    return k;
}

static inline uint32_t legal_cards(Engine *g, Env *e) {
    int seat = e->to_move;
    uint32_t m = e->hands[seat];
    if (e->trick_len) {
        int partner = e->best_seat != seat && e->camps[e->best_seat] == e->camps[seat];
        m = legal_mask(e->mode, m, e->best, partner, g->flags, e->led);
    }
    return m;
}

static int is_legal(Engine *g, Env *e, int a) {
    if (e->phase == 1) return a >= 0 && a < 32 && (legal_cards(g, e) >> a & 1);
    int bids[NACTIONS_MAX];
    int k = legal_bids(g, e, bids);
    for (int i = 0; i < k; i++)
        if (bids[i] == a) return 1;
    return 0;
}

/* A bid; returns 1 when the deal is over (thrown in). */
static int bid(Engine *g, Env *e, int a) {
    int seat = e->to_move, n = g->players, step = g->step;
    e->bids[e->nbids] = (uint8_t)a;
    e->bid_seats[e->nbids++] = (uint8_t)seat;
    e->last_bid[seat] = a;
    if (!g->contracts) {
        if (a == A_TAKE) {
            start_play(g, e, seat, e->turned >> 3);
            return 0;
        }
        if (a != A_PASS) {
            start_play(g, e, seat, a - A_NAME);
            return 0;
        }
        if (e->nbids == 2 * n) return 1;
        e->to_move = (seat + step) % n;
        return 0;
    }
    if (a >= A_CONTRACT && a < A_COINCHE) {
        e->c_level = (a - A_CONTRACT) / 6;
        e->c_mode = (a - A_CONTRACT) % 6;
        e->c_bidder = seat;
        e->c_mult = 1;
        if (a > e->highest[seat]) e->highest[seat] = a;
    } else if (a == A_COINCHE) {
        e->c_mult = 2;
        e->to_move = (seat + step) % n;
        return 0;
    } else if (a == A_SURCOINCHE) {
        e->c_mult = g->surcoinche;
        start_play(g, e, e->c_bidder, e->c_mode);
        return 0;
    } else if (e->c_level >= 0 && e->c_mult > 1) {
        if (e->bids[e->nbids - 2] == A_COINCHE) {
            e->to_move = (seat + 2 * step) % n;
            return 0;
        }
        start_play(g, e, e->c_bidder, e->c_mode);
        return 0;
    } else if (e->c_level < 0 && e->nbids == n) {
        return 1;
    } else if (e->c_level >= 0 && e->nbids >= 3 && e->bids[e->nbids - 1] == A_PASS &&
               e->bids[e->nbids - 2] == A_PASS && e->bids[e->nbids - 3] == A_PASS) {
        start_play(g, e, e->c_bidder, e->c_mode);
        return 0;
    }
    e->to_move = (seat + step) % n;
    return 0;
}

/* A card; returns 1 when the deal is over. */
static int play(Engine *g, Env *e, int c) {
    int seat = e->to_move, n = g->players;
    e->hands[seat] &= ~(1u << c);
    e->played[seat] |= 1u << c;
    e->plays[e->cards_played] = (int8_t)c;
    e->play_seats[e->cards_played] = (int8_t)seat;
    e->cards_played++;
    if (c == e->turned) e->turned_up = 0;
    if (seat == e->belote_holder && e->mode < 4 && (c == 8 * e->mode + 5 || c == 8 * e->mode + 6)) e->belote_said++;
    if (e->cards_played <= n && e->ndecl[seat]) e->any_declared = 1;
    e->trick[e->trick_len++] = c;
    if (e->trick_len == 1) {
        e->led = c >> 3;
        e->best = c;
        e->best_seat = seat;
        e->to_move = (seat + g->step) % n;
        return 0;
    }
    if (beats(KEY[e->mode], c, e->best)) {
        e->best = c;
        e->best_seat = seat;
    }
    if (e->trick_len < n) {
        e->to_move = (seat + g->step) % n;
        return 0;
    }
    int points = 0;
    for (int i = 0; i < n; i++) points += POINTS[e->mode][e->trick[i]];
    int last = e->ntaken == g->ntricks - 1;
    if (last) points += LAST_TRICK;
    int w = e->best_seat;
    if (g->two)
        for (int i = 0; i < n; i++) {
            int u = e->under[e->trick[i]];
            if (u >= 0) e->hands[(e->leader + g->step * i) % n] |= 1u << u;
        }
    e->won[e->camps[w]] += points;
    e->won_tricks[e->camps[w]]++;
    e->by_seat[w] += points;
    e->tricks_by_seat[w]++;
    e->ntaken++;
    e->trick_len = 0;
    e->best = e->best_seat = e->led = -1;
    e->leader = e->to_move = w;
    return last;
}

#include "_heuristic.h"

/* ------------------------------------------------------------------ the observation */

static inline int rel(Engine *g, int seat, int me) {
    int n = g->players;
    return (((seat - me) * g->step) % n + n) % n;
}

static int bid_kind(int a) {
    if (a == A_PASS) return 0;
    if (a == A_TAKE) return 1;
    if (a >= A_NAME && a < A_NAME + 4) return 2 + a - A_NAME;
    if (a >= A_CONTRACT && a < A_COINCHE) return 6;
    return a == A_COINCHE ? 7 : 8;
}

static inline void put_bits(float *o, uint32_t m) {
    while (m) {
        o[__builtin_ctz(m)] = 1.0f;
        m &= m - 1;
    }
}

static void observe(Engine *g, Env *e, float *o, int8_t *mask) {
    int n = g->players, me = e->to_move;
    const int *off = g->off, *w = g->width;
    memset(o, 0, sizeof(float) * g->obs_size);
    memset(mask, 0, N_ACTIONS);
    put_bits(o + off[F_HAND], e->hands[me] & ~e->tables[me]);
    for (int s = 0; s < n; s++) {
        int r = rel(g, s, me);
        put_bits(o + off[F_PLAYED] + 32 * r, e->played[s]);
        o[off[F_HAND_SIZES] + r] = (float)__builtin_popcount(e->hands[s] & ~e->tables[s]) / 8;
        if (e->ups[s]) { /* two hands: each pile, its face-up card and whether one lies under it */
            int down = 0;
            for (uint32_t m = e->ups[s]; m; m &= m - 1) {
                int up = __builtin_ctz(m), under = e->under[up];
                if (e->hands[s] >> up & 1) {
                    o[off[F_TABLE] + 32 * r + up] = 1.0f;
                    o[off[F_COVERING] + 32 * r + up] = 1.0f;
                    down++;
                } else if (e->hands[s] >> under & 1) {
                    o[off[F_TABLE] + 32 * r + under] = 1.0f;
                } else if (!(e->played[s] >> under & 1)) {
                    down++; /* its top card is in the trick on the table */
                }
            }
            o[off[F_FACE_DOWN] + r] = (float)down / 5;
        }
    }
    for (int i = 0; i < e->trick_len; i++) {
        int s = (e->leader + g->step * i) % n;
        o[off[F_TRICK] + 32 * rel(g, s, me) + e->trick[i]] = 1.0f;
    }
    if (e->turned_up) o[off[F_TURNED] + e->turned] = 1.0f;
    o[off[F_GAME] + g->game] = 1.0f;
    o[off[F_PHASE] + e->phase] = 1.0f;
    o[off[F_OPTIONS]] = (float)((g->flags & UNDERTRUMP) != 0);
    o[off[F_OPTIONS] + 1] = (float)g->declaration_option;
    o[off[F_DEALER] + rel(g, e->dealer, me)] = 1.0f;
    o[off[F_TO_MOVE]] = 1.0f; /* slot 0: the observer moves */
    for (int s = 0; s < n; s++) {
        int r = rel(g, s, me);
        if (e->last_bid[s] >= 0) o[off[F_LAST_BID] + w[F_LAST_BID] * r + bid_kind(e->last_bid[s])] = 1.0f;
        if (e->highest[s] >= 0) {
            int i = e->highest[s] - A_CONTRACT;
            o[off[F_HIGHEST_BID] + w[F_HIGHEST_BID] * r + i / 6] = 1.0f;
            o[off[F_HIGHEST_BID] + w[F_HIGHEST_BID] * r + N_LEVELS + i % 6] = 1.0f;
        }
    }
    if (e->c_level >= 0) {
        o[off[F_BIDDER] + rel(g, e->c_bidder, me)] = 1.0f;
        o[off[F_LEVEL] + e->c_level] = 1.0f;
        o[off[F_MODE] + e->c_mode] = 1.0f;
        o[off[F_COINCHED]] = (float)(e->c_mult >= 2);
        o[off[F_COINCHED] + 1] = (float)(e->c_mult >= 3);
    }
    if (e->phase == 0) {
        if (!g->contracts) o[off[F_BID_ROUND] + e->nbids / n] = 1.0f;
        int bids[NACTIONS_MAX];
        int k = legal_bids(g, e, bids);
        for (int i = 0; i < k; i++) mask[bids[i]] = 1;
        return;
    }
    o[off[F_TAKER] + rel(g, e->taker, me)] = 1.0f;
    o[off[F_TRUMP] + e->mode] = 1.0f;
    if (e->any_declared) {
        /* each seat that has played its first card announced its declarations */
        for (int s = 0; s < n; s++) {
            if (!e->ndecl[s] || !(e->played[s])) continue;
            int r = rel(g, s, me);
            o[off[F_DECLARED] + 2 * r] = (float)e->decl_seq[s] / MAX_SEQUENCES;
            o[off[F_DECLARED] + 2 * r + 1] = (float)e->decl_four[s] / MAX_FOURS;
        }
        if (e->ntaken && e->decl_side >= 0)
            for (int s = 0; s < n; s++)
                if (e->camps[s] == e->decl_side) put_bits(o + off[F_SHOWN] + 32 * rel(g, s, me), e->decl_cards[s]);
    }
    if (e->belote_said) o[off[F_BELOTE] + rel(g, e->belote_holder, me)] = 0.5f * (float)e->belote_said;
    if (e->ntaken) {
        int mine = e->camps[me];
        for (int side = 0; side < 2; side++) {
            int camp = side == 0 ? mine : 1 - mine;
            o[off[F_WON_POINTS] + side] = (float)e->won[camp] / DEAL_POINTS;
            o[off[F_WON_TRICKS] + side] = (float)e->won_tricks[camp] / g->ntricks;
        }
    }
    uint32_t legal = legal_cards(g, e);
    while (legal) {
        mask[__builtin_ctz(legal)] = 1;
        legal &= legal - 1;
    }
}

/* ------------------------------------------------------------------ the Python type */

static void release(Engine *g) {
    if (g->have_buffers) {
        PyBuffer_Release(&g->b_obs);
        PyBuffer_Release(&g->b_mask);
        PyBuffer_Release(&g->b_seat);
        PyBuffer_Release(&g->b_rewards);
        PyBuffer_Release(&g->b_dones);
        g->have_buffers = 0;
    }
}

static void Engine_dealloc(Engine *g) {
    release(g);
    PyMem_Free(g->envs);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static int get_buffer(PyObject *o, Py_buffer *b, const char *name, Py_ssize_t size, Py_ssize_t itemsize) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (b->len != size * itemsize || b->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes", name, size, itemsize);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

static int int_seq(PyObject *seq, int *out, int n, const char *name) {
    PyObject *f = PySequence_Fast(seq, name);
    if (f == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        PyErr_Format(PyExc_ValueError, "%s must hold %d numbers", name, n);
        Py_DECREF(f);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(f, i));
        if (PyErr_Occurred()) {
            Py_DECREF(f);
            return -1;
        }
    }
    Py_DECREF(f);
    return 0;
}

/* The tables of the deal (Engine's order, turned_at ... team_of), from one sequence of DEALING ints. */
#define DEALING (MAXP * MAXP * 3 + MAXP * 3 + MAXP * MAXP * MAXP * 3 + MAXP * MAXP * 32)
static int read_dealing(Engine *g, PyObject *seq) {
    int v[DEALING], k = 0;
    if (int_seq(seq, v, DEALING, "dealing") < 0) return -1;
    for (int d = 0; d < MAXP; d++)
        for (int s = 0; s < MAXP; s++) g->order[d][s] = v[k++];
    for (int d = 0; d < MAXP; d++) g->turned_at[d] = v[k++];
    for (int s = 0; s < MAXP; s++) g->parity[s] = v[k++];
    g->teams = 0;
    for (int s = 0; s < MAXP; s++) {
        g->team_of[s] = v[k++];
        if (s < g->players && g->team_of[s] >= g->teams) g->teams = g->team_of[s] + 1;
    }
    for (int t = 0; t < MAXP; t++)
        for (int s = 0; s < MAXP; s++) g->camps[t][s] = v[k++];
    for (int d = 0; d < MAXP; d++)
        for (int s = 0; s < MAXP; s++) g->first[d][s] = (uint32_t)v[k++];
    uint32_t(*per_taker[3])[MAXP][MAXP] = {g->second, g->tables, g->ups};
    for (int w = 0; w < 3; w++)
        for (int d = 0; d < MAXP; d++)
            for (int t = 0; t < MAXP; t++)
                for (int s = 0; s < MAXP; s++) per_taker[w][d][t][s] = (uint32_t)v[k++];
    for (int d = 0; d < MAXP; d++)
        for (int t = 0; t < MAXP; t++)
            for (int at = 0; at < 32; at++) g->under[d][t][at] = (int8_t)v[k++];
    return 0;
}

/* Engine(n, config, offsets, widths, dealing, levels, scale, obs, mask, seat, rewards, dones): config
 * is a tuple of ints in the order of C_... below, dealing one of DEALING ints in the order of read_dealing
 * (belote.env.batch makes both from the rules). */
enum {
    C_PLAYERS, C_STEP, C_FLAGS, C_CONTRACTS, C_THREE, C_NTRICKS, C_GAME, C_DECLARATIONS,
    C_CARD_REUSE, C_TIE_NONE, C_ROUNDING, C_FIVE_UP, C_LITIGE_CARRY, C_BELOTE_COUNTS, C_MODES, C_MAX_BID,
    C_GENERALE, C_MADE_POINTS, C_FAILED, C_SURCOINCHE, C_DECLARATION_OPTION, C_TWO, C_TAKE_EXTRA, C_LEARNER, C_BOTS_IN_C, C_PLAYING_HAND, C_OUT_OF_PLAY, NCONFIG
};

static int Engine_init(Engine *g, PyObject *args, PyObject *kw) {
    int n;
    double scale;
    PyObject *config, *offsets, *widths, *dealing, *levels, *obs, *mask, *seat, *rewards, *dones;
    if (!PyArg_ParseTuple(args, "iOOOOOdOOOOO", &n, &config, &offsets, &widths, &dealing, &levels, &scale, &obs,
                          &mask, &seat, &rewards, &dones))
        return -1;
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "the number of deals must be at least 1");
        return -1;
    }
    int c[NCONFIG];
    if (int_seq(config, c, NCONFIG, "config") < 0 || int_seq(offsets, g->off, NFIELDS, "offsets") < 0 ||
        int_seq(widths, g->width, NFIELDS, "widths") < 0 || int_seq(levels, g->levels, N_LEVELS, "levels") < 0)
        return -1;
    g->players = c[C_PLAYERS];
    if (g->players < 2 || g->players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "the batch plays games of two to four players");
        return -1;
    }
    g->step = c[C_STEP];
    g->flags = c[C_FLAGS];
    g->contracts = c[C_CONTRACTS];
    g->three = c[C_THREE];
    g->two = c[C_TWO];
    g->take_extra = c[C_TAKE_EXTRA];
    g->learner = c[C_LEARNER];
    g->bots_in_c = c[C_BOTS_IN_C];
    g->playing_hand = c[C_PLAYING_HAND];
    g->out_of_play = c[C_OUT_OF_PLAY];
    g->max_bid = c[C_MAX_BID];
    g->ntricks = c[C_NTRICKS];
    g->game = c[C_GAME];
    g->declarations = c[C_DECLARATIONS];
    g->declaration_option = c[C_DECLARATION_OPTION];
    g->card_reuse = c[C_CARD_REUSE];
    g->tie_none = c[C_TIE_NONE];
    g->rounding = c[C_ROUNDING];
    g->five_up = c[C_FIVE_UP];
    g->litige_carry = c[C_LITIGE_CARRY];
    g->belote_counts = c[C_BELOTE_COUNTS];
    g->modes = c[C_MODES];
    g->coinche_made_points = c[C_MADE_POINTS];
    g->coinche_failed = c[C_FAILED];
    g->surcoinche = c[C_SURCOINCHE];
    g->capot_level = g->generale_level = -1;
    for (int i = 0; i < N_LEVELS; i++) {
        int lv = g->levels[i];
        if (lv == CAPOT) g->capot_level = i;
        if (lv == GENERALE) g->generale_level = i;
        g->level_ok[i] = lv <= c[C_MAX_BID] || lv == CAPOT || (lv == GENERALE && c[C_GENERALE]);
    }
    if (g->learner < -1 || g->learner >= g->players) {
        PyErr_SetString(PyExc_ValueError, "no such seat for the learner");
        return -1;
    }
    if (read_dealing(g, dealing) < 0) return -1;
    g->obs_size = 0; /* the last cell a field's first slot reaches: the rows must hold at least that */
    for (int f = 0; f < NFIELDS; f++)
        if (g->off[f] < 0 || g->width[f] < 1) {
            PyErr_SetString(PyExc_ValueError, "a field's offset and width must be positive");
            return -1;
        } else if (g->off[f] + g->width[f] > g->obs_size) {
            g->obs_size = g->off[f] + g->width[f];
        }
    release(g);
    PyMem_Free(g->envs);
    g->envs = NULL;
    g->n = n;
    g->reward_scale = (float)scale;
    /* obs: n rows of the observation's size (OBS_SIZE, the caller's) */
    if (PyObject_GetBuffer(obs, &g->b_obs, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (g->b_obs.itemsize != 4 || g->b_obs.len % (4 * n)) {
        PyBuffer_Release(&g->b_obs);
        PyErr_SetString(PyExc_ValueError, "obs must be float32, one row a deal");
        return -1;
    }
    int row = (int)(g->b_obs.len / (4 * n));
    if (row < g->obs_size) {
        PyBuffer_Release(&g->b_obs);
        PyErr_SetString(PyExc_ValueError, "obs rows are shorter than the observation");
        return -1;
    }
    g->obs_size = row;
    if (get_buffer(mask, &g->b_mask, "mask", (Py_ssize_t)n * N_ACTIONS, 1) < 0) {
        PyBuffer_Release(&g->b_obs);
        return -1;
    }
    if (get_buffer(seat, &g->b_seat, "seat", n, 8) < 0) {
        PyBuffer_Release(&g->b_obs);
        PyBuffer_Release(&g->b_mask);
        return -1;
    }
    if (get_buffer(rewards, &g->b_rewards, "rewards", (Py_ssize_t)n * g->players, 4) < 0) {
        PyBuffer_Release(&g->b_obs);
        PyBuffer_Release(&g->b_mask);
        PyBuffer_Release(&g->b_seat);
        return -1;
    }
    if (get_buffer(dones, &g->b_dones, "dones", n, 1) < 0) {
        PyBuffer_Release(&g->b_obs);
        PyBuffer_Release(&g->b_mask);
        PyBuffer_Release(&g->b_seat);
        PyBuffer_Release(&g->b_rewards);
        return -1;
    }
    g->have_buffers = 1;
    g->envs = PyMem_Calloc((size_t)n, sizeof(Env));
    if (g->envs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* A legal action for the seat to move; 1 when it ends the deal. */
static inline int act(Engine *g, Env *e, int a) { return e->phase == 1 ? play(g, e, a) : bid(g, e, a); }

/* The deal is over: each seat's reward (its score's points less the mean of the others'), and the
 * next deal. */
static void finish(Engine *g, Env *e, float *r, uint8_t *done) {
    int np = g->players, points[MAXP] = {0};
    if (e->phase == 1) score(g, e, points);
    int teams = g->teams, total = 0;
    for (int t = 0; t < teams; t++) total += points[t];
    for (int s = 0; s < np; s++) {
        int own = points[team_of(g, s)];
        r[s] = g->reward_scale * ((float)own - (float)(total - own) / (float)(teams - 1));
    }
    *done = 1;
    new_deal(g, e);
    start_deal(g, e);
}

/* With a learner: the heuristic bot plays the other seats until it is the learner's turn (a deal
 * never ends without the learner acting in it: every seat bids, and plays). */
static void bots(Engine *g, Env *e, float *r, uint8_t *done) {
    if (g->learner < 0 || !g->bots_in_c) return;
    while (e->to_move != g->learner)
        if (act(g, e, heuristic_act(g, e))) finish(g, e, r, done);
}

static void write_out(Engine *g, int i) {
    Env *e = &g->envs[i];
    observe(g, e, (float *)g->b_obs.buf + (size_t)i * g->obs_size, (int8_t *)g->b_mask.buf + (size_t)i * N_ACTIONS);
    ((int64_t *)g->b_seat.buf)[i] = e->to_move;
}

static PyObject *Engine_reset(Engine *g, PyObject *arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    uint64_t s = seed;
    for (int i = 0; i < g->n; i++) {
        Env *e = &g->envs[i];
        e->rng = splitmix(&s);
        new_deal(g, e);
        start_deal(g, e);
    }
    memset(g->b_rewards.buf, 0, g->b_rewards.len);
    for (int i = 0; i < g->n; i++) {
        ((uint8_t *)g->b_dones.buf)[i] = 0;
        bots(g, &g->envs[i], (float *)g->b_rewards.buf + (size_t)i * g->players, (uint8_t *)g->b_dones.buf + i);
        write_out(g, i);
    }
    Py_RETURN_NONE;
}

/* step(actions): actions a buffer of n int64, each the action of the deal's seat to move. Every
 * action is checked before any is played: an illegal one raises ValueError and plays nothing. */
static PyObject *Engine_step(Engine *g, PyObject *arg) {
    Py_buffer b;
    if (PyObject_GetBuffer(arg, &b, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (b.itemsize != 8 || b.len != (Py_ssize_t)g->n * 8) {
        PyBuffer_Release(&b);
        PyErr_Format(PyExc_ValueError, "actions must be %d int64", g->n);
        return NULL;
    }
    const int64_t *acts = (const int64_t *)b.buf;
    for (int i = 0; i < g->n; i++) {
        int64_t a = acts[i];
        if (a < 0 || a >= N_ACTIONS || !is_legal(g, &g->envs[i], (int)a)) {
            PyBuffer_Release(&b);
            PyErr_Format(PyExc_ValueError, "deal %d: action %lld is not legal for the seat to move (see its mask)", i,
                         (long long)a);
            return NULL;
        }
    }
    float *rewards = (float *)g->b_rewards.buf;
    uint8_t *dones = (uint8_t *)g->b_dones.buf;
    int np = g->players;
    Py_BEGIN_ALLOW_THREADS;
    for (int i = 0; i < g->n; i++) {
        Env *e = &g->envs[i];
        float *r = rewards + (size_t)i * np;
        for (int s = 0; s < np; s++) r[s] = 0.0f;
        dones[i] = 0;
        if (act(g, e, (int)acts[i])) finish(g, e, r, &dones[i]);
        bots(g, e, r, &dones[i]);
        write_out(g, i);
    }
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* Deal i, or NULL with IndexError set. */
static Env *env_at(Engine *g, Py_ssize_t i) {
    if (i < 0 || i >= g->n) {
        PyErr_Format(PyExc_IndexError, "no deal %zd: the batch holds %d", i, g->n);
        return NULL;
    }
    return &g->envs[i];
}

/* The deal whose index is arg, or NULL with an exception set. */
static Env *env_of(Engine *g, PyObject *arg, Py_ssize_t *index) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    *index = i;
    return env_at(g, i);
}

/* deal(i): (dealer, deck) of deal i's current deal, the deck as belote.game.Deal takes it. */
static PyObject *Engine_deal(Engine *g, PyObject *arg) {
    Py_ssize_t i;
    Env *e = env_of(g, arg, &i);
    if (e == NULL) return NULL;
    PyObject *deck = PyTuple_New(32);
    if (deck == NULL) return NULL;
    for (int k = 0; k < 32; k++) PyTuple_SET_ITEM(deck, k, PyLong_FromLong(e->deck[k]));
    return Py_BuildValue("(iN)", e->dealer, deck);
}

/* set_deal(i, dealer, deck): deal i starts the deal of this deck (the tests, and replaying a record). */
static PyObject *Engine_set_deal(Engine *g, PyObject *args) {
    Py_ssize_t i;
    int dealer;
    PyObject *deck;
    if (!PyArg_ParseTuple(args, "niO", &i, &dealer, &deck)) return NULL;
    Env *e = env_at(g, i);
    if (e == NULL) return NULL;
    if (dealer < 0 || dealer >= g->players) {
        PyErr_SetString(PyExc_ValueError, "no such dealer");
        return NULL;
    }
    int d[32], seen = 0;
    if (int_seq(deck, d, 32, "deck") < 0) return NULL;
    for (int k = 0; k < 32; k++) {
        if (d[k] < 0 || d[k] > 31 || (seen >> d[k] & 1)) {
            PyErr_SetString(PyExc_ValueError, "the deck must hold each of the 32 cards once");
            return NULL;
        }
        seen |= 1 << d[k];
    }
    for (int k = 0; k < 32; k++) e->deck[k] = (int8_t)d[k];
    e->dealer = dealer;
    start_deal(g, e);
    bots(g, e, (float *)g->b_rewards.buf + (size_t)i * g->players, (uint8_t *)g->b_dones.buf + i);
    write_out(g, (int)i);
    Py_RETURN_NONE;
}

/* act(i, action): one action in deal i, for its seat to move (the caller's bots, between two steps):
 * refused with ValueError if illegal; at the deal's end its rewards and done are written (not
 * cleared before: they add to the step's). */
static PyObject *Engine_act(Engine *g, PyObject *args) {
    Py_ssize_t i;
    long long a;
    if (!PyArg_ParseTuple(args, "nL", &i, &a)) return NULL;
    Env *e = env_at(g, i);
    if (e == NULL) return NULL;
    if (a < 0 || a >= N_ACTIONS || !is_legal(g, e, (int)a)) {
        PyErr_Format(PyExc_ValueError, "deal %zd: action %lld is not legal for the seat to move", i, a);
        return NULL;
    }
    if (act(g, e, (int)a))
        finish(g, e, (float *)g->b_rewards.buf + (size_t)i * g->players, (uint8_t *)g->b_dones.buf + i);
    write_out(g, (int)i);
    Py_RETURN_NONE;
}

/* bot_action(i): the heuristic bot's action for deal i's seat to move (the tests ask the Python bot too). */
static PyObject *Engine_bot_action(Engine *g, PyObject *arg) {
    Py_ssize_t i;
    Env *e = env_of(g, arg, &i);
    return e == NULL ? NULL : PyLong_FromLong(heuristic_act(g, e));
}

static PyMethodDef Engine_methods[] = {
    {"reset", (PyCFunction)Engine_reset, METH_O, "reset(seed): a new deal everywhere, from this seed."},
    {"step", (PyCFunction)Engine_step, METH_O, "step(actions): one action for each deal's seat to move."},
    {"deal", (PyCFunction)Engine_deal, METH_O, "deal(i): the dealer and deck of deal i."},
    {"set_deal", (PyCFunction)Engine_set_deal, METH_VARARGS, "set_deal(i, dealer, deck): deal i deals this deck."},
    {"bot_action", (PyCFunction)Engine_bot_action, METH_O, "bot_action(i): the heuristic bot's action in deal i."},
    {"act", (PyCFunction)Engine_act, METH_VARARGS, "act(i, action): one action in deal i (the caller's bots)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "belote.env._batch.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many deals stepped at once (belote.env.batch).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
};

/* ------------------------------------------------------------------ the module */

static int load_attr(const char *module, const char *name, int *out) {
    PyObject *m = PyImport_ImportModule(module);
    if (m == NULL) return -1;
    int r = load_int(m, name, out);
    Py_DECREF(m);
    return r;
}

static int load_ints(const char *module, const char *name, int *out, int n) {
    PyObject *m = PyImport_ImportModule(module);
    if (m == NULL) return -1;
    PyObject *seq = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    if (seq == NULL) return -1;
    int r = int_seq(seq, out, n, name);
    Py_DECREF(seq);
    return r;
}

static int module_exec(PyObject *m) {
    if (load_play_tables() < 0) return -1;
    int levels;
    if (load_attr("belote.actions", "PASS", &A_PASS) < 0 || load_attr("belote.actions", "TAKE", &A_TAKE) < 0 ||
        load_attr("belote.actions", "NAME_SUIT", &A_NAME) < 0 ||
        load_attr("belote.contracts", "CONTRACT_BASE", &A_CONTRACT) < 0 ||
        load_attr("belote.contracts", "COINCHE", &A_COINCHE) < 0 ||
        load_attr("belote.contracts", "SURCOINCHE", &A_SURCOINCHE) < 0 ||
        load_attr("belote.contracts", "CAPOT", &CAPOT) < 0 || load_attr("belote.contracts", "GENERALE", &GENERALE) < 0 ||
        load_attr("belote.scoring", "DEAL_POINTS", &DEAL_POINTS) < 0 ||
        load_attr("belote.scoring", "CAPOT_POINTS", &CAPOT_POINTS) < 0 ||
        load_attr("belote.scoring", "BELOTE_POINTS", &BELOTE_POINTS) < 0 ||
        load_attr("belote.scoring", "ROUNDED_DEAL_POINTS", &ROUNDED_DEAL_POINTS) < 0 ||
        load_attr("belote.scoring", "ROUNDED_CAPOT_POINTS", &ROUNDED_CAPOT_POINTS) < 0 ||
        load_attr("belote.env.encoding", "MAX_SEQUENCES", &MAX_SEQUENCES) < 0 ||
        load_attr("belote.env.encoding", "MAX_FOURS", &MAX_FOURS) < 0)
        return -1;
    PyObject *contracts = PyImport_ImportModule("belote.contracts");
    if (contracts == NULL) return -1;
    PyObject *lv = PyObject_GetAttrString(contracts, "LEVELS");
    Py_DECREF(contracts);
    if (lv == NULL) return -1;
    levels = (int)PyObject_Length(lv);
    Py_DECREF(lv);
    if (levels < 0) return -1;
    N_LEVELS = levels;
    N_ACTIONS = A_SURCOINCHE + 1;
    if (N_ACTIONS > NACTIONS_MAX || N_LEVELS > 32 || A_COINCHE != A_CONTRACT + 6 * N_LEVELS) {
        PyErr_SetString(PyExc_ImportError, "belote.contracts' actions do not fit the batch engine");
        return -1;
    }
    if (load_ints("belote.play", "TRUMP_ORDER", TRUMP_ORDER, 8) < 0 ||
        load_ints("belote.declarations", "FOUR_POINTS", FOUR_POINTS, 8) < 0)
        return -1;
    PyObject *decl = PyImport_ImportModule("belote.declarations");
    if (decl == NULL) return -1;
    PyObject *seq = PyObject_GetAttrString(decl, "SEQUENCE_POINTS");
    Py_DECREF(decl);
    if (seq == NULL) return -1;
    for (int len = 3; len <= 8; len++) {
        PyObject *key = PyLong_FromLong(len);
        PyObject *v = key == NULL ? NULL : PyObject_GetItem(seq, key);
        Py_XDECREF(key);
        if (v == NULL) {
            Py_DECREF(seq);
            return -1;
        }
        SEQ_POINTS[len] = (int)PyLong_AsLong(v);
        Py_DECREF(v);
    }
    Py_DECREF(seq);
    if (load_heuristic() < 0) return -1;
    if (PyType_Ready(&EngineType) < 0) return -1;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        return -1;
    }
    return PyModule_AddIntConstant(m, "NCONFIG", NCONFIG) < 0 || PyModule_AddIntConstant(m, "NFIELDS", NFIELDS) < 0
               ? -1
               : 0;
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "Many deals stepped at once, in C (belote.env.batch).", 0, NULL, module_slots,
};

PyMODINIT_FUNC PyInit__batch(void) { return PyModuleDef_Init(&module); }
