package nasilie

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// randomState plays steps random legal actions from a new match.
func randomState(tb testing.TB, players int, seed uint64, steps int) games.State {
	st, err := Rules().New(games.Config{Players: players}, seed)
	if err != nil {
		tb.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), steps); err != nil {
		tb.Fatal(err)
	}
	return st
}

// FuzzApply feeds arbitrary action text to a state somewhere in a match: Apply must never panic
// and must leave the state unchanged when it refuses.
func FuzzApply(f *testing.F) {
	for _, a := range []string{"look", "blind", "pass", "bid/3", "bid/43", "meld/0", "meld/99", "all",
		"done", "take", "leave", "discard/SA", "play/CJ", "stoek/HK", "hearts", "playone", "decline", "play/X1"} {
		f.Add(uint64(1), uint8(0), uint8(0), a)
		f.Add(uint64(2), uint8(30), uint8(1), a)
		f.Add(uint64(3), uint8(200), uint8(5), a)
	}
	f.Fuzz(func(t *testing.T, seed uint64, steps, seat uint8, text string) {
		gametest.CheckApply(t, randomState(t, 4+int(seed%3), seed, int(steps)), games.Seat(seat%8)-1, text)
	})
}

// BenchmarkPlayout plays whole random four-player matches (capped by PlayoutOptions: random play
// never reaches 100).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 4})
}

// randomConfigState plays steps random legal actions from a new match in one of the forms of
// the game, chosen by form.
func randomConfigState(tb testing.TB, form uint8, seed uint64, steps int) games.State {
	cfg := playoutConfigs[int(form)%len(playoutConfigs)]
	st, err := Rules().New(cfg, seed)
	if err != nil {
		tb.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), steps); err != nil {
		tb.Fatal(err)
	}
	return st
}

// FuzzUnmarshal feeds arbitrary bytes to Unmarshal, starting from real states of every form and
// phase: it refuses them with nil and ErrCorrupt, or they are the canonical encoding of a state
// that conserves the pack and whose methods do not panic.
func FuzzUnmarshal(f *testing.F) {
	for form := range uint8(len(playoutConfigs)) {
		for _, steps := range []int{0, 9, 17, 40, 300, -1} {
			b, err := randomConfigState(f, form, uint64(steps+10*int(form)), steps).MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshalStrict(t, Rules(), b) })
}

// FuzzActions reaches a state by random play and checks every Legal action of it: its text
// round-trips through games.ParseAction and Apply accepts it without changing the state.
func FuzzActions(f *testing.F) {
	for _, steps := range []uint16{0, 3, 9, 17, 25, 40, 120, 300} {
		f.Add(uint8(steps), uint64(steps), steps)
	}
	f.Fuzz(func(t *testing.T, form uint8, seed uint64, steps uint16) {
		gametest.CheckActions(t, randomConfigState(t, form, seed, int(steps)))
	})
}

// FuzzEdit changes one value of a real state's stored form (a number, a flag, a card of a card
// list, a name) and feeds the result to Unmarshal, which must refuse it or accept a state as
// sound as one it wrote: byte mutations rarely get past the JSON syntax, these reach the rules.
func FuzzEdit(f *testing.F) {
	for i := range uint8(40) {
		f.Add(i%5, uint64(i), uint16(i)*7, i, int16(i)-3, i*5)
	}
	f.Fuzz(func(t *testing.T, form uint8, seed uint64, steps uint16, field uint8, v int16, pick uint8) {
		st := randomConfigState(t, form, seed, int(steps%400))
		b := edit(t, st, func(m map[string]any) {
			keys := slices.Sorted(maps.Keys(m))
			k := keys[int(field)%len(keys)]
			m[k] = change(m[k], int(v), int(pick))
		})
		gametest.CheckUnmarshalStrict(t, Rules(), b)
	})
}

// change returns x, a decoded JSON value, with one thing changed: a number set to v, a flag
// flipped, a card list with card pick toggled (or a name replaced), an array with its element
// pick changed in turn.
func change(x any, v, pick int) any {
	switch x := x.(type) {
	case json.Number:
		return json.Number(strconv.Itoa(v))
	case bool:
		return !x
	case string:
		var s cards.Set
		if err := s.UnmarshalText([]byte(x)); err == nil {
			c := cards.Card(1 + pick%52)
			if s.Has(c) {
				return s.Remove(c).String()
			}
			return s.Add(c).String()
		}
		names := []string{"auction", "nanny", "stock", "discard", "trump", "melds", "play", "over",
			"none", "clubs", "hearts", "seq3", "seq4", "seq5plus", "stoek", "four_J", "1", ""}
		return names[pick%len(names)]
	case []any:
		if len(x) == 0 {
			return []any{json.Number(strconv.Itoa(v))}
		}
		y := slices.Clone(x)
		i := pick % len(y)
		y[i] = change(y[i], v, pick/len(y))
		return y
	case map[string]any:
		y := maps.Clone(x)
		keys := slices.Sorted(maps.Keys(y))
		k := keys[pick%len(keys)]
		y[k] = change(y[k], v, pick/len(keys))
		return y
	}
	return x
}
