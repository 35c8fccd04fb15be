package magister

import (
	"bytes"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// FuzzApply feeds arbitrary action texts to states along a game: Apply must never panic and must
// leave the state unchanged when it fails.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"play/S6", "play/HA", "spades", "clubs", "play/X1", "pass", "play/S6/1", "bid/3"} {
		f.Add(uint64(1), uint8(0), 3, s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, seat uint8, steps int, text string) {
		cfg := games.Config{Players: 2 + int(seed%3), Options: map[string]string{OptVariant: string(rune('1' + seed%5))}}
		st, err := Rules().New(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		for range steps % 200 {
			s := st.ToAct()[0]
			st, _, err = st.Apply(s, st.Legal(s)[0])
			if err != nil {
				t.Fatal(err)
			}
		}
		a, err := games.ParseAction(text)
		if err != nil {
			return
		}
		before, _ := st.MarshalBinary()
		next, _, err := st.Apply(games.Seat(int(seat)%6-1), a)
		after, _ := st.MarshalBinary()
		if !bytes.Equal(before, after) {
			t.Fatalf("Apply changed its receiver")
		}
		if err == nil {
			if _, err := next.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzUnmarshal: arbitrary bytes never make Unmarshal or the restored state's methods panic.
func FuzzUnmarshal(f *testing.F) {
	st, _ := Rules().New(games.Config{Players: 3}, 5)
	b, _ := st.MarshalBinary()
	f.Add(b)
	st, _ = Rules().New(games.Config{Players: 4, Options: map[string]string{OptVariant: "4"}}, 5)
	b, _ = st.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := Rules().Unmarshal(b)
		if err != nil {
			return
		}
		for s := games.Nobody; int(s) < 4; s++ {
			st.Legal(s)
		}
		st.View(games.Nobody)
		st.Score()
		for _, s := range st.ToAct() {
			st.View(s)
			if l := st.Legal(s); len(l) > 0 {
				st.Apply(s, l[0])
			}
		}
	})
}

// BenchmarkPlayout plays whole random 4-player games (24 deals).
func BenchmarkPlayout(b *testing.B) {
	cfg := games.Config{Players: 4}
	seed := uint64(0)
	for b.Loop() {
		seed++
		st, err := Rules().New(cfg, seed)
		if err != nil {
			b.Fatal(err)
		}
		r := uint64(seed)
		for len(st.ToAct()) > 0 {
			s := st.ToAct()[0]
			l := st.Legal(s)
			r = r*6364136223846793005 + 1442695040888963407
			st, _, err = st.Apply(s, l[int((r>>33)%uint64(len(l)))])
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}
