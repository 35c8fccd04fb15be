package jokerbank

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 2 // 23 configurations: every player count 2–10 and every option value
	s.Strict = true
	gametest.Run(t, Rules(), s)
}
