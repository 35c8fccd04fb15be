package ai

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// playMatch plays one match of r with an agent per seat, checking every choice is legal, and
// returns the final state and every event of the match.
func playMatch(t testing.TB, r games.Rules, cfg games.Config, seed uint64, agents []Agent) (games.State, []games.Event) {
	t.Helper()
	st, err := r.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 77))
	var all []games.Event
	for steps := 0; len(st.ToAct()) > 0; steps++ {
		if steps > 200_000 {
			t.Fatalf("seed %d: match did not end", seed)
		}
		s := st.ToAct()[0]
		legal := st.Legal(s)
		a := agents[s].Choose(st.View(s), legal, rng)
		if !slices.Contains(legal, a) {
			t.Fatalf("seed %d seat %d chose %v, not in %v", seed, s, a, legal)
		}
		var evs []games.Event
		if st, evs, err = st.Apply(s, a); err != nil {
			t.Fatalf("seed %d seat %d %v: %v", seed, s, a, err)
		}
		all = append(all, evs...)
	}
	return st, all
}
