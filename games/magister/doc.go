// Package magister is the engine of Magister (Магистр), the bank game of
// ../shared/rules/magister.md: 2–4 players, one 36-card pack, 24 deals with a fixed contract
// each, five trump variants.
//
// Phases of a match:
//   - trump choice (variant 1 without trumps=random only): before deal 1 each player, starting
//     left of the first dealer, picks his own trump from the suits still free (§3, M-TRUMPCHOICE);
//   - 24 deals (§8.1): the pack is dealt (9 cards each in the "All" deals 1 and 13), the first
//     leader leads (§2.5), and banks are played and resolved by rules R1–R5 (§6) with the legal
//     plays of §7, each taker leading the next bank; deals whose scoring cards are all taken end
//     early (M-EARLYEND); the deal is scored (§8) and the next dealer is its first leader;
//   - the match end: the score sheet of §9 (halves, totals, places) and the rating of §10.
//
// The bank rules are pure functions (Bank.Play, Bank.Resolve, LegalPlays) so the rule vectors in
// testdata/vectors and the agent (agent.go, reached through Rules().Agent()) can call them
// directly.
package magister
