package wizard

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
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

// FuzzUnmarshal feeds arbitrary bytes: Unmarshal never panics, and whatever it accepts can be
// viewed, asked for moves, and written back to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	for _, steps := range []int{0, 5, 30, 200} {
		b, _ := fuzzState(4, nil, 9, steps).MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshal(t, Rules(), b) })
}
