package search_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
)

// config is a table of r for the tests: the usual player count, short matches.
func config(r games.Rules) games.Config {
	cfg := games.Config{Players: 4}
	switch r.Name() {
	case "skat":
		cfg = games.Config{Players: 3, Options: map[string]string{"match_deals": "3"}}
	case "wizard":
		cfg.Options = map[string]string{"short_game": "5"}
	case "jokerbank":
		cfg.Options = map[string]string{"rounds": "10"}
	}
	if pc, ok := r.(games.PlayoutCapper); ok && cfg.Options == nil {
		cfg.Options = pc.PlayoutOptions()
	}
	return cfg
}

// TestEveryGameLegalAndDeterministic plays the start of a match of every game with a small search
// at every seat: each decision is legal, and deciding again from the same rng gives the same move.
func TestEveryGameLegalAndDeterministic(t *testing.T) {
	for _, r := range all.Rules() {
		t.Run(r.Name(), func(t *testing.T) {
			// The game's agent decides where the search does not; the rollouts are random, which
			// keeps the test fast whatever the agents cost.
			x := search.New(r, search.Normal)
			x.Policy, x.Budget = games.Random{}, search.Budget{Worlds: 3, Steps: 100}
			st, err := r.New(config(r), 5)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 60 && len(st.ToAct()) > 0; n++ {
				s := st.ToAct()[0]
				a := x.Decide(st, s, rand.New(rand.NewPCG(uint64(n), 1)))
				if !slices.Contains(st.Legal(s), a) {
					t.Fatalf("move %d: seat %d chose %v, not in %v", n, s, a, st.Legal(s))
				}
				if b := x.Decide(st, s, rand.New(rand.NewPCG(uint64(n), 1))); b != a {
					t.Fatalf("move %d: %v, then %v from the same rng", n, a, b)
				}
				if st, _, err = st.Apply(s, a); err != nil {
					t.Fatalf("move %d: %v", n, err)
				}
			}
		})
	}
}

// TestDecideUsesTheGame: Decide plays the game's agent at Easy and a legal move at Normal.
func TestDecideUsesTheGame(t *testing.T) {
	r := all.Rules()[1] // skat
	st, err := r.New(config(r), 9)
	if err != nil {
		t.Fatal(err)
	}
	s := st.ToAct()[0]
	want := games.AgentFor(r).Choose(st.View(s), st.Legal(s), rand.New(rand.NewPCG(4, 4)))
	if got := search.Decide(r, search.Easy, st, s, rand.New(rand.NewPCG(4, 4))); got != want {
		t.Errorf("easy played %v, the game's agent %v", got, want)
	}
	if a := search.Decide(r, search.Normal, st, s, rand.New(rand.NewPCG(4, 4))); !slices.Contains(st.Legal(s), a) {
		t.Errorf("normal played %v, not in %v", a, st.Legal(s))
	}
}

// positions are the decisions (with a choice) of a few matches of r played by the game's agent,
// spread evenly over the matches, at most n of them.
func positions(tb testing.TB, r games.Rules, n int) []games.State {
	tb.Helper()
	agent := search.New(r, search.Easy).Agent
	cfg := config(r)
	if r.Name() == "wizard" {
		cfg.Options = nil // the full match: its last rounds are the longest decisions
	}
	var out []games.State
	for seed := uint64(1); seed <= 2; seed++ {
		st, err := r.New(cfg, seed)
		if err != nil {
			tb.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		for m := 0; len(st.ToAct()) > 0 && m < 100_000; m++ {
			s := st.ToAct()[0]
			legal := st.Legal(s)
			if len(legal) > 1 {
				out = append(out, st)
			}
			if st, _, err = st.Apply(s, agent.Choose(st.View(s), legal, rng)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if len(out) <= n {
		return out
	}
	spread := make([]games.State, n)
	for i := range spread {
		spread[i] = out[i*len(out)/n]
	}
	return spread
}

// BenchmarkDecide times the decisions of each game at each level over positions from whole
// matches; run it with -cpu 1. One op is a pass over the positions; p50-ms and p99-ms are the
// quantiles of a single decision's wall time, p50-cpu-ms and p99-cpu-ms of the CPU time of the
// thread that made it (on Linux), which a busy machine does not inflate.
func BenchmarkDecide(b *testing.B) {
	for _, r := range all.Rules() {
		var ps []games.State // made by the first level that runs, so a -bench filter skips it
		for _, l := range search.Levels() {
			b.Run(fmt.Sprintf("%s/%s", r.Name(), l), func(b *testing.B) {
				if ps == nil {
					ps = positions(b, r, 60)
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				x := search.New(r, l)
				var wall, cpu []time.Duration
				for i := 0; b.Loop(); i++ {
					for j, st := range ps {
						s := st.ToAct()[0]
						c0, ok := threadCPU()
						t0 := time.Now()
						x.Decide(st, s, rand.New(rand.NewPCG(uint64(i), uint64(j))))
						wall = append(wall, time.Since(t0))
						if c1, _ := threadCPU(); ok {
							cpu = append(cpu, c1-c0)
						}
					}
				}
				b.ReportMetric(quantile(wall, 0.5), "p50-ms")
				b.ReportMetric(quantile(wall, 0.99), "p99-ms")
				if len(cpu) > 0 {
					b.ReportMetric(quantile(cpu, 0.5), "p50-cpu-ms")
					b.ReportMetric(quantile(cpu, 0.99), "p99-cpu-ms")
				}
				b.ReportMetric(float64(len(ps)), "decisions/op")
			})
		}
	}
}

// quantile is the q-quantile of ds in milliseconds.
func quantile(ds []time.Duration, q float64) float64 {
	s := slices.Sorted(slices.Values(ds))
	return float64(s[int(q*float64(len(s)-1))]) / float64(time.Millisecond)
}
