package joker

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// BenchmarkPlayout plays full random joker parties (3 players, the default single party).
func BenchmarkPlayout(b *testing.B) {
	benchPlayout(b, Rules(), games.Config{Players: 3})
}

// BenchmarkPlayoutMatch plays full random joker matches of up to three parties (3 players).
func BenchmarkPlayoutMatch(b *testing.B) {
	benchPlayout(b, Rules(), games.Config{Players: 3, Options: map[string]string{OptParties: "3"}})
}

// BenchmarkPlayoutBank plays full random jokerbank sessions (5 players, 20 rounds).
func BenchmarkPlayoutBank(b *testing.B) {
	benchPlayout(b, BankRules(), games.Config{Players: 5})
}

func benchPlayout(b *testing.B, r games.Rules, cfg games.Config) {
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, err := r.New(cfg, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		for {
			to := st.ToAct()
			if len(to) == 0 {
				break
			}
			s := to[rng.IntN(len(to))]
			l := st.Legal(s)
			if st, _, err = st.Apply(s, l[rng.IntN(len(l))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}
