package games

import "math/rand/v2"

// Agent is a computer player. It chooses from what a seat may know (its View and its Legal
// actions), never from the hidden State, so an agent sitting in for an absent player cannot cheat.
type Agent interface {
	// Choose picks one of legal for the seat whose view v is; legal is never empty. rng is its
	// only source of randomness, so a table replays the same agent moves from the same seed.
	Choose(v View, legal []Action, rng *rand.Rand) Action
}

// Random plays a uniformly random legal action: the agent of a game without its own, and the
// baseline a game's own agent must beat.
type Random struct{}

// Choose returns a uniformly random element of legal.
func (Random) Choose(_ View, legal []Action, rng *rand.Rand) Action {
	return legal[rng.IntN(len(legal))]
}

// AgentRules is implemented by the Rules of a game that has its own computer player, so the bot
// asks the game for its agent instead of a registry kept elsewhere.
type AgentRules interface {
	Agent() Agent
}

// AgentFor is the agent that plays r: its own, or Random for a game without one.
func AgentFor(r Rules) Agent {
	if ar, ok := r.(AgentRules); ok {
		if a := ar.Agent(); a != nil {
			return a
		}
	}
	return Random{}
}
