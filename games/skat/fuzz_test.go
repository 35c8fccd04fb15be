package skat

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// FuzzApply feeds arbitrary action texts to states along a random match: Apply must never panic
// and must leave the state untouched when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"bid/18", "hold", "pass", "playat/18", "ramsch", "throwin", "skat",
		"hand", "discard/CJ", "grand", "nullouvert", "openschwarz", "play/S10", "bid/9999", "play/X1"} {
		f.Add(uint64(1), uint8(3), uint16(5), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, steps uint16, text string) {
		n := 3 + int(players%2)
		st, err := Rules().New(games.Config{Players: n, Options: map[string]string{OptDeals: "12"}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for range int(steps % 400) {
			toAct := st.ToAct()
			if len(toAct) == 0 {
				break
			}
			l := st.Legal(toAct[0])
			st, _, _ = st.Apply(toAct[0], l[rng.IntN(len(l))])
		}
		a, err := games.ParseAction(text)
		if err != nil {
			return
		}
		before, _ := st.MarshalBinary()
		for s := games.Nobody; int(s) <= n; s++ {
			if _, _, err := st.Apply(s, a); err != nil {
				after, _ := st.MarshalBinary()
				if !bytes.Equal(before, after) {
					t.Fatalf("refused %v by %d changed the state", a, s)
				}
			}
		}
	})
}
