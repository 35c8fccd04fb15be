package jokerbank

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// vectorFile is the banker game's part of the format of ../shared/rules/joker-vectors.json
// ("joker-vectors/1"). The trick game's sections are unknown fields here, so a file that holds
// them fails instead of passing them over: they belong in games/joker/testdata/vectors, whose test
// runs every section of the format.
type vectorFile struct {
	Format      string          `json:"format"`
	Spec        string          `json:"spec"`
	About       string          `json:"about"`
	Conventions json.RawMessage `json:"conventions"`

	Banker []bankCase `json:"banker_cases"`
}

type bankCase struct {
	ID        string   `json:"id"`
	Note      string   `json:"note"`
	DependsOn []string `json:"depends_on"`
	Input     bankIn   `json:"input"`
	Expect    bankOut  `json:"expect"`
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

// TestVectors runs every banker case of every file in testdata/vectors; an unreadable file, an
// unknown format or section, or any mismatch fails.
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
	for _, c := range vf.Banker {
		t.Run(c.ID, func(t *testing.T) { checkBankCase(t, c.Input, c.Expect) })
	}
	return len(vf.Banker), nil
}

// bankLoseNames are the names accepted for the fourteen-misses outcome: the format documents
// only the two banker-wins names, so the name of the third is not fixed by the vectors.
var bankLoseNames = []string{string(BankerLoses), "banker_pays", "punters_win", "players_win",
	"bank_passes", "bank_passes_left", "no_match", "all_miss", "miss", "fourteen_misses"}

func checkBankCase(t *testing.T, in bankIn, want bankOut) {
	var turned []cards.Card
	for _, r := range in.Turned {
		turned = append(turned, vecRank(t, r))
	}
	s := Settle(in.Stakes, turned)
	if (want.MatchPosition == nil) != (s.Hit == 0) || want.MatchPosition != nil && *want.MatchPosition != s.Hit {
		t.Errorf("match position = %d, want %v", s.Hit, fmtPtr(want.MatchPosition))
	}
	switch {
	case s.Outcome == BankerLoses:
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

// TestVectorFileErrors: a file with an unknown section (a trick-game one included), another format
// or bad JSON is an error, never silently skipped.
func TestVectorFileErrors(t *testing.T) {
	for name, body := range map[string]string{
		"unknown.json": `{"format": "joker-vectors/1", "bogus_cases": []}`,
		"trick.json":   `{"format": "joker-vectors/1", "score_cases": []}`,
		"format.json":  `{"format": "joker-vectors/2", "banker_cases": []}`,
		"broken.json":  `{"format": "joker-vectors/1", "banker_cases": [`,
		"field.json":   `{"format": "joker-vectors/1", "banker_cases": [{"id": "X", "input": {"stake": 2}, "expect": {}}]}`,
	} {
		if _, err := runVectorFile(t, []byte(body)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
