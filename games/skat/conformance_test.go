package skat

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the engine contract's suite over 3 and 4 players, both presets, every
// switch value and every match length. There are 48 configurations, so one seed each keeps the
// package under a minute with -race; TestPlayouts adds many more seeded matches cheaply.
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 1
	gametest.Run(t, Rules(), s)
}
