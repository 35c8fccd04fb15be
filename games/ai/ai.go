// Package ai holds the computer players. An Agent chooses from what a seat may know (its View and
// its Legal actions), never from the hidden State, so an agent sitting in for an absent player
// cannot cheat (design §5).
package ai

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
)

// Agent picks one of legal for the seat whose view v is. legal is never empty. rng is the only
// source of randomness, so a table replays the same agent moves from the same seed.
type Agent interface {
	Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action
}

// Random plays a uniformly random legal action: the baseline the real agents must beat.
type Random struct{}

// Choose returns a random element of legal.
func (Random) Choose(_ games.View, legal []games.Action, rng *rand.Rand) games.Action {
	return legal[rng.IntN(len(legal))]
}

// agents maps a game name to its agent constructor; each game's file adds itself in a var block.
var agents = map[string]func() Agent{}

// For returns the best agent for the game, or Random for a game without one.
func For(game string) Agent {
	if mk, ok := agents[game]; ok {
		return mk()
	}
	return Random{}
}
