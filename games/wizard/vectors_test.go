package wizard

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// vectorFile is the format of shared/rules/wizard-vectors.json; unknown fields fail the test so a
// new section can never be skipped silently.
type vectorFile struct {
	Format      string         `json:"format"`
	Spec        string         `json:"spec"`
	About       string         `json:"about"`
	Conventions map[string]any `json:"conventions"`
	TrickCases  []struct {
		ID    string `json:"id"`
		Note  string `json:"note"`
		Input struct {
			Trump *string  `json:"trump"`
			Cards []string `json:"cards"`
		} `json:"input"`
		Expect struct {
			Winner *int `json:"winner"`
		} `json:"expect"`
	} `json:"trick_cases"`
	LegalCases []struct {
		ID    string `json:"id"`
		Note  string `json:"note"`
		Input struct {
			Hand       []string `json:"hand"`
			TrickSoFar []string `json:"trick_so_far"`
			Trump      *string  `json:"trump"` // legality never depends on trump; accepted, unused
		} `json:"input"`
		Expect struct {
			Legal []string `json:"legal"`
		} `json:"expect"`
	} `json:"legal_cases"`
	ScoreCases []struct {
		ID    string `json:"id"`
		Note  string `json:"note"`
		Input struct {
			Bid   *int `json:"bid"`
			Taken *int `json:"taken"`
		} `json:"input"`
		Expect struct {
			Points *int `json:"points"`
		} `json:"expect"`
	} `json:"score_cases"`
	Rounds []struct {
		ID                 string `json:"id"`
		Note               string `json:"note"`
		Players            int    `json:"players"`
		Rounds             *int   `json:"rounds"`
		FinalRoundHasTrump *bool  `json:"final_round_has_trump"`
	} `json:"rounds"`
}

// vectorCards maps vector card names to cards: "Wizard" and "Jester" take the next unused copy
// (W1…W4, N1…N4), anything else is card notation.
type vectorCards struct{ wizards, jesters int }

func (v *vectorCards) card(name string) (cards.Card, error) {
	switch strings.ToLower(name) {
	case "wizard", "z":
		v.wizards++
		if v.wizards > 4 {
			return cards.NoCard, fmt.Errorf("more than four Wizards")
		}
		return cards.Wizard(v.wizards), nil
	case "jester", "n":
		v.jesters++
		if v.jesters > 4 {
			return cards.NoCard, fmt.Errorf("more than four Jesters")
		}
		return cards.Jester(v.jesters), nil
	}
	c, err := cards.Parse(name)
	if err != nil || !deckSet.Has(c) {
		return cards.NoCard, fmt.Errorf("not a Wizard card: %q", name)
	}
	return c, nil
}

func (v *vectorCards) list(names []string) ([]cards.Card, error) {
	out := make([]cards.Card, len(names))
	for i, n := range names {
		c, err := v.card(n)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// vectorName is the vector spelling of c: "Wizard", "Jester" or notation.
func vectorName(c cards.Card) string {
	switch {
	case c.IsWizard():
		return "Wizard"
	case c.IsJester():
		return "Jester"
	}
	return c.String()
}

func vectorTrump(s *string) (cards.Suit, error) {
	if s == nil || *s == "" || strings.EqualFold(*s, "none") || strings.EqualFold(*s, "null") {
		return cards.NoSuit, nil
	}
	return cards.ParseSuit(*s)
}

// playState is a 4-field test fixture: a round of players in trick play, with the given hands,
// trump, leader and trick so far, everything else dealt to nobody (in the stock).
func playState(t *testing.T, players int, trump cards.Suit, leader int, hands []cards.Set, trick []cards.Card) *state {
	t.Helper()
	set, err := parseConfig(Rules(), games.Config{Players: players})
	if err != nil {
		t.Fatal(err)
	}
	st := &state{set: set, phase: phasePlay, trump: trump, turned: cards.NoCard, lastLeader: -1, lastWinner: -1}
	st.ri = int8(len(trick)) // any round with enough cards
	used := cards.SetOf(trick...)
	for i, h := range hands {
		st.hands[i] = h
		used |= h
	}
	for i := range players {
		st.bids[i] = 0
	}
	st.stock = deckSet &^ used
	st.leader, st.turn = int8(leader), int8((leader+len(trick))%players)
	st.nTrick = int8(copy(st.trick[:], trick))
	return st
}

// decodeVectors reads a vector file strictly: unknown sections or fields, another format, trailing
// data or a file without cases are errors.
func decodeVectors(b []byte) (vectorFile, error) {
	var v vectorFile
	if err := gametest.DecodeStrict(b, &v); err != nil {
		return v, err
	}
	if v.Format != "" && v.Format != "wizard-vectors/1" {
		return v, fmt.Errorf("unknown format %q", v.Format)
	}
	if len(v.TrickCases)+len(v.LegalCases)+len(v.ScoreCases)+len(v.Rounds) == 0 {
		return v, fmt.Errorf("no cases")
	}
	return v, nil
}

func TestDecodeVectorsIsStrict(t *testing.T) {
	for _, bad := range []string{
		`{"format":"wizard-vectors/1","trick_cases":[],"bonus_cases":[{"id":"x"}]}`,
		`{"format":"wizard-vectors/1","score_cases":[{"id":"s","input":{"bid":1,"taken":1,"bonus":2},"expect":{"points":30}}]}`,
		`{"format":"wizard-vectors/2","score_cases":[{"id":"s","input":{"bid":1,"taken":1},"expect":{"points":30}}]}`,
		`{"format":"wizard-vectors/1"}`,
		`{"format":"wizard-vectors/1","rounds":[{"players":4,"rounds":15}]} {}`,
		`not json`,
	} {
		if _, err := decodeVectors([]byte(bad)); err == nil {
			t.Errorf("decodeVectors accepted %s", bad)
		}
	}
}

func TestVectors(t *testing.T) {
	gametest.EachVectorFile(t, func(t *testing.T, b []byte) {
		v, err := decodeVectors(b)
		if err != nil {
			t.Fatalf("unreadable vector file: %v", err)
		}
		for _, c := range v.TrickCases {
			t.Run(c.ID, func(t *testing.T) {
				var vc vectorCards
				trick, err := vc.list(c.Input.Cards)
				if err != nil || len(trick) == 0 || c.Expect.Winner == nil {
					t.Fatalf("bad case: %v", err)
				}
				trump, err := vectorTrump(c.Input.Trump)
				if err != nil {
					t.Fatalf("bad trump: %v", err)
				}
				if got := TrickWinner(trick, trump); got != *c.Expect.Winner {
					t.Fatalf("%s: TrickWinner(%v, %v) = %d, want %d", c.Note, trick, trump, got, *c.Expect.Winner)
				}
				// The same trick through the engine: one card per seat, seat 0 leads.
				if n := len(trick); n >= 3 && n <= 6 {
					hands := make([]cards.Set, n)
					for i, c := range trick {
						hands[i] = cards.SetOf(c)
					}
					var st games.State = playState(t, n, trump, 0, hands, nil)
					var evs []games.Event
					for i, c := range trick {
						if st, evs, err = st.Apply(games.Seat(i), games.With(KindPlay, c)); err != nil {
							t.Fatalf("engine play %d: %v", i, err)
						}
					}
					if got := trickTaker(evs); got != games.Seat(*c.Expect.Winner) {
						t.Fatalf("engine gave the trick to seat %d", got)
					}
				}
			})
		}
		for _, c := range v.LegalCases {
			t.Run(c.ID, func(t *testing.T) {
				var vc vectorCards
				hand, err := vc.list(c.Input.Hand)
				if err != nil {
					t.Fatalf("bad hand: %v", err)
				}
				trick, err := vc.list(c.Input.TrickSoFar)
				if err != nil {
					t.Fatalf("bad trick: %v", err)
				}
				ok := LegalPlays(cards.SetOf(hand...), trick)
				var got []string
				for _, c := range hand {
					if ok.Has(c) {
						got = append(got, vectorName(c))
					}
				}
				var want []string
				for _, name := range c.Expect.Legal {
					var nc vectorCards
					w, err := nc.card(name)
					if err != nil {
						t.Fatalf("bad expected card: %v", err)
					}
					want = append(want, vectorName(w))
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s: legal %v, want %v", c.Note, got, want)
				}
				// The engine offers exactly these plays to the seat after the trick so far.
				n := max(3, len(trick)+1)
				if n > 6 {
					return
				}
				hands := make([]cards.Set, n)
				hands[len(trick)] = cards.SetOf(hand...)
				st := playState(t, n, cards.NoSuit, 0, hands, trick)
				var acts []string
				for _, a := range st.Legal(games.Seat(len(trick))) {
					acts = append(acts, vectorName(a.Card))
				}
				slices.Sort(acts)
				slices.Sort(got)
				if !slices.Equal(acts, got) {
					t.Fatalf("engine Legal %v, want %v", acts, got)
				}
			})
		}
		for _, c := range v.ScoreCases {
			t.Run(c.ID, func(t *testing.T) {
				if c.Input.Bid == nil || c.Input.Taken == nil || c.Expect.Points == nil {
					t.Fatalf("bad case")
				}
				if got := RoundScore(*c.Input.Bid, *c.Input.Taken); got != *c.Expect.Points {
					t.Fatalf("RoundScore(%d, %d) = %d, want %d", *c.Input.Bid, *c.Input.Taken, got, *c.Expect.Points)
				}
			})
		}
		for i, c := range v.Rounds {
			t.Run(fmt.Sprintf("rounds-%d-%s", i, c.ID), func(t *testing.T) {
				if c.Rounds == nil && c.FinalRoundHasTrump == nil {
					t.Fatalf("bad case: nothing expected")
				}
				st, err := Rules().New(games.Config{Players: c.Players}, 7)
				if err != nil {
					t.Fatalf("New(%d players): %v", c.Players, err)
				}
				s := st.(*state)
				if c.Rounds != nil {
					if got := Rounds(c.Players); got != *c.Rounds {
						t.Fatalf("Rounds(%d) = %d, want %d", c.Players, got, *c.Rounds)
					}
					if got := int(s.set.nRounds); got != *c.Rounds {
						t.Fatalf("a %d-player match has %d rounds, want %d", c.Players, got, *c.Rounds)
					}
				}
				if c.FinalRoundHasTrump != nil {
					last := *s
					last.ri = last.set.nRounds - 1
					var evs []games.Event
					last.deal(&evs)
					got := last.turned != cards.NoCard
					if got != *c.FinalRoundHasTrump || HasTrumpCard(c.Players, last.round()) != got {
						t.Fatalf("final round turns a card: %v, want %v", got, *c.FinalRoundHasTrump)
					}
					if !got && last.trump != cards.NoSuit {
						t.Fatalf("final round without a card has trump %v", last.trump)
					}
				}
			})
		}
	})
}

// trickTaker is the seat the engine's trick event names, or Nobody.
func trickTaker(evs []games.Event) games.Seat {
	for _, e := range evs {
		if e.Msg.ID == "wizard.ev.trick" {
			return e.Msg.Args["Seat"].(games.Seat)
		}
	}
	return games.Nobody
}
