package wizard

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// fuzzState plays steps random legal actions of a match seeded with seed.
func fuzzState(players int, opts map[string]string, seed uint64, steps int) games.State {
	st, err := Rules().New(games.Config{Players: players, Options: opts}, seed)
	if err != nil {
		return nil
	}
	st, _ = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 3)), steps)
	return st
}

// fuzzOptions are the variants the fuzz targets choose from with one number.
func fuzzOptions(k uint64) map[string]string {
	switch k % 5 {
	case 1:
		return map[string]string{OptHiddenBids: "on"}
	case 2:
		return map[string]string{OptCannotMatch: "on"}
	case 3:
		return map[string]string{OptShortGame: "odd"}
	case 4:
		return map[string]string{OptShortGame: "3", OptCannotMatch: "on"}
	}
	return nil
}

// FuzzApply feeds arbitrary action text from any seat at an arbitrary moment: parsing and Apply
// never panic, and a rejected action leaves the state as it was.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"bid/0", "bid/3", "play/W1", "play/SA", "trump/2", "trump/4", "bid/-1", "pass", "play/X1", "play/H10/1"} {
		f.Add(uint64(9), uint8(4), uint16(0), int8(0), s)
	}
	f.Add(uint64(1), uint8(3), uint16(40), int8(2), "play/C2")
	f.Add(uint64(2), uint8(6), uint16(300), int8(-1), "bid/2")
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, seat int8, text string) {
		var opts map[string]string
		if seed%3 == 1 {
			opts = map[string]string{OptHiddenBids: "on"}
		} else if seed%3 == 2 {
			opts = map[string]string{OptCannotMatch: "on"}
		}
		gametest.CheckApply(t, fuzzState(3+int(players%4), opts, seed, int(steps%800)), games.Seat(seat), text)
	})
}

// FuzzUnmarshal feeds arbitrary bytes, starting from states of every player count and variant at
// every phase: Unmarshal never panics, refuses with a nil State and games.ErrCorrupt, and what it
// accepts is a state that passes the audit, marshals back to exactly the same bytes and can be
// played on.
func FuzzUnmarshal(f *testing.F) {
	for k := range uint64(5) {
		for players := 3; players <= 6; players++ {
			for _, steps := range []int{0, 5, 30, 200, -1} {
				if b, err := fuzzState(players, fuzzOptions(k), k+uint64(players), steps).MarshalBinary(); err == nil {
					f.Add(b)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshalStrict(t, Rules(), b) })
}

// FuzzActions plays to an arbitrary moment of a match of any size and variant: every Legal action
// round-trips its text and Apply takes it without changing the state.
func FuzzActions(f *testing.F) {
	for _, steps := range []uint16{0, 1, 4, 9, 60, 250, 700} {
		f.Add(uint64(steps), uint8(steps), steps, uint8(steps))
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, variant uint8) {
		st := fuzzState(3+int(players%4), fuzzOptions(uint64(variant)), seed, int(steps%800))
		if st == nil {
			t.Skip("variant does not fit the table")
		}
		gametest.CheckActions(t, st)
	})
}

// FuzzUnmarshalEdit changes one field of a real state's stored form (a number, a flag, the phase,
// the trump, or a card moved between two places) and writes it canonically, so the decoder's
// checks of how the fields fit together are what decides. A state it accepts must obey the strict
// contract and play on to the end of the match: every seat to act has a Legal action, and Apply
// takes them all.
func FuzzUnmarshalEdit(f *testing.F) {
	for k := range uint8(12) {
		f.Add(uint64(k), uint8(k), uint16(k)*37, k, k, int16(k)-2)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, variant, field uint8, v int16) {
		st := fuzzState(3+int(players%4), fuzzOptions(uint64(variant)), seed, int(steps%800))
		if st == nil {
			t.Skip("variant does not fit the table")
		}
		b, err := st.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var w wire
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		editWire(&w, field, v)
		if b, err = json.Marshal(w); err != nil {
			t.Skip("edit does not marshal")
		}
		gametest.CheckUnmarshalStrict(t, Rules(), b)
		got, err := Rules().Unmarshal(b)
		if err != nil {
			return
		}
		for i := 0; len(got.ToAct()) > 0; i++ {
			if i > 2000 {
				t.Fatalf("an accepted edit does not end")
			}
			s := got.ToAct()[0]
			legal := got.Legal(s)
			if len(legal) == 0 {
				t.Fatalf("after %d steps seat %d is to act without a Legal action", i, s)
			}
			if got, _, err = got.Apply(s, legal[int(seed%uint64(len(legal)))]); err != nil {
				t.Fatalf("after %d steps: %v", i, err)
			}
		}
	})
}

// editWire changes the field numbered field of w: to v, by one, or as the bits of v choose.
func editWire(w *wire, field uint8, v int16) {
	n, u := int(v), int(uint16(v)) // a value, and an index that is never negative
	seat := func(xs []int) *int { return &xs[(u&0xff)%len(xs)] }
	switch field % 16 {
	case 0:
		w.Players = n
	case 1:
		w.Round = n
	case 2:
		w.Dealer = n
	case 3:
		w.Turn = n
	case 4:
		w.Leader = n
	case 5:
		w.LastLeader = n
	case 6:
		w.LastWinner = n
	case 7:
		*seat(w.Bids) = n >> 8
	case 8:
		*seat(w.Taken) = n >> 8
	case 9:
		if len(w.History) > 0 {
			row := w.History[(u&0xff)%len(w.History)]
			row[(u>>8&0xf)%len(row)][(u>>12&0x7)%3] += 1 - 2*(u>>15)
		}
	case 10:
		w.Phase = []string{"trump", "bid", "play", "over"}[u&3]
	case 11:
		w.Trump = []string{"none", "clubs", "diamonds", "hearts", "spades"}[(u&0xff)%5]
	case 12:
		w.CannotMatch, w.Hidden = u&1 != 0, u&2 != 0
	case 13:
		w.Rounds = roundList(w.Players, []string{"off", "3", "5", "7", "10", "odd", "even"}[(u&0xff)%7])
	default:
		moveCard(w, u)
	}
}

// moveCard moves a card of the deck, chosen by u, from where it is to another place.
func moveCard(w *wire, u int) {
	c := cards.Card(1 + (u&0xff)%deckSize)
	places := len(w.Hands) + 4 // hands, stock, played, trick, turned
	to := (u >> 8) % places
	remove := func(s string) string {
		cs, _ := parseList(s, deckSize)
		return list(slices.DeleteFunc(cs, func(x cards.Card) bool { return x == c }))
	}
	for i := range w.Hands {
		w.Hands[i] = w.Hands[i].Remove(c)
	}
	w.Stock, w.Played = w.Stock.Remove(c), w.Played.Remove(c)
	w.Trick = remove(w.Trick)
	if w.Turned == c.String() {
		w.Turned = ""
	}
	switch {
	case to < len(w.Hands):
		w.Hands[to] = w.Hands[to].Add(c)
	case to == len(w.Hands):
		w.Stock = w.Stock.Add(c)
	case to == len(w.Hands)+1:
		w.Played = w.Played.Add(c)
	case to == len(w.Hands)+2:
		w.Trick = strings.TrimSpace(w.Trick + " " + c.String())
	default:
		w.Turned = c.String()
	}
}
