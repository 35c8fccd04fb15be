package jokerbank

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// BenchmarkPlayout plays full random jokerbank sessions (5 players, 20 rounds).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 5})
}
