package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the contract suite, strict decoding included, for 2–6 players and every
// variant.
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Strict = true
	if raceBuild {
		// Under -race every step costs ten times more; one seed per configuration keeps the
		// package within the test timeout of a loaded machine.
		s.Seeds = 1
	}
	gametest.Run(t, Rules(), s)
}
