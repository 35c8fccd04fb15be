// Package nasilie is Nasilie, the Maastricht game Staekske Rape ("pick up the stock"): four players
// each for themselves with 32 cards (five or six with the 52-card pack), a Jass-like trump order,
// an auction for the right to name trump, a 4-card stock, melds, and a race to 100 game points.
//
// The rules are ../shared/rules/nasilie.md (cited as "nasilie.md §Section" and by decision id, e.g.
// N-ROUND). One deal runs through these phases:
//
//   - auction: from the nanny (the dealer's left) clockwise; every player first looks at his cards
//     or bids 2 blind; then bids go 3, 4, 5, … one step at a time up to 42, a pass is final;
//   - nanny: if everybody passed, the nanny plays a game of 1 or declines for −10;
//   - stock: the declarer takes the stock (and lays away 4 cards) or leaves it for doubled points;
//   - trump and melds: the declarer names trump and declares melds (indexed meld/N actions);
//   - play: 7 tricks, the declarer leads; stoek may also be declared with the trump K or Q;
//   - scoring: reached against needed game points; the next deal follows until a total reaches 100.
//
// Options (Rules().Options): follow (strict seed rule, or pagat's "may trump at any time"), five
// (five players with 52 cards, or 32 cards with the dealer sitting out) and rounds (the longest
// match: random or cautious play rarely reaches 100, so after rounds × players deals the highest
// total wins; this cap is the bot's addition to the rules).
//
// The package follows the engines' template: rules.go (Rules and its options), state.go (the
// state, a value, and what follows from it), apply.go (ToAct, Legal, Apply), view.go (View, the
// table, the score sheet), audit.go (Zones, Deck, Redeal), marshal.go (the strict stored form),
// agent.go (the computer player). The pure rule functions the vectors in testdata/vectors call,
// and the agent plays with, are play.go (CardPoints, Strength, TrickWinner, LegalPlays), melds.go
// (MeldPoints, BestMelds) and score.go (ScoreHand).
package nasilie
