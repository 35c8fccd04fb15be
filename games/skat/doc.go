// Package skat is Robber Skat ("Скат (разбойничий)") for 3 players, or 4 with the dealer sitting
// out each deal, as specified in shared/rules/skat.md (the binding rules; sections are cited as
// "skat.md §N", its decisions as "D-numbers").
//
// A match is a fixed number of deals (option match_deals, default 12, a multiple of the player
// count, §14). The first dealer is drawn from the seed; the deal passes to the left. Each deal:
//
//   - deal (§3): 3 cards each from forehand, 2 to the skat, 4 each, 3 each;
//   - auction (§4): "bid/N" with N from the ladder of §4.4, "hold", "pass" — middlehand bids to
//     forehand, then rearhand to the survivor. The ladder is derived from Value over every
//     contract (BidValues), so the value switches change it;
//   - nobody bid (§4.5): forehand chooses "playat/18", "ramsch" or "throwin" ("throwin" is not
//     offered with ramsch_mandatory);
//   - declaring (§5): "skat" (pick up; the declarer alone sees the two cards, then lays away two
//     with two "discard/CARD" actions) or "hand"; then the game: "clubs", "spades", "hearts",
//     "diamonds", "grand", and in hand games "null" or "nullouvert"; then, for suit games and
//     Grand when there is a choice, one of "simple", "schneider", "schwarz" and (hand only) "open",
//     "openschneider", "openschwarz". Open games show the declarer's cards on the table;
//   - play (§6, §7): ten tricks of "play/CARD"; Null ends at the declarer's first trick, an
//     announced schwarz at the opponents' first trick;
//   - settling (§8–§13): Settle scores a declared game, RamschScores a Ramsch; the skat is turned
//     up for everybody and a result line in Skat list style is posted (EventDealEnd).
//
// Options. "preset" picks the rules in one press: "seed" (skat.md as written) or "isko" (the
// International Skat Order). Each §16 switch is its own option whose default value "preset"
// means "whatever the preset says"; any other value overrides the preset for that switch only.
// The isko preset sets:
//
//	grand_base=24  null_ouvert_value=46  schneider_min_points=90  announce_levels=isko
//	announce_requires_hand=true  open_mode=isko  loss_scoring=isko  ramsch_mandatory=false
//
// ramsch_mandatory stays false under isko: the ISkO has no Ramsch and throws a passed-out deal in,
// so throwing in remains available. The §4.5 choice and the seed's other rules (no Null with the
// skat, D3) are not switches and are the same under both presets.
//
// The pure functions Follow, Beats, TrickWinner, LegalPlays, Matadors, Value, Settle,
// RamschScores, BidValues and the Auction type are the rules themselves (kinds.go, value.go,
// ramsch.go, auction.go); the State only sequences them. The files follow the engines' template:
// rules.go (Rules and its options), state.go (the state, ToAct, Legal, Score), apply.go (Apply
// and the automatic steps), view.go (View, what agents read in games.View.Game), msgs.go (the
// messages of the table, the events and the sheet), audit.go (Zones, Deck, Redeal), marshal.go
// (the stored form and its strict decoder) and agent.go (the computer player, Rules().Agent()).
package skat
