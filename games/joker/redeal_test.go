package joker

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// watchVoids keeps, from the public view alone, the suits each seat has shown it lacks this deal:
// a seat that plays a card of another suit than the one to follow has none of it (joker.md
// "Play"). It is the test's own bookkeeping, kept apart from the engine's.
type watchVoids struct {
	deal  int
	party int
	voids [maxSeats]cards.Set // the cards of the suits each seat lacks
}

// at forgets the voids of a deal once st has moved on to another.
func (w *watchVoids) at(st games.State) {
	if g := st.View(games.Nobody).Game.(View); g.Deal != w.deal || g.Party != w.party || g.Bidding {
		w.deal, w.party, w.voids = g.Deal, g.Party, [maxSeats]cards.Set{}
	}
}

// see records seat s playing a in st, before the play.
func (w *watchVoids) see(st games.State, s games.Seat, a games.Action) {
	g := st.View(games.Nobody).Game.(View)
	if a.Card == cards.NoCard || a.Card.IsJoker() || g.Follow == cards.NoSuit || a.Card.Suit() == g.Follow {
		return
	}
	w.voids[s] = w.voids[s].Union(packSet.Suit(g.Follow))
}

// TestRedealHonoursThePlay: over random parties of every size, every world Redeal
// draws for every seat (the public included) shows that seat the same View and Legal actions,
// leaves the original as it was, keeps in place every card the seat has seen (its hand, the
// turn-up, the trick, the cards collected), moves only the other hands and the stock, and gives no
// seat a card of a suit it has shown it lacks. The same rng draws the same world, and the worlds
// do vary.
func TestRedealHonoursThePlay(t *testing.T) {
	seeds, redeals, every := 2, 4, 2
	if raceBuild {
		seeds, redeals, every = 1, 2, 10
	}
	worlds, moved, constrained := 0, 0, 0
	for n := 2; n <= maxSeats; n++ {
		cfg := games.Config{Players: n}
		if n%2 == 1 {
			cfg.Options = map[string]string{OptFirstLead: "left"}
		}
		for seed := range uint64(seeds) {
			st, err := Rules().New(cfg, 100+seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 3))
			var w watchVoids
			for k := 0; len(st.ToAct()) > 0; k++ {
				w.at(st)
				if k%every == 0 {
					checkWorlds(t, st.(*state), &w, redeals, rng, &worlds, &moved, &constrained)
				}
				s := st.ToAct()[0]
				legal := st.Legal(s)
				a := legal[rng.IntN(len(legal))]
				w.see(st, s, a)
				if st, _, err = st.Apply(s, a); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d worlds, %d with a card moved, %d hands drawn under a void", worlds, moved, constrained)
	if moved < worlds/2 || constrained < worlds/10 {
		t.Errorf("of %d worlds only %d moved a card, and %d hands were drawn under a void", worlds, moved, constrained)
	}
}

// checkWorlds draws worlds of st for every seat and checks each against the original and the
// voids w has seen.
func checkWorlds(t *testing.T, st *state, w *watchVoids, redeals int, rng *rand.Rand, worlds, moved, constrained *int) {
	t.Helper()
	before, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for s := games.Nobody; int(s) < st.n; s++ {
		view, legal := st.View(s), st.Legal(s)
		hidden := st.stock()
		for o := range games.Seat(st.n) {
			if o != s {
				hidden = hidden.Union(st.hands[o])
			}
		}
		for range redeals {
			seed := rng.Uint64()
			world := st.Redeal(s, rand.New(rand.NewPCG(seed, 1))).(*state)
			*worlds++
			if !bytes.Equal(before, mustMarshalState(t, st)) {
				t.Fatalf("seat %d: Redeal changed the original", s)
			}
			if !reflect.DeepEqual(view, world.View(s)) || !slices.Equal(legal, world.Legal(s)) {
				t.Fatalf("seat %d: the world's View or Legal differs\n%+v\n%+v", s, view, world.View(s))
			}
			again := st.Redeal(s, rand.New(rand.NewPCG(seed, 1)))
			if !bytes.Equal(mustMarshalState(t, world), mustMarshalState(t, again)) {
				t.Fatalf("seat %d: the same rng drew two worlds", s)
			}
			same := *world
			same.hands, same.voids = st.hands, st.voids
			if !reflect.DeepEqual(&same, st) || world.voids != st.voids {
				t.Fatalf("seat %d: Redeal changed more than the hidden hands", s)
			}
			rest := world.stock()
			for o := range games.Seat(st.n) {
				switch {
				case o == s && world.hands[o] != st.hands[o]:
					t.Fatalf("seat %d: its own hand changed", s)
				case o == s:
				case world.hands[o].Len() != st.hands[o].Len():
					t.Fatalf("seat %d: seat %d holds %d cards, not %d", s, o, world.hands[o].Len(), st.hands[o].Len())
				case !world.hands[o].Intersect(w.voids[o]).Empty():
					t.Fatalf("seat %d: seat %d, which showed it lacks %v, got %v", s, o, w.voids[o],
						world.hands[o].Intersect(w.voids[o]))
				default:
					rest = rest.Union(world.hands[o])
					if !w.voids[o].Empty() && !hidden.Intersect(w.voids[o]).Empty() {
						*constrained++
					}
				}
			}
			if rest != hidden || world.stock().Len() != st.stock().Len() {
				t.Fatalf("seat %d: the hidden cards are not those of the original", s)
			}
			if world.hands != st.hands {
				*moved++
			}
		}
	}
}

func mustMarshalState(t *testing.T, st games.State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVoidsRecorded: the engine keeps the suits the plays showed a seat to lack, and only those:
// a joker, a card that follows and a card after a led joker show nothing.
func TestVoidsRecorded(t *testing.T) {
	st := fixedDeal(t, 3, "C2", "S2 S3 H4 X1", "S4 H5 D6 D7", "H6 H7 C8 C9")
	var g games.State = st
	for _, step := range []struct {
		seat games.Seat
		act  string
	}{
		{1, "pass"}, {2, "pass"}, {0, "bid/1"},
		{0, "play/S2"}, {1, "play/S4"}, {2, "play/H6"}, // seat 2 shows it lacks spades
		{1, "play/H5"}, {2, "play/H7"}, {0, "low/X1"}, // a joker shows nothing
		{2, "play/C8"}, {0, "play/H4"}, // seat 0 shows it lacks clubs
	} {
		g, _ = mustApply(t, g, step.seat, step.act)
	}
	want := [maxSeats]suits{0: suits(0).add(cards.Clubs), 2: suits(0).add(cards.Spades)}
	if got := g.(*state).voids; got != want {
		t.Fatalf("voids %v, want %v", got, want)
	}
	led := fixedDeal(t, 2, "C2", "X1 S3 H4", "S4 H5 D6", "H6 H7 C8")
	g = led
	for _, step := range []struct {
		seat games.Seat
		act  string
	}{
		{1, "pass"}, {2, "pass"}, {0, "bid/1"},
		{0, "high/X1"}, {1, "play/D6"}, {2, "play/C8"}, // after a led joker the second card fixes the suit
	} {
		g, _ = mustApply(t, g, step.seat, step.act)
	}
	want = [maxSeats]suits{2: suits(0).add(cards.Diamonds)}
	if got := g.(*state).voids; got != want {
		t.Fatalf("after a led joker: voids %v, want %v", got, want)
	}
}

// TestUnmarshalVoids: the voids read back as written, and a list no play can leave is refused.
func TestUnmarshalVoids(t *testing.T) {
	playing := reach(t, games.Config{Players: 4}, 8, func(st *state) bool {
		return st.phase == phasePlay && st.voids != [maxSeats]suits{} && st.dealNo() > 3
	})
	b := mustMarshalState(t, playing)
	back, err := Rules().Unmarshal(b)
	if err != nil || back.(*state).voids != playing.voids {
		t.Fatalf("Unmarshal = %v, %v; want voids %v\n%s", back, err, playing.voids, b)
	}
	bidding := reach(t, games.Config{Players: 4}, 9, func(st *state) bool { return st.phase == phaseBid && st.dealNo() > 1 })
	held := func(w *wire) {
		for s, h := range w.Hands {
			if c := h.Cards(); len(c) > 0 && !c[0].IsJoker() {
				w.Voids[s] = c[0].Suit().Letter()
				return
			}
		}
	}
	for _, tc := range []struct {
		name   string
		st     *state
		change func(w *wire)
		want   string
	}{
		{"a void while bidding", bidding, func(w *wire) { w.Voids = []string{"S", "", "", ""} }, "played nothing"},
		{"a void in a suit held", playing, held, "and holds"},
		{"a list of no voids", playing, func(w *wire) { w.Voids = []string{"", "", "", ""} }, "no voids"},
		{"a list too short", playing, func(w *wire) { w.Voids = w.Voids[1:] }, "lists for"},
		{"suits out of order", playing, func(w *wire) { w.Voids = []string{"SC", "", "", ""} }, "canonical order"},
		{"a suit twice", playing, func(w *wire) { w.Voids = []string{"CC", "", "", ""} }, "canonical order"},
		{"a suit in lower case", playing, func(w *wire) { w.Voids = []string{"c", "", "", ""} }, "canonical order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w wire
			if err := json.Unmarshal(mustMarshalState(t, tc.st), &w); err != nil {
				t.Fatal(err)
			}
			tc.change(&w)
			b, err := json.Marshal(w)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Rules().Unmarshal(b)
			if !errors.Is(err, games.ErrCorrupt) || st != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal = %v, %v; want ErrCorrupt for %q\n%s", st, err, tc.want, b)
			}
		})
	}
}
