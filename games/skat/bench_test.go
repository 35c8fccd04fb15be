package skat

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// BenchmarkPlayout plays whole random 3-player matches of the default 12 deals.
func BenchmarkPlayout(b *testing.B) {
	r := Rules()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Loop(); i++ {
		st, err := r.New(games.Config{Players: 3}, uint64(i))
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
