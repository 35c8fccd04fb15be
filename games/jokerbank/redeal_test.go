package jokerbank

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
)

// TestRedealHidesNothingAndSearchDefers: in the banker game no card is held between actions (a
// round's cards are turned from a deck shuffled from the seed once every stake is in), so every
// world Redeal draws, for every seat and the public, is the real state itself: the same View and
// Legal actions, the same stored form, the original unchanged, and no hand to honour a void in.
// What a punter cannot know is not cards but the other punters' hidden stakes and the turn-up
// still in the seed; a search must read neither, so at every level it plays exactly the agent's
// stake.
func TestRedealHidesNothingAndSearchDefers(t *testing.T) {
	seeds, redeals := 3, 3
	if raceBuild {
		seeds, redeals = 1, 2
	}
	levels := []search.Level{search.Normal, search.Strong}
	decisions := 0
	for _, n := range []int{2, 3, 5, maxSeats} {
		cfg := games.Config{Players: n, Options: map[string]string{OptRounds: "10", OptCeiling: "20"}}
		for seed := range uint64(seeds) {
			st, err := Rules().New(cfg, 40+seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 9))
			for len(st.ToAct()) > 0 {
				before, err := st.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				for s := games.Nobody; int(s) < n; s++ {
					view, legal := st.View(s), st.Legal(s)
					for range redeals {
						world := st.(games.Auditor).Redeal(s, rand.New(rand.NewPCG(rng.Uint64(), 1)))
						got, err := world.MarshalBinary()
						if err != nil {
							t.Fatal(err)
						}
						now, _ := st.MarshalBinary()
						switch {
						case !bytes.Equal(now, before):
							t.Fatalf("seat %d: Redeal changed the original", s)
						case !bytes.Equal(got, before):
							t.Fatalf("seat %d: Redeal drew a world other than the real state", s)
						case !reflect.DeepEqual(view, world.View(s)) || !slices.Equal(legal, world.Legal(s)):
							t.Fatalf("seat %d: the world's View or Legal differs", s)
						}
					}
				}
				for _, s := range st.ToAct() {
					legal := st.Legal(s)
					if len(legal) < 2 {
						continue
					}
					want := Agent{}.Choose(st.View(s), legal, rand.New(rand.NewPCG(1, 1)))
					for _, l := range levels {
						if got := search.Decide(Rules(), l, st, s, rand.New(rand.NewPCG(uint64(decisions), 2))); got != want {
							t.Fatalf("%v: seat %d staked %v, the agent %v", l, s, got, want)
						}
					}
					decisions++
				}
				// Random stakes, so the rounds settle over the whole range of stakes.
				s := st.ToAct()[0]
				legal := st.Legal(s)
				if st, _, err = st.Apply(s, legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if decisions < 50 {
		t.Errorf("only %d decisions checked", decisions)
	}
}
