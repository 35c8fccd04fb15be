package ai

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/nasilie"
)

// nasilieMatch plays one match with the given agents per seat and returns the final totals,
// the winners, the deals played and per-seat declarer counts and successes.
func nasilieMatch(t testing.TB, seats []Agent, opts map[string]string, seed uint64) (games.Sheet, int, []int, []int) {
	t.Helper()
	st, evs := playMatch(t, nasilie.Rules(), games.Config{Players: len(seats), Options: opts}, seed, seats)
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

func TestNasilieAgentBeatsRandom(t *testing.T) {
	matches := 40
	if testing.Short() {
		matches = 8
	}
	agent := For("nasilie")
	wins, agentTotal, randomTotal := 0, 0, 0
	decl, made := 0, 0
	for i := range matches {
		seats := []Agent{Random{}, Random{}, Random{}, Random{}}
		me := i % 4
		seats[me] = agent
		sh, _, d, m := nasilieMatch(t, seats, map[string]string{"rounds": "3"}, uint64(1000+i))
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
func TestNasilieAgentSelfPlay(t *testing.T) {
	agent := For("nasilie")
	for i, tt := range []struct {
		n    int
		opts map[string]string
	}{
		{4, map[string]string{"rounds": "6"}},
		{4, map[string]string{"rounds": "3", "follow": "lenient"}},
		{5, map[string]string{"rounds": "3"}},
		{5, map[string]string{"rounds": "3", "five": "dealerout"}},
		{6, map[string]string{"rounds": "3"}},
	} {
		seats := make([]Agent, tt.n)
		for s := range seats {
			seats[s] = agent
		}
		sh, deals, d, m := nasilieMatch(t, seats, tt.opts, uint64(77+i))
		t.Logf("%d agents %v: %d deals, totals %v, winners %v, declared %v, made %v", tt.n, tt.opts, deals, sh.Totals, sh.Winners, d, m)
	}
}
