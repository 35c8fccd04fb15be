package nasilie

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// playMatch plays one match with an agent per seat (gametest.PlayAgents).
func playMatch(t testing.TB, cfg games.Config, seed uint64, agents []games.Agent) (games.State, []games.Event) {
	t.Helper()
	return gametest.PlayAgents(t, Rules(), cfg, seed, agents)
}

// agentMatch plays one match with the given agents per seat and returns the final sheet, the
// deals played and per-seat declarer counts and successes.
func agentMatch(t testing.TB, seats []games.Agent, opts map[string]string, seed uint64) (games.Sheet, int, []int, []int) {
	t.Helper()
	st, evs := playMatch(t, games.Config{Players: len(seats), Options: opts}, seed, seats)
	declared, made := make([]int, len(seats)), make([]int, len(seats))
	deals := 0
	for _, e := range evs {
		if e.Msg.ID == "nasilie.e.result" || e.Msg.ID == "nasilie.e.declined" {
			deals++
		}
	}
	sh := st.Score()
	for _, r := range sh.Rows {
		if r.Label.ID != "nasilie.s.deal" {
			continue // a declined forced game
		}
		s := r.Label.Args["Seat"].(games.Seat)
		declared[s]++
		if r.Points[s] >= 0 {
			made[s]++
		}
	}
	return sh, deals, declared, made
}

// The agent is what the Rules offer the bot.
func TestRulesAgent(t *testing.T) {
	if _, ok := games.AgentFor(Rules()).(Agent); !ok {
		t.Fatalf("games.AgentFor(Rules()) = %T, want the Nasilie agent", games.AgentFor(Rules()))
	}
}

// The agent beats three random players: it wins at least 80% of capped matches.
func TestAgentBeatsRandom(t *testing.T) {
	matches := 40
	if testing.Short() {
		matches = 8
	}
	ours := games.AgentFor(Rules())
	wins, agentTotal, randomTotal := 0, 0, 0
	decl, made := 0, 0
	for i := range matches {
		seats := []games.Agent{games.Random{}, games.Random{}, games.Random{}, games.Random{}}
		me := i % 4
		seats[me] = ours
		sh, _, d, m := agentMatch(t, seats, map[string]string{OptRounds: "3"}, uint64(1000+i))
		for _, w := range sh.Winners {
			if int(w) == me {
				wins++
			}
		}
		for s, v := range sh.Totals {
			if s == me {
				agentTotal += v
			} else {
				randomTotal += v
			}
		}
		decl += d[me]
		made += m[me]
	}
	t.Logf("agent won %d of %d matches; mean final total agent %.1f, random %.1f; agent declared %d deals, made %d",
		wins, matches, float64(agentTotal)/float64(matches), float64(randomTotal)/float64(3*matches), decl, made)
	if wins*10 < matches*8 {
		t.Errorf("agent won only %d of %d matches against three random players", wins, matches)
	}
}

// Self-play in every form: the agent only ever chooses legal actions, and the logs show how often
// declarers make their contracts.
func TestAgentSelfPlay(t *testing.T) {
	ours := games.AgentFor(Rules())
	for i, tt := range []struct {
		n    int
		opts map[string]string
	}{
		{4, map[string]string{OptRounds: "6"}},
		{4, map[string]string{OptRounds: "3", OptFollow: FollowFree}},
		{5, map[string]string{OptRounds: "3"}},
		{5, map[string]string{OptRounds: "3", OptFive: FiveDealer}},
		{6, map[string]string{OptRounds: "3"}},
	} {
		seats := make([]games.Agent, tt.n)
		for s := range seats {
			seats[s] = ours
		}
		sh, deals, d, m := agentMatch(t, seats, tt.opts, uint64(77+i))
		t.Logf("%d agents %v: %d deals, totals %v, winners %v, declared %v, made %v", tt.n, tt.opts, deals, sh.Totals, sh.Winners, d, m)
	}
}
