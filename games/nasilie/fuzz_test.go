package nasilie

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// randomState plays steps random legal actions from a new match.
func randomState(tb testing.TB, players int, seed uint64, steps int) games.State {
	st, err := Rules().New(games.Config{Players: players}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), steps); err != nil {
		tb.Fatal(err)
	}
	return st
}

// FuzzApply feeds arbitrary action text to a state somewhere in a match: Apply must never panic
// and must leave the state unchanged when it refuses.
func FuzzApply(f *testing.F) {
	for _, a := range []string{"look", "blind", "pass", "bid/3", "bid/43", "meld/0", "meld/99", "all",
		"done", "take", "leave", "discard/SA", "play/CJ", "stoek/HK", "hearts", "playone", "decline", "play/X1"} {
		f.Add(uint64(1), uint8(0), uint8(0), a)
		f.Add(uint64(2), uint8(30), uint8(1), a)
		f.Add(uint64(3), uint8(200), uint8(5), a)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, seat uint8, text string) {
		gametest.CheckApply(t, randomState(t, 4+int(seed%3), seed, int(steps)), games.Seat(seat%8)-1, text)
	})
}

// BenchmarkPlayout plays whole random four-player matches (capped by PlayoutOptions: random play
// never reaches 100).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 4})
}

// FuzzUnmarshal feeds arbitrary bytes to Unmarshal: it refuses them with ErrCorrupt or gives a
// state whose methods do not panic.
func FuzzUnmarshal(f *testing.F) {
	for _, steps := range []int{0, 9, 17, 40, 300} {
		b, _ := randomState(f, 4+steps%3, uint64(steps), steps).MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshal(t, Rules(), b) })
}
