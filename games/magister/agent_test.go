package magister

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// playMatch plays one match with an agent per seat (gametest.PlayAgents).
func playMatch(t testing.TB, cfg games.Config, seed uint64, agents []games.Agent) games.State {
	t.Helper()
	st, _ := gametest.PlayAgents(t, Rules(), cfg, seed, agents)
	return st
}

// playHalves plays one game and returns the results and each player's points per half (deals
// 1–12 negative, 13–24 positive), read from the score sheet's deal rows.
func playHalves(t testing.TB, cfg games.Config, seed uint64, agents []games.Agent) ([]int, [2][]int) {
	sh := playMatch(t, cfg, seed, agents).Score()
	halves := [2][]int{make([]int, cfg.Players), make([]int, cfg.Players)}
	for _, row := range sh.Rows {
		if row.Label.ID != "magister.sheet.deal" {
			continue
		}
		h := 0
		if row.Label.Args["Num"].(int) > 12 {
			h = 1
		}
		for p, v := range row.Points {
			halves[h][p] += v
		}
	}
	return sh.Totals, halves
}

// TestAgentBeatsRandom seats one agent against Random players (its seat rotating) at 3 and 4
// players and requires a clear lead in the average game result (§9, ОРВИ).
func TestAgentBeatsRandom(t *testing.T) {
	agent := games.AgentFor(Rules())
	if _, ok := agent.(Agent); !ok {
		t.Fatalf("the rules' agent is %T, not magister's", agent)
	}
	const matches = 24
	var agentSum, randomSum float64
	var agentHalf, randomHalf [2]float64
	wins := 0
	for i := range matches {
		n := 3 + i%2
		agents := make([]games.Agent, n)
		for s := range agents {
			agents[s] = games.Random{}
		}
		me := i % n
		agents[me] = agent
		res, halves := playHalves(t, games.Config{Players: n}, uint64(i)*104729+3, agents)
		for h := range 2 {
			for s, v := range halves[h] {
				if s == me {
					agentHalf[h] += float64(v)
				} else {
					randomHalf[h] += float64(v) / float64(n-1)
				}
			}
		}
		best := true
		for s, r := range res {
			if s == me {
				agentSum += float64(r)
				continue
			}
			randomSum += float64(r) / float64(n-1)
			best = best && r <= res[me]
		}
		if best {
			wins++
		}
	}
	margin := (agentSum - randomSum) / matches
	t.Logf("%d games: agent average %+.1f, random average %+.1f, margin %.1f points per game, agent first in %d",
		matches, agentSum/matches, randomSum/matches, margin, wins)
	t.Logf("negative half (avoid points): agent %+.1f, random %+.1f; positive half (take points): agent %+.1f, random %+.1f",
		agentHalf[0]/matches, randomHalf[0]/matches, agentHalf[1]/matches, randomHalf[1]/matches)
	if margin < 40 {
		t.Fatalf("margin %.1f points per game, want at least 40", margin)
	}
	for h := range 2 {
		if agentHalf[h]-randomHalf[h] < 15*matches {
			t.Errorf("half %d: agent %+.1f, random %+.1f per game: not a clear lead", h+1, agentHalf[h]/matches, randomHalf[h]/matches)
		}
	}
}

// TestAgentPlaysEveryVariant lets agents alone finish a game in every variant and table size:
// every choice is legal.
func TestAgentPlaysEveryVariant(t *testing.T) {
	for v := 1; v <= 5; v++ {
		n := 2 + v%3
		agents := make([]games.Agent, n)
		for s := range agents {
			agents[s] = Agent{}
		}
		cfg := games.Config{Players: n, Options: map[string]string{OptVariant: string(rune('0' + v))}}
		playMatch(t, cfg, uint64(v), agents)
	}
}

// TestAgentKnowsTheContract: last to play on 10♠ (led) and K♥ (discarded), holding A♠ (takes)
// and 9♠ (does not), the agent takes only when the bank's points are worth having.
func TestAgentKnowsTheContract(t *testing.T) {
	tr := Trumps{Variant: VariantNone}
	b := Open(0, cards.MustParse("10S"))
	b, _ = b.Play(tr, 1, cards.MustParse("KH"), cards.SetOf(cards.MustParse("KH")))
	hand := []cards.Card{cards.MustParse("9S"), cards.MustParse("AS")}
	legal := []games.Action{games.With("play", hand[0]), games.With("play", hand[1])}
	tests := []struct {
		deal int
		want string
	}{
		{4, "9S"},  // hearts, negative: K♥ costs 4
		{16, "AS"}, // hearts, positive
		{12, "9S"}, // Max, negative: the 10, K and A are 27 card points
		{24, "AS"}, // Max, positive
		{1, "9S"},  // All, negative: every bank costs 1
		{13, "AS"}, // All, positive
		{22, "AS"}, // K♥, positive
		{10, "9S"}, // K♥, negative
	}
	for _, tt := range tests {
		c := ContractOf(tt.deal)
		gv := View{
			Players: 3, Trumps: tr, Deal: tt.deal, Contract: c, Sign: Sign(tt.deal),
			Bank: &b, HandSizes: []int{11, 11, 12}, Taken: make([]cards.Set, 3), Banks: make([]int, 3),
			Fours: make([]int, 3), DealBanks: HandSize(c, 3), Points: make([]int, 3), Totals: make([]int, 3),
		}
		v := games.View{Seat: 2, Players: 3, ToAct: []games.Seat{2}, Hand: hand, Game: gv}
		got := Agent{}.Choose(v, legal, rand.New(rand.NewPCG(1, 2)))
		if got.Card != cards.MustParse(tt.want) {
			t.Errorf("deal %d (%s): played %v, want %s", tt.deal, c.ID(), got.Card, tt.want)
		}
	}
}
