package wizard

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// BenchmarkPlayout plays full random 4-player matches with default options.
func BenchmarkPlayout(b *testing.B) {
	r := Rules()
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, err := r.New(games.Config{Players: 4}, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		for {
			toAct := st.ToAct()
			if len(toAct) == 0 {
				break
			}
			s := toAct[0]
			legal := st.Legal(s)
			if st, _, err = st.Apply(s, legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}
