package skat

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// FuzzApply feeds arbitrary action texts to states along a random match: Apply must never panic
// and must leave the state untouched when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"bid/18", "hold", "pass", "playat/18", "ramsch", "throwin", "skat",
		"hand", "discard/CJ", "grand", "nullouvert", "openschwarz", "play/S10", "bid/9999", "play/X1"} {
		f.Add(uint64(1), uint8(3), uint16(5), int8(0), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, seat int8, text string) {
		n := 3 + int(players%2)
		st, err := Rules().New(games.Config{Players: n, Options: map[string]string{OptDeals: "12"}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), int(steps%400)); err != nil {
			t.Fatal(err)
		}
		gametest.CheckApply(t, st, games.Seat(seat%6), text)
	})
}

// FuzzUnmarshal: arbitrary bytes are refused with ErrCorrupt or load into a usable state.
func FuzzUnmarshal(f *testing.F) {
	st, _ := Rules().New(games.Config{Players: 4}, 1)
	b, _ := st.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshal(t, Rules(), b) })
}
