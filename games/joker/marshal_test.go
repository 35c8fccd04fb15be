package joker

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// reach plays random legal actions from new tables of cfg (seeds from seed on) until a state
// satisfies ok.
func reach(t *testing.T, cfg games.Config, seed uint64, ok func(*state) bool) *state {
	t.Helper()
	for try := range uint64(200) {
		st, err := Rules().New(cfg, seed+try)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed+try, 5))
		for len(st.ToAct()) > 0 && !ok(st.(*state)) {
			if st, err = gametest.RandomSteps(st, rng, 1); err != nil {
				t.Fatal(err)
			}
		}
		if ok(st.(*state)) {
			return st.(*state)
		}
	}
	t.Fatalf("no match from seed %d on reached the wanted moment", seed)
	return nil
}

// TestDecodeRestores: decoding a state's bytes gives back the very state, the fields left out of
// the encoding (the seat to act, the dealer, the turn-up, the cards collected) included.
func TestDecodeRestores(t *testing.T) {
	for _, cfg := range gametest.Configs(Rules()) {
		st, err := Rules().New(cfg, uint64(cfg.Players))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(cfg.Players), 6))
		for len(st.ToAct()) > 0 {
			b, err := st.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Rules().Unmarshal(b)
			if err != nil {
				t.Fatalf("%v: %v\n%s", cfg, err, b)
			}
			if !reflect.DeepEqual(back, st) {
				t.Fatalf("%v: decoded state differs:\n%+v\n%+v", cfg, back, st)
			}
			if st, err = gametest.RandomSteps(st, rng, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestUnmarshalRefuses: encodings of states the engine cannot reach, and encodings that are not
// canonical, are refused with ErrCorrupt, each for its own reason.
func TestUnmarshalRefuses(t *testing.T) {
	match := games.Config{Players: 3, Options: map[string]string{OptParties: "3"}}
	bidding := reach(t, games.Config{Players: 4}, 1, func(st *state) bool {
		return st.phase == phaseBid && st.bids[st.next(st.dealer)] >= 0 && st.dealNo() == 3
	})
	playing := reach(t, games.Config{Players: 4}, 2, func(st *state) bool {
		return st.phase == phasePlay && st.trick.n == 2 && st.collected() == 1 && st.dealNo() == 4
	})
	twoJokers := reach(t, games.Config{Players: 3}, 3, func(st *state) bool {
		return st.trick.set().Intersect(jokers).Len() == 2
	})
	shown := reach(t, games.Config{Players: 3}, 4, func(st *state) bool {
		return st.phase == phasePlay && st.trick.n == 0 && st.last.n > 0
	})
	second := reach(t, match, 5, func(st *state) bool { return len(st.parties) == 1 && st.dealNo() == 2 })
	over := reach(t, games.Config{Players: 2}, 6, func(st *state) bool { return st.phase == phaseOver })

	for _, tc := range []struct {
		name   string
		st     *state
		change func(w *wire)
		want   string
	}{
		{"another encoding version", bidding, func(w *wire) { w.V = 2 }, "encoding version"},
		{"seven players", bidding, func(w *wire) { w.Players = 7 }, "7 players"},
		{"an unknown phase", bidding, func(w *wire) { w.Phase = "deal" }, "phase"},
		{"a seat list too short", bidding, func(w *wire) { w.In = w.In[1:] }, "flags"},
		{"a party of one", bidding, func(w *wire) { w.In = []bool{true, false, false, false} }, "fewer than two"},
		{"hands too few", bidding, func(w *wire) { w.Hands = w.Hands[1:] }, "wrong length"},
		{"a card moved to another hand", bidding, func(w *wire) {
			c := w.Hands[0].Cards()[0]
			w.Hands[0], w.Hands[1] = w.Hands[0].Remove(c), w.Hands[1].Add(c)
		}, "not dealt"},
		{"a card duplicated into another hand", bidding, func(w *wire) {
			w.Hands[1] = w.Hands[1].Add(w.Hands[0].Cards()[0])
		}, "not dealt"},
		{"a card missing", bidding, func(w *wire) { w.Hands[2] = w.Hands[2].Remove(w.Hands[2].Cards()[0]) }, "collected in 0 tricks"},
		{"a card from the stock", bidding, func(w *wire) {
			w.Hands[0] = w.Hands[0].Add(bidding.stock().Cards()[0])
		}, "not dealt"},
		{"the hands of two seats swapped", bidding, func(w *wire) { w.Hands[0], w.Hands[1] = w.Hands[1], w.Hands[0] }, "not dealt"},
		{"a bid out of turn", bidding, func(w *wire) {
			for s := range w.Bids {
				w.Bids[s] = max(w.Bids[s], 0)
			}
			w.Bids[bidding.dealer] = -1
			w.Bids[bidding.next(bidding.dealer)] = -1
		}, "out of turn"},
		{"the dealer's bid while bidding", bidding, func(w *wire) {
			for s := range w.Bids {
				w.Bids[s] = 0
			}
		}, "every bid made"},
		{"a bid above the hand size", bidding, func(w *wire) { w.Bids[bidding.next(bidding.dealer)] = 9 }, "bid 9"},
		{"a trick taken while bidding", bidding, func(w *wire) { w.Taken[0] = 1 }, "collected in 1 tricks"},
		{"a card played while bidding", bidding, func(w *wire) {
			s := bidding.dealer
			c := w.Hands[s].Cards()[0]
			w.Hands[s] = w.Hands[s].Remove(c)
			w.Trick = []wirePlay{{Seat: s, Card: c}}
		}, "a trick while bidding"},
		{"a joker lead while bidding", bidding, func(w *wire) { w.Leads[0] = 1 }, "joker leads"},
		{"bids adding up to the hand size", playing, func(w *wire) {
			sum := 0
			for _, b := range w.Bids {
				sum += b
			}
			w.Bids[playing.dealer] += HandSize(4) - sum
		}, "bids adding up"},
		{"a joker lead by a seat dealt no joker", playing, func(w *wire) {
			dealt, _ := playing.dealt()
			for s := range w.Leads {
				if dealt[s].Intersect(jokers).Empty() {
					w.Leads[s] = 1
					break
				}
			}
		}, "joker leads"},
		{"a bid missing while playing", playing, func(w *wire) { w.Bids[playing.dealer] = -1 }, "has not bid"},
		{"a trick card played out of turn", playing, func(w *wire) { w.Trick[1].Seat = w.Trick[0].Seat }, "played by seat"},
		{"a trick card the player was not dealt", playing, func(w *wire) {
			w.Trick[0].Card = playing.stock().Cards()[0]
		}, "was not dealt"},
		{"a trick card the player still holds", playing, func(w *wire) {
			s := w.Trick[0].Seat
			w.Hands[s] = w.Hands[s].Add(w.Trick[0].Card).Remove(w.Hands[s].Cards()[0])
		}, "still holds"},
		{"a suited card with a call", playing, func(w *wire) {
			for i, p := range w.Trick {
				if !p.Card.IsJoker() {
					w.Trick[i].Call = "high"
				}
			}
		}, "called"},
		{"a trick too many", playing, func(w *wire) { w.Taken[w.Trick[0].Seat]++ }, "collected"},
		{"the last trick shown after a card", playing, func(w *wire) { w.Last = w.Trick }, "collected"},
		{"an unknown call", playing, func(w *wire) { w.Trick[0].Call = "middle" }, `call "middle"`},
		{"two jokers of one value", twoJokers, func(w *wire) { w.Trick[1].Call = w.Trick[0].Call }, "same value"},
		{"a joker without a call", twoJokers, func(w *wire) { w.Trick[1].Call = "" }, "called"},
		{"the last trick hidden", shown, func(w *wire) { w.Last = nil }, "last trick"},
		{"a shorter last trick", shown, func(w *wire) { w.Last = w.Last[1:] }, "last trick"},
		{"an extra party in a single party", over, func(w *wire) {
			w.Parties = append(w.Parties, w.Parties[0])
		}, "after the end"},
		{"a match over before its end", second, func(w *wire) { w.Phase = "over" }, "phase over"},
		{"an extra party nobody earned", second, func(w *wire) { w.Parties[0].Extra = true }, "not the party that follows"},
		{"the party in progress an extra one", second, func(w *wire) { w.Extra = true }, "not the one that follows"},
		{"a total for a seat not in the party", second, func(w *wire) {
			w.Parties[0].In[0] = false
			w.Parties[0].Totals[0] = 5
		}, "did not play"},
		{"a scored deal of too many tricks", second, func(w *wire) { w.Deals[0].Tricks[0]++ }, "deal 1"},
		{"a scored deal of three joker leads", second, func(w *wire) { w.Deals[0].Leads[0] = 3 }, "penalised leads"},
		{"the match over with a deal missing", over, func(w *wire) { w.Deals = w.Deals[1:] }, "scored deals"},
		{"totals that are not the deals'", over, func(w *wire) { w.Parties[0].Totals[0]++ }, "add up"},
		{"the deal on the table not the last scored", over, func(w *wire) {
			for b := range HandSize(Deals) + 1 {
				if b != w.Bids[0] && b+w.Bids[1] != HandSize(Deals) {
					w.Bids[0] = b
					return
				}
			}
		}, "not the deal on the table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w wire
			b, err := tc.st.MarshalBinary()
			if err == nil {
				err = json.Unmarshal(b, &w)
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.change(&w)
			if b, err = json.Marshal(w); err != nil {
				t.Fatal(err)
			}
			st, err := Rules().Unmarshal(b)
			if !errors.Is(err, games.ErrCorrupt) || st != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal = %v, %v; want ErrCorrupt for %q\n%s", st, err, tc.want, b)
			}
		})
	}
}

// TestUnmarshalCanonical: only the canonical bytes of a state decode; the same state written in
// any other way is refused.
func TestUnmarshalCanonical(t *testing.T) {
	st := reach(t, games.Config{Players: 3}, 7, func(st *state) bool { return st.trick.n > 0 })
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Rules().Unmarshal(b); err != nil {
		t.Fatalf("canonical bytes refused: %v", err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, b, "", " "); err != nil {
		t.Fatal(err)
	}
	seed := `"seed":"` + strings.Split(strings.Split(string(b), `"seed":"`)[1], `"`)[0] + `"`
	for name, alt := range map[string]string{
		"indented":                indented.String(),
		"a newline after it":      string(b) + "\n",
		"a second value":          string(b) + "{}",
		"an unknown field":        `{"zz":1,` + string(b[1:]),
		"the seed as a number":    strings.Replace(string(b), seed, strings.ReplaceAll(seed, `"seed":"`, `"seed":`)[:len(seed)-1], 1),
		"fields in another order": `{"players":3,"v":1,` + strings.Replace(string(b[1:]), `"v":1,"players":3,`, "", 1),
		"a call written out":      strings.Replace(string(b), `"card":"`+st.trick.cards[0].String()+`"`, `"card":"`+st.trick.cards[0].String()+`","call":""`, 1),
		"a list written as null":  strings.Replace(string(b), `"parties":[]`, `"parties":null`, 1),
		"a card spelt otherwise":  strings.Replace(string(b), `"card":"`+st.trick.cards[0].String()+`"`, `"card":"`+strings.ToLower(st.trick.cards[0].String())+`"`, 1),
	} {
		if alt == string(b) {
			t.Fatalf("%s: the test did not change the bytes", name)
		}
		if st, err := Rules().Unmarshal([]byte(alt)); !errors.Is(err, games.ErrCorrupt) || st != nil {
			t.Errorf("%s: Unmarshal = %v, %v; want ErrCorrupt", name, st, err)
		}
	}
}

// TestPackMasks: the set constants are the Pack and its jokers.
func TestPackMasks(t *testing.T) {
	if packSet != cards.SetOf(Pack()...) || jokers != cards.SetOf(cards.Joker(1), cards.Joker(2)) || packSet.Len() != 54 {
		t.Errorf("packSet %v, jokers %v", packSet, jokers)
	}
}
