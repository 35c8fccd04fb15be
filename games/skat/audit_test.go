package skat

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestRedealKeepsVoids: along random matches, every seat's Redeal gives each other hand no card
// of a suit its seat did not follow, and so a state the strict decoder takes for one the rules
// can reach: the tricks replay from the redealt hands.
func TestRedealKeepsVoids(t *testing.T) {
	for _, cfg := range []games.Config{
		{Players: 3, Options: map[string]string{OptDeals: "3"}},
		{Players: 4, Options: map[string]string{OptDeals: "4", OptPreset: PresetISkO}},
	} {
		for seed := range uint64(2) {
			st, err := Rules().New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 3))
			voids := 0
			for len(st.ToAct()) > 0 {
				for s := games.Nobody; int(s) < cfg.Players; s++ {
					redealt := st.(*state).Redeal(s, rng).(*state)
					v := redealt.voids()
					for x := range cfg.Players {
						if held := redealt.Hands[x].Intersect(v[x]); !held.Empty() {
							t.Fatalf("seed %d: seat %d's redeal gives seat %d %v, of a suit it did not follow", seed, s, x, held)
						}
						if !v[x].Empty() {
							voids++
						}
					}
					b, err := redealt.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					if _, err := Rules().Unmarshal(b); err != nil {
						t.Fatalf("seed %d: seat %d's redeal does not decode: %v", seed, s, err)
					}
				}
				if st, err = gametest.RandomSteps(st, rng, 1); err != nil {
					t.Fatal(err)
				}
			}
			if voids == 0 {
				t.Fatalf("seed %d: nobody showed a void in a whole match", seed)
			}
		}
	}
}

// TestVoids: a seat that does not follow suit is void in it, trumps counting as one suit (§7).
func TestVoids(t *testing.T) {
	st := layout(newState(t, 3, nil),
		"CJ SJ HA H10 HK HQ H9 SA S10 D7",
		"HJ DJ CA C10 CK CQ C9 C8 C7 H8",
		"SK SQ S9 S8 S7 DA D10 DK DQ D9",
		"H7 D8")
	st, _ = do(t, st, "pass", "pass", "playat/18", "hand", "hearts", "simple",
		"play/CJ", "play/HJ", "play/SK")
	r := st.seat(Rearhand)
	if got, want := st.voids()[r], followers(Hearts, Trumps); got != want {
		t.Errorf("rearhand, who played SK to CJ in hearts, is void in %v, want the trumps %v", got, want)
	}
	for _, s := range []games.Seat{st.seat(Forehand), st.seat(Middlehand)} {
		if v := st.voids()[s]; v != 0 {
			t.Errorf("seat %d followed but is void in %v", s, v)
		}
	}
	if got := followers(Grand, Trumps); got != cards.SetOf(TrumpOrder(Grand)...) {
		t.Errorf("the trumps of Grand are %v", got)
	}
}
