package nasilie

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// suite runs one seed per configuration, the playouts capped by PlayoutOptions. The decoder is
// strict, so the suite also feeds it corrupted copies of the states it reaches.
var suite = func() gametest.Settings {
	s := gametest.Settings{Seeds: 1, MaxSteps: 200_000, LeakEvery: 7, Strict: true}
	if raceBuild {
		// Under -race every step costs ten times more: the leak and corruption checks run less
		// often.
		s.LeakEvery = 23
	}
	return s
}()

func TestConformance(t *testing.T) {
	gametest.Run(t, Rules(), suite)
}

// The five-player 32-card form (dealer sits out) only applies to five players, which Run's
// option configurations (smallest and largest count) do not reach.
func TestConformanceFiveDealerOut(t *testing.T) {
	cfg := games.Config{Players: 5, Options: map[string]string{OptFive: FiveDealer, OptRounds: "3"}}
	for _, seed := range []uint64{3} {
		st, err := Rules().New(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		gametest.Playout(t, Rules(), cfg, seed, st, suite)
	}
}

func TestImports(t *testing.T) {
	gametest.CheckImports(t, "github.com/kozyr-bot/kozyr/games/nasilie")
}
