package jokerbank

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// FuzzApply feeds arbitrary action text to states reached by random play: Apply must never panic
// and must leave its receiver unchanged when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"stake/5", "stake/1", "stake/50", "stop", "stake/0", "stake/-1", "stake/51",
		"stake", "stake/X1", "pass", "stake/99999999999", "x/y/z"} {
		f.Add(uint64(1), uint8(10), uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, seat uint8, text string) {
		for _, r := range []games.Rules{Rules()} {
			lo, _ := r.Seats()
			st, err := r.New(games.Config{Players: lo + int(seed%3)}, seed)
			if err != nil {
				t.Fatal(err)
			}
			if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 7)), int(steps)); err != nil {
				t.Fatal(err)
			}
			gametest.CheckApply(t, st, games.Seat(int(seat)%12-1), text)
		}
	})
}

// FuzzUnmarshal: corrupt bytes give an error, never a panic; a state that loads can be used.
func FuzzUnmarshal(f *testing.F) {
	for _, r := range []games.Rules{Rules()} {
		st, _ := r.New(games.Config{Players: 3}, 1)
		b, _ := st.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		gametest.CheckUnmarshal(t, Rules(), b)
	})
}
