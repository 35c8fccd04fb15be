package magister

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// FuzzApply feeds arbitrary action texts to states along a game: Apply must never panic and must
// leave the state unchanged when it fails.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"play/S6", "play/HA", "spades", "clubs", "play/X1", "pass", "play/S6/1", "bid/3"} {
		f.Add(uint64(1), uint8(0), 3, s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, seat uint8, steps int, text string) {
		cfg := games.Config{Players: 2 + int(seed%3), Options: map[string]string{OptVariant: string(rune('1' + seed%5))}}
		st, err := Rules().New(cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 5)), int(uint(steps)%200)); err != nil {
			t.Fatal(err)
		}
		gametest.CheckApply(t, st, games.Seat(int(seat)%6-1), text)
	})
}

// FuzzUnmarshal: arbitrary bytes never make Unmarshal or the restored state's methods panic.
func FuzzUnmarshal(f *testing.F) {
	st, _ := Rules().New(games.Config{Players: 3}, 5)
	b, _ := st.MarshalBinary()
	f.Add(b)
	st, _ = Rules().New(games.Config{Players: 4, Options: map[string]string{OptVariant: "4"}}, 5)
	b, _ = st.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshal(t, Rules(), b) })
}

// BenchmarkPlayout plays whole random 4-player games (24 deals).
func BenchmarkPlayout(b *testing.B) {
	gametest.BenchPlayout(b, Rules(), games.Config{Players: 4})
}
