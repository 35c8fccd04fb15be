package skat

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// fuzzConfig is the table a fuzz input plays: 3 or 4 players, the seed's rules or the ISkO's.
func fuzzConfig(players uint8, isko bool) games.Config {
	cfg := games.Config{Players: 3 + int(players%2), Options: map[string]string{OptDeals: "12"}}
	if isko {
		cfg.Options[OptPreset] = PresetISkO
	}
	return cfg
}

// fuzzState is the state a fuzz input reaches: steps random actions into a match of seed.
func fuzzState(t *testing.T, seed uint64, players uint8, isko bool, steps uint16) games.State {
	t.Helper()
	st, err := Rules().New(fuzzConfig(players, isko), seed)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), int(steps%400)); err != nil {
		t.Fatal(err)
	}
	return st
}

// FuzzApply feeds arbitrary action texts to states along a random match: Apply must never panic
// and must leave the state untouched when it refuses.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"bid/18", "hold", "pass", "playat/18", "ramsch", "throwin", "skat",
		"hand", "discard/CJ", "grand", "nullouvert", "openschwarz", "play/S10", "bid/9999", "play/X1"} {
		f.Add(uint64(1), uint8(3), false, uint16(5), int8(0), s)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, isko bool, steps uint16, seat int8, text string) {
		gametest.CheckApply(t, fuzzState(t, seed, players, isko, steps), games.Seat(seat%6), text)
	})
}

// FuzzActions: on states along random matches every Legal action round-trips its text and is
// accepted by Apply.
func FuzzActions(f *testing.F) {
	for i, steps := range []uint16{0, 2, 5, 9, 30, 120, 399} {
		f.Add(uint64(i), uint8(i), i%2 == 1, steps)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, isko bool, steps uint16) {
		gametest.CheckActions(t, fuzzState(t, seed, players, isko, steps))
	})
}

// FuzzUnmarshal: arbitrary bytes are refused with ErrCorrupt, or are the exact encoding of a state
// the rules can reach. It is seeded with states of every phase, at both table sizes and presets.
func FuzzUnmarshal(f *testing.F) {
	for i := range 4 {
		cfg := fuzzConfig(uint8(i), i >= 2)
		st, err := Rules().New(cfg, uint64(i))
		if err != nil {
			f.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 2))
		for n := 0; len(st.ToAct()) > 0; n++ {
			if n%23 == 0 {
				b, err := st.MarshalBinary()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
			if st, err = gametest.RandomSteps(st, rng, 1); err != nil {
				f.Fatal(err)
			}
		}
		b, err := st.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { gametest.CheckUnmarshalStrict(t, Rules(), b) })
}

// FuzzCorrupt changes one field of a real state's stored form to an arbitrary value and encodes
// it canonically, which byte-level fuzzing of JSON rarely achieves: the decoder must refuse the
// result with ErrCorrupt, or accept a state whose methods all work (CheckUnmarshalStrict).
func FuzzCorrupt(f *testing.F) {
	for field := range uint8(24) {
		f.Add(uint64(field), uint8(field), field%3 == 0, uint16(field)*17, field, int16(field)-3, uint8(field)*5)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, isko bool, steps uint16, field uint8, v int16, card uint8) {
		b, err := fuzzState(t, seed, players, isko, steps).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var w wireState
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		corrupt(&w, field, v, cards.Card(card%33))
		if b, err = json.Marshal(w); err != nil {
			return // a card or set that cannot be written: no stored state looks so
		}
		gametest.CheckUnmarshalStrict(t, Rules(), b)
	})
}

// corrupt sets the field numbered field of w to v, or moves card c into the place it names.
func corrupt(w *wireState, field uint8, v int16, c cards.Card) {
	seat := games.Seat(v)
	at := func(n int) int { return int(uint16(v)) % max(n, 1) }
	switch field % 24 {
	case 0:
		w.Cfg.Players = int(v)
	case 1:
		w.Cfg.Deals = int(v)
	case 2:
		w.Deal = int(v)
	case 3:
		w.Dealer = seat
	case 4:
		w.Phase = phase(v)
	case 5:
		w.Hands[at(len(w.Hands))] = w.Hands[at(len(w.Hands))].Add(c)
	case 6:
		w.Hands[at(len(w.Hands))] = w.Hands[at(len(w.Hands))].Remove(c)
	case 7:
		w.Skat = w.Skat.Add(c)
	case 8:
		w.Skat0 = w.Skat0.Remove(c).Add(cards.Card(v % 33))
	case 9:
		w.Auction.Turn, w.Auction.Highest = Role(v%4), int(v)
	case 10:
		w.Calls = w.Calls[:at(len(w.Calls)+1)]
	case 11:
		w.Declarer = seat
	case 12:
		w.Bid = int(v)
	case 13:
		w.Contract = Contract{Kind: Kind(v % 10), Hand: v&16 != 0, Open: v&32 != 0, Schneider: v&64 != 0, Schwarz: v&128 != 0}
	case 14:
		w.Taken = !w.Taken
	case 15:
		w.Leader = seat
	case 16:
		w.Trick = append(w.Trick, c)
	case 17:
		if len(w.History) > 0 {
			w.History[at(len(w.History))].Winner = seat
		}
	case 18:
		if len(w.History) > 0 {
			w.History[at(len(w.History))].Cards[at(3)] = c
		}
	case 19:
		w.Won[at(len(w.Won))] = w.Won[at(len(w.Won))].Add(c)
	case 20:
		if len(w.Rows) > 0 {
			w.Rows[at(len(w.Rows))].Scores[0] = int(v)
		}
	case 21:
		if len(w.Rows) > 0 {
			w.Rows[at(len(w.Rows))].Kind = []string{rowGame, rowRamsch, rowThrown, ""}[at(4)]
		}
	case 22:
		w.Totals[at(len(w.Totals))] = int(v)
	case 23:
		w.History = w.History[:at(len(w.History)+1)]
	}
}
