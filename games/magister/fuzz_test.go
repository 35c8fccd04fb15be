package magister

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// fuzzConfig is the table a fuzz seed plays: 2–4 players, one of the five variants.
func fuzzConfig(seed uint64) games.Config {
	return games.Config{Players: 2 + int(seed%3), Options: map[string]string{OptVariant: string(rune('1' + seed%5))}}
}

// fuzzState is the state after steps random actions of the game fuzzConfig(seed) deals.
func fuzzState(t testing.TB, seed uint64, steps int) games.State {
	st, err := Rules().New(fuzzConfig(seed), seed)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 5)), steps); err != nil {
		t.Fatal(err)
	}
	return st
}

// seedStates are real states for the fuzz corpora: the trump choice, every table size and
// variant, a bank on the table and between banks, a Max deal's records, given packs, the end.
func seedStates(t testing.TB) []games.State {
	var out []games.State
	for seed := range uint64(15) {
		for _, steps := range []int{0, 1, 2, 7, 40, 333, -1} {
			out = append(out, fuzzState(t, seed, steps))
		}
	}
	packs := [][]cards.Card{cards.Shuffle(Pack(), 9, 1), cards.Shuffle(Pack(), 9, 2)}
	st, err := NewGame(games.Config{Players: 3, Options: map[string]string{OptVariant: "5"}}, 9, Setup{Packs: packs})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(9, 5)), 30); err != nil {
		t.Fatal(err)
	}
	return append(out, st)
}

// FuzzApply feeds arbitrary action texts to states along a game: Apply must never panic and must
// leave the state unchanged when it fails.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"play/S6", "play/HA", "spades", "clubs", "play/X1", "pass", "play/S6/1", "bid/3"} {
		f.Add(uint64(1), uint8(0), 3, s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, seat uint8, steps int, text string) {
		st := fuzzState(t, seed, int(uint(steps)%200))
		gametest.CheckApply(t, st, games.Seat(int(seat)%6-1), text)
	})
}

// FuzzActions: along random games of every size and variant, every Legal action round-trips its
// text and Apply accepts it without changing the state.
func FuzzActions(f *testing.F) {
	for seed := range uint64(15) {
		for _, steps := range []uint16{0, 1, 5, 100, 700} {
			f.Add(seed, steps)
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps uint16) {
		gametest.CheckActions(t, fuzzState(t, seed, int(steps)))
	})
}

// FuzzUnmarshal: Unmarshal refuses, with nil and games.ErrCorrupt, everything but the canonical
// encoding of a state a game can reach, and never panics; what it accepts works.
func FuzzUnmarshal(f *testing.F) {
	for _, st := range seedStates(f) {
		b, err := st.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshalStrict(t, Rules(), b) })
}

// TestSeedStatesAreStrict runs the strict decoder's corruption checks on the fuzz seeds, so every
// kind of state they cover is checked on each test run, not only while fuzzing.
func TestSeedStatesAreStrict(t *testing.T) {
	for _, st := range seedStates(t) {
		gametest.CheckCorrupt(t, Rules(), st)
	}
}

// BenchmarkPlayout plays whole random 4-player games (24 deals).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 4})
}
