package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

func TestConformance(t *testing.T) {
	gametest.Run(t, Rules(), gametest.Defaults)
}
