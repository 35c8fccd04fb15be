package jokerbank

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// fuzzState is the state after steps random actions at a new table: players (2..10), the
// ceiling and the session length are taken from the fuzzer's numbers.
func fuzzState(t testing.TB, seed uint64, players, opts uint8, steps int) games.State {
	t.Helper()
	o := Rules().Options()
	cfg := games.Config{Players: 2 + int(players)%9, Options: map[string]string{
		OptCeiling: o[0].Values[int(opts)%len(o[0].Values)],
		OptRounds:  o[1].Values[int(opts/4)%len(o[1].Values)],
	}}
	st, err := Rules().New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 7)), steps); err != nil {
		t.Fatal(err)
	}
	return st
}

// FuzzApply feeds arbitrary action text to states reached by random play: Apply must never panic
// and must leave its receiver unchanged when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"stake/5", "stake/1", "stake/50", "stop", "stake/0", "stake/-1", "stake/51",
		"stake", "stake/X1", "pass", "stake/99999999999", "x/y/z"} {
		f.Add(uint64(1), uint8(10), uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, seat uint8, text string) {
		st := fuzzState(t, seed, uint8(seed%3), 5, int(steps))
		gametest.CheckApply(t, st, games.Seat(int(seat)%12-1), text)
	})
}

// FuzzActions: at any moment of any table, every Legal action round-trips its text and is
// accepted by Apply.
func FuzzActions(f *testing.F) {
	for i := range uint8(8) {
		f.Add(uint64(i), i, 3*i, uint16(15*i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, players, opts uint8, steps uint16) {
		gametest.CheckActions(t, fuzzState(t, seed, players, opts, int(steps)))
	})
}

// FuzzUnmarshal: arbitrary bytes are refused with ErrCorrupt unless they are the canonical
// encoding of a state the engine can reach (gametest.CheckUnmarshalStrict). The seeds are states
// of every kind of table at every stage of a session.
func FuzzUnmarshal(f *testing.F) {
	for i := range uint8(10) {
		for _, steps := range []int{0, 1, 7, 30, -1} {
			b, err := fuzzState(f, uint64(i), i, 3*i, steps).MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		gametest.CheckUnmarshalStrict(t, Rules(), b)
	})
}
