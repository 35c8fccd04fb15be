package main

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
)

// playerFor is the computer player of r at level l as the bot would play it (search.New), with the
// budget scaled by s.scale, and s.random and s.margin in place of its RandomAfter and Margin when
// set.
func playerFor(r games.Rules, l search.Level, s settings) search.Search {
	x := search.New(r, l)
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
