package wizard

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// fuzzState plays steps random legal actions of a match seeded with seed.
func fuzzState(players int, opts map[string]string, seed uint64, steps int) games.State {
	st, err := Rules().New(games.Config{Players: players, Options: opts}, seed)
	if err != nil {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	for range steps {
		toAct := st.ToAct()
		if len(toAct) == 0 {
			break
		}
		s := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(s)
		st, _, _ = st.Apply(s, legal[rng.IntN(len(legal))])
	}
	return st
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
		st := fuzzState(3+int(players%4), opts, seed, int(steps%800))
		a, err := games.ParseAction(text)
		if err != nil {
			return
		}
		before, _ := st.MarshalBinary()
		next, _, err := st.Apply(games.Seat(seat), a)
		after, _ := st.MarshalBinary()
		if !bytes.Equal(before, after) {
			t.Fatalf("Apply(%d, %v) changed its receiver", seat, a)
		}
		if err == nil {
			if _, err := next.MarshalBinary(); err != nil {
				t.Fatalf("state after %v does not marshal: %v", a, err)
			}
		}
	})
}

// FuzzUnmarshal feeds arbitrary bytes: Unmarshal never panics, and whatever it accepts can be
// viewed, asked for moves, and written back to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	for _, steps := range []int{0, 5, 30, 200} {
		b, _ := fuzzState(4, nil, 9, steps).MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := Rules().Unmarshal(b)
		if err != nil {
			return
		}
		out, err := st.MarshalBinary()
		if err != nil {
			t.Fatalf("accepted state does not marshal: %v", err)
		}
		back, err := Rules().Unmarshal(out)
		if err != nil {
			t.Fatalf("accepted state does not round-trip: %v", err)
		}
		if again, _ := back.MarshalBinary(); !bytes.Equal(again, out) {
			t.Fatalf("round trip changed the state")
		}
		n := int(st.(*state).n())
		st.Score()
		for s := games.Nobody; int(s) < n; s++ {
			st.View(s)
			for _, a := range st.Legal(s) {
				st.Apply(s, a)
			}
		}
	})
}
