package jokerbank

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// TestJokerBankPunterExpectation measures what a punter wins per unit staked: negative, which is
// why the agent stakes the minimum.
func TestJokerBankPunterExpectation(t *testing.T) {
	deck := joker.Pack()
	const rounds = 20000
	sum, misses := 0, 0
	for k := range uint64(rounds) {
		s := Settle([]int{1}, cards.Shuffle(deck, 77, k))
		sum += s.Deltas[0]
		if s.PassesLeft {
			misses++
		}
	}
	ev := float64(sum) / rounds
	t.Logf("punter's expectation %.3f per unit staked; the bank misses all 14 in %.1f%% of rounds", ev, 100*float64(misses)/rounds)
	if ev >= -0.1 {
		t.Errorf("punter's expectation %.3f: staking the minimum is not obviously right", ev)
	}
}

// TestJokerBankAgentBeatsRandom: over whole sessions the agent loses less than random stakers.
func TestJokerBankAgentBeatsRandom(t *testing.T) {
	agentSum, randSum, n := 0, 0, 4
	for i := range 40 {
		st, err := Rules().New(games.Config{Players: n}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		seat := games.Seat(i % n)
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		for len(st.ToAct()) > 0 {
			s := st.ToAct()[0]
			var ag games.Agent = games.Random{}
			if s == seat {
				ag = games.AgentFor(Rules())
			}
			if st, _, err = st.Apply(s, ag.Choose(st.View(s), st.Legal(s), rng)); err != nil {
				t.Fatal(err)
			}
		}
		for s, m := range st.Score().Totals {
			if games.Seat(s) == seat {
				agentSum += m
			} else {
				randSum += m
			}
		}
	}
	a, r := float64(agentSum)/40, float64(randSum)/float64(40*(n-1))
	t.Logf("money per 20-round session: agent %.1f, random %.1f (margin %.1f)", a, r, a-r)
	if a <= r {
		t.Errorf("agent %.1f does not beat random %.1f", a, r)
	}
}
