/* The heuristic bot (belote.bots.heuristic, with belote.bots.coinche's bids and what it reads of
 * belote.knowledge) in C, for the batched engine: the same decision as the Python bot in every
 * position, read from the deal's state as the bot's view shows it (the tests ask both at every step
 * of random deals of every game). Its weights and rules of thumb are not written here: they are read
 * at import from the Python modules that define them (load_heuristic).
 *
 * Ties: Python's min and max keep the first of equal keys, over the legal cards in ascending order;
 * the loops below go up the cards and replace only on a strictly better key.
 */
#ifndef BELOTE_HEURISTIC_H
#define BELOTE_HEURISTIC_H

#include <math.h>

enum { R_SEVEN, R_EIGHT, R_NINE, R_TEN, R_JACK, R_QUEEN, R_KING, R_ACE };
#define SUIT_MASK(s) (0xFFu << (8 * (s)))
#define NO_TRUMP_MODE 4

/* belote.bots.heuristic's constants */
static int H_TRUMP_HONOURS[8]; /* by rank, 0 where none */
static int H_EACH_TRUMP, H_THIRD_TRUMP, H_EACH_TRUMP_BEYOND_THREE, H_BELOTE_WORTH, H_OUTSIDE_ACE,
    H_TEN_BESIDE_ITS_ACE, H_GUARDED_TEN, H_VOID, H_NOTHING, H_ORDINARY_TAKING_HAND, H_TAKE_AT, H_LATE_POSITION,
    H_NAME_AT, H_TEN_POINTS, H_LAST_TRICKS_TO_WATCH, H_BELOTE;
/* belote.bots.coinche's weights (suit, no-trumps, all-trumps) and style */
static double CW_INTERCEPT[3], CW_WEIGHTS[3][16], CW_LEAD[3], CW_SPREAD[3];
static int CW_NWEIGHTS[3];
static double C_CAPOT_TARGET, CS_BID_MARGIN, CS_OPEN_PASS, CS_COINCHE_MARGIN, CS_SURCOINCHE_MARGIN, CS_PROMISE, CS_OPPOSED,
    CS_SUPPORT, CS_COINCHE_SAYS, C_AVERAGE, C_KNOWN_SPREAD;
static int C_TOP_PROMISE;

static inline int popc(uint32_t m) { return __builtin_popcount(m); }
static inline int has(uint32_t hand, int suit, int rank) { return hand >> (8 * suit + rank) & 1; }

/* ------------------------------------------------------------------ taking the turned card */

static int trump_worth(uint32_t hand, int trump) {
    uint32_t trumps = hand & SUIT_MASK(trump);
    int n = popc(trumps);
    int worth = n * H_EACH_TRUMP + (n >= 3 ? H_THIRD_TRUMP : 0) + (n > 3 ? n - 3 : 0) * H_EACH_TRUMP_BEYOND_THREE;
    for (int rank = 0; rank < 8; rank++)
        if (H_TRUMP_HONOURS[rank] && has(trumps, trump, rank)) worth += H_TRUMP_HONOURS[rank];
    if (has(trumps, trump, R_KING) && has(trumps, trump, R_QUEEN)) worth += H_BELOTE_WORTH;
    return worth;
}

static int side_suits_worth(uint32_t hand, int trump) {
    int worth = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump) continue;
        uint32_t held = hand & SUIT_MASK(suit);
        int ace = has(held, suit, R_ACE);
        if (ace) worth += H_OUTSIDE_ACE;
        if (has(held, suit, R_TEN)) worth += ace ? H_TEN_BESIDE_ITS_ACE : popc(held) >= 2 ? H_GUARDED_TEN : 0;
        if (!held) worth += H_VOID;
    }
    return worth;
}

static int hand_worth(uint32_t hand, int trump) { return H_NOTHING + trump_worth(hand, trump) + side_suits_worth(hand, trump); }

static int outside_ace(uint32_t hand, int suit) {
    for (int s = 0; s < 4; s++)
        if (s != suit && has(hand, s, R_ACE)) return 1;
    return 0;
}

static int is_ordinary_taking_hand(uint32_t hand, int trump) {
    uint32_t trumps = hand & SUIT_MASK(trump);
    int n = popc(trumps), jack = has(trumps, trump, R_JACK), nine = has(trumps, trump, R_NINE);
    return (jack && (nine || n >= 3)) || (n >= 3 && outside_ace(hand, trump)) || n >= 4;
}

static int jack_or_nine_with_length(uint32_t hand, int suit) {
    uint32_t held = hand & SUIT_MASK(suit);
    int jack = has(held, suit, R_JACK), nine = has(held, suit, R_NINE);
    return (jack && popc(held) >= 3) || (nine && popc(held) >= 4 && outside_ace(hand, suit));
}

static int take_or_name(Engine *g, Env *e) {
    int trump = e->turned >> 3;
    uint32_t hand = e->hands[e->to_move] | 1u << e->turned;
    if (e->nbids < g->players) { /* take_the_turned_card */
        int worth = hand_worth(hand, trump) + (is_ordinary_taking_hand(hand, trump) ? H_ORDINARY_TAKING_HAND : 0);
        int bar = H_TAKE_AT + g->take_extra - (e->nbids == g->players - 1 ? H_LATE_POSITION : 0);
        return worth >= bar ? A_TAKE : A_PASS;
    }
    int best = H_NAME_AT + g->take_extra - 1, action = A_PASS; /* name_a_suit */
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump || !jack_or_nine_with_length(hand, suit)) continue;
        int worth = hand_worth(hand, suit);
        if (worth > best) {
            best = worth;
            action = A_NAME + suit;
        }
    }
    return action;
}

/* ------------------------------------------------------------------ Coinche bids (belote.bots.coinche) */

static int top_run(uint32_t held, const int *ranks) {
    int n = 0;
    for (int i = 0; i < 8; i++) {
        if (!(held >> ranks[i] & 1)) break;
        n++;
    }
    return n;
}

static const int TRUMP_RANKS[8] = {R_JACK, R_NINE, R_ACE, R_TEN, R_KING, R_QUEEN, R_EIGHT, R_SEVEN};
static const int PLAIN_RANKS[8] = {R_ACE, R_TEN, R_KING, R_QUEEN, R_JACK, R_NINE, R_EIGHT, R_SEVEN};

static int sure_capot(uint32_t hand, int mode) {
    if (mode >= 4) return 0;
    uint32_t trumps = hand >> (8 * mode) & 0xFF;
    if (popc(trumps) < 5 || top_run(trumps, TRUMP_RANKS) < 3) return 0;
    for (int s = 0; s < 4; s++) {
        if (s == mode) continue;
        uint32_t h = hand >> (8 * s) & 0xFF;
        if (top_run(h, PLAIN_RANKS) != popc(h)) return 0;
    }
    return 1;
}

static inline int bit(uint32_t h, int rank) { return h >> rank & 1; }

/* count(hand, mode, leads): the features of belote.bots.coinche, weighted in their order */
static double coinche_count(uint32_t hand, int mode, int leads) {
    int kind = mode == NO_TRUMP_MODE ? 1 : mode == ALL_TRUMP ? 2 : 0;
    double f[16];
    int nf;
    if (kind == 0) {
        uint32_t t = hand >> (8 * mode) & 0xFF;
        int n = popc(t), sums[6] = {0};
        for (int s = 0; s < 4; s++) {
            if (s == mode) continue;
            uint32_t h = hand >> (8 * s) & 0xFF;
            int ace = bit(h, R_ACE), ten = bit(h, R_TEN);
            sums[0] += ace;
            sums[1] += ace & ten;
            sums[2] += (1 - ace) & ten & (popc(h) >= 2);
            sums[3] += ace & ten & bit(h, R_KING);
            sums[4] += h == 0;
            sums[5] += popc(h) == 1;
        }
        int jack = bit(t, R_JACK), nine = bit(t, R_NINE), m3 = n < 3 ? n : 3;
        double v[16] = {jack,
                        nine,
                        bit(t, R_ACE),
                        bit(t, R_TEN),
                        bit(t, R_KING) + bit(t, R_QUEEN),
                        n,
                        n > 3 ? n - 3 : 0,
                        n > 4 ? n - 4 : 0,
                        jack * nine,
                        bit(t, R_KING) * bit(t, R_QUEEN),
                        sums[0],
                        sums[1],
                        sums[2],
                        sums[3],
                        sums[4] * m3,
                        sums[5] * m3};
        memcpy(f, v, sizeof v);
        nf = 16;
    } else {
        int sums[8] = {0};
        for (int s = 0; s < 4; s++) {
            uint32_t h = hand >> (8 * s) & 0xFF;
            int n = popc(h);
            if (kind == 1) {
                int ace = bit(h, R_ACE), ten = bit(h, R_TEN);
                sums[0] += ace;
                sums[1] += ace & ten;
                sums[2] += (1 - ace) & ten & (n >= 3);
                sums[3] += ace & ten & bit(h, R_KING);
                sums[4] += ace * (n > 3 ? n - 3 : 0);
                sums[5] += ace * ten * (n > 3 ? n - 3 : 0);
                sums[6] += h == 0;
                sums[7] += (1 - ace) & ten & (n < 3);
            } else {
                int jack = bit(h, R_JACK), nine = bit(h, R_NINE);
                sums[0] += jack;
                sums[1] += jack & nine;
                sums[2] += (1 - jack) & nine & (n >= 2);
                sums[3] += jack & nine & bit(h, R_ACE);
                sums[4] += bit(h, R_ACE);
                sums[5] += bit(h, R_TEN) & jack;
                sums[6] += jack * (n > 2 ? n - 2 : 0);
                sums[7] += h == 0;
            }
        }
        for (int i = 0; i < 8; i++) f[i] = sums[i];
        f[8] = (double)(sums[0] * sums[0]);
        nf = 9;
    }
    double total = 0.0;
    for (int i = 0; i < nf; i++) total += CW_WEIGHTS[kind][i] * f[i];
    double worth = CW_INTERCEPT[kind] + total;
    worth += leads ? CW_LEAD[kind] / 2 : -CW_LEAD[kind] / 2;
    return worth;
}

static double spread_of(int mode) { return CW_SPREAD[mode == NO_TRUMP_MODE ? 1 : mode == ALL_TRUMP ? 2 : 0]; }

static double phi(double z) { return exp(-z * z / 2) / sqrt(2 * M_PI); }
static double cdf(double z) { return 0.5 * (1 + erf(z / sqrt(2))); }

static double contract_value(Engine *g, int level, double mean, double sd, int multiplier) {
    int failed = g->coinche_failed + level;
    double target = level >= CAPOT ? C_CAPOT_TARGET : (double)level;
    double z = (target - mean) / sd;
    double p = 1 - cdf(z);
    if (multiplier > 1) return (2 * p - 1) * failed * multiplier;
    double made_points = mean * p + sd * phi(z);
    double made;
    if (level >= CAPOT)
        made = p * (level + (g->coinche_made_points ? CAPOT_POINTS : 0));
    else if (g->coinche_made_points)
        made = p * (level - DEAL_POINTS) + 2 * made_points;
    else
        made = p * (level - DEAL_POINTS) + made_points;
    return made - (1 - p) * failed;
}

typedef struct {
    int seat, leads;
    int promised_level[MAXP], promised_mode[MAXP]; /* -1: none */
    int cur_level, cur_mode, cur_bidder, cur_mult;  /* cur_level -1: no contract */
} Auction;

static void read_auction(Engine *g, Env *e, Auction *a) {
    a->seat = e->to_move;
    for (int s = 0; s < MAXP; s++) a->promised_level[s] = a->promised_mode[s] = -1;
    for (int i = 0; i < e->nbids; i++) {
        int b = e->bids[i];
        if (b >= A_CONTRACT && b < A_COINCHE) {
            a->promised_level[e->bid_seats[i]] = g->levels[(b - A_CONTRACT) / 6];
            a->promised_mode[e->bid_seats[i]] = (b - A_CONTRACT) % 6;
        }
    }
    a->cur_level = e->c_level < 0 ? -1 : g->levels[e->c_level];
    a->cur_mode = e->c_mode;
    a->cur_bidder = e->c_bidder;
    a->cur_mult = e->c_mult;
    a->leads = (e->order[0] & 1) == (a->seat & 1);
}

static double promised_excess(int level) { return (level < C_TOP_PROMISE ? level : C_TOP_PROMISE) + CS_PROMISE - C_AVERAGE; }

static double side_count(uint32_t hand, int mode, const Auction *a, double *sd) {
    double mine = coinche_count(hand, mode, a->leads);
    *sd = spread_of(mode);
    int partner = (a->seat + 2) % 4;
    if (a->promised_level[partner] >= 0 && a->promised_mode[partner] == mode) {
        double already = a->promised_level[a->seat] >= 0 && a->promised_mode[a->seat] == mode
                             ? a->promised_level[a->seat] + CS_PROMISE
                             : C_AVERAGE;
        int pl = a->promised_level[partner];
        mine = (pl < C_TOP_PROMISE ? pl : C_TOP_PROMISE) + CS_PROMISE + CS_SUPPORT * (mine - already);
        *sd *= C_KNOWN_SPREAD;
    }
    double against = 0.0;
    int opps[2] = {(a->seat + 1) % 4, (a->seat + 3) % 4};
    for (int i = 0; i < 2; i++) {
        int o = opps[i];
        if (a->promised_level[o] < 0) continue;
        double x = CS_OPPOSED * promised_excess(a->promised_level[o]) * (a->promised_mode[o] == mode ? 1.0 : 0.5);
        if (x > against) against = x;
    }
    return mine - against;
}

static double contract_worth(Engine *g, uint32_t hand, const Auction *a, int mode, int level, int multiplier,
                             int ours, int coinched) {
    if (ours && sure_capot(hand, mode)) {
        if (multiplier > 1) return (double)(g->coinche_failed + level) * multiplier;
        return level + (g->coinche_made_points ? CAPOT_POINTS : 0);
    }
    double sd;
    if (ours) {
        double mean = side_count(hand, mode, a, &sd);
        if (coinched) mean -= CS_COINCHE_SAYS;
        return contract_value(g, level, mean, sd, multiplier);
    }
    double mean = DEAL_POINTS - side_count(hand, a->cur_mode, a, &sd);
    return -contract_value(g, level, mean, sd, multiplier);
}

static int choose_bid(Engine *g, Env *e) {
    Auction a;
    read_auction(g, e, &a);
    uint32_t hand = e->hands[e->to_move];
    int ours = a.cur_level >= 0 && (a.cur_bidder & 1) == (a.seat & 1);
    if (a.cur_level >= 0 && a.cur_mult > 1) { /* surcoinche or pass */
        double stay = contract_worth(g, hand, &a, a.cur_mode, a.cur_level, a.cur_mult, 1, 1);
        double twice = contract_worth(g, hand, &a, a.cur_mode, a.cur_level, g->surcoinche, 1, 1);
        return twice > stay + CS_SURCOINCHE_MARGIN ? A_SURCOINCHE : A_PASS;
    }
    double pass_value =
        a.cur_level < 0 ? CS_OPEN_PASS : contract_worth(g, hand, &a, a.cur_mode, a.cur_level, a.cur_mult, ours, 0);
    double best = pass_value + CS_BID_MARGIN;
    int action = A_PASS;
    if (a.cur_level >= 0 && (a.cur_bidder & 1) != (a.seat & 1)) { /* coinche is legal */
        double v = contract_worth(g, hand, &a, a.cur_mode, a.cur_level, 2, 0, 0);
        if (v > pass_value + CS_COINCHE_MARGIN && v > best) {
            best = v;
            action = A_COINCHE;
        }
    }
    int floor = a.cur_level < 0 ? 0 : a.cur_level;
    for (int mode = 0; mode < g->modes; mode++)
        for (int lv = 0; lv < N_LEVELS; lv++) {
            int level = g->levels[lv];
            if (!(level <= g->max_bid || level == CAPOT) || level <= floor) continue; /* levels(): no générale */
            double v = contract_worth(g, hand, &a, mode, level, 1, 1, 0);
            if (v > best) {
                best = v;
                action = A_CONTRACT + 6 * lv + mode;
            }
        }
    return action;
}

/* ------------------------------------------------------------------ the play: what the bot knows */

typedef struct {
    int seat, trump, taker, players, camp;
    uint32_t hand, unseen, trumps, covering;
    uint32_t may_hold[MAXP];
    int camps[MAXP];
    int count[2];
    int remaining, tricks_left, goal; /* goal -1: none */
    /* the trick */
    int led, best, best_seat, points;
    int to_come[MAXP], nto_come;
} Table;

static inline int same_camp(const Table *t, int a, int b) { return t->camps[a] == t->camps[b]; }
static inline int is_trump(const Table *t, int c) { return (c >> 3) == t->trump; }
static inline int pts(const Table *t, int c) { return POINTS[t->trump][c]; }
static inline int key(const Table *t, int c) { return KEY[t->trump][c]; }
static inline int is_master(const Table *t, int c) { return !(t->unseen & HIGHER[t->trump][c]); }

/* belote.play.not_held: the cards whose holding would have made the card played illegal */
static uint32_t not_held(int mode, int card, int best, int partner, int flags, int led) {
    uint32_t out = 0;
    for (int x = 0; x < 32; x++)
        if (x != card && !(legal_mask(mode, 1u << card | 1u << x, best, partner, flags, led) >> card & 1))
            out |= 1u << x;
    return out;
}

static void read_table(Engine *g, Env *e, Table *t) {
    int n = g->players, me = e->to_move, mode = e->mode;
    t->seat = me;
    t->trump = mode;
    t->taker = e->taker;
    t->players = n;
    for (int s = 0; s < n; s++) t->camps[s] = e->camps[s];
    t->camp = e->camps[me];
    t->trumps = TRUMPS[mode];
    uint32_t hand = e->hands[me], played = 0;
    t->covering = 0;
    for (int s = 0; s < n; s++) played |= e->played[s];
    if (g->two) /* the face-up table cards with one face down under them */
        for (uint32_t m = e->ups[me]; m; m &= m - 1) {
            int up = __builtin_ctz(m);
            if (hand >> up & 1) t->covering |= 1u << up;
        }
    t->hand = hand;
    t->unseen = ~hand & ~played;
    /* belote.knowledge.Knowledge.from_view, the seats' part */
    uint32_t known[MAXP] = {0}, excluded[MAXP] = {0};
    known[me] = hand & ~e->tables[me];
    if (g->two)
        for (int s = 0; s < n; s++) /* the face-up cards of both sides of the table */
            for (uint32_t m = e->ups[s]; m; m &= m - 1) {
                int up = __builtin_ctz(m), under = e->under[up];
                if (e->hands[s] >> up & 1) known[s] |= 1u << up;
                else if (e->hands[s] >> under & 1) known[s] |= 1u << under;
            }
    if (e->turned >= 0 && !(played >> e->turned & 1)) known[e->taker] |= 1u << e->turned;
    if (e->ntaken && e->decl_side >= 0)
        for (int s = 0; s < n; s++)
            if (e->camps[s] == e->decl_side && e->ndecl[s]) known[s] |= e->decl_cards[s] & ~played;
    uint32_t pair = mode < 4 ? (1u << (8 * mode + 5)) | (1u << (8 * mode + 6)) : 0;
    if (pair && e->belote_said) {
        uint32_t other = pair & ~played;
        if (g->two) {
            for (int s = 0; s < n; s++)
                if (s != e->belote_holder) excluded[s] |= other;
        } else {
            known[e->belote_holder] |= other;
        }
    }
    /* the play: each card but the first of a trick shows what its player did not hold */
    for (int start = 0; start < e->cards_played; start += n) {
        int leader = e->play_seats[start], first = e->plays[start];
        int led = first >> 3, best = first, best_seat = leader;
        for (int i = start + 1; i < start + n && i < e->cards_played; i++) {
            int seat = e->play_seats[i], c = e->plays[i];
            excluded[seat] |= not_held(mode, c, best, t->camps[best_seat] == t->camps[seat], g->flags, led);
            if (beats(KEY[mode], c, best)) {
                best = c;
                best_seat = seat;
            }
        }
    }
    uint32_t placed = played;
    for (int s = 0; s < n; s++)
        for (int o = 0; o < n; o++)
            if (o != s) excluded[o] |= known[s];
    for (int s = 0; s < n; s++) {
        placed |= known[s];
        excluded[s] &= ~known[s];
    }
    uint32_t unknown = ~placed;
    /* belote silence: the first of the king and queen of trumps played without a word of belote */
    if (pair && !e->belote_said)
        for (int i = 0; i < e->cards_played; i++)
            if (pair >> e->plays[i] & 1) {
                int seat = e->play_seats[i];
                uint32_t other = pair & ~(1u << e->plays[i]);
                if (seat != me && (unknown & other)) excluded[seat] |= other;
                break;
            }
    for (int s = 0; s < n; s++)
        t->may_hold[s] = s == me ? hand : (known[s] | (unknown & ~excluded[s])) & t->unseen;
    int won_all = e->won[0] + e->won[1];
    int in_play = DEAL_POINTS - won_all;
    if (g->out_of_play) { /* cards lie out of play: their share of the points not seen */
        uint32_t seen = 0;
        for (int s = 0; s < n; s++) seen |= known[s];
        uint32_t out_of_sight = t->unseen & ~seen;
        int hidden = 0;
        for (uint32_t m = out_of_sight; m; m &= m - 1) hidden += POINTS[mode][__builtin_ctz(m)];
        int held = 0;
        for (int s = 0; s < n; s++)
            if (s != me) held += g->playing_hand - popc(e->played[s]) - popc(known[s]);
        int out = g->out_of_play;
        double share = held + out ? (double)out / (out + held) : 0.0;
        in_play -= (int)nearbyint(hidden * share);
    }
    t->remaining = in_play;
    t->tricks_left = g->ntricks - e->ntaken;
    t->goal = e->c_level < 0 ? -1 : (g->levels[e->c_level] < DEAL_POINTS ? g->levels[e->c_level] : DEAL_POINTS);
    /* _count: each camp's card points, declarations shown, belote */
    t->count[0] = e->won[0];
    t->count[1] = e->won[1];
    if (e->ntaken && e->decl_side >= 0)
        for (int s = 0; s < n; s++)
            if (e->camps[s] == e->decl_side) t->count[e->decl_side] += e->decl_seq[s] + e->decl_four[s];
    if (pair) {
        if (e->belote_said) t->count[e->camps[e->belote_holder]] += H_BELOTE;
        else if ((hand & pair) == pair) t->count[t->camp] += H_BELOTE;
    }
    /* read_trick */
    t->nto_come = n - 1 - e->trick_len;
    for (int k = 0; k < t->nto_come; k++) t->to_come[k] = (me + g->step * (k + 1)) % n;
    if (!e->trick_len) {
        t->led = t->best = t->best_seat = -1;
        t->points = 0;
    } else {
        t->led = e->trick[0] >> 3;
        t->best = e->best;
        t->best_seat = e->best_seat;
        t->points = 0;
        for (int i = 0; i < e->trick_len; i++) t->points += POINTS[mode][e->trick[i]];
    }
}

static int can_take(const Table *t, int seat, int led, int best) {
    uint32_t cards = t->may_hold[seat];
    int follows = (cards & SUIT_MASK(led)) != 0;
    if ((best >> 3) == led && (cards & HIGHER[t->trump][best])) return 1;
    if (follows || led == t->trump) return 0;
    uint32_t trumps = cards & t->trumps;
    return is_trump(t, best) ? (trumps & HIGHER[t->trump][best]) != 0 : trumps != 0;
}

static int keeps_trick(const Table *t, int card, int winner) {
    for (int k = 0; k < t->nto_come; k++) {
        int s = t->to_come[k];
        if (!same_camp(t, s, winner) && can_take(t, s, t->led, card)) return 0;
    }
    return 1;
}

static int ruffable(const Table *t, int suit) {
    for (int s = 0; s < t->players; s++)
        if (t->camps[s] != t->camp && !(t->may_hold[s] & SUIT_MASK(suit)) && (t->may_hold[s] & t->trumps)) return 1;
    return 0;
}

static int opponents_hold_trumps(const Table *t) {
    for (int s = 0; s < t->players; s++)
        if (t->camps[s] != t->camp && (t->may_hold[s] & t->trumps)) return 1;
    return 0;
}

static int takers(const Table *t) { return t->camps[t->taker] == t->camp; }

static int made(const Table *t, int mine, int theirs, int remaining) {
    if (t->goal >= 0) return takers(t) ? mine >= t->goal : theirs + remaining < t->goal;
    return takers(t) ? mine > theirs + remaining : mine >= theirs + remaining;
}

static int lost(const Table *t, int mine, int theirs, int remaining) {
    if (t->goal >= 0) return takers(t) ? mine + remaining < t->goal : theirs >= t->goal;
    return takers(t) ? theirs >= mine + remaining : theirs > mine + remaining;
}

static int deal_in_balance(const Table *t) {
    int mine = t->count[t->camp], theirs = t->count[1 - t->camp];
    return !made(t, mine, theirs, t->remaining) && !lost(t, mine, theirs, t->remaining);
}

static int trick_decides_deal(const Table *t, int card) {
    int mine = t->count[t->camp], theirs = t->count[1 - t->camp];
    if (made(t, mine, theirs, t->remaining)) return 0;
    int value = t->points + pts(t, card) + (t->tricks_left == 1 ? LAST_TRICK : 0);
    return made(t, mine + value, theirs, t->remaining - value);
}

static int hold_a_trump_for_the_last_trick(const Table *t) {
    uint32_t trumps = t->hand & t->trumps;
    int endgame = 1 < t->tricks_left && t->tricks_left <= H_LAST_TRICKS_TO_WATCH;
    return popc(trumps) == 1 && endgame && deal_in_balance(t);
}

static int bares_a_ten(const Table *t, int c) {
    int suit = c >> 3, ten = suit * 8 + R_TEN;
    uint32_t held = t->hand & SUIT_MASK(suit);
    return c != ten && (held >> ten & 1) && popc(held) == 2 && !is_master(t, ten);
}

static inline int uncovers_nothing(const Table *t, int c) { return !(t->covering >> c & 1); }

/* The card of a mask whose key (a tuple of ints, key_of fills it and returns its length) is least
 * (sign 1) or greatest (sign -1), the first of equal keys: Python's min and max over the cards in
 * ascending order. */
#define MAXKEY 6
typedef int (*KeyOf)(const Table *t, int c, int *k);

static int best_card(const Table *t, uint32_t m, KeyOf key_of, int sign) {
    int best = -1, bk[MAXKEY] = {0};
    for (; m; m &= m - 1) {
        int c = __builtin_ctz(m), k[MAXKEY];
        int n = key_of(t, c, k), cmp = 0;
        for (int i = 0; best >= 0 && i < n && !cmp; i++) cmp = (k[i] > bk[i]) - (k[i] < bk[i]);
        if (best < 0 || cmp * sign < 0) {
            best = c;
            memcpy(bk, k, sizeof(int) * (size_t)n);
        }
    }
    return best;
}

static int strength_key(const Table *t, int c, int *k) {
    k[0] = key(t, c);
    return 1;
}

/* shed_lowest's: what it costs to give a card away */
static int shed_key(const Table *t, int c, int *k) {
    k[0] = is_trump(t, c);
    k[1] = is_master(t, c);
    k[2] = pts(t, c);
    k[3] = bares_a_ten(t, c);
    k[4] = uncovers_nothing(t, c);
    k[5] = key(t, c);
    return 6;
}

/* feed_partner's: a ten that would die otherwise first, then aces and tens */
static int feed_key(const Table *t, int c, int *k) {
    k[0] = pts(t, c) >= H_TEN_POINTS;
    k[1] = !is_master(t, c);
    k[2] = pts(t, c);
    k[3] = -c;
    return 4;
}

/* lead_low's: what a lead gives away */
static int low_lead_key(const Table *t, int c, int *k);

static inline int min_by_key(const Table *t, uint32_t m) { return best_card(t, m, strength_key, 1); }
static inline int max_by_key(const Table *t, uint32_t m) { return best_card(t, m, strength_key, -1); }
static inline int shed_lowest(const Table *t, uint32_t legal) { return best_card(t, legal, shed_key, 1); }

static int feed_partner(const Table *t, uint32_t legal) {
    uint32_t plain = legal & ~t->trumps;
    return plain ? best_card(t, plain, feed_key, -1) : shed_lowest(t, legal);
}

static int secure_partners_trick(const Table *t, uint32_t legal) {
    uint32_t holding = 0;
    if (t->led == t->trump) return -1;
    for (uint32_t m = legal & SUIT_MASK(t->led); m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (beats(KEY[t->trump], c, t->best) && keeps_trick(t, c, t->seat)) holding |= 1u << c;
    }
    return holding ? min_by_key(t, holding) : -1;
}

static int win_cheaply(const Table *t, uint32_t winners, uint32_t legal) {
    if (!t->nto_come) return min_by_key(t, winners);
    uint32_t sure = 0;
    for (uint32_t m = winners; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (keeps_trick(t, c, t->seat)) sure |= 1u << c;
    }
    if (is_trump(t, __builtin_ctz(winners))) {
        if (sure) {
            int rich = t->points >= H_TEN_POINTS;
            for (uint32_t m = sure; !rich && m; m &= m - 1) rich = trick_decides_deal(t, __builtin_ctz(m));
            if (rich) return min_by_key(t, sure);
        }
        return min_by_key(t, winners);
    }
    if (sure) return min_by_key(t, sure);
    return shed_lowest(t, legal);
}

static int follow(const Table *t, uint32_t legal) {
    if (t->best_seat != t->seat && same_camp(t, t->best_seat, t->seat)) {
        if (keeps_trick(t, t->best, t->best_seat)) return feed_partner(t, legal);
        int c = secure_partners_trick(t, legal);
        return c >= 0 ? c : shed_lowest(t, legal);
    }
    uint32_t winners = 0;
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (beats(KEY[t->trump], c, t->best)) winners |= 1u << c;
    }
    if (!winners) return shed_lowest(t, legal);
    return win_cheaply(t, winners, legal);
}

static int dies_under_its_ace(const Table *t, int c) {
    return (c & 7) == R_TEN && !is_trump(t, c) && (t->unseen >> ((c >> 3) * 8 + R_ACE) & 1);
}

static int lead(const Table *t, uint32_t legal) {
    uint32_t options = legal;
    if (hold_a_trump_for_the_last_trick(t) && (options & ~t->trumps)) options &= ~t->trumps;
    /* draw_trumps */
    if (takers(t) && opponents_hold_trumps(t)) {
        uint32_t masters = 0;
        for (uint32_t m = options & t->trumps; m; m &= m - 1)
            if (is_master(t, __builtin_ctz(m))) masters |= 1u << __builtin_ctz(m);
        if (masters) return max_by_key(t, masters);
    }
    /* cash_masters */
    {
        int best = -1;
        for (uint32_t m = options & ~t->trumps; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (!is_master(t, c) || ruffable(t, c >> 3)) continue;
            if (best < 0 || pts(t, c) > pts(t, best)) best = c; /* (points, -c): the first of equal points */
        }
        if (best >= 0) return best;
    }
    /* lead_long_suit */
    if (!takers(t)) {
        uint32_t plain = 0;
        for (uint32_t m = options & ~t->trumps; m; m &= m - 1) {
            int c = __builtin_ctz(m);
            if (!dies_under_its_ace(t, c)) plain |= 1u << c;
        }
        if (plain) {
            int suit = -1, length = -1;
            for (int s = 0; s < 4; s++) {
                if (!(plain & SUIT_MASK(s))) continue;
                int l = popc(t->hand & SUIT_MASK(s));
                if (l > length) { /* (length, -s): the lowest suit of equal length */
                    length = l;
                    suit = s;
                }
            }
            return min_by_key(t, plain & SUIT_MASK(suit));
        }
    }
    /* lead_low */
    uint32_t plain = options & ~t->trumps;
    if (!plain) {
        uint32_t masters = 0;
        for (uint32_t m = options; m; m &= m - 1)
            if (is_master(t, __builtin_ctz(m))) masters |= 1u << __builtin_ctz(m);
        return masters ? max_by_key(t, masters) : min_by_key(t, options);
    }
    return best_card(t, plain, low_lead_key, 1);
}

static int low_lead_key(const Table *t, int c, int *k) {
    k[0] = dies_under_its_ace(t, c);
    k[1] = pts(t, c);
    k[2] = uncovers_nothing(t, c);
    k[3] = key(t, c);
    k[4] = c;
    return 5;
}

/* The heuristic bot's action for the seat to move of a deal in the bidding or the play. */
static int heuristic_act(Engine *g, Env *e) {
    if (e->phase == 0) {
        int bids[NACTIONS_MAX];
        if (legal_bids(g, e, bids) == 1) return bids[0];
        return g->contracts ? choose_bid(g, e) : take_or_name(g, e);
    }
    uint32_t legal = legal_cards(g, e);
    if (popc(legal) == 1) return __builtin_ctz(legal);
    Table t;
    read_table(g, e, &t);
    return t.led < 0 ? lead(&t, legal) : follow(&t, legal);
}

/* ------------------------------------------------------------------ the constants, from Python */

static int load_float(PyObject *obj, const char *name, double *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (v == NULL) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return PyErr_Occurred() ? -1 : 0;
}

static int load_heuristic(void) {
    PyObject *h = PyImport_ImportModule("belote.bots.heuristic");
    if (h == NULL) return -1;
    struct {
        const char *name;
        int *out;
    } ints[] = {
        {"EACH_TRUMP", &H_EACH_TRUMP},
        {"THIRD_TRUMP", &H_THIRD_TRUMP},
        {"EACH_TRUMP_BEYOND_THREE", &H_EACH_TRUMP_BEYOND_THREE},
        {"BELOTE_WORTH", &H_BELOTE_WORTH},
        {"OUTSIDE_ACE", &H_OUTSIDE_ACE},
        {"TEN_BESIDE_ITS_ACE", &H_TEN_BESIDE_ITS_ACE},
        {"GUARDED_TEN", &H_GUARDED_TEN},
        {"VOID", &H_VOID},
        {"NOTHING", &H_NOTHING},
        {"ORDINARY_TAKING_HAND", &H_ORDINARY_TAKING_HAND},
        {"TAKE_AT", &H_TAKE_AT},
        {"LATE_POSITION", &H_LATE_POSITION},
        {"NAME_AT", &H_NAME_AT},
        {"TEN_POINTS", &H_TEN_POINTS},
        {"LAST_TRICKS_TO_WATCH", &H_LAST_TRICKS_TO_WATCH},
        {"BELOTE", &H_BELOTE},
    };
    int r = -1;
    PyObject *honours = NULL, *coinche = NULL, *weights = NULL, *style = NULL;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (load_int(h, ints[i].name, ints[i].out) < 0) goto done;
    honours = PyObject_GetAttrString(h, "TRUMP_HONOURS");
    if (honours == NULL) goto done;
    for (int rank = 0; rank < 8; rank++) {
        PyObject *k = PyLong_FromLong(rank);
        PyObject *v = k == NULL ? NULL : PyDict_GetItemWithError(honours, k);
        Py_XDECREF(k);
        if (v == NULL && PyErr_Occurred()) goto done;
        H_TRUMP_HONOURS[rank] = v == NULL ? 0 : (int)PyLong_AsLong(v);
    }
    coinche = PyImport_ImportModule("belote.bots.coinche");
    if (coinche == NULL) goto done;
    weights = PyObject_GetAttrString(coinche, "WEIGHTS");
    if (weights == NULL) goto done;
    const char *kinds[3] = {"suit", "nt", "at"};
    for (int k = 0; k < 3; k++) {
        PyObject *w = PyDict_GetItemString(weights, kinds[k]); /* borrowed */
        PyObject *ws;
        if (w == NULL || !PyArg_ParseTuple(w, "dOdd", &CW_INTERCEPT[k], &ws, &CW_LEAD[k], &CW_SPREAD[k])) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "belote.bots.coinche.WEIGHTS");
            goto done;
        }
        Py_ssize_t nw = PySequence_Length(ws);
        if (nw < 0 || nw > 16) goto done;
        CW_NWEIGHTS[k] = (int)nw;
        for (Py_ssize_t i = 0; i < nw; i++) {
            PyObject *x = PySequence_GetItem(ws, i);
            if (x == NULL) goto done;
            CW_WEIGHTS[k][i] = PyFloat_AsDouble(x);
            Py_DECREF(x);
        }
    }
    if (CW_NWEIGHTS[0] != 16 || CW_NWEIGHTS[1] != 9 || CW_NWEIGHTS[2] != 9) {
        PyErr_SetString(PyExc_ImportError, "belote.bots.coinche's features changed: the batch's bot counts 16, 9, 9");
        goto done;
    }
    style = PyObject_GetAttrString(coinche, "STYLE");
    if (style == NULL || load_float(style, "bid_margin", &CS_BID_MARGIN) < 0 ||
        load_float(style, "open_pass", &CS_OPEN_PASS) < 0 ||
        load_float(style, "coinche_margin", &CS_COINCHE_MARGIN) < 0 ||
        load_float(style, "surcoinche_margin", &CS_SURCOINCHE_MARGIN) < 0 ||
        load_float(style, "promise", &CS_PROMISE) < 0 || load_float(style, "opposed", &CS_OPPOSED) < 0 ||
        load_float(style, "support", &CS_SUPPORT) < 0 || load_float(style, "coinche_says", &CS_COINCHE_SAYS) < 0 ||
        load_float(coinche, "CAPOT_TARGET", &C_CAPOT_TARGET) < 0 || load_float(coinche, "AVERAGE", &C_AVERAGE) < 0 || load_float(coinche, "KNOWN_SPREAD", &C_KNOWN_SPREAD) < 0 ||
        load_int(coinche, "TOP_PROMISE", &C_TOP_PROMISE) < 0)
        goto done;
    r = 0;
done:
    Py_XDECREF(style);
    Py_XDECREF(weights);
    Py_XDECREF(coinche);
    Py_XDECREF(honours);
    Py_DECREF(h);
    return r;
}

#endif
