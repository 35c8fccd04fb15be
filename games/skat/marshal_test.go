package skat

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// wireOf is st's stored form as a fresh value that a test may change.
func wireOf(t *testing.T, st *state) wireState {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var w wireState
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// move takes c out of *from and puts it into *to.
func move(c cards.Card, from, to *cards.Set) { *from, *to = from.Remove(c), to.Add(c) }

// refusalBases are states of every shape the refusals below start from.
func refusalBases(t *testing.T) map[string]*state {
	t.Helper()
	auction, _ := do(t, newState(t, 3, nil), "bid/18", "hold")
	// Forehand plays hearts; rearhand shows it has no trump in the first trick.
	deal := layout(newState(t, 3, nil),
		"CJ SJ HA H10 HK HQ H9 SA S10 D7",
		"HJ DJ CA C10 CK CQ C9 C8 C7 H8",
		"SK SQ S9 S8 S7 DA D10 DK DQ D9",
		"H7 D8")
	discard, _ := do(t, deal, "pass", "pass", "playat/18", "skat", "discard/D7")
	play, _ := do(t, deal, "pass", "pass", "playat/18", "hand", "hearts", "simple",
		"play/CJ", "play/HJ", "play/SK", "play/SA")
	played := play
	for played.Deal == 1 {
		played, _ = do(t, played, played.Legal(played.ToAct()[0])[0].String())
	}
	four, _ := do(t, newState(t, 4, nil), "bid/18")
	over := newState(t, 4, map[string]string{OptDeals: "4"})
	for range 4 {
		over, _ = do(t, over, "pass", "pass", "throwin")
	}
	// A match of three deals, each bid up to the top and played out with the first legal card.
	ended := newState(t, 3, map[string]string{OptDeals: "3"})
	for len(ended.ToAct()) > 0 {
		ended, _ = do(t, ended, ended.Legal(ended.ToAct()[0])[0].String())
	}
	if r := ended.Rows[len(ended.Rows)-1]; r.Kind != rowGame {
		t.Fatalf("the last deal of the ended match is %s, not a game", r.Kind)
	}
	return map[string]*state{"auction": auction, "discard": discard, "play": play, "played": played,
		"four": four, "over": over, "ended": ended}
}

// TestUnmarshalRefuses: the decoder refuses, with ErrCorrupt, states in the canonical encoding
// that the rules cannot reach: each case changes one thing of a real state.
func TestUnmarshalRefuses(t *testing.T) {
	bases := refusalBases(t)
	tests := []struct {
		name   string
		base   string
		change func(w *wireState)
	}{
		{"another format version", "auction", func(w *wireState) { w.V = 2 }},
		{"five players", "auction", func(w *wireState) { w.Cfg.Players = 5 }},
		{"a hand too few", "auction", func(w *wireState) { w.Hands = w.Hands[:2] }},
		{"deals no multiple of the players", "auction", func(w *wireState) { w.Cfg.Deals = 4 }},
		{"a grand base of 22", "auction", func(w *wireState) { w.Cfg.Variant.GrandBase = 22 }},
		{"a phase out of range", "auction", func(w *wireState) { w.Phase = 9 }},
		{"over before the last deal", "auction", func(w *wireState) { w.Phase = phOver }},
		{"the wrong dealer", "auction", func(w *wireState) { w.Dealer = (w.Dealer + 1) % 3 }},
		{"a card in two hands", "auction", func(w *wireState) { w.Hands[0] = w.Hands[0].Add(w.Hands[1].Cards()[0]) }},
		{"a card missing", "auction", func(w *wireState) { w.Hands[0] = w.Hands[0].Remove(w.Hands[0].Cards()[0]) }},
		{"a card passed to another hand", "auction", func(w *wireState) { move(w.Hands[0].Cards()[0], &w.Hands[0], &w.Hands[1]) }},
		{"a card won before play", "auction", func(w *wireState) { move(w.Hands[0].Cards()[0], &w.Hands[0], &w.Won[0]) }},
		{"a dealt skat of three cards", "auction", func(w *wireState) { w.Skat0 = w.Skat0.Add(w.Hands[0].Cards()[0]) }},
		{"a skat that is not the dealt one", "auction", func(w *wireState) {
			move(w.Skat.Cards()[0], &w.Skat, &w.Hands[0])
			move(w.Hands[0].Cards()[0], &w.Hands[0], &w.Skat)
		}},
		{"a call nobody made", "auction", func(w *wireState) { w.Calls = w.Calls[:1] }},
		{"a call by another seat", "auction", func(w *wireState) { w.Calls[1].Seat = w.Calls[0].Seat }},
		{"an auction its calls do not give", "auction", func(w *wireState) { w.Auction.Highest = 20 }},
		{"a declarer before the auction ends", "auction", func(w *wireState) { w.Declarer = 0 }},
		{"the dealer sitting out holds a card", "four", func(w *wireState) {
			move(w.Hands[(w.Dealer+1)%4].Cards()[0], &w.Hands[(w.Dealer+1)%4], &w.Hands[w.Dealer])
		}},
		{"laying away without the skat", "discard", func(w *wireState) { w.Taken = false }},
		{"a declarer the auction did not make", "discard", func(w *wireState) { w.Declarer = (w.Declarer + 1) % 3 }},
		{"a bid the auction did not reach", "discard", func(w *wireState) { w.Bid = 20 }},
		{"a contract before the game is named", "discard", func(w *wireState) { w.Contract = Contract{Kind: Grand} }},
		{"Null with the skat taken", "play", func(w *wireState) { w.Taken, w.Contract = true, Contract{Kind: Null} }},
		{"a contract that cannot be declared", "play", func(w *wireState) { w.Contract.Schneider, w.Contract.Schwarz = true, true }},
		{"a trick won by the wrong seat", "play", func(w *wireState) { w.History[0].Winner = (w.History[0].Winner + 1) % 3 }},
		{"a trick led by the wrong seat", "play", func(w *wireState) { w.History[0].Leader = (w.History[0].Leader + 1) % 3 }},
		{"the wrong leader of the current trick", "play", func(w *wireState) { w.Leader = (w.Leader + 1) % 3 }},
		{"a card played twice", "play", func(w *wireState) { w.Trick[0] = w.History[0].Cards[0] }},
		{"a revoke: no trump played to a trump lead while holding one", "play", func(w *wireState) {
			// Rearhand, who played SK to forehand's CJ, gets forehand's H9 for D9.
			f := w.History[0].Leader
			r := (f + 2) % 3
			move(cards.MustParse("H9"), &w.Hands[f], &w.Hands[r])
			move(cards.MustParse("D9"), &w.Hands[r], &w.Hands[f])
		}},
		{"won cards nobody won in a trick", "play", func(w *wireState) {
			move(w.Won[w.History[0].Winner].Cards()[0], &w.Won[w.History[0].Winner], &w.Won[(w.History[0].Winner+1)%3])
		}},
		{"the totals are not the rows' sums", "played", func(w *wireState) { w.Totals[0]++ }},
		{"a row whose score is not its settlement", "played", func(w *wireState) { w.Rows[0].Scores[w.Rows[0].Declarer] += 10 }},
		{"a row with more than 120 card points", "played", func(w *wireState) { w.Rows[0].Points[1] = 121 - w.Rows[0].Points[0] }},
		{"a row of a deal not played yet", "played", func(w *wireState) { w.Rows = append(w.Rows, w.Rows[0]) }},
		{"a row of another dealer", "played", func(w *wireState) { w.Rows[0].Dealer = (w.Rows[0].Dealer + 1) % 3 }},
		{"a thrown-in deal that scores", "over", func(w *wireState) {
			w.Rows[0].Scores[0], w.Totals[0] = 10, w.Totals[0]+10
		}},
		{"a last row that is not the last deal's", "ended", func(w *wireState) {
			last := &w.Rows[len(w.Rows)-1]
			if last.Points[1] > 0 {
				last.Points[1]--
			} else {
				last.Points[1]++
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := wireOf(t, bases[tt.base])
			tt.change(&w)
			b, err := json.Marshal(w)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Rules().Unmarshal(b)
			if !errors.Is(err, games.ErrCorrupt) || st != nil {
				t.Fatalf("Unmarshal: %v, %v; want nil and ErrCorrupt", st, err)
			}
			t.Log(err)
		})
	}
	// The bases themselves decode, so each refusal above is the change's.
	for name, st := range bases {
		b, _ := json.Marshal(wireOf(t, st))
		if _, err := Rules().Unmarshal(b); err != nil {
			t.Errorf("base %s: %v", name, err)
		}
	}
}

// TestUnmarshalCanonical: bytes that describe a reachable state are still refused unless they are
// exactly what MarshalBinary writes for it.
func TestUnmarshalCanonical(t *testing.T) {
	b, err := refusalBases(t)["play"].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		b    []byte
	}{
		{"a trailing newline", append(bytes.Clone(b), '\n')},
		{"a space before the first field", append([]byte("{ "), b[1:]...)},
		{"a field name in capitals", bytes.Replace(b, []byte(`"won"`), []byte(`"WON"`), 1)},
		{"a field twice", append(bytes.Clone(b[:len(b)-1]), []byte(`,"seed":1}`)...)},
		{"an unknown field", append(bytes.Clone(b[:len(b)-1]), []byte(`,"zz":1}`)...)},
		{"an escaped letter", bytes.Replace(b, []byte(`"won"`), []byte(`"wo\u006e"`), 1)},
		{"an empty list for none", bytes.Replace(b, []byte(`"rows":null`), []byte(`"rows":[]`), 1)},
		{"a second document", append(bytes.Clone(b), b...)},
	}
	for _, tt := range tests {
		if bytes.Equal(tt.b, b) {
			t.Fatalf("%s: the change did not apply", tt.name)
		}
		if st, err := Rules().Unmarshal(tt.b); !errors.Is(err, games.ErrCorrupt) || st != nil {
			t.Errorf("%s: %v, %v; want nil and ErrCorrupt", tt.name, st, err)
		}
	}
	if _, err := Rules().Unmarshal(b); err != nil {
		t.Fatalf("the canonical bytes: %v", err)
	}
}
