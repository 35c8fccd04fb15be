package main

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/ai"
	"github.com/kozyr-bot/kozyr/games/search"
)

// ruleAgent is the game's own agent: its Rules' once the engine has one (games.AgentRules), else
// the one games/ai still holds for it, so the arena measures the real agents while the engines move
// them into their packages. This file, and the ai import with it, goes when games/ai does.
func ruleAgent(r games.Rules) games.Agent {
	if _, ok := r.(games.AgentRules); ok {
		return games.AgentFor(r)
	}
	return ai.For(r.Name())
}

// rolloutAgent is the agent the search rolls out with, found the same way.
func rolloutAgent(r games.Rules) games.Agent {
	switch r.(type) {
	case games.RolloutRules, games.AgentRules:
		return games.RolloutAgentFor(r)
	}
	return ai.For(r.Name())
}

// playerFor is the computer player of r at level l as the bot would play it (search.New), with the
// agents above, the budget scaled by s.scale, and s.random and s.margin in place of its
// RandomAfter and Margin when set.
func playerFor(r games.Rules, l search.Level, s settings) search.Search {
	x := search.New(r, l)
	x.Agent, x.Policy = ruleAgent(r), rolloutAgent(r)
	if x.Budget.Worlds == 0 {
		return x
	}
	if s.scale != 1 {
		x.Budget.Worlds = max(2, int(float64(x.Budget.Worlds)*s.scale))
		x.Budget.Steps = max(1, int(float64(x.Budget.Steps)*s.scale))
	}
	if s.random >= 0 {
		x.Budget.RandomAfter = s.random
	}
	if s.margin >= 0 {
		x.Budget.Margin = s.margin
	}
	return x
}
