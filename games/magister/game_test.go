package magister

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the engine contract's suite, with the strict decoder's checks, for 2, 3
// and 4 players and every option value (all five variants, random trumps, every suit choice of
// variants 3 and 4).
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 1      // 29 configurations of 24 deals each; more seeds exceed the -race time budget
	s.LeakEvery = 13 // about 56 no-leak and corruption checks per game still
	s.Strict = true
	gametest.Run(t, Rules(), s)
}

// TestConformanceVariants plays variants 2–5 with 2, 3 and 4 players: Configs covers every
// non-default option value only at the smallest and largest table.
func TestConformanceVariants(t *testing.T) {
	for v := 2; v <= 5; v++ {
		for n := 2; n <= 4; n++ {
			cfg := games.Config{Players: n, Options: map[string]string{OptVariant: string(rune('0' + v))}}
			seed := uint64(100*v + n)
			st, err := Rules().New(cfg, seed)
			if err != nil {
				t.Fatalf("variant %d, %d players: %v", v, n, err)
			}
			gametest.Playout(t, Rules(), cfg, seed, st, gametest.Settings{MaxSteps: 10_000, LeakEvery: 11, Strict: true})
		}
	}
}
