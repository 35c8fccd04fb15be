// Package wizard is Ken Fisher's Wizard for 3–6 players, as specified in
// shared/rules/wizard.md (the binding rules; sections are cited as "wizard.md §N").
//
// A match is 60/players rounds (or the rounds a short_game option keeps); round r deals r cards
// each. Every round runs through these phases:
//
//   - deal: r cards to each player from the dealer's left; the next card is turned for trump
//     (suit: trump; Jester or no card left: no trump; Wizard: the dealer names a suit with a
//     "trump/N" action, N = 0 clubs, 1 diamonds, 2 hearts, 3 spades);
//   - bidding: "bid/N" from the dealer's left, the dealer last (all at once, secretly, with
//     hidden_bids; the dealer may not make the total equal r with bids_cannot_match);
//   - play: r tricks of "play/CARD", the dealer's left leading the first and each trick's winner
//     the next; Wizards and Jesters may always be played, suited cards must follow the led suit;
//   - scoring: 20 + 10 per trick for an exact bid, −10 per trick off otherwise.
//
// The pure functions LedSuit, LegalPlays, TrickWinner, RoundScore, Rounds and HasTrumpCard are the
// rules themselves; the State only sequences them, and its Legal is the one list of what a seat
// may do. View is the structured table an agent reads, and Agent, which Rules hands out through
// games.AgentRules, is the computer player built on it.
package wizard
