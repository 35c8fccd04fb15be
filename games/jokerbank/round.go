package jokerbank

import "github.com/kozyr-bot/kozyr/games/cards"

// Turns is the most cards a banker turns in one round (joker.md version 1, "One round").
const Turns = 14

// CalledRank is the rank the banker calls on turn 1..14: 0 stands for Joker (turn 1), then Ace,
// King, Queen, Jack, 10 down to 2 (joker.md version 1, "One round" step 3).
func CalledRank(turn int) cards.Rank {
	if turn <= 1 || turn > Turns {
		return 0
	}
	return cards.Rank(16 - turn)
}

// IsHit reports whether card c turned on turn 1..14 has the rank called: either joker on turn 1,
// the called rank of any suit on turns 2..14; a joker on turns 2..14 is a miss.
func IsHit(turn int, c cards.Card) bool {
	if turn == 1 {
		return c.IsJoker()
	}
	return turn <= Turns && c.IsFrench() && c.Rank() == CalledRank(turn)
}

// BankOutcome is how a banker round ended; its text is the vectors'.
type BankOutcome string

// Round outcomes (joker.md version 1, "Settlement", J1-SETTLE).
const (
	BankerWinsDouble BankOutcome = "banker_wins_double" // a joker came up first
	BankerWins       BankOutcome = "banker_wins"        // a hit on turns 2..14
	BankerLoses      BankOutcome = "banker_loses"       // fourteen misses
)

// Settlement is the result of one banker round.
type Settlement struct {
	Hit        int         // 1-based turn of the hit, 0 after fourteen misses
	Outcome    BankOutcome // what happened
	Deltas     []int       // per punter, in the order of the stakes
	Banker     int         // the banker's change; the sum of Deltas negated
	PassesLeft bool        // the bank passes to the banker's left-hand neighbour
}

// Settle settles a round (joker.md version 1, "Settlement", J1-SETTLE, J1-ROUND): stakes are the
// punters' stakes, turned the cards in the order turned; only the cards up to the first hit (at
// most 14) count.
func Settle(stakes []int, turned []cards.Card) Settlement {
	s := Settlement{Outcome: BankerLoses, PassesLeft: true, Deltas: make([]int, len(stakes))}
	for i, c := range turned {
		if i >= Turns {
			break
		}
		if IsHit(i+1, c) {
			s.Hit, s.PassesLeft = i+1, false
			break
		}
	}
	switch {
	case s.Hit == 1:
		s.Outcome = BankerWinsDouble
	case s.Hit > 1:
		s.Outcome = BankerWins
	}
	for i, st := range stakes {
		s.Deltas[i] = payout(s.Hit) * st
		s.Banker -= s.Deltas[i]
	}
	return s
}

// payout is what a punter wins per unit staked in a round whose hit came on turn hit (0: fourteen
// misses): he pays twice his stake after a joker first, his stake after another hit, and is paid
// his stake after fourteen misses (J1-SETTLE).
func payout(hit int) int {
	switch {
	case hit == 1:
		return -2
	case hit > 1:
		return -1
	}
	return 1
}

// DrawRank orders the cards of the draw for the first banker: 2 < … < A < JOKER, suits equal
// (joker.md version 1, "Players and cards").
func DrawRank(c cards.Card) int {
	if c.IsJoker() {
		return 15
	}
	return int(c.Rank())
}
