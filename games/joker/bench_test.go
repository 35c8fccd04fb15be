package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// BenchmarkPlayout plays full random joker parties (3 players, the default single party).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 3})
}

// BenchmarkPlayoutMatch plays full random joker matches of up to three parties (3 players).
func BenchmarkPlayoutMatch(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 3, Options: map[string]string{OptParties: "3"}})
}
