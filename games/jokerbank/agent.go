package jokerbank

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
)

// Agent punts in the banker game. A punter loses about a third of his stake per round on average
// (the banker hits with a joker first, or on one of the thirteen rank calls, far more often than
// he misses all fourteen), so the sensible stake is the table's minimum; and it never ends an open
// session.
type Agent struct{}

// Choose stakes the smallest amount offered.
func (Agent) Choose(_ games.View, legal []games.Action, _ *rand.Rand) games.Action {
	best := legal[0]
	for _, a := range legal {
		if a.Kind == KindStake && (best.Kind != KindStake || a.N < best.N) {
			best = a
		}
	}
	return best
}
