package gametest

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// CheckRedeal draws one world of st for seat s with st's Redeal and checks what every world must
// keep: the original state unchanged, the same View and Legal actions for s (deep-equal), and the
// deck's cards each in exactly one zone. It returns the world for the engine's own checks (the
// voids it must honour).
func CheckRedeal(t testing.TB, st games.State, s games.Seat, rng *rand.Rand) games.State {
	t.Helper()
	au, ok := st.(games.Auditor)
	if !ok {
		t.Fatalf("%T cannot redeal", st)
	}
	before, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	w := au.Redeal(s, rng)
	if after, _ := st.MarshalBinary(); !bytes.Equal(before, after) {
		t.Fatalf("Redeal(%d) changed the original", s)
	}
	if got, want := w.View(s), st.View(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("seat %d sees %+v in a world, %+v really", s, got, want)
	}
	if got, want := w.Legal(s), st.Legal(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("seat %d may play %v in a world, %v really", s, got, want)
	}
	var all cards.Set
	n := 0
	for _, z := range w.(games.Auditor).Zones() {
		all = all.Union(z)
		n += z.Len()
	}
	if deck := au.Deck(); all != deck || n != deck.Len() {
		t.Fatalf("a world holds %d cards %v, not the deck %v once each", n, all, deck)
	}
	return w
}

// CheckAgentView checks that every seat's AgentView (and the public one's) along steps random
// actions from st is its View with the texts for people (Table, Private, Prompt) left out.
func CheckAgentView(t testing.TB, st games.State, rng *rand.Rand, steps int) {
	t.Helper()
	av, ok := st.(games.AgentViewer)
	if !ok {
		t.Fatalf("%T has no AgentView", st)
	}
	players := st.View(games.Nobody).Players
	for step := 0; step < steps && len(st.ToAct()) > 0; step++ {
		for s := games.Nobody; int(s) < players; s++ {
			want := st.View(s)
			want.Table, want.Private, want.Prompt = nil, nil, games.Msg{}
			if got := av.AgentView(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d seat %d: AgentView %+v, View %+v", step, s, got, want)
			}
		}
		to := st.ToAct()
		p := to[rng.IntN(len(to))]
		legal := st.Legal(p)
		next, _, err := st.Apply(p, legal[rng.IntN(len(legal))])
		if err != nil {
			t.Fatal(err)
		}
		st, av = next, next.(games.AgentViewer)
	}
}
