package skat

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// TestRedealIsConsistent plays matches with random and agent moves and, at every step, redeals
// for every seat (and the public) many times: each world shows that seat the same View, AgentView
// and Legal actions, leaves the original as it was, decodes strictly, keeps an open declarer's
// cards where they are, and gives no seat a card of a suit it has failed to follow in this deal
// (the trumps one suit), as recorded here from the moves themselves.
func TestRedealIsConsistent(t *testing.T) {
	runs := []struct {
		cfg   games.Config
		agent games.Agent
	}{
		{games.Config{Players: 3, Options: map[string]string{OptDeals: "6"}}, games.Random{}},
		{games.Config{Players: 3, Options: map[string]string{OptDeals: "3"}}, Agent{}},
		{games.Config{Players: 4, Options: map[string]string{OptDeals: "4", OptPreset: PresetISkO}}, games.Random{}},
	}
	perState, every := 3, 2
	if raceBuild {
		perState, every = 1, 11
	}
	open := 0
	for i, run := range runs {
		st, err := Rules().New(run.cfg, uint64(i)+60)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 61))
		var void [maxSeats]cards.Set
		voids, moved := 0, 0
		for step := 0; len(st.ToAct()) > 0; step++ {
			g := st.(*state)
			if step%every == 0 {
				if g.openHand() {
					open++
				}
				for s := games.Nobody; int(s) < run.cfg.Players; s++ {
					for range perState {
						moved += checkWorld(t, g, s, void[:run.cfg.Players], rng)
					}
				}
			}
			s := st.ToAct()[0]
			a := run.agent.Choose(st.View(s), st.Legal(s), rng)
			if k := g.Contract.Kind; a.Kind == "play" && g.played() > 0 && Follow(k, a.Card) != Follow(k, g.Trick[0]) {
				void[s] = void[s].Union(followers(k, Follow(k, g.Trick[0])))
				voids++
			}
			var evs []games.Event
			if st, evs, err = st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(evs, func(e games.Event) bool { return e.Kind == games.EventDealEnd }) {
				void = [maxSeats]cards.Set{} // a new deal: nothing is known of the new hands
			}
		}
		if voids == 0 || moved == 0 {
			t.Errorf("run %d: %d voids shown and %d worlds that moved a card: the test saw nothing", i, voids, moved)
		}
	}
	t.Logf("%d states of open games", open)
	if open == 0 {
		t.Error("no open game was played: the open declarer's hand was never checked")
	}
}

// checkWorld redeals st for s once and checks the world against st and the voids shown, void per
// seat; it returns 1 if the world moved a hidden card.
func checkWorld(t *testing.T, st *state, s games.Seat, void []cards.Set, rng *rand.Rand) int {
	t.Helper()
	before, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	w := st.Redeal(s, rng).(*state)
	if after, _ := st.MarshalBinary(); !bytes.Equal(before, after) {
		t.Fatalf("seat %d: Redeal changed the original", s)
	}
	v := st.View(s)
	if !reflect.DeepEqual(v, w.View(s)) || !slices.Equal(st.Legal(s), w.Legal(s)) {
		t.Fatalf("seat %d: the world shows another View or Legal:\n%+v\n%+v", s, v, w.View(s))
	}
	v.Table, v.Private, v.Prompt = nil, nil, games.Msg{}
	if av := w.AgentView(s); !reflect.DeepEqual(v, av) {
		t.Fatalf("seat %d: AgentView is not View without its texts:\n%+v\n%+v", s, v, av)
	}
	if st.openHand() && w.Hands[st.Declarer] != st.Hands[st.Declarer] {
		t.Fatalf("seat %d: the world moved the open declarer's cards %v to %v", s, st.Hands[st.Declarer], w.Hands[st.Declarer])
	}
	for x, v := range void {
		if held := w.Hands[x].Intersect(v); !held.Empty() {
			t.Fatalf("seat %d's world gives seat %d %v, of a suit it did not follow", s, x, held)
		}
	}
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Rules().Unmarshal(b); err != nil {
		t.Fatalf("seat %d's world does not decode: %v", s, err)
	}
	if w.Hands != st.Hands || w.Skat != st.Skat {
		return 1
	}
	return 0
}
