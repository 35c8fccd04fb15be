package magister

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
)

// TestTrumpChoiceBySimulation: the agent's trump choice is one of the free suits, the same from
// the same rng, and decided by the simulated deals: over the draws and table sizes different suits
// win, so it is no fixed order.
func TestTrumpChoiceBySimulation(t *testing.T) {
	draws := 8
	if raceBuild {
		draws = 4
	}
	picked := map[games.Action]int{}
	for _, n := range []int{2, 3, 4} {
		st, err := Rules().New(games.Config{Players: n}, uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		s := st.ToAct()[0]
		legal := st.Legal(s)
		t0 := time.Now()
		for i := range draws {
			a := Agent{}.Choose(st.View(s), legal, rand.New(rand.NewPCG(uint64(i), 1)))
			if !slices.Contains(legal, a) {
				t.Fatalf("%d players: chose %v, not in %v", n, a, legal)
			}
			if b := (Agent{}).Choose(st.View(s), legal, rand.New(rand.NewPCG(uint64(i), 1))); b != a {
				t.Fatalf("%d players: %v, then %v from the same rng", n, a, b)
			}
			picked[a]++
		}
		t.Logf("%d players: %v so far, %v per choice", n, picked, time.Since(t0)/time.Duration(2*draws))
	}
	if len(picked) < 2 {
		t.Errorf("every draw chose %v: the simulation decides nothing", picked)
	}
}
