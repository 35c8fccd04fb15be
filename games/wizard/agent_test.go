package wizard

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// playMatch plays one match with an agent per seat (gametest.PlayAgents).
func playMatch(t testing.TB, cfg games.Config, seed uint64, agents []games.Agent) games.State {
	t.Helper()
	st, _ := gametest.PlayAgents(t, Rules(), cfg, seed, agents)
	return st
}

// TestAgentIsTheRulesAgent: the bot finds this package's agent through the Rules.
func TestAgentIsTheRulesAgent(t *testing.T) {
	if _, ok := games.AgentFor(Rules()).(Agent); !ok {
		t.Fatalf("games.AgentFor(Rules()) = %T, want wizard.Agent", games.AgentFor(Rules()))
	}
}

// TestAgentBeatsRandom seats one agent against three Random players (the agent's seat rotating)
// and requires a clear lead in average score (measured: about 560 points per match).
func TestAgentBeatsRandom(t *testing.T) {
	const matches = 200
	agent := games.AgentFor(Rules())
	var agentSum, randomSum float64
	wins := 0
	for i := range matches {
		agents := []games.Agent{games.Random{}, games.Random{}, games.Random{}, games.Random{}}
		me := i % 4
		agents[me] = agent
		totals := playMatch(t, games.Config{Players: 4}, uint64(i)*7919+1, agents).Score().Totals
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

// TestAgentPlaysEveryTable lets four agents finish matches at every player count and variant:
// every choice is legal.
func TestAgentPlaysEveryTable(t *testing.T) {
	r := Rules()
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
	agent := games.AgentFor(r)
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
