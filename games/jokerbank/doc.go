// Package jokerbank is the banker game of shared/rules/joker.md (version 1), game id "jokerbank".
//
// The first banker is drawn by lot (J1-BANKER, DrawRank). Each round every punter stakes privately
// ("stake/N", all of them in ToAct at once); when all are in, the banker turns up to 14 cards of
// the freshly shuffled joker.Pack calling Joker, Ace, King … Two (CalledRank, IsHit), each turn
// reported as an event, and Settle pays out (J1-SETTLE), the bank passing left after fourteen
// misses. Options set the stake ceiling and the session length (J1-END; "open" sessions end when
// a punter chooses "stop").
package jokerbank
