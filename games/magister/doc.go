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
// The engine follows the template of every game package: rules.go (the Rules and its options),
// state.go (the state, ToAct, Legal, Score), apply.go (Apply and the automatic steps), view.go
// (View, the agents' structured view), audit.go (Zones, Deck, Redeal), marshal.go (the versioned,
// strict encoding) and agent.go (the computer player, Rules().Agent()). The rules themselves are
// pure functions beside them, which Legal, Apply, the agent and the rule vectors in
// testdata/vectors all call: card.go (the pack, seniority, the beating table of §5), bank.go
// (Bank.Play, Bank.Resolve, LegalPlays: §6 and §7), trumps.go (the variants of §3), schedule.go
// (the contracts and scoring of §8) and sheet.go (the sheet, places and ratings of §9 and §10).
package magister
