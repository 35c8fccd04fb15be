package ai

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/jokerbank"
)

func init() { agents["jokerbank"] = func() Agent { return JokerBankAgent{} } }

// JokerBankAgent punts in the Joker banker game (joker.md version 1). A punter loses about a third
// of his stake per round on average (the banker hits with a joker first, or on one of the thirteen
// rank calls, far more often than he misses all fourteen), so the sensible stake is the table's
// minimum; and it never ends an open session.
type JokerBankAgent struct{}

// Choose stakes the smallest amount offered.
func (JokerBankAgent) Choose(v games.View, legal []games.Action, _ *rand.Rand) games.Action {
	best := legal[0]
	for _, a := range legal {
		if a.Kind == jokerbank.KindStake && (best.Kind != jokerbank.KindStake || a.N < best.N) {
			best = a
		}
	}
	return best
}
