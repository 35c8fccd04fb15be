package ai

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/wizard"
)

// wizardMatch plays one match with agents per seat and returns the totals.
func wizardMatch(t testing.TB, players int, seed uint64, agents []Agent) []int {
	st, _ := playMatch(t, wizard.Rules(), games.Config{Players: players}, seed, agents)
	return st.Score().Totals
}

// TestWizardAgentBeatsRandom seats one agent against three Random players (the agent's seat
// rotating) and requires a clear lead in average score (measured: about 560 points per match).
func TestWizardAgentBeatsRandom(t *testing.T) {
	const matches = 200
	if For("wizard") == (Random{}) {
		t.Fatal("no wizard agent registered")
	}
	var agentSum, randomSum float64
	wins := 0
	for i := range matches {
		agents := []Agent{Random{}, Random{}, Random{}, Random{}}
		me := i % 4
		agents[me] = For("wizard")
		totals := wizardMatch(t, 4, uint64(i)*7919+1, agents)
		best := true
		for s, v := range totals {
			if s == me {
				agentSum += float64(v)
				continue
			}
			randomSum += float64(v) / 3
			if v > totals[me] {
				best = false
			}
		}
		if best {
			wins++
		}
	}
	margin := (agentSum - randomSum) / matches
	t.Logf("%d matches: agent average %.1f, random average %.1f, margin %.1f points per match, agent won %d",
		matches, agentSum/matches, randomSum/matches, margin, wins)
	if margin < 250 {
		t.Fatalf("margin %.1f points per match, want at least 250", margin)
	}
}

// TestWizardAgentPlaysEveryTable lets four agents finish matches at every player count and
// variant: every choice is legal.
func TestWizardAgentPlaysEveryTable(t *testing.T) {
	r := wizard.Rules()
	var cfgs []games.Config
	for n := 3; n <= 6; n++ {
		cfgs = append(cfgs, games.Config{Players: n})
	}
	for _, o := range r.Options() {
		for _, v := range o.Values {
			if v != o.Default {
				cfgs = append(cfgs, games.Config{Players: 5, Options: map[string]string{o.Key: v}})
			}
		}
	}
	agent := For("wizard")
	for i, cfg := range cfgs {
		st, err := r.New(cfg, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		steps := 0
		for ; len(st.ToAct()) > 0; steps++ {
			s := st.ToAct()[len(st.ToAct())-1]
			a := agent.Choose(st.View(s), st.Legal(s), rng)
			if st, _, err = st.Apply(s, a); err != nil {
				t.Fatalf("%v: seat %d chose %v: %v", cfg, s, a, err)
			}
		}
		if sh := st.Score(); len(sh.Winners) == 0 {
			t.Fatalf("%v: no winners after %d steps", cfg, steps)
		}
	}
}
