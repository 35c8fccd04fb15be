package nasilie

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// redealGames are the tables TestRedealKeepsWhatSeatsKnow plays: both following rules and the
// larger tables.
var redealGames = []games.Config{
	{Players: 4},
	{Players: 4, Options: map[string]string{OptFollow: FollowFree}},
	{Players: 5},
	{Players: 5, Options: map[string]string{OptFive: FiveDealer}},
	{Players: 6},
}

// shownByRule is the oracle of the voids: the cards whose presence in the hand (as it was before
// the play) would have made playing x to the trick led by led illegal under LegalPlays.
func shownByRule(deck, hand cards.Set, led, x cards.Card, trump cards.Suit, lenient bool) cards.Set {
	var out cards.Set
	for _, c := range deck.Minus(hand).Cards() {
		legal := LegalPlays(hand.Add(c).Cards(), led, trump, lenient)
		if !cards.SetOf(legal...).Has(x) {
			out = out.Add(c)
		}
	}
	return out
}

// TestRedealKeepsWhatSeatsKnow plays random matches and, every few moves, redeals many times for
// the seat to act and for another: each world shows that seat the same View and Legal actions,
// the original state is unchanged, and no hand gets a card its seat has shown (by the legal-play
// oracle) it does not hold. The engine's own record of those cards must be exactly the oracle's.
func TestRedealKeepsWhatSeatsKnow(t *testing.T) {
	steps, redeals := 500, 5
	if testing.Short() || raceBuild {
		steps, redeals = 150, 2
	}
	constrained := 0
	for i, cfg := range redealGames {
		t.Run(fmt.Sprintf("%d-%v", cfg.Players, cfg.Options), func(t *testing.T) {
			seed := uint64(200 + i)
			st0, err := Rules().New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			st := st0.(*state)
			rng := rand.New(rand.NewPCG(seed, 7))
			var oracle [maxPlayers]cards.Set
			deal, last := st.deal, ""
			for step := 0; step < steps && len(st.ToAct()) > 0; step++ {
				if st.deal != deal {
					oracle, deal = [maxPlayers]cards.Set{}, st.deal
				}
				if got := st.voids(); got != oracle {
					t.Fatalf("step %d, after %s: the engine's voids %v, the rules' %v", step, last, got, oracle)
				}
				if step%3 == 0 {
					// The seat to act, whose worlds a search draws, and another one.
					for _, s := range []games.Seat{st.ToAct()[0], games.Seat(rng.IntN(st.players))} {
						for range redeals {
							if checkWorld(t, st, s, oracle, rng) {
								constrained++
							}
						}
					}
				}
				to := st.ToAct()
				p := to[rng.IntN(len(to))]
				legal := st.Legal(p)
				a := legal[rng.IntN(len(legal))]
				last = fmt.Sprintf("seat %d %v (hand %v)", p, a, st.hands[p])
				if ps := st.tricks(); st.phase == phasePlay && len(ps.trick) > 0 {
					oracle[p] = oracle[p].Union(shownByRule(st.Deck(), st.hands[p], ps.trick[0].Card, a.Card, st.trump, st.lenient))
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
func checkWorld(t *testing.T, st *state, s games.Seat, voids [maxPlayers]cards.Set, rng *rand.Rand) bool {
	t.Helper()
	w := gametest.CheckRedeal(t, st, s, rng).(*state)
	used := false
	for p := range games.Seat(st.players) {
		if p == s {
			continue
		}
		if bad := w.hands[p].Intersect(voids[p]); !bad.Empty() {
			t.Fatalf("deal %d: seat %d showed it holds none of %v, and a world gives it %v", st.deal, p, voids[p], bad)
		}
		used = used || !voids[p].Intersect(st.Deck().Minus(st.hands[s])).Empty()
	}
	return used
}
