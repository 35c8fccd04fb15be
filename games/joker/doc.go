// Package joker implements the two games of shared/rules/joker.md that share the 54-card deck
// (52 cards and the jokers X1, X2).
//
// Rules (game id "joker", version 2) is the trick game: a party of 13 deals of 2..8..2 cards
// (HandSize). Each deal runs through three phases: the deal and the turn-up that fixes trump (a
// joker turned: no trump); bidding from the dealer's left, the dealer last and restricted
// (ForbiddenBid, J-HOOK), a bid of 0 being the action "pass"; and play, the dealer leading first
// (J-FIRSTLEAD; option "firstlead" lets the player on his left lead). LegalPlays, TrickWinner and
// ResolveCalls hold the following and joker rules; a joker is played as "high/X1" or "low/X1",
// the second joker of a trick as a plain "play/X2" that takes the opposite value (J-TWOJOKERS).
// After the last trick ScoreDeal scores the deal, joker-lead penalties included (J-LEADPEN), and
// the next deal is dealt. Option "parties" = "3" plays a match (J-MATCH): MatchAfterRegular and
// MatchAfterExtra decide between another party, an extra party among the candidates, and the
// winner. The bot offers only legal plays, so the revoke penalty (J-REVOKE) exists only in
// ScoreDeal.
//
// BankRules (game id "jokerbank", version 1) is the banker game: the first banker by draw
// (J1-BANKER); each round every punter stakes privately ("stake/N", all of them in ToAct at
// once); when all are in, the banker turns up to 14 cards calling Joker, Ace, King … Two
// (CalledRank, IsHit), each turn reported as an event, and Settle pays out (J1-SETTLE), the bank
// passing left after fourteen misses. Options set the stake ceiling and the session length
// (J1-END; "open" sessions end when a punter chooses "stop").
package joker
