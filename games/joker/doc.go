// Package joker is the trick game of shared/rules/joker.md (version 2), game id "joker".
//
// A party is 13 deals of 2..8..2 cards (HandSize) for 2 to 6 players, played with the 54-card Pack
// (52 cards and the jokers X1, X2). Each deal runs through three phases: the deal and the turn-up
// that fixes trump (a joker turned: no trump); bidding from the dealer's left, the dealer last and
// restricted (ForbiddenBid, J-HOOK), a bid of 0 being the action "pass"; and play, the dealer
// leading first (J-FIRSTLEAD; option "firstlead" lets the player on his left lead). LegalPlays,
// TrickWinner and ResolveCalls hold the following and joker rules; a joker is played as "high/X1"
// or "low/X1", the second joker of a trick as a plain "play/X2" that takes the opposite value
// (J-TWOJOKERS). After the last trick ScoreDeal scores the deal, joker-lead penalties included
// (J-LEADPEN), and the next deal is dealt. Option "parties" = "3" plays a match (J-MATCH):
// MatchAfterRegular and MatchAfterExtra decide between another party, an extra party among the
// candidates, and the winner. The bot offers only legal plays, so the revoke penalty (J-REVOKE)
// exists only in ScoreDeal.
//
// The banker game of the same rules file (version 1) is package jokerbank; the two share the Pack.
package joker
