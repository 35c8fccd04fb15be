package wizard

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the contract suite for 3–6 players and every variant, the strict decoding
// checks included.
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Strict = true
	if raceBuild {
		// Under -race every step costs ten times more; fewer seeds keep the package under a minute.
		s.Seeds, s.LeakEvery = 1, 11
	}
	gametest.Run(t, Rules(), s)
}
