package magister

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// redealGames are the tables TestRedealKeepsWhatSeatsKnow plays: every table size, the trump
// choice, and every variant.
var redealGames = []games.Config{
	{Players: 2},
	{Players: 3},
	{Players: 4},
	{Players: 3, Options: map[string]string{OptVariant: "2"}},
	{Players: 4, Options: map[string]string{OptVariant: "3"}},
	{Players: 4, Options: map[string]string{OptVariant: "4"}},
	{Players: 2, Options: map[string]string{OptVariant: "5"}},
}

// shownByRule is the oracle of the voids: the cards whose presence in p's hand (as it was before
// the play) would have made playing x onto b illegal under LegalPlays, found card by card.
func shownByRule(b Bank, tr Trumps, p games.Seat, hand cards.Set, x cards.Card) cards.Set {
	var out cards.Set
	for _, c := range PackSet().Minus(hand).Cards() {
		if !LegalPlays(b, tr, p, hand.Add(c)).Has(x) {
			out = out.Add(c)
		}
	}
	return out
}

// TestRedealKeepsWhatSeatsKnow plays random games and, every few moves, redeals many times for
// the seat to act and for another: each world shows that seat the same View and Legal actions,
// the original state is unchanged, and no hand gets a card its seat has shown (by the legal-play
// oracle) it does not hold. The engine's own record of those cards must be exactly the oracle's.
func TestRedealKeepsWhatSeatsKnow(t *testing.T) {
	steps, redeals := 600, 6
	if testing.Short() || raceBuild {
		steps, redeals = 150, 2
	}
	constrained := 0
	for i, cfg := range redealGames {
		t.Run(fmt.Sprintf("%d-%v", cfg.Players, cfg.Options), func(t *testing.T) {
			seed := uint64(100 + i)
			st0, err := Rules().New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			st := st0.(*state)
			rng := rand.New(rand.NewPCG(seed, 7))
			var oracle [4]cards.Set
			deal, last := st.deal, ""
			for step := 0; step < steps && !st.over; step++ {
				if st.deal != deal {
					oracle, deal = [4]cards.Set{}, st.deal
				}
				if st.voids != oracle {
					t.Fatalf("step %d, after %s: the engine's voids %v, the rules' %v", step, last, st.voids, oracle)
				}
				if step%3 == 0 && st.voids != [4]cards.Set{} {
					checkVoidsStored(t, st)
				}
				if step%3 == 0 {
					// The seat to act, whose worlds a search draws, and another one.
					for _, s := range []games.Seat{st.ToAct()[0], games.Seat(rng.IntN(st.n))} {
						for range redeals {
							if checkWorld(t, st, s, oracle, rng) {
								constrained++
							}
						}
					}
				}
				p := st.turn
				legal := st.Legal(p)
				a := legal[rng.IntN(len(legal))]
				last = fmt.Sprintf("seat %d %v on %v (hand %v)", p, a, st.bank.Plays, st.hands[p])
				if !st.choosing && !st.leading() {
					oracle[p] = oracle[p].Union(shownByRule(st.bank, st.tr, p, st.hands[p], a.Card))
				}
				next, _, err := st.Apply(p, a)
				if err != nil {
					t.Fatal(err)
				}
				st = next.(*state)
			}
		})
	}
	if constrained == 0 {
		t.Error("no world was drawn with a void to honour: the test shows nothing")
	}
}

// checkWorld draws one world of st for s, checks it (gametest.CheckRedeal and the voids), and
// reports whether a void constrained it.
func checkWorld(t *testing.T, st *state, s games.Seat, voids [4]cards.Set, rng *rand.Rand) bool {
	t.Helper()
	w := gametest.CheckRedeal(t, st, s, rng).(*state)
	used := false
	for p := range games.Seat(st.n) {
		if p == s {
			continue
		}
		if bad := w.hands[p].Intersect(voids[p]); !bad.Empty() {
			t.Fatalf("deal %d: seat %d showed it holds none of %v, and a world gives it %v", st.deal, p, voids[p], bad)
		}
		used = used || !voids[p].Intersect(PackSet().Minus(st.hands[s])).Empty()
	}
	return used
}

// TestRedealHidesTheNextDeal: during the trump choice (deal 1 not dealt yet) the worlds deal
// deal 1 from their own seed, not the real one, so a search choosing a trump cannot see the cards.
func TestRedealHidesTheNextDeal(t *testing.T) {
	st0, err := Rules().New(games.Config{Players: 4}, 3)
	if err != nil {
		t.Fatal(err)
	}
	deal1 := func(st games.State) [4]cards.Set {
		for st.(*state).choosing {
			s := st.ToAct()[0]
			if st, _, err = st.Apply(s, st.Legal(s)[0]); err != nil {
				t.Fatal(err)
			}
		}
		return st.(*state).hands
	}
	real := deal1(st0)
	rng := rand.New(rand.NewPCG(3, 3))
	same := 0
	for range 20 {
		if deal1(st0.(*state).Redeal(st0.ToAct()[0], rng)) == real {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d of 20 worlds dealt deal 1 exactly as the real seed does", same)
	}
}

// checkVoidsStored: the voids survive the stored form, and a stored state whose voids include a
// card its seat holds is refused.
func checkVoidsStored(t *testing.T, st *state) {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Rules().Unmarshal(b)
	if err != nil {
		t.Fatalf("a state with voids does not read back: %v", err)
	}
	if got := back.(*state).voids; got != st.voids {
		t.Fatalf("voids %v read back as %v", st.voids, got)
	}
	for p := range st.n {
		if h := st.hands[p]; !h.Empty() {
			bad := *st
			bad.voids[p] = bad.voids[p].Add(h.Cards()[0])
			if b, err = bad.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
			if _, err := Rules().Unmarshal(b); err == nil {
				t.Fatalf("a state whose seat %d holds a card of its voids %v was accepted", p, bad.voids[p])
			}
			return
		}
	}
}
