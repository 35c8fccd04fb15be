package nasilie

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// randomState plays steps random legal actions from a new match.
func randomState(tb testing.TB, players int, seed uint64, steps int) games.State {
	st, err := Rules().New(games.Config{Players: players}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for range steps {
		toAct := st.ToAct()
		if len(toAct) == 0 {
			break
		}
		s := toAct[0]
		l := st.Legal(s)
		if st, _, err = st.Apply(s, l[rng.IntN(len(l))]); err != nil {
			tb.Fatal(err)
		}
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
		st := randomState(t, 4+int(seed%3), seed, int(steps))
		a, err := games.ParseAction(text)
		if err != nil {
			return
		}
		before, _ := st.MarshalBinary()
		next, _, err := st.Apply(games.Seat(seat%8)-1, a)
		after, _ := st.MarshalBinary()
		if !bytes.Equal(before, after) {
			t.Fatal("Apply changed its receiver")
		}
		if err == nil && next == nil {
			t.Fatal("Apply returned no state")
		}
	})
}

// BenchmarkPlayout plays whole random four-player matches (default options).
func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Loop(); i++ {
		st, err := Rules().New(games.Config{Players: 4}, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		for {
			toAct := st.ToAct()
			if len(toAct) == 0 {
				break
			}
			l := st.Legal(toAct[0])
			if st, _, err = st.Apply(toAct[0], l[rng.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}

// FuzzUnmarshal feeds arbitrary bytes to Unmarshal: it refuses them with ErrCorrupt or gives a
// state whose methods do not panic.
func FuzzUnmarshal(f *testing.F) {
	for _, steps := range []int{0, 9, 17, 40, 300} {
		b, _ := randomState(f, 4+steps%3, uint64(steps), steps).MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := Rules().Unmarshal(b)
		if err != nil {
			if !errors.Is(err, games.ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		st.Score()
		st.(games.Auditor).Zones()
		for s := games.Nobody; s < 6; s++ {
			st.View(s)
			for _, a := range st.Legal(s) {
				_, _, _ = st.Apply(s, a)
			}
		}
	})
}
