package skat

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// skatMatch plays one Skat match with an agent per seat (gametest.PlayAgents).
func skatMatch(t testing.TB, cfg games.Config, seed uint64, agents []games.Agent) games.State {
	t.Helper()
	st, _ := gametest.PlayAgents(t, Rules(), cfg, seed, agents)
	return st
}

// TestSkatAgentBeatsRandom seats one agent against two Random players (the agent's seat rotating)
// over many seeded 12-deal matches and requires a clear lead in average score.
func TestSkatAgentBeatsRandom(t *testing.T) {
	matches := 150
	if testing.Short() {
		matches = 30
	}
	if _, ok := games.AgentFor(Rules()).(Agent); !ok {
		t.Fatal("Rules does not offer the skat agent")
	}
	var agentSum, randomSum float64
	wins := 0
	for i := range matches {
		agents := []games.Agent{games.Random{}, games.Random{}, games.Random{}}
		me := i % 3
		agents[me] = games.AgentFor(Rules())
		totals := skatMatch(t, games.Config{Players: 3}, uint64(i)*7919+3, agents).Score().Totals
		best := true
		for s, v := range totals {
			if s == me {
				agentSum += float64(v)
				continue
			}
			randomSum += float64(v) / 2
			if v > totals[me] {
				best = false
			}
		}
		if best {
			wins++
		}
	}
	margin := (agentSum - randomSum) / float64(matches)
	t.Logf("%d matches: agent average %.1f, random average %.1f, margin %.1f points per match, agent first in %d",
		matches, agentSum/float64(matches), randomSum/float64(matches), margin, wins)
	if margin < 500 || wins < matches*9/10 {
		t.Fatalf("margin %.1f points per match and %d wins of %d, want at least 500 and 90%%", margin, wins, matches)
	}
}

// TestSkatAgentSelfPlay lets three agents play each other and checks that the agent declares
// sensibly: most of its declared games are won and it never bids above its own best game.
func TestSkatAgentSelfPlay(t *testing.T) {
	matches := 40
	if testing.Short() {
		matches = 10
	}
	a := games.AgentFor(Rules())
	declared, won, ramsch, thrown := 0, 0, 0, 0
	for i := range matches {
		st := skatMatch(t, games.Config{Players: 3}, uint64(i)*104729+11, []games.Agent{a, a, a})
		for _, r := range st.Score().Rows {
			switch r.Label.ID {
			case "skat.row.won", "skat.row.null.won":
				declared++
				won++
			case "skat.row.lost", "skat.row.null.lost":
				declared++
			case "skat.row.ramsch":
				ramsch++
			case "skat.row.thrownin":
				thrown++
			}
		}
	}
	rate := float64(won) / float64(max(declared, 1))
	t.Logf("%d deals: %d declared, %d won (%.0f%%), %d Ramsch, %d thrown in",
		matches*12, declared, won, 100*rate, ramsch, thrown)
	if declared < matches*12/3 || rate < 0.6 {
		t.Fatalf("declared %d games and won %.0f%%", declared, 100*rate)
	}
}

// TestSkatAgentNeverOverbids checks on many random hands that the agent's last bid is never above
// the value of the best game it could declare.
func TestSkatAgentNeverOverbids(t *testing.T) {
	v := Seed()
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 2000 {
		deck := Deck()
		rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		hand := deck[:10]
		limit := maxBid(v, cards.SetOf(hand...))
		g := View{Phase: "auction", Variant: v, Auction: NewAuction()}
		var legal []games.Action
		for _, b := range BidValues(v) {
			legal = append(legal, games.Num("bid", b))
		}
		legal = append(legal, games.Do("pass"))
		a := Agent{}.Choose(games.View{Hand: hand, Game: g}, legal, rng)
		if a.Kind == "bid" && int(a.N) > limit {
			t.Fatalf("hand %d %v: bid %d above its best game %d", i, hand, a.N, limit)
		}
		if limit > 0 && a.Kind == "pass" {
			t.Fatalf("hand %v: passed with a game worth %d", hand, limit)
		}
	}
}

// TestSkatAgentPlaysEveryTable lets agents finish matches at 3 and 4 players under both presets
// and with every switch: every choice is legal.
func TestSkatAgentPlaysEveryTable(t *testing.T) {
	a := games.AgentFor(Rules())
	var cfgs []games.Config
	for _, n := range []int{3, 4} {
		for _, p := range []string{"seed", "isko"} {
			cfgs = append(cfgs, games.Config{Players: n, Options: map[string]string{"preset": p}})
		}
	}
	for _, o := range Rules().Options() {
		if o.Key == "preset" || o.Key == "match_deals" {
			continue
		}
		for _, v := range o.Values[1:] {
			cfgs = append(cfgs, games.Config{Players: 3, Options: map[string]string{o.Key: v, "match_deals": "3"}})
		}
	}
	for i, cfg := range cfgs {
		st := skatMatch(t, cfg, uint64(i)+100, []games.Agent{a, a, a, a})
		if len(st.Score().Winners) == 0 {
			t.Fatalf("%v: no winners", cfg)
		}
	}
}
