// Package ai holds the computer players until each moves into its own game's package, reached
// through games.AgentRules; the interface and the random agent already live in package games.
package ai

import "github.com/kozyr-bot/kozyr/games"

// Agent is games.Agent, aliased so the agents here compile unchanged while they move out.
type Agent = games.Agent

// Random is games.Random, aliased for the same reason.
type Random = games.Random

// agents maps a game name to its agent constructor; each game's file adds itself in a var block.
var agents = map[string]func() Agent{}

// For returns the best agent for the game, or Random for a game without one.
func For(game string) Agent {
	if mk, ok := agents[game]; ok {
		return mk()
	}
	return Random{}
}
