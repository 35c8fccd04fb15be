package joker

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// jokerParty plays one joker party with agents per seat and returns the final totals.
func jokerParty(t *testing.T, players []games.Agent, seed uint64) []int {
	st, _ := gametest.PlayAgents(t, Rules(), games.Config{Players: len(players)}, seed, players)
	return st.Score().Totals
}

// TestJokerAgentBeatsRandom seats one agent with games.Random players (3 and 4 players, the agent's
// seat rotating) and requires a clear margin in party totals and party wins.
func TestJokerAgentBeatsRandom(t *testing.T) {
	for _, n := range []int{3, 4} {
		const parties = 24
		agentSum, randSum, wins := 0, 0, 0
		for i := range parties {
			seat := i % n
			players := make([]games.Agent, n)
			for s := range players {
				players[s] = games.Random{}
			}
			players[seat] = games.AgentFor(Rules())
			totals := jokerParty(t, players, uint64(1000*n+i))
			best := true
			for s, v := range totals {
				if s == seat {
					agentSum += v
				} else {
					randSum += v
					best = best && totals[seat] > v
				}
			}
			if best {
				wins++
			}
		}
		agentAvg := float64(agentSum) / parties
		randAvg := float64(randSum) / float64(parties*(n-1))
		t.Logf("%d players: agent %.1f vs random %.1f points per party (margin %.1f), agent won %d of %d parties",
			n, agentAvg, randAvg, agentAvg-randAvg, wins, parties)
		if agentAvg-randAvg < 50 || wins < parties*2/3 {
			t.Errorf("%d players: margin %.1f, wins %d/%d: agent does not clearly beat Random", n, agentAvg-randAvg, wins, parties)
		}
	}
}

// TestJokerAgentMakesBids: among agents only, most bids are made exactly.
func TestJokerAgentMakesBids(t *testing.T) {
	made, bids := 0, 0
	for i := range 8 {
		st, err := Rules().New(games.Config{Players: 3}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 12))
		a := games.AgentFor(Rules())
		var evs []games.Event
		for len(st.ToAct()) > 0 {
			s := st.ToAct()[0]
			if st, evs, err = st.Apply(s, a.Choose(st.View(s), st.Legal(s), rng)); err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				switch e.Msg.ID {
				case "joker.res.exact", "joker.res.pass_made":
					made++
					bids++
				case "joker.res.over", "joker.res.short":
					bids++
				}
			}
		}
	}
	t.Logf("agents only: %d of %d bids made (%.0f%%)", made, bids, 100*float64(made)/float64(bids))
	if made*2 < bids {
		t.Errorf("agents made only %d of %d bids", made, bids)
	}
}
