package jokerbank

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// TestStakesHidden: a punter's stake is private until all stakes are in (joker.md version 1,
// "One round" step 2).
func TestStakesHidden(t *testing.T) {
	st, err := Rules().New(games.Config{Players: 4}, 5)
	if err != nil {
		t.Fatal(err)
	}
	bs := st.(*state)
	punters := bs.punters()
	if got := st.ToAct(); !slices.Equal(got, slices.Sorted(slices.Values(punters))) {
		t.Fatalf("ToAct %v, want every punter %v", got, punters)
	}
	a, _ := mustApply(t, st, punters[0], "stake/3")
	b, _ := mustApply(t, st, punters[0], "stake/9")
	for _, s := range []games.Seat{games.Nobody, bs.banker, punters[1], punters[2]} {
		va, vb := a.View(s), b.View(s)
		va.Game, vb.Game = nil, nil
		if !slices.EqualFunc(va.Table, vb.Table, msgEqual) || !slices.EqualFunc(va.Private, vb.Private, msgEqual) ||
			a.View(s).Game.(View).MyStake != b.View(s).Game.(View).MyStake {
			t.Errorf("seat %d sees another punter's stake", s)
		}
	}
	if a.View(punters[0]).Game.(View).MyStake != 3 {
		t.Errorf("own stake not shown")
	}
	if l := a.Legal(punters[0]); l != nil {
		t.Errorf("a staked punter may act again: %v", l)
	}
}
func msgEqual(a, b games.Msg) bool {
	return a.ID == b.ID && len(a.Args) == len(b.Args) && func() bool {
		for k, v := range a.Args {
			if !equalArg(v, b.Args[k]) {
				return false
			}
		}
		return true
	}()
}
func equalArg(a, b any) bool {
	switch x := a.(type) {
	case []games.Msg:
		y, ok := b.([]games.Msg)
		return ok && slices.EqualFunc(x, y, msgEqual)
	case games.Msg:
		y, ok := b.(games.Msg)
		return ok && msgEqual(x, y)
	case []games.Seat:
		y, ok := b.([]games.Seat)
		return ok && slices.Equal(x, y)
	case []cards.Card:
		y, ok := b.([]cards.Card)
		return ok && slices.Equal(x, y)
	}
	return a == b
}

// TestBankSession plays sessions and checks the settlement against Settle, the bank passing left
// after fourteen misses only, money adding up to zero, and the session length.
func TestBankSession(t *testing.T) {
	passed, doubles := 0, 0
	for seed := range uint64(20) {
		n := 2 + int(seed%9)
		st, err := Rules().New(games.Config{Players: n, Options: map[string]string{OptRounds: "30"}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 4))
		for len(st.ToAct()) > 0 {
			before := st.(*state)
			s := st.ToAct()[rng.IntN(len(st.ToAct()))]
			l := st.Legal(s)
			st, _, err = st.Apply(s, l[rng.IntN(len(l))])
			if err != nil {
				t.Fatal(err)
			}
			after := st.(*state)
			if len(after.history) == len(before.history) {
				continue
			}
			r := after.history[len(after.history)-1]
			switch {
			case r.hit == 0:
				passed++
				if after.banker != (before.banker+1)%games.Seat(n) && !after.over() {
					t.Fatalf("14 misses: bank went from %d to %d", before.banker, after.banker)
				}
			case after.banker != before.banker:
				t.Fatalf("banker changed after a hit")
			case r.hit == 1:
				doubles++
			}
			sum := 0
			for _, m := range after.money {
				sum += m
			}
			if sum != 0 {
				t.Fatalf("money does not add up to zero: %v", after.money)
			}
		}
		if got := len(st.(*state).history); got != 30 {
			t.Fatalf("session of %d rounds, want 30", got)
		}
		if len(st.Score().Winners) == 0 {
			t.Fatalf("no winner")
		}
	}
	if passed == 0 || doubles == 0 {
		t.Errorf("no bank passed (%d) or no double (%d) in 600 rounds", passed, doubles)
	}
}

// TestBankerDraw: the highest card is banker; ties draw again among the tied (J1-BANKER).
func TestBankerDraw(t *testing.T) {
	redraws := 0
	for seed := range uint64(300) {
		n := 2 + int(seed%9)
		draws, banker := drawBanker(n, seed)
		last := draws[len(draws)-1]
		hi := 0
		for _, d := range last {
			hi = max(hi, DrawRank(d.Card))
		}
		for _, d := range last {
			if (d.Seat == banker) != (DrawRank(d.Card) == hi) {
				t.Fatalf("seed %d: banker %d, last draw %v", seed, banker, last)
			}
		}
		for i := 1; i < len(draws); i++ {
			redraws++
			top := 0
			for _, d := range draws[i-1] {
				top = max(top, DrawRank(d.Card))
			}
			for _, d := range draws[i] {
				if !slices.ContainsFunc(draws[i-1], func(p drawn) bool { return p.Seat == d.Seat && DrawRank(p.Card) == top }) {
					t.Fatalf("seed %d: seat %d drew again without a tie for highest", seed, d.Seat)
				}
			}
		}
	}
	if redraws == 0 {
		t.Errorf("no tie in 300 draws")
	}
}

// TestOpenSession: an open session runs until a punter ends it.
func TestOpenSession(t *testing.T) {
	st, err := Rules().New(games.Config{Players: 3, Options: map[string]string{OptRounds: "open"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		for _, s := range st.ToAct() {
			st, _ = mustApply(t, st, s, "stake/1")
		}
	}
	if len(st.ToAct()) == 0 {
		t.Fatal("open session ended by itself")
	}
	s := st.ToAct()[0]
	st, evs := mustApply(t, st, s, "stop")
	if len(st.ToAct()) != 0 || len(evs) != 1 || evs[0].Kind != games.EventMatchEnd {
		t.Fatalf("stop did not end the session: %v", evs)
	}
	if _, _, err := st.Apply(s, games.Num(KindStake, 1)); !errors.Is(err, games.ErrOver) {
		t.Errorf("after the end: %v", err)
	}
}

// TestBankSheetFolded: the sheet folds the rounds before the last 15 into one row (joker.md
// version 1, J1-END: running money); a single folded round is labelled as that round, never as
// "rounds 1–1".
func TestBankSheetFolded(t *testing.T) {
	for _, tc := range []struct {
		rounds int
		first  string // label id of the first row
		count  int    // its Count, for the folded row
	}{
		{15, "jokerbank.row.round", 0},
		{16, "jokerbank.row.round", 0},
		{17, "jokerbank.row.earlier", 2},
	} {
		var st games.State
		st, err := Rules().New(games.Config{Players: 3, Options: map[string]string{OptRounds: "open"}}, 7)
		if err != nil {
			t.Fatal(err)
		}
		for len(st.(*state).history) < tc.rounds {
			s := st.ToAct()[0]
			if st, _, err = st.Apply(s, games.Num(KindStake, 1)); err != nil {
				t.Fatal(err)
			}
		}
		sh := st.Score()
		if len(sh.Rows) != min(tc.rounds, bankRows+1) {
			t.Fatalf("%d rounds: %d rows", tc.rounds, len(sh.Rows))
		}
		l := sh.Rows[0].Label
		if l.ID != tc.first || tc.count > 0 && l.Args["Count"] != tc.count {
			t.Errorf("%d rounds: first row %v", tc.rounds, l)
		}
		if tc.rounds == 16 && l.Args["N"] != 1 {
			t.Errorf("16 rounds: folded row labelled %v, want round 1", l)
		}
	}
}

func mustApply(t *testing.T, st games.State, s games.Seat, a string) (games.State, []games.Event) {
	t.Helper()
	act, err := games.ParseAction(a)
	if err != nil {
		t.Fatal(err)
	}
	next, evs, err := st.Apply(s, act)
	if err != nil {
		t.Fatalf("seat %d %s: %v (legal %v)", s, a, err, st.Legal(s))
	}
	return next, evs
}

// TestApplyKeepsSiblings: two states applied from one parent never share what they change.
func TestApplyKeepsSiblings(t *testing.T) {
	r := Rules()
	st, _ := r.New(games.Config{Players: 3}, 4)
	rng := rand.New(rand.NewPCG(4, 4))
	for len(st.ToAct()) > 0 {
		s := st.ToAct()[0]
		l := st.Legal(s)
		a, _, _ := st.Apply(s, l[0])
		ab, _ := a.MarshalBinary()
		_, _, _ = st.Apply(s, l[len(l)-1])
		if ab2, _ := a.MarshalBinary(); string(ab) != string(ab2) {
			t.Fatalf("%s: applying to the parent changed a sibling", r.Name())
		}
		st, _, _ = st.Apply(s, l[rng.IntN(len(l))])
	}
}
