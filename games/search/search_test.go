package search

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

func toyStart(t testing.TB, seed uint64) games.State {
	t.Helper()
	st, err := toyRules{}.New(games.Config{Players: 2}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// toySearch is a search of the toy game at a small budget with a random policy.
func toySearch(b Budget) Search { return Search{Agent: lowest{}, Policy: games.Random{}, Budget: b} }

func TestLevels(t *testing.T) {
	tests := []struct {
		name string
		want Level
		err  bool
	}{
		{"easy", Easy, false},
		{"normal", Normal, false},
		{"strong", Strong, false},
		{"", 0, true},
		{"Normal", 0, true},
		{"hard", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseLevel(tt.name)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, error %v", tt.name, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrLevel) {
			t.Errorf("ParseLevel(%q): %v does not wrap ErrLevel", tt.name, err)
		}
	}
	for _, l := range Levels() {
		if back, err := ParseLevel(l.String()); err != nil || back != l {
			t.Errorf("level %d reads back as %v, %v", l, back, err)
		}
	}
	if DefaultLevel != Normal {
		t.Errorf("the default level is %v", DefaultLevel)
	}
	if _, ok := BudgetFor("skat", Easy); ok {
		t.Error("easy has a search budget")
	}
	for _, game := range []string{"skat", "wizard", "joker", "jokerbank", "magister", "nasilie", "unknown"} {
		n, ok1 := BudgetFor(game, Normal)
		s, ok2 := BudgetFor(game, Strong)
		if !ok1 || !ok2 || n.Worlds < 2 || s.Worlds < n.Worlds || s.Steps < n.Steps {
			t.Errorf("%s: normal %+v, strong %+v", game, n, s)
		}
	}
}

func TestSingleAndNoAction(t *testing.T) {
	only := []games.Action{games.Do("pass")}
	calls := 0
	worlds := func(*rand.Rand) games.State { calls++; return nil }
	x := toySearch(Budget{Worlds: 8, Steps: 100})
	if a, st := x.Choose(worlds, games.View{}, only, rand.New(rand.NewPCG(1, 1))); a != only[0] || st.Worlds != 0 || calls != 0 {
		t.Errorf("one legal action: got %v after %+v and %d worlds", a, st, calls)
	}
	if a, _ := x.Choose(worlds, games.View{}, nil, rand.New(rand.NewPCG(1, 1))); a != (games.Action{}) {
		t.Errorf("no legal action: got %v", a)
	}
}

// TestDeterministic: the same rng gives the same action, in the toy game and in every decision of
// a few of its matches.
func TestDeterministic(t *testing.T) {
	x := toySearch(Budget{Worlds: 12, Steps: 400})
	for seed := range uint64(20) {
		st := toyStart(t, seed)
		for len(st.ToAct()) > 0 {
			s := st.ToAct()[0]
			a := x.Decide(st, s, rand.New(rand.NewPCG(seed, 9)))
			if b := x.Decide(st, s, rand.New(rand.NewPCG(seed, 9))); a != b {
				t.Fatalf("seed %d: %v, then %v from the same rng", seed, a, b)
			}
			var err error
			if st, _, err = st.Apply(s, a); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
}

// TestIgnoresHiddenCards: two states that differ only in where the cards hidden from the seat
// lie give the same decision from the same rng, since the search reads nothing else.
func TestIgnoresHiddenCards(t *testing.T) {
	x := toySearch(Budget{Worlds: 16, Steps: 1000})
	differ := 0
	for seed := range uint64(40) {
		st := toyStart(t, seed).(*toyState)
		other := *st
		// Move one hidden card from the opponent's hand into the stock and back the other way.
		h, k := st.Hands[1].Cards()[0], st.Stock.Cards()[0]
		other.Hands[1], other.Stock = st.Hands[1].Remove(h).Add(k), st.Stock.Remove(k).Add(h)
		if !slices.Equal(st.View(0).Hand, other.View(0).Hand) || !slices.Equal(st.Legal(0), other.Legal(0)) {
			t.Fatalf("seed %d: the two states differ in what seat 0 sees", seed)
		}
		a := x.Decide(st, 0, rand.New(rand.NewPCG(seed, 3)))
		b := x.Decide(&other, 0, rand.New(rand.NewPCG(seed, 3)))
		if a != b {
			t.Errorf("seed %d: %v with one lie of the hidden cards, %v with another", seed, a, b)
		}
		// The real deals do play differently: the test is not vacuous.
		if playOut(st, a) != playOut(&other, a) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no pair of states played out differently")
	}
}

// playOut plays a for seat 0, then the lowest card for everyone, and returns seat 0's points.
func playOut(st games.State, a games.Action) int {
	st, _, _ = st.Apply(0, a)
	for len(st.ToAct()) > 0 {
		s := st.ToAct()[0]
		st, _, _ = st.Apply(s, lowest{}.Choose(st.View(s), st.Legal(s), nil))
	}
	return st.Score().Totals[0]
}

// TestBudget: a decision never samples more than Budget.Worlds worlds, plays one rollout per legal
// action in each, counts every simulated move, and starts no world once Budget.Steps is spent.
func TestBudget(t *testing.T) {
	budgets := []Budget{
		{Worlds: 2, Steps: 1_000_000},
		{Worlds: 5, Steps: 1_000_000},
		{Worlds: 1000, Steps: 50},
		{Worlds: 1000, Steps: 1},
		{Worlds: 40, Steps: 300, RandomAfter: 1},
	}
	for _, b := range budgets {
		st := toyStart(t, 7)
		legal := st.Legal(0)
		applies, sampled, lastWorld := 0, 0, 0
		au := st.(games.Auditor)
		worlds := func(rng *rand.Rand) games.State {
			sampled++
			lastWorld = applies
			return counting{au.Redeal(0, rng), &applies}
		}
		_, stats := toySearch(b).Choose(worlds, st.View(0), legal, rand.New(rand.NewPCG(7, 7)))
		switch {
		case stats.Worlds != sampled || stats.Steps != applies:
			t.Errorf("%+v: stats %+v, but %d worlds and %d moves", b, stats, sampled, applies)
		case sampled > b.Worlds:
			t.Errorf("%+v: %d worlds", b, sampled)
		case stats.Rollouts != stats.Worlds*len(legal) && sampled > fixedProbe:
			t.Errorf("%+v: %d rollouts in %d worlds of %d actions", b, stats.Rollouts, stats.Worlds, len(legal))
		case sampled > fixedProbe && lastWorld > b.Steps:
			t.Errorf("%+v: a world was started after %d moves", b, lastWorld)
		case sampled < b.Worlds && applies < b.Steps:
			t.Errorf("%+v: stopped after %d worlds and %d moves", b, sampled, applies)
		}
	}
}

// fixedState is a toy state whose Redeal draws nothing, like a state whose cards are still in the
// table's seed.
type fixedState struct{ *toyState }

func (f fixedState) Redeal(games.Seat, *rand.Rand) games.State { return f }

// TestFixedWorldLeftToAgent: when every world is the same the search does not play it out (it
// could be the real future) and returns the agent's choice.
func TestFixedWorldLeftToAgent(t *testing.T) {
	st := fixedState{toyStart(t, 3).(*toyState)}
	worlds, ok := RedealWorlds(st, 0)
	if !ok {
		t.Fatal("a toy state cannot redeal")
	}
	legal := st.Legal(0)
	a, stats := toySearch(Budget{Worlds: 10, Steps: 1000}).Choose(worlds, st.View(0), legal, rand.New(rand.NewPCG(1, 1)))
	if want := (lowest{}).Choose(st.View(0), legal, nil); a != want || !stats.Agent || stats.Rollouts != 0 {
		t.Errorf("got %v after %+v, want the agent's %v without rollouts", a, stats, want)
	}
}

// TestNoRedealLeftToAgent: a state that is no Auditor is decided by the agent.
func TestNoRedealLeftToAgent(t *testing.T) {
	type plain struct{ games.State }
	st := plain{toyStart(t, 3)}
	if _, ok := RedealWorlds(st, 0); ok {
		t.Fatal("a state without Redeal gives worlds")
	}
	legal := st.Legal(0)
	if a, want := toySearch(Budget{Worlds: 10, Steps: 100}).Decide(st, 0, rand.New(rand.NewPCG(1, 1))), (lowest{}).Choose(st.View(0), legal, nil); a != want {
		t.Errorf("got %v, want the agent's %v", a, want)
	}
}

// TestSearchBeatsItsPolicy: on duplicate deals of the toy game, the search (rolling out with the
// weak agent) takes more tricks against that agent than the agent itself does.
func TestSearchBeatsItsPolicy(t *testing.T) {
	x := Search{Agent: lowest{}, Policy: lowest{}, Budget: Budget{Worlds: 16, Steps: 2000}}
	diff := 0
	for seed := range uint64(30) {
		for seat := range games.Seat(2) {
			st := toyStart(t, seed)
			rng := rand.New(rand.NewPCG(seed, uint64(seat)))
			for len(st.ToAct()) > 0 {
				s := st.ToAct()[0]
				a := lowest{}.Choose(st.View(s), st.Legal(s), rng)
				if s == seat {
					a = x.Decide(st, s, rng)
				}
				st, _, _ = st.Apply(s, a)
			}
			// Against the same deal played by the agent in both seats, which splits it evenly.
			diff += st.Score().Totals[seat] - st.Score().Totals[1-seat]
		}
	}
	if diff <= 0 {
		t.Errorf("the search took %d tricks more than its opponent over 60 deals", diff)
	}
}

func TestValue(t *testing.T) {
	tests := []struct {
		totals []int
		seat   games.Seat
		want   float64
	}{
		{[]int{10, 4}, 0, 6},
		{[]int{10, 4, 0}, 0, 8},
		{[]int{-30, 0, 30, 60}, 2, 20},
		{[]int{5}, 0, 5},
		{[]int{5, 5}, 3, 0},
	}
	for _, tt := range tests {
		if got := value(sheetState{tt.totals}, tt.seat); got != tt.want {
			t.Errorf("value(%v, %d) = %v, want %v", tt.totals, tt.seat, got, tt.want)
		}
	}
}

// sheetState is a State that only has a score sheet.
type sheetState struct{ totals []int }

func (s sheetState) ToAct() []games.Seat             { return nil }
func (s sheetState) Legal(games.Seat) []games.Action { return nil }
func (s sheetState) Apply(games.Seat, games.Action) (games.State, []games.Event, error) {
	return nil, nil, games.ErrOver
}
func (s sheetState) View(games.Seat) games.View     { return games.View{} }
func (s sheetState) Score() games.Sheet             { return games.Sheet{Totals: s.totals} }
func (s sheetState) MarshalBinary() ([]byte, error) { return nil, nil }

func TestCandidates(t *testing.T) {
	var ladder []games.Action
	for n := range 88 {
		ladder = append(ladder, games.Num("bid", 18+n))
	}
	for _, a := range []games.Action{ladder[0], ladder[5], ladder[87]} {
		c := candidates(ladder, a)
		if len(c) > maxCandidates || !slices.Contains(c, a) || c[0] != ladder[0] || !slices.Contains(c, ladder[87]) {
			t.Errorf("agent %v: candidates %v", a, c)
		}
		seen := map[games.Action]bool{}
		for _, x := range c {
			if seen[x] || !slices.Contains(ladder, x) {
				t.Errorf("agent %v: %v twice or not legal in %v", a, x, c)
			}
			seen[x] = true
		}
	}
}

func TestConvincing(t *testing.T) {
	tests := []struct {
		name    string
		sum, sq float64
		n       int
		margin  float64
		want    bool
	}{
		{"no gain", 0, 0, 10, 1, false},
		{"a loss", -5, 10, 10, 0, false},
		{"any gain without a margin", 0.1, 100, 10, 0, true},
		{"the same gain in every world", 10, 10, 10, 2, true},
		{"a gain from one lucky world", 10, 100, 10, 2, false},
		{"one world cannot convince", 10, 100, 1, 1, false},
	}
	for _, tt := range tests {
		if got := convincing(tt.sum, tt.sq, tt.n, tt.margin); got != tt.want {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
}

// TestMarginKeepsTheAgent: with a margin no world can meet, the search plays the agent's choice.
func TestMarginKeepsTheAgent(t *testing.T) {
	for seed := range uint64(10) {
		st := toyStart(t, seed)
		x := toySearch(Budget{Worlds: 8, Steps: 1000, Margin: 1e9})
		a, stats := x.Choose(mustWorlds(t, st), st.View(0), st.Legal(0), rand.New(rand.NewPCG(seed, 1)))
		if want := (lowest{}).Choose(st.View(0), st.Legal(0), nil); a != want || !stats.Kept {
			t.Errorf("seed %d: %v after %+v, want the agent's %v", seed, a, stats, want)
		}
	}
}

func mustWorlds(t *testing.T, st games.State) Worlds {
	t.Helper()
	w, ok := RedealWorlds(st, 0)
	if !ok {
		t.Fatal("no worlds")
	}
	return w
}
