package jokerbank

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the contract suite, strict decoding included, for 2–10 players and every
// variant.
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 2 // 23 configurations: every player count 2–10 and every option value
	s.Strict = true
	if raceBuild {
		s.Seeds = 1 // under -race every step costs ten times more
	}
	gametest.Run(t, Rules(), s)
}
