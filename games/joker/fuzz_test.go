package joker

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// FuzzApply feeds arbitrary action text to states reached by random play: Apply must never panic
// and must leave its receiver unchanged when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"pass", "bid/3", "play/S10", "high/X1", "low/X2", "play/X2", "stake/5",
		"stop", "bid/-1", "stake/0", "play", "high/SA", "bid/99999999999", "x/y/z"} {
		f.Add(uint64(1), uint8(10), uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, seat uint8, text string) {
		a, err := games.ParseAction(text)
		if err != nil {
			return
		}
		for _, r := range []games.Rules{Rules(), BankRules()} {
			lo, _ := r.Seats()
			st, err := r.New(games.Config{Players: lo + int(seed%3)}, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			for range int(steps) {
				to := st.ToAct()
				if len(to) == 0 {
					break
				}
				s := to[rng.IntN(len(to))]
				l := st.Legal(s)
				if st, _, err = st.Apply(s, l[rng.IntN(len(l))]); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := st.MarshalBinary()
			s := games.Seat(int(seat)%12 - 1)
			_, _, err = st.Apply(s, a)
			after, _ := st.MarshalBinary()
			if !bytes.Equal(before, after) {
				t.Fatalf("Apply(%d, %v) changed its receiver (err %v)", s, a, err)
			}
		}
	})
}

// FuzzUnmarshal: corrupt bytes give an error, never a panic; a state that loads can be used.
func FuzzUnmarshal(f *testing.F) {
	for _, r := range []games.Rules{Rules(), BankRules()} {
		st, _ := r.New(games.Config{Players: 3}, 1)
		b, _ := st.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, r := range []games.Rules{Rules(), BankRules()} {
			st, err := r.Unmarshal(b)
			if err != nil {
				continue
			}
			for s := games.Nobody; s < 10; s++ {
				st.View(s)
				for _, a := range st.Legal(s) {
					st.Apply(s, a)
				}
			}
			st.Score()
		}
	})
}
