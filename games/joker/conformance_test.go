package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Strict = true
	gametest.Run(t, Rules(), s)
}
