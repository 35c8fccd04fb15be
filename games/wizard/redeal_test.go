package wizard

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// redealRun is a match played for TestRedealIsConsistent: its table and who plays it.
type redealRun struct {
	players int
	opts    map[string]string
	agent   games.Agent
}

// TestRedealIsConsistent plays matches with random and agent moves and, at every step, redeals
// for every seat (and the public) many times: each world shows that seat the same View and Legal
// actions, leaves the original as it was, decodes strictly, and gives no seat a suited card of a
// suit it has failed to follow this round, as recorded here from the moves themselves.
func TestRedealIsConsistent(t *testing.T) {
	runs := []redealRun{
		{4, nil, games.Random{}},
		{4, nil, Agent{}},
		{3, map[string]string{OptShortGame: "odd"}, games.Random{}},
		{5, map[string]string{OptHiddenBids: "on"}, Agent{}},
		{6, map[string]string{OptCannotMatch: "on"}, games.Random{}},
	}
	perState, every := 4, 3
	if raceBuild {
		perState, every = 2, 19
	}
	for i, run := range runs {
		st, err := Rules().New(games.Config{Players: run.players, Options: run.opts}, uint64(i)+40)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 41))
		var void [maxSeats]cards.Set
		voids, moved := 0, 0
		for step := 0; len(st.ToAct()) > 0; step++ {
			if step%every == 0 {
				for s := games.Nobody; int(s) < run.players; s++ {
					for range perState {
						moved += checkWorld(t, st, s, void[:run.players], rng)
					}
				}
			}
			s := st.ToAct()[rng.IntN(len(st.ToAct()))]
			a := run.agent.Choose(st.View(s), st.Legal(s), rng)
			if a.Kind == KindPlay {
				g := st.(*state)
				if led := LedSuit(g.trick[:g.nTrick]); led != cards.NoSuit && a.Card.IsFrench() && a.Card.Suit() != led {
					void[s] |= deckSet.Suit(led)
					voids++
				}
			}
			var evs []games.Event
			if st, evs, err = st.Apply(s, a); err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(evs, func(e games.Event) bool { return e.Kind == games.EventDealEnd }) {
				void = [maxSeats]cards.Set{} // a new round: nothing is known of the new hands
			}
		}
		if voids == 0 || moved == 0 {
			t.Errorf("run %d: %d voids shown and %d worlds that moved a card: the test saw nothing", i, voids, moved)
		}
	}
}

// checkWorld redeals st for s once and checks the world against st and the voids shown, void per
// seat; it returns 1 if the world moved a hidden card.
func checkWorld(t *testing.T, st games.State, s games.Seat, void []cards.Set, rng *rand.Rand) int {
	t.Helper()
	before, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	w := st.(games.Auditor).Redeal(s, rng)
	after, _ := st.MarshalBinary()
	if !bytes.Equal(before, after) {
		t.Fatalf("seat %d: Redeal changed the original", s)
	}
	if !reflect.DeepEqual(st.View(s), w.View(s)) || !slices.Equal(st.Legal(s), w.Legal(s)) {
		t.Fatalf("seat %d: the world shows another View or Legal:\n%+v\n%+v", s, st.View(s), w.View(s))
	}
	if !reflect.DeepEqual(st.ToAct(), w.ToAct()) {
		t.Fatalf("seat %d: the world has %v to act, the original %v", s, w.ToAct(), st.ToAct())
	}
	g := w.(*state)
	for x, v := range void {
		if held := g.hands[x].Intersect(v); !held.Empty() {
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
	if g.hands != st.(*state).hands {
		return 1
	}
	return 0
}

// TestRedealHidesSecretBids: with hidden bids, two states that differ only in a secret bid give
// every other seat the same worlds from the same rng, and those worlds carry, for the secret bid,
// what the agent would bid on the hand the world gives.
func TestRedealHidesSecretBids(t *testing.T) {
	for seed := range uint64(20) {
		st := newMatch(t, 4, seed, map[string]string{OptHiddenBids: "on"})
		for st.round() < 4 || st.phase == phaseTrump { // a round with a choice of bids, bidding
			next, err := playRound(st)
			if err != nil {
				t.Fatal(err)
			}
			st = next
		}
		var g games.State = st
		g, _ = mustApply(t, g, 1, "bid/0")
		real := g.(*state)
		other := *real
		other.bids[1] = 3
		for _, s := range []games.Seat{games.Nobody, 0, 2, 3} {
			if !reflect.DeepEqual(real.View(s), other.View(s)) {
				t.Fatalf("seed %d: seat %d sees the secret bid", seed, s)
			}
			a := real.Redeal(s, rand.New(rand.NewPCG(seed, 1))).(*state)
			b := other.Redeal(s, rand.New(rand.NewPCG(seed, 1))).(*state)
			if *a != *b {
				t.Fatalf("seed %d: seat %d's worlds depend on seat 1's secret bid: %d and %d", seed, s, a.bids[1], b.bids[1])
			}
			if want := nearestBid(expectedTricks(a.hands[1], a.trump, 4, a.round()), a.round()); int(a.bids[1]) != want {
				t.Fatalf("seed %d: the world bids %d for seat 1, the agent would bid %d", seed, a.bids[1], want)
			}
		}
		if own := real.Redeal(1, rand.New(rand.NewPCG(seed, 1))).(*state); own.bids[1] != 0 {
			t.Fatalf("seed %d: seat 1's own world changed its bid to %d", seed, own.bids[1])
		}
	}
}

// playRound plays the rest of st's round with the agent at every seat, or only the naming of
// trump when the dealer is to name it.
func playRound(st *state) (*state, error) {
	ri, naming := st.ri, st.phase == phaseTrump
	var g games.State = st
	for g.(*state).ri == ri && (!naming || g.(*state).phase == phaseTrump) {
		s := g.ToAct()[0]
		next, _, err := g.Apply(s, Agent{}.Choose(g.View(s), g.Legal(s), nil))
		if err != nil {
			return nil, err
		}
		g = next
	}
	return g.(*state), nil
}

// TestNearestBid: the bid the worlds give a secret bidder is the agent's own bid with every bid
// allowed.
func TestNearestBid(t *testing.T) {
	for r := 1; r <= 15; r++ {
		var legal []games.Action
		for b := 0; b <= r; b++ {
			legal = append(legal, games.Num(KindBid, b))
		}
		for want := -1.0; want <= float64(r)+1; want += 0.25 {
			if got, agent := nearestBid(want, r), closestBid(want, legal); got != int(agent.N) {
				t.Errorf("r %d want %.2f: nearestBid %d, the agent %v", r, want, got, agent)
			}
		}
	}
}

// TestVoidsStored: the suits a seat did not follow survive MarshalBinary and Unmarshal, and the
// decoder refuses a stored hand that holds a card of such a suit.
func TestVoidsStored(t *testing.T) {
	for seed := range uint64(50) {
		st := fuzzState(4, nil, seed, 10+int(seed)*7).(*state)
		x := slices.IndexFunc(st.voids[:4], func(v cards.Set) bool { return !v.Empty() })
		if x < 0 || st.phase != phasePlay {
			continue
		}
		b, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Rules().Unmarshal(b)
		if err != nil || back.(*state).voids != st.voids || !bytes.Contains(b, []byte(`"voids":`)) {
			t.Fatalf("seed %d: voids %v read back as %v (%v) from %s", seed, st.voids, back, err, b)
		}
		// Swap a card of seat x's void suit from another hand for one of x's cards.
		for y := range 4 {
			in, mine := st.hands[y].Intersect(st.voids[x]), st.hands[x]
			if y == x || in.Empty() || mine.Empty() {
				continue
			}
			bad := *st
			c, d := in.Cards()[0], mine.Cards()[0]
			bad.hands[y], bad.hands[x] = bad.hands[y].Remove(c).Add(d), bad.hands[x].Remove(d).Add(c)
			b, _ := bad.MarshalBinary()
			if _, err := Rules().Unmarshal(b); !errors.Is(err, games.ErrCorrupt) {
				t.Fatalf("seed %d: seat %d holds %v of a suit it did not follow, and Unmarshal says %v", seed, x, c, err)
			}
			return
		}
	}
	t.Fatal("no state had a void and a card of its suit in another hand")
}
