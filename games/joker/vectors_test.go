package joker_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
	"github.com/kozyr-bot/kozyr/games/joker"
	"github.com/kozyr-bot/kozyr/games/jokerbank"
)

// vectorFile is the format of ../shared/rules/joker-vectors.json ("joker-vectors/1"). The format
// covers both games of joker.md, so this test runs in package joker_test and checks the banker
// cases with jokerbank.Settle: a file of the rules is checked whole, wherever its cases belong.
type vectorFile struct {
	Format      string          `json:"format"`
	Spec        string          `json:"spec"`
	About       string          `json:"about"`
	Conventions json.RawMessage `json:"conventions"`

	Score     []vcase[scoreIn, scoreOut]   `json:"score_cases"`
	DealerBid []vcase[dealerIn, dealerOut] `json:"dealer_bid_cases"`
	Schedule  []vcase[schedIn, schedOut]   `json:"schedule"`
	Banker    []vcase[bankIn, bankOut]     `json:"banker_cases"`
	Party     []vcase[partyIn, partyOut]   `json:"party_cases"`
	Trick     []vcase[trickIn, trickOut]   `json:"trick_cases"`
	Legal     []vcase[legalIn, legalOut]   `json:"legal_cases"`
}

type vcase[I, O any] struct {
	ID        string   `json:"id"`
	Note      string   `json:"note"`
	DependsOn []string `json:"depends_on"`
	Input     I        `json:"input"`
	Expect    O        `json:"expect"`
}

type scoreIn struct {
	HandSize  int  `json:"hand_size"`
	Bid       int  `json:"bid"`
	Tricks    int  `json:"tricks"`
	LeadsPen  int  `json:"joker_leads_not_last_card"`
	LeadsFree int  `json:"joker_leads_as_last_card"`
	Revoke    bool `json:"revoke"`
}

// Expected fields that are absent (or null) are not checked: "outcome (absent on revoke)".
type scoreOut struct {
	Outcome *string `json:"outcome"`
	Base    *int    `json:"base"`
	Penalty *int    `json:"penalty"`
	Points  *int    `json:"points"`
	Replay  *bool   `json:"replay"`
}

type dealerIn struct {
	HandSize    int   `json:"hand_size"`
	EarlierBids []int `json:"earlier_bids"`
}

type dealerOut struct {
	Forbidden *int  `json:"forbidden"` // null: unrestricted
	Legal     []int `json:"legal"`
}

type schedIn struct {
	Players int `json:"players"`
}

type schedOut struct {
	HandSizes []int `json:"hand_sizes"`
}

type bankIn struct {
	Stakes []int    `json:"stakes"`
	Turned []string `json:"turned"`
}

type bankOut struct {
	MatchPosition  *int   `json:"match_position"` // null: fourteen misses
	Outcome        string `json:"outcome"`
	PlayerDeltas   []int  `json:"player_deltas"`
	BankerDelta    int    `json:"banker_delta"`
	BankPassesLeft bool   `json:"bank_passes_left"`
}

type partyIn struct {
	Totals []int `json:"totals"`
}

type partyOut struct {
	Draw    bool  `json:"draw"`
	Winners []int `json:"winners"`
}

type trickIn struct {
	Trump      *string   `json:"trump"`
	Cards      []string  `json:"cards"`
	JokerCalls []*string `json:"joker_calls"`
}

type trickOut struct {
	Winner int `json:"winner"`
}

type legalIn struct {
	Trump  *string  `json:"trump"`
	Played []string `json:"played"`
	Hand   []string `json:"hand"`
}

type legalOut struct {
	Legal []string `json:"legal"`
}

// TestVectors runs every case of every file in testdata/vectors; an unreadable file, an unknown
// format or section, or any mismatch fails.
func TestVectors(t *testing.T) {
	gametest.EachVectorFile(t, func(t *testing.T, b []byte) {
		n, err := runVectorFile(t, b)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("no cases")
		}
		t.Logf("%d cases", n)
	})
}

func runVectorFile(t *testing.T, b []byte) (int, error) {
	var vf vectorFile
	if err := gametest.DecodeStrict(b, &vf); err != nil {
		return 0, err
	}
	if vf.Format != "joker-vectors/1" {
		return 0, fmt.Errorf("format %q, want joker-vectors/1", vf.Format)
	}
	n := 0
	for _, c := range vf.Score {
		n++
		t.Run(c.ID, func(t *testing.T) { checkScoreCase(t, c.Input, c.Expect) })
	}
	for _, c := range vf.DealerBid {
		n++
		t.Run(c.ID, func(t *testing.T) {
			f := joker.ForbiddenBid(c.Input.HandSize, c.Input.EarlierBids)
			want := -1
			if c.Expect.Forbidden != nil {
				want = *c.Expect.Forbidden
			}
			if f != want {
				t.Errorf("forbidden = %d, want %d", f, want)
			}
			if got := joker.DealerBids(c.Input.HandSize, c.Input.EarlierBids); !slices.Equal(got, c.Expect.Legal) {
				t.Errorf("legal = %v, want %v", got, c.Expect.Legal)
			}
		})
	}
	for _, c := range vf.Schedule {
		n++
		t.Run(c.ID, func(t *testing.T) {
			if c.Input.Players < 2 || c.Input.Players > 6 {
				t.Fatalf("players %d outside 2..6", c.Input.Players)
			}
			var got []int
			for d := 1; d <= joker.Deals; d++ {
				got = append(got, joker.HandSize(d))
			}
			if !slices.Equal(got, c.Expect.HandSizes) {
				t.Errorf("schedule = %v, want %v", got, c.Expect.HandSizes)
			}
		})
	}
	for _, c := range vf.Banker {
		n++
		t.Run(c.ID, func(t *testing.T) { checkBankCase(t, c.Input, c.Expect) })
	}
	for _, c := range vf.Party {
		n++
		t.Run(c.ID, func(t *testing.T) {
			w, draw := joker.PartyWinners(c.Input.Totals)
			if draw != c.Expect.Draw || !slices.Equal(w, c.Expect.Winners) && len(w)+len(c.Expect.Winners) > 0 {
				t.Errorf("winners %v draw %v, want %v draw %v", w, draw, c.Expect.Winners, c.Expect.Draw)
			}
		})
	}
	for _, c := range vf.Trick {
		n++
		t.Run(c.ID, func(t *testing.T) {
			trump := vecTrump(t, c.Input.Trump)
			trick := vecCards(t, c.Input.Cards, nil)
			if len(c.Input.JokerCalls) != 0 && len(c.Input.JokerCalls) != len(trick) {
				t.Fatalf("joker_calls has %d entries for %d cards", len(c.Input.JokerCalls), len(trick))
			}
			calls := make([]joker.Call, len(trick))
			for i, jc := range c.Input.JokerCalls {
				switch {
				case jc == nil:
				case *jc == "high":
					calls[i] = joker.High
				case *jc == "low":
					calls[i] = joker.Low
				default:
					t.Fatalf("joker call %q", *jc)
				}
			}
			if got := joker.TrickWinner(trick, calls, trump); got != c.Expect.Winner {
				t.Errorf("winner = %d, want %d", got, c.Expect.Winner)
			}
		})
	}
	for _, c := range vf.Legal {
		n++
		t.Run(c.ID, func(t *testing.T) {
			vecTrump(t, c.Input.Trump)
			played := vecCards(t, c.Input.Played, nil)
			hand := vecCards(t, c.Input.Hand, played)
			var got []string
			for _, x := range joker.LegalPlays(hand, played) {
				got = append(got, vecName(x))
			}
			if !slices.Equal(got, c.Expect.Legal) && len(got)+len(c.Expect.Legal) > 0 {
				t.Errorf("legal = %v, want %v", got, c.Expect.Legal)
			}
		})
	}
	return n, nil
}

func checkScoreCase(t *testing.T, in scoreIn, want scoreOut) {
	if in.Bid < 0 || in.Bid > in.HandSize || in.Tricks < 0 || in.Tricks > in.HandSize {
		t.Fatalf("bid %d / tricks %d outside the hand of %d", in.Bid, in.Tricks, in.HandSize)
	}
	// Leads of the last card are exempt (J-LEADPEN): only the others reach ScoreDeal.
	d := joker.ScoreDeal(in.Bid, in.Tricks, in.LeadsPen, in.Revoke)
	if want.Outcome != nil && string(d.Outcome) != *want.Outcome {
		t.Errorf("outcome = %q, want %q", d.Outcome, *want.Outcome)
	}
	for _, f := range []struct {
		name string
		got  int
		want *int
	}{{"base", d.Base, want.Base}, {"penalty", d.Penalty, want.Penalty}, {"points", d.Points, want.Points}} {
		if f.want != nil && f.got != *f.want {
			t.Errorf("%s = %d, want %d", f.name, f.got, *f.want)
		}
	}
	if want.Replay != nil && d.Replay != *want.Replay {
		t.Errorf("replay = %v, want %v", d.Replay, *want.Replay)
	}
}

// bankLoseNames are the names accepted for the fourteen-misses outcome: the format documents
// only the two banker-wins names, so the name of the third is not fixed by the vectors.
var bankLoseNames = []string{string(jokerbank.BankerLoses), "banker_pays", "punters_win", "players_win",
	"bank_passes", "bank_passes_left", "no_match", "all_miss", "miss", "fourteen_misses"}

func checkBankCase(t *testing.T, in bankIn, want bankOut) {
	var turned []cards.Card
	for _, r := range in.Turned {
		turned = append(turned, vecRank(t, r))
	}
	s := jokerbank.Settle(in.Stakes, turned)
	if (want.MatchPosition == nil) != (s.Hit == 0) || want.MatchPosition != nil && *want.MatchPosition != s.Hit {
		t.Errorf("match position = %d, want %v", s.Hit, fmtPtr(want.MatchPosition))
	}
	switch {
	case s.Outcome == jokerbank.BankerLoses:
		if !slices.Contains(bankLoseNames, want.Outcome) {
			t.Errorf("outcome = %q, want %q", s.Outcome, want.Outcome)
		}
	case string(s.Outcome) != want.Outcome:
		t.Errorf("outcome = %q, want %q", s.Outcome, want.Outcome)
	}
	if !slices.Equal(s.Deltas, want.PlayerDeltas) {
		t.Errorf("player deltas = %v, want %v", s.Deltas, want.PlayerDeltas)
	}
	if s.Banker != want.BankerDelta {
		t.Errorf("banker delta = %d, want %d", s.Banker, want.BankerDelta)
	}
	if s.PassesLeft != want.BankPassesLeft {
		t.Errorf("bank passes left = %v, want %v", s.PassesLeft, want.BankPassesLeft)
	}
}

func fmtPtr(p *int) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// vecRank reads a turned rank ("A", "10", "JOKER") as a card of that rank; the suit is irrelevant.
func vecRank(t *testing.T, r string) cards.Card {
	t.Helper()
	if strings.EqualFold(r, "JOKER") {
		return cards.Joker(1)
	}
	c, err := cards.Parse("S" + r)
	if err != nil {
		t.Fatalf("rank %q: %v", r, err)
	}
	return c
}

func vecTrump(t *testing.T, s *string) cards.Suit {
	t.Helper()
	if s == nil {
		return cards.NoSuit
	}
	st, err := cards.ParseSuit(*s)
	if err != nil {
		t.Fatalf("trump %q: %v", *s, err)
	}
	return st
}

// vecCards reads cards in the vectors' notation; the jokers ("JOKER") become X1 then X2, skipping
// those already in used.
func vecCards(t *testing.T, in []string, used []cards.Card) []cards.Card {
	t.Helper()
	taken := cards.SetOf(used...)
	var out []cards.Card
	for _, s := range in {
		if strings.EqualFold(s, "JOKER") {
			j := cards.Joker(1)
			if taken.Has(j) {
				j = cards.Joker(2)
			}
			if taken.Has(j) {
				t.Fatalf("more than two jokers in %v", in)
			}
			taken = taken.Add(j)
			out = append(out, j)
			continue
		}
		c, err := cards.Parse(s)
		if err != nil || !c.IsFrench() {
			t.Fatalf("card %q: %v", s, err)
		}
		out = append(out, c)
	}
	return out
}

func vecName(c cards.Card) string {
	if c.IsJoker() {
		return "JOKER"
	}
	return c.String()
}

// TestVectorFileErrors: a file with an unknown section, another format or bad JSON is an error,
// never silently skipped.
func TestVectorFileErrors(t *testing.T) {
	for name, body := range map[string]string{
		"unknown.json": `{"format": "joker-vectors/1", "bogus_cases": []}`,
		"format.json":  `{"format": "joker-vectors/2", "score_cases": []}`,
		"broken.json":  `{"format": "joker-vectors/1", "score_cases": [`,
		"field.json":   `{"format": "joker-vectors/1", "score_cases": [{"id": "X", "input": {"hand": 2}, "expect": {}}]}`,
	} {
		if _, err := runVectorFile(t, []byte(body)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
