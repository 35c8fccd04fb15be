package nasilie

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

// everyState plays one random match of cfg and calls fn with every state of it.
func everyState(t *testing.T, cfg games.Config, seed uint64, fn func(st *state)) {
	t.Helper()
	s, err := Rules().New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	for {
		fn(s.(*state))
		toAct := s.ToAct()
		if len(toAct) == 0 {
			return
		}
		legal := s.Legal(toAct[0])
		if s, _, err = s.Apply(toAct[0], legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// playoutConfigs are the forms of the game, each capped so that random play ends.
var playoutConfigs = []games.Config{
	{Players: 4, Options: map[string]string{OptRounds: "3"}},
	{Players: 4, Options: map[string]string{OptRounds: "3", OptFollow: FollowFree}},
	{Players: 5, Options: map[string]string{OptRounds: "3"}},
	{Players: 5, Options: map[string]string{OptRounds: "3", OptFive: FiveDealer}},
	{Players: 6, Options: map[string]string{OptRounds: "3"}},
}

// Unmarshal gives back the very state that was marshalled, derived facts and all, and the stored
// form stays canonical when a tool re-encodes it with sorted keys (a map round trip, as jq -S or
// the bot's test fixtures do).
func TestMarshalRoundTrip(t *testing.T) {
	for _, cfg := range playoutConfigs {
		everyState(t, cfg, 11, func(st *state) {
			b, err := st.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := unmarshal(b)
			if err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if !reflect.DeepEqual(back, st) {
				t.Fatalf("decoded state differs:\n%+v\n%+v", back, st)
			}
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			if again, err := json.Marshal(m); err != nil || !bytes.Equal(again, b) {
				t.Fatalf("sorted re-encoding differs (%v):\n%s\n%s", err, again, b)
			}
		})
	}
}

// edit changes the stored form of st through its JSON object, which re-encodes canonically.
func edit(t *testing.T, st games.State, change func(m map[string]any)) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reach plays random actions from a new four-player match until phase ph (in the play, until
// six cards are down).
func reach(t *testing.T, ph phase, seed uint64) *state {
	t.Helper()
	s, err := Rules().New(games.Config{Players: 4}, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 4))
	for range 100_000 {
		if st := s.(*state); st.phase == ph && (ph != phasePlay || st.nPlays >= 6) {
			return st
		}
		legal := s.Legal(s.ToAct()[0])
		if s, _, err = s.Apply(s.ToAct()[0], legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("phase %v not reached", ph)
	return nil
}

// The strict decoder refuses every form that is not the canonical encoding of a reachable state.
func TestUnmarshalRefuses(t *testing.T) {
	auction, nanny := reach(t, phaseAuction, 1), reach(t, phaseNanny, 2)
	discard, melds := reach(t, phaseDiscard, 3), reach(t, phaseMelds, 4)
	hands := func(st *state) []any {
		var out []any
		for _, h := range st.hands[:st.players] {
			out = append(out, h.String())
		}
		return out
	}
	raw := func(st *state) []byte {
		b, _ := st.MarshalBinary()
		return b
	}
	for _, tt := range []struct {
		name string
		b    []byte
		why  string
	}{
		{"empty", nil, "EOF"},
		{"unknown field", edit(t, auction, func(m map[string]any) { m["zz"] = 1 }), "unknown field"},
		{"trailing data", append(raw(auction), "{}"...), "data after the state"},
		{"trailing space", append(raw(auction), ' '), "canonical"},
		{"indented", func() []byte {
			var b bytes.Buffer
			json.Indent(&b, raw(auction), "", " ")
			return b.Bytes()
		}(), "canonical"},
		{"keys out of order", bytes.Replace(raw(auction), []byte(`"aside":"","calls":[]`), []byte(`"calls":[],"aside":""`), 1), "canonical"},
		{"seed as a number", edit(t, auction, func(m map[string]any) { m["seed"] = json.Number("1") }), ",string"},
		{"no version", edit(t, auction, func(m map[string]any) { delete(m, "v") }), "format version 0"},
		{"later version", edit(t, auction, func(m map[string]any) { m["v"] = 2 }), "format version 2"},
		{"three players", edit(t, auction, func(m map[string]any) { m["players"] = 3 }), "3 players"},
		{"a hand short", edit(t, auction, func(m map[string]any) { m["hands"] = hands(auction)[:3] }), "seat lists"},
		{"a score short", edit(t, auction, func(m map[string]any) { m["scores"] = []int{0, 0, 0} }), "seat lists"},
		{"unknown phase", edit(t, auction, func(m map[string]any) { m["phase"] = "lunch" }), "phase"},
		{"trump by letter", edit(t, melds, func(m map[string]any) { m["trump"] = "H" }), "trump"},
		{"card twice", edit(t, auction, func(m map[string]any) {
			h := hands(auction)
			h[1] = auction.hands[1].Add(auction.hands[0].Cards()[0]).String()
			m["hands"] = h
		}), "conserved"},
		{"card missing", edit(t, auction, func(m map[string]any) {
			h := hands(auction)
			h[1] = auction.hands[1].Remove(auction.hands[1].Cards()[0]).String()
			m["hands"] = h
		}), "conserved"},
		{"card in hand and stock", edit(t, auction, func(m map[string]any) {
			m["stock"] = auction.stock.Add(auction.hands[0].Cards()[0]).String()
		}), "conserved"},
		{"a card moved between hands", edit(t, auction, func(m map[string]any) {
			c := auction.hands[0].Cards()[0]
			h := hands(auction)
			h[0], h[1] = auction.hands[0].Remove(c).String(), auction.hands[1].Add(c).String()
			m["hands"] = h
		}), "seat 0 holds 6 cards"},
		{"stock in hand before the auction ends", edit(t, auction, func(m map[string]any) {
			h := hands(auction)
			h[0] = auction.hands[0].Union(auction.stock).String()
			m["hands"], m["stock"] = h, ""
		}), "stock is touched"},
		{"call out of turn", edit(t, auction, func(m map[string]any) {
			m["calls"] = [][2]int{{int(auction.dealer), 0}}
			m["looked"] = []bool{true, true, true, true}
		}), "out of turn"},
		{"bid skipping a step", edit(t, auction, func(m map[string]any) {
			m["calls"] = [][2]int{{int(auction.nanny()), 4}}
			m["looked"] = []bool{true, true, true, true}
		}), "cannot bid 4"},
		{"bid without looking", edit(t, auction, func(m map[string]any) {
			m["calls"] = [][2]int{{int(auction.nanny()), 3}}
		}), "cannot bid 3"},
		{"looked before his turn", edit(t, auction, func(m map[string]any) {
			looked := []bool{false, false, false, false}
			looked[auction.dealer] = true
			m["looked"] = looked
		}), "looked before his turn"},
		{"pass without looking", edit(t, nanny, func(m map[string]any) {
			m["looked"] = []bool{true, true, true, false}
		}), "seat 3 cannot bid 0"},
		{"blind declarer who never saw his cards", edit(t, auction, func(m map[string]any) {
			a := auction.nanny()
			m["calls"] = [][2]int{{int(a), 2}, {int(a+1) % 4, 0}, {int(a+2) % 4, 0}, {int(a+3) % 4, 0}}
			m["looked"] = []bool{true, true, true, true}
			m["looked"].([]bool)[a] = false
			m["phase"] = "stock"
		}), "has not looked after the auction"},
		{"the auction goes on when it ended", edit(t, nanny, func(m map[string]any) { m["phase"] = "auction" }), "end the auction"},
		{"taken stock not in hand", edit(t, discard, func(m map[string]any) {
			other := (discard.ToAct()[0] + 1) % 4
			m["took"] = cards.SetOf(discard.hands[other].Cards()[:4]...).String()
		}), "stock taken"},
		{"meld not held", edit(t, melds, func(m map[string]any) {
			other := (melds.ToAct()[0] + 1) % 4
			m["melds"] = []map[string]any{{"cards": cards.SetOf(melds.hands[other].Cards()[:3]...).String(), "kind": "seq3"}}
		}), "cannot be declared"},
		{"cards played in the auction", edit(t, auction, func(m map[string]any) {
			c := auction.hands[0].Cards()[0]
			h := hands(auction)
			h[0] = auction.hands[0].Remove(c).String()
			m["hands"], m["plays"] = h, c.String()
		}), "conserved"},
		{"a total of 100 and the match goes on", edit(t, auction, func(m map[string]any) { m["scores"] = []int{0, 100, 0, 0} }), "reached 100"},
		{"over without a winner", edit(t, nanny, func(m map[string]any) { m["phase"] = "over" }), "over in deal 1"},
		{"score row for no deal", edit(t, auction, func(m map[string]any) {
			m["rows"] = [][7]int{{1, 0, 3, 0, 13, 13, 0}}
		}), "1 score rows in deal 1"},
		{"deal without its score row", edit(t, auction, func(m map[string]any) { m["deal"] = 2 }), "0 score rows in deal 2"},
		{"deal past the limit", edit(t, auction, func(m map[string]any) { m["maxdeals"] = 12; m["deal"] = 13 }), "past the limit"},
		{"deal limit of no option", edit(t, auction, func(m map[string]any) { m["maxdeals"] = 5 }), "deal limit 5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, err := Rules().Unmarshal(tt.b)
			if st != nil || !errors.Is(err, games.ErrCorrupt) || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("Unmarshal(%s) = %v, %v; want nil and ErrCorrupt for %q", tt.b, st, err, tt.why)
			}
		})
	}
}

// A revoke is refused: the card a player followed suit with is swapped for one of another suit he
// still holds, in the trick on the table (so no later trick changes).
func TestUnmarshalRefusesRevoke(t *testing.T) {
	for seed := range uint64(50) {
		var bad *state
		everyState(t, playoutConfigs[0], seed, func(st *state) {
			trick := st.tricks().trick
			if bad != nil || st.phase != phasePlay || len(trick) < 2 {
				return
			}
			led, p := trick[0].Card.Suit(), trick[len(trick)-1]
			if led == st.trump || p.Card.Suit() != led {
				return
			}
			for _, other := range st.hands[p.Seat].Cards() {
				if other.Suit() != led && other.Suit() != st.trump {
					b := *st
					b.hands[p.Seat] = b.hands[p.Seat].Remove(other).Add(p.Card)
					b.plays[b.nPlays-1] = other
					bad = &b
					return
				}
			}
		})
		if bad == nil {
			continue
		}
		b, err := bad.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Rules().Unmarshal(b); !errors.Is(err, games.ErrCorrupt) || !strings.Contains(err.Error(), "may not play") {
			t.Fatalf("Unmarshal of a revoke: %v", err)
		}
		return
	}
	t.Fatal("no revoke to make in 50 matches")
}

// Strict decoding of real states: every corrupted copy the suite makes is refused.
func TestCorrupt(t *testing.T) {
	for _, ph := range []phase{phaseAuction, phaseNanny, phaseDiscard, phaseMelds, phasePlay} {
		gametest.CheckCorrupt(t, Rules(), reach(t, ph, uint64(ph)+20))
	}
}
