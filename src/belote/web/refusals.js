// The page's words for a refusal of the server. A refusal is {code, args, message} (docs/protocol.md,
// "Refusals"): the code says which rule refused, the args what the words need, and the message is the
// server's English, which stands in for a code this page does not know yet.
//
//   refusalText({code: "must_follow", args: {suit: "C", cards: ["7C", "AC"]}, message: "..."}, "fr")
//     -> "Vous devez fournir à ♣ (7♣, A♣)."
//
// The words are made from the args alone, in the language asked (not the page's current one), so
// the same refusal reads the same wherever it is shown.

import { cardText } from "./cards.js";
import { gameTitle, tIn } from "./i18n.js";

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const NAMES = {
  en: {
    and: "and",
    modes: { NT: "NT", AT: "AT" },
    modeNames: { NT: "No trumps", AT: "All trumps" },
    levels: { capot: "capot", generale: "générale" },
    bids: { coinche: "coinche", surcoinche: "surcoinche", pass: "pass", take: "take" },
    values: { true: "true", false: "false" },
    or: "or",
  },
  fr: {
    and: "et",
    modes: { NT: "SA", AT: "TA" },
    modeNames: { NT: "Le sans atout", AT: "Le tout atout" },
    levels: { capot: "capot", generale: "générale" },
    bids: { coinche: "coinche", surcoinche: "surcoinche", pass: "passe", take: "prendre" },
    values: { true: "vrai", false: "faux" },
    or: "ou",
  },
};

/** "a, b and c" in the language's way. */
function listed(items, n) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${n.and} ${items[items.length - 1]}`;
}

/** A setting's value as a person reads it: true and false in words, text as it is, anything else as JSON. */
function shown(v, n) {
  if (typeof v === "boolean") return n.values[v];
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** Words for a refusal's args: cards, seats, suits and bids as the page writes them. */
function helpers(lang) {
  const n = NAMES[lang];
  const level = (name) => n.levels[name] ?? name;
  return {
    card: (code) => cardText(code, lang),
    cards: (codes) => codes.map((c) => cardText(c, lang)).join(", "),
    suit: (letter) => SUIT_SYMBOLS[letter] ?? letter,
    seat: (letter) => tIn(lang, `seat${letter}`),
    seats: (letters) => listed(letters.map((s) => tIn(lang, `seat${s}`)), n),
    level,
    // A bid as the server names it: "110H", "90NT", "capotS", "coinche", "pass", "take", "H".
    bid: (name) => {
      const word = String(name);
      if (n.bids[word.toLowerCase()]) return n.bids[word.toLowerCase()];
      if (SUIT_SYMBOLS[word.toUpperCase()]) return SUIT_SYMBOLS[word.toUpperCase()];
      const m = /^(\d+|capot|generale)(NT|AT|S|H|D|C)$/i.exec(word);
      if (!m) return word;
      const mode = m[2].toUpperCase();
      return `${level(m[1].toLowerCase())} ${SUIT_SYMBOLS[mode] ?? n.modes[mode]}`;
    },
    mode: (mode) => n.modeNames[mode] ?? mode,
    // A game opens its sentence: the page's title of it (i18n.js), as the language starts a sentence with it.
    game: (name) => gameTitle(name, lang, { subject: true }),
    value: (v) => shown(v, n),
    or: (values) => {
      const words = values.map((v) => shown(v, n));
      return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} ${n.or} ${words[words.length - 1]}`;
    },
  };
}

// One entry per code of belote.actions.REFUSALS: (args, helpers) => words.
const WORDS = {
  en: {
    illegal_action: () => "That is not allowed.",
    not_an_action: (a) => `“${a.text}” is not an action: play a card or bid.`,
    not_your_turn: (a, w) => `It is not your turn: it is ${w.seat(a.seat)}'s turn to ${a.phase === "bidding" ? "bid" : "play"}.`,
    deal_over: () => "The deal is over.",
    match_over: () => "The match is over: start a new game.",
    nothing_to_undo: () => "There is nothing to undo.",
    bidding_over: () => "The bidding is over: play a card.",
    not_in_hand: (a, w) => `You do not have ${w.card(a.card)}.`,
    nothing_to_keep_quiet: (a) =>
      a.what === "belote"
        ? "There is no belote to keep quiet with this card."
        : "You have no declaration to keep quiet.",
    must_follow: (a, w) => `You must follow ${w.suit(a.suit)} (${w.cards(a.cards)}).`,
    must_go_higher: (a, w) => `You must play a higher trump than ${w.card(a.best)} (${w.cards(a.cards)}).`,
    must_trump: (a, w) => `You have no ${w.suit(a.suit)}: you must trump (${w.cards(a.cards)}).`,
    must_overtrump: (a, w) => `You must overtrump ${w.card(a.best)} (${w.cards(a.cards)}).`,
    must_undertrump: (a, w) =>
      `You cannot overtrump ${w.card(a.best)}, but you must still trump (${w.cards(a.cards)}).`,
    bidding_not_over: (a) =>
      a.auction === "contracts"
        ? "The bidding is not over: bid a contract or pass."
        : "The bidding is not over: take, pass or name a suit.",
    not_a_bid: (a) => `“${a.bid}” is not a bid.`,
    coinche_bid: (a, w) => `${w.bid(a.bid)} is a Coinche bid: take, pass or name a suit.`,
    take_in_first_round: () => "The turned card is taken only in the first round: name a suit or pass.",
    name_in_second_round: (a, w) => `You may name ${w.suit(a.suit)} only in the second round: take or pass.`,
    turned_suit: (a, w) => `${w.suit(a.suit)} is the turned card's suit: name another suit or pass.`,
    no_turned_card: () => "In Coinche no card is turned: bid a contract or pass.",
    nothing_to_coinche: () => "There is no contract to coinche yet.",
    already_coinched: (a, w) => `${w.bid(a.contract)} is already coinched.`,
    coinche_own_side: (a, w) => `You coinche the other side's contract, not your own side's (${w.bid(a.contract)}).`,
    nothing_to_surcoinche: () => "Nobody has coinched: there is nothing to surcoinche.",
    surcoinche_bidders_only: () => "Only the bidding side may surcoinche.",
    bidding_closed: (a, w) => `${w.bid(a.contract)} is coinched: surcoinche or pass.`,
    bid_too_low: (a, w) =>
      a.min === null
        ? `No bid is higher than ${w.bid(a.contract)}.`
        : `Bid higher than ${w.bid(a.contract)}: ${w.level(a.min)} at least.`,
    bid_too_high: (a) => `Bids go up to ${a.max}, then capot.`,
    no_generale: () => "The générale is not played at this table.",
    mode_not_played: (a, w) => `${w.mode(a.mode)} is not played at this table.`,
    bad_settings: () => "These settings cannot be read.",
    unknown_setting: (a) => `There is no setting “${a.option}”.`,
    bad_setting: (a, w) =>
      a.choices
        ? `The setting “${a.option}” must be ${w.or(a.choices)}, not ${w.value(a.value)}.`
        : `The setting “${a.option}” must be a whole number from ${a.min} to ${a.max}, not ${w.value(a.value)}.`,
    bad_name: (a) => `A name is ${a.min} to ${a.max} characters long.`,
    bad_seating: () => "Choose to sit with the other people against bots, or wherever the draw puts you.",
    name_control_characters: () => "A name cannot hold control characters.",
    bad_seat: () => "Choose a seat: North, East, South or West.",
    no_such_seat: (a, w) => `This game has no ${w.seat(a.seat)} seat: its seats are ${w.seats(a.seats)}.`,
    seat_taken: (a, w) => `${w.seat(a.seat)} is taken: choose a free seat.`,
    table_full: (a) => `The table is full: ${a.players} people sit there.`,
    too_many_people: (a, w) => {
      const leave = a.people - a.seats.length;
      return (
        `${w.game(a.variant)} has ${a.seats.length} seats (${w.seats(a.seats)}): ${a.people} people sit here, ` +
        `${leave} must leave first.`
      );
    },
    game_started: (a) =>
      ({
        sit: "The game has started: every seat is taken.",
        seat: "The game has started: seats change only in the lobby.",
        leave: "The game has started: a seat is left only in the lobby.",
        settings: "The rules are set before the game starts.",
        start: "The game has already started.",
        bot_seat: "The game has started: a bot is seated only in the lobby.",
      })[a.request] ?? "The game has started.",
    host_stays: () => "The host stays: the table is theirs.",
    not_host: () => "Only the host of the table can do that.",
    not_started: () => "The game has not started: the host starts it.",
    waiting_for_others: (a, w) =>
      `The next deal starts when everybody has read the score: waiting for ${w.seats(a.seats)}.`,
    match_not_over: () => "The match is not over: a new one starts when it ends.",
    online_one_match: () => "An online table plays one match: press Play online for another.",
    read_only: () => "A spectator cannot play.",
    hints_solo_only: () => "Hints are given only at a table against bots.",
    hints_off: () => "Hints are off at this table: turn them on in the settings.",
    hint_busy: () => "A hint is on its way: it comes in a moment.",
    already_seated: () => "You already sit at this table: one seat a person.",
    no_identity: () => "This browser has no identity yet, or it was deleted: make one, or carry yours here.",
    no_such_player: () => "There is no player of that name and tag.",
    no_such_match: () => "That match is no longer kept.",
    no_such_tournament: () => "There is no such tournament (or the link is not complete).",
    tournament_closed: () => "This tournament is not open: it is over, or not yet begun.",
    no_such_board: (a) => `This tournament has boards 1 to ${a.boards}.`,
    board_played: (a) => `You have played board ${a.board}: each board is played once.`,
    board_not_played: (a) => `The results of board ${a.board} are shown once you have played it.`,
    bad_boards: (a) => `A tournament has ${a.min} to ${a.max} boards.`,
    bad_dates: () => "A tournament closes after it opens, within 31 days.",
    bad_guest: () => "This browser's guest token is not valid: reload the page.",
    no_entrant: () => "Pick a name to play the tournament.",
    bad_month: () => "A month is written YYYY-MM.",
    tournament_board: () => "A tournament's board is one deal, played once.",
    bad_handle: () => "Name a player by their name and tag, as Léa#4821.",
    bad_password: (a) => `A password is ${a.min} to ${a.max} characters.`,
    bad_code: () => "That code is wrong, used or expired: ask for a new one on your other device.",
    login_failed: () => "No identity has that name and password.",
    self: () => "That is you.",
    blocked: () => "One of you blocked the other.",
    not_friends: () => "You invite your friends: both of you add the other first.",
    no_such_problem: () => "There is no such problem: take the next one.",
    not_a_legal_card: (a, w) => `You may not play that card here: ${w.cards(a.cards)}.`,
    bad_chat: (a) => `A chat line is 1 to ${a.max} characters.`,
    chat_too_long: (a) => `A chat line is at most ${a.max} characters.`,
    chat_control_characters: () => "A chat line cannot hold control characters.",
    bad_reaction: () => "There is no such reaction.",
    slow_down: (a) => `Slow down: at most ${a.count} messages in ${a.seconds} seconds.`,
    too_long: (a) => `The message is too long: at most ${a.max} bytes.`,
    not_json: () => "The message is not JSON.",
    too_deep: (a) => `The message is nested too deep: at most ${a.max} levels.`,
    bad_text: () => "The message holds text that is not valid Unicode.",
    json_only: () => "A request is sent as JSON.",
    bad_origin: () => "This server takes no request from that page.",
    too_many_tables: (a) => `Too many new tables: at most ${a.count} in ${a.seconds} seconds. Wait a little.`,
    too_many_created: (a) => `Too many new tables and score sheets from your address: at most ${a.count} in ${a.seconds} seconds. Wait a little.`,
    too_many_sockets: (a) => `Too many connections from your address: at most ${a.max}.`,
    bad_message: () => "A message is an object with a “type”.",
    bad_request: () => "The request must be a JSON object.",
    unknown_type: (a) => `Unknown message type “${a.type}”.`,
    not_joined: () => "Join a table first.",
    no_such_table: () => "There is no such table, or the link is wrong.",
    flooding: (a) => `Too many refused messages: at most ${a.count} in ${a.seconds} s.`,
    server_error: () => "The server could not do that just now: try again.",
    not_saved: () => "The server could not save that, so nothing changed: try again.",
    store_unreachable: () => "The server cannot reach its game store for a moment: play resumes shortly.",
    too_many_connections: (a) => `Too many connections from your address: at most ${a.max} at once.`,
    server_full: () => "The server is full for a moment: try again shortly.",
    request_timeout: (a) => `The request took too long to arrive (over ${a.seconds} s): try again.`,
    bad_host: () => "This server does not answer to that name.",
    not_text: () => "This server takes text messages only.",
    store_full: () => "The server's disk is full: nothing new can be saved for now, and nothing is lost. Try again later.",
    not_a_record: () => "This is not a deal record.",
    illegal_record: () => "This deal record holds an action the rules refuse.",
    deal_not_over: () => "The deal is not over: its review opens once it ends.",
    analysis_running: () => "One analysis at a time: wait for the one under way.",
    analyses_busy: () => "The server is busy analysing other deals: try again in a few seconds.",
  },
  fr: {
    illegal_action: () => "Ce n'est pas permis.",
    not_an_action: (a) => `« ${a.text} » n'est pas une action : jouez une carte ou annoncez.`,
    not_your_turn: (a, w) =>
      `Ce n'est pas votre tour : c'est à ${w.seat(a.seat)} de ${a.phase === "bidding" ? "parler" : "jouer"}.`,
    deal_over: () => "La donne est finie.",
    match_over: () => "La partie est finie : commencez-en une nouvelle.",
    nothing_to_undo: () => "Il n'y a rien à annuler.",
    bidding_over: () => "Les enchères sont finies : jouez une carte.",
    not_in_hand: (a, w) => `${w.card(a.card)} : vous n'avez pas cette carte.`,
    nothing_to_keep_quiet: (a) =>
      a.what === "belote"
        ? "Cette carte n'a pas de belote à taire."
        : "Vous n'avez pas d'annonce à taire.",
    must_follow: (a, w) => `Vous devez fournir à ${w.suit(a.suit)} (${w.cards(a.cards)}).`,
    must_go_higher: (a, w) => `Vous devez monter à l'atout : ${w.card(a.best)} est maître (${w.cards(a.cards)}).`,
    must_trump: (a, w) => `Vous n'avez pas de ${w.suit(a.suit)} : vous devez couper (${w.cards(a.cards)}).`,
    must_overtrump: (a, w) => `Vous devez surcouper : ${w.card(a.best)} est maître (${w.cards(a.cards)}).`,
    must_undertrump: (a, w) =>
      `${w.card(a.best)} est maître et vous ne pouvez pas surcouper, mais vous devez couper quand même (${w.cards(a.cards)}).`,
    bidding_not_over: (a) =>
      a.auction === "contracts"
        ? "Les enchères ne sont pas finies : annoncez un contrat ou passez."
        : "Les enchères ne sont pas finies : prenez, passez ou annoncez une couleur.",
    not_a_bid: (a) => `« ${a.bid} » n'est pas une enchère.`,
    coinche_bid: (a, w) => `« ${w.bid(a.bid)} » est une enchère de coinche : prenez, passez ou annoncez une couleur.`,
    take_in_first_round: () => "La retourne ne se prend qu'au premier tour : annoncez une couleur ou passez.",
    name_in_second_round: (a, w) => `On n'annonce ${w.suit(a.suit)} qu'au second tour : prenez ou passez.`,
    turned_suit: (a, w) => `${w.suit(a.suit)} est la couleur de la retourne : annoncez-en une autre ou passez.`,
    no_turned_card: () => "À la coinche, rien n'est retourné : annoncez un contrat ou passez.",
    nothing_to_coinche: () => "Il n'y a pas encore de contrat à coincher.",
    already_coinched: (a, w) => `${w.bid(a.contract)} est déjà coinché.`,
    coinche_own_side: (a, w) => `On coinche le contrat adverse, pas celui de son camp (${w.bid(a.contract)}).`,
    nothing_to_surcoinche: () => "Personne n'a coinché : il n'y a rien à surcoincher.",
    surcoinche_bidders_only: () => "Seul le camp qui a annoncé peut surcoincher.",
    bidding_closed: (a, w) => `${w.bid(a.contract)} est coinché : surcoinchez ou passez.`,
    bid_too_low: (a, w) =>
      a.min === null
        ? `Aucune enchère ne monte au-dessus de ${w.bid(a.contract)}.`
        : `Il faut monter au-dessus de ${w.bid(a.contract)} : ${w.level(a.min)} au moins.`,
    bid_too_high: (a) => `Les enchères vont jusqu'à ${a.max}, puis capot.`,
    no_generale: () => "La générale ne se joue pas à cette table.",
    mode_not_played: (a, w) => `${w.mode(a.mode)} ne se joue pas à cette table.`,
    bad_settings: () => "Ces réglages sont illisibles.",
    unknown_setting: (a) => `Le réglage « ${a.option} » n'existe pas.`,
    bad_setting: (a, w) =>
      a.choices
        ? `Le réglage « ${a.option} » vaut ${w.or(a.choices)}, pas ${w.value(a.value)}.`
        : `Le réglage « ${a.option} » est un nombre entier de ${a.min} à ${a.max}, pas ${w.value(a.value)}.`,
    bad_name: (a) => `Un nom fait de ${a.min} à ${a.max} caractères.`,
    bad_seating: () => "Choisissez de jouer avec les autres joueurs contre des robots, ou là où le tirage vous place.",
    name_control_characters: () => "Un nom ne peut pas contenir de caractères de contrôle.",
    bad_seat: () => "Choisissez une place : Nord, Est, Sud ou Ouest.",
    no_such_seat: (a, w) => `Ce jeu n'a pas de place ${w.seat(a.seat)} : ses places sont ${w.seats(a.seats)}.`,
    seat_taken: (a, w) => `La place ${w.seat(a.seat)} est prise : choisissez une place libre.`,
    table_full: (a) => `La table est complète : ${a.players} joueurs y sont assis.`,
    too_many_people: (a, w) => {
      const leave = a.people - a.seats.length;
      return (
        `${w.game(a.variant)} se joue à ${a.seats.length} (${w.seats(a.seats)}) : ${a.people} personnes sont ` +
        `assises ici, ${leave} ${leave === 1 ? "doit" : "doivent"} d'abord partir.`
      );
    },
    game_started: (a) =>
      ({
        sit: "La partie a commencé : toutes les places sont prises.",
        seat: "La partie a commencé : on ne change de place qu'avant le début.",
        leave: "La partie a commencé : on ne quitte sa place qu'avant le début.",
        settings: "Les règles se choisissent avant le début de la partie.",
        start: "La partie a déjà commencé.",
        bot_seat: "La partie a commencé : un robot ne s'assoit qu'avant le début.",
      })[a.request] ?? "La partie a commencé.",
    host_stays: () => "L'hôte reste : la table est la sienne.",
    not_host: () => "Seul l'hôte de la table peut le faire.",
    not_started: () => "La partie n'a pas commencé : c'est l'hôte qui la lance.",
    waiting_for_others: (a, w) =>
      `La donne suivante commence quand tout le monde a lu le score : on attend ${w.seats(a.seats)}.`,
    match_not_over: () => "La partie n'est pas finie : une nouvelle commencera à la fin.",
    online_one_match: () => "Une table en ligne ne joue qu'une partie : cliquez sur Jouer en ligne pour une autre.",
    read_only: () => "Un spectateur ne peut pas jouer.",
    hints_solo_only: () => "Les conseils ne sont donnés qu'à une table contre les robots.",
    hints_off: () => "Les conseils sont désactivés à cette table : activez-les dans les réglages.",
    hint_busy: () => "Un conseil arrive : encore un instant.",
    already_seated: () => "Vous êtes déjà assis à cette table : une place par personne.",
    no_identity: () => "Ce navigateur n'a pas encore d'identité, ou elle a été supprimée : créez-en une, ou apportez la vôtre ici.",
    no_such_player: () => "Aucun joueur n'a ce nom et ce numéro.",
    no_such_match: () => "Cette partie n'est plus conservée.",
    no_such_tournament: () => "Ce tournoi n'existe pas (ou le lien est incomplet).",
    tournament_closed: () => "Ce tournoi n'est pas ouvert : il est terminé, ou pas encore commencé.",
    no_such_board: (a) => `Ce tournoi a les donnes 1 à ${a.boards}.`,
    board_played: (a) => `Vous avez joué la donne ${a.board} : chaque donne se joue une fois.`,
    board_not_played: (a) => `Les résultats de la donne ${a.board} s'affichent une fois que vous l'avez jouée.`,
    bad_boards: (a) => `Un tournoi a de ${a.min} à ${a.max} donnes.`,
    bad_dates: () => "Un tournoi se termine après son ouverture, dans les 31 jours.",
    bad_guest: () => "Le jeton d'invité de ce navigateur n'est pas valable : rechargez la page.",
    no_entrant: () => "Choisissez un nom pour jouer le tournoi.",
    bad_month: () => "Un mois s'écrit AAAA-MM.",
    tournament_board: () => "Une donne de tournoi se joue une fois, en une donne.",
    bad_handle: () => "Désignez un joueur par son nom et son numéro, comme Léa#4821.",
    bad_password: (a) => `Un mot de passe compte de ${a.min} à ${a.max} caractères.`,
    bad_code: () => "Ce code est faux, déjà utilisé ou expiré : demandez-en un nouveau sur votre autre appareil.",
    login_failed: () => "Aucune identité n'a ce nom et ce mot de passe.",
    self: () => "C'est vous.",
    blocked: () => "L'un de vous a bloqué l'autre.",
    not_friends: () => "Vous invitez vos amis : chacun ajoute l'autre d'abord.",
    no_such_problem: () => "Ce problème n'existe pas : passez au suivant.",
    not_a_legal_card: (a, w) => `Vous ne pouvez pas jouer cette carte ici : ${w.cards(a.cards)}.`,
    bad_chat: (a) => `Un message fait de 1 à ${a.max} caractères.`,
    chat_too_long: (a) => `Un message fait au plus ${a.max} caractères.`,
    chat_control_characters: () => "Un message ne peut pas contenir de caractères de contrôle.",
    bad_reaction: () => "Cette réaction n'existe pas.",
    slow_down: (a) => `Doucement : ${a.count} messages au plus en ${a.seconds} secondes.`,
    too_long: (a) => `Message trop long : ${a.max} octets au plus.`,
    not_json: () => "Le message n'est pas du JSON.",
    too_deep: (a) => `Le message est imbriqué trop profond : ${a.max} niveaux au plus.`,
    bad_text: () => "Le message contient du texte qui n'est pas de l'Unicode valide.",
    json_only: () => "Une requête s'envoie en JSON.",
    bad_origin: () => "Ce serveur n'accepte pas de requête de cette page.",
    too_many_tables: (a) => `Trop de nouvelles tables : ${a.count} au plus en ${a.seconds} secondes. Patientez un peu.`,
    too_many_created: (a) => `Trop de nouvelles tables et feuilles de marque depuis votre adresse : ${a.count} au plus en ${a.seconds} secondes. Patientez un peu.`,
    too_many_sockets: (a) => `Trop de connexions depuis votre adresse : ${a.max} au plus.`,
    bad_message: () => "Un message est un objet avec un « type ».",
    bad_request: () => "La requête doit être un objet JSON.",
    unknown_type: (a) => `Type de message inconnu : « ${a.type} ».`,
    not_joined: () => "Rejoignez d'abord une table.",
    no_such_table: () => "Cette table n'existe pas, ou le lien est faux.",
    flooding: (a) => `Trop de messages refusés : ${a.count} au plus en ${a.seconds} s.`,
    server_error: () => "Le serveur n'a pas pu le faire tout de suite : réessayez.",
    not_saved: () => "Le serveur n'a pas pu l'enregistrer, rien n'a changé : réessayez.",
    store_unreachable: () => "Le serveur ne peut pas joindre son stockage pour le moment : la partie reprend bientôt.",
    too_many_connections: (a) => `Trop de connexions depuis votre adresse : ${a.max} au plus à la fois.`,
    server_full: () => "Le serveur est complet pour le moment : réessayez dans un instant.",
    request_timeout: (a) =>
      `La requête a mis trop longtemps à arriver (plus de ${String(a.seconds).replace(".", ",")} s) : réessayez.`,
    bad_host: () => "Ce serveur ne répond pas à ce nom.",
    not_text: () => "Ce serveur n'accepte que des messages texte.",
    store_full: () =>
      "Le disque du serveur est plein : rien de nouveau ne peut être enregistré pour l'instant, et rien n'est perdu. Réessayez plus tard.",
    not_a_record: () => "Ce n'est pas un enregistrement de donne.",
    illegal_record: () => "Cet enregistrement de donne contient une action que les règles refusent.",
    deal_not_over: () => "La donne n'est pas finie : son analyse s'ouvre à la fin.",
    analysis_running: () => "Une analyse à la fois : attendez la fin de celle en cours.",
    analyses_busy: () => "Le serveur analyse déjà d'autres donnes : réessayez dans quelques secondes.",
  },
};

/** The codes this page words (each in English and in French). */
export const REFUSAL_CODES = Object.keys(WORDS.en);

/**
 * A refusal in the player's language (`en` or `fr`; any other reads English). An unknown code, or
 * args the words cannot be made from, give the server's English message instead.
 */
export function refusalText(err, lang = "en") {
  const words = (WORDS[lang] ?? WORDS.en)[err?.code];
  const message = err?.message ?? "";
  if (!words) return message;
  try {
    const text = words(err.args ?? {}, helpers(NAMES[lang] ? lang : "en"));
    return text.includes("undefined") ? message : text;
  } catch {
    return message;
  }
}
