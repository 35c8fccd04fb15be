package nasilie

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// vectorFile is the format of ../shared/rules/nasilie-vectors.json ("nasilie-vectors/1"). Decoding
// rejects unknown fields, so a section this test does not know fails instead of being skipped.
type vectorFile struct {
	Format      string          `json:"format"`
	Spec        string          `json:"spec"`
	About       string          `json:"about"`
	Conventions json.RawMessage `json:"conventions"`
	ScoreCases  []scoreCase     `json:"score_cases"`
	MeldCases   []meldCase      `json:"meld_cases"`
	TrickCases  []trickCase     `json:"trick_cases"`
	LegalCases  []legalCase     `json:"legal_cases"`
}

type caseMeta struct {
	ID        string   `json:"id"`
	Note      string   `json:"note"`
	DependsOn []string `json:"depends_on"`
}

type scoreCase struct {
	caseMeta
	Input struct {
		Bid             int      `json:"bid"`
		TrickCardPoints int      `json:"trick_card_points"`
		WonLastTrick    bool     `json:"won_last_trick"`
		TricksWon       int      `json:"tricks_won"`
		Melds           []string `json:"melds"`
		StockUsed       bool     `json:"stock_used"`
		NannyDeclined   bool     `json:"nanny_declined"`
	} `json:"input"`
	Expect struct {
		CardPoints *int `json:"card_points"`
		Achieved   *int `json:"achieved"`
		MeldPoints *int `json:"meld_points"`
		Needed     *int `json:"needed"`
		Result     *int `json:"result"`
	} `json:"expect"`
}

type meldCase struct {
	caseMeta
	Input struct {
		Trump string   `json:"trump"`
		Hand  []string `json:"hand"`
	} `json:"input"`
	Expect struct {
		MeldPoints *int     `json:"meld_points"`
		Melds      []string `json:"melds"`
	} `json:"expect"`
}

type trickCase struct {
	caseMeta
	Input struct {
		Trump string   `json:"trump"`
		Cards []string `json:"cards"`
	} `json:"input"`
	Expect struct {
		Winner *int `json:"winner"`
	} `json:"expect"`
}

type legalCase struct {
	caseMeta
	Input struct {
		Trump string   `json:"trump"`
		Led   string   `json:"led"`
		Hand  []string `json:"hand"`
	} `json:"input"`
	Expect struct {
		Legal []string `json:"legal"`
	} `json:"expect"`
}

func TestVectors(t *testing.T) {
	gametest.EachVectorFile(t, func(t *testing.T, b []byte) {
		var vf vectorFile
		if err := gametest.DecodeStrict(b, &vf); err != nil {
			t.Fatalf("unreadable vector file: %v", err)
		}
		if vf.Format != "nasilie-vectors/1" {
			t.Fatalf("format %q, want nasilie-vectors/1", vf.Format)
		}
		n := len(vf.ScoreCases) + len(vf.MeldCases) + len(vf.TrickCases) + len(vf.LegalCases)
		if n == 0 {
			t.Fatal("file has no cases")
		}
		for _, c := range vf.ScoreCases {
			t.Run(c.ID, func(t *testing.T) { runScoreCase(t, c) })
		}
		for _, c := range vf.MeldCases {
			t.Run(c.ID, func(t *testing.T) { runMeldCase(t, c) })
		}
		for _, c := range vf.TrickCases {
			t.Run(c.ID, func(t *testing.T) { runTrickCase(t, c) })
		}
		for _, c := range vf.LegalCases {
			t.Run(c.ID, func(t *testing.T) { runLegalCase(t, c) })
		}
		t.Logf("%d cases", n)
	})
}

func runScoreCase(t *testing.T, c scoreCase) {
	in := c.Input
	melds := 0
	for _, m := range in.Melds {
		p := MeldPoints(m)
		if p == 0 {
			t.Fatalf("unknown meld %q", m)
		}
		melds += p
	}
	o := ScoreHand(Hand{Bid: in.Bid, TrickPoints: in.TrickCardPoints, LastTrick: in.WonLastTrick,
		Tricks: in.TricksWon, MeldPoints: melds, StockUsed: in.StockUsed, NannyDeclined: in.NannyDeclined})
	e := c.Expect
	if e.Result == nil {
		t.Fatal("case without expect.result")
	}
	check(t, "card_points", e.CardPoints, o.CardPoints)
	check(t, "achieved", e.Achieved, o.Achieved)
	check(t, "meld_points", e.MeldPoints, melds)
	check(t, "needed", e.Needed, o.Needed)
	check(t, "result", e.Result, o.Result)
}

func check(t *testing.T, name string, want *int, got int) {
	t.Helper()
	if want != nil && *want != got {
		t.Errorf("%s = %d, want %d", name, got, *want)
	}
}

func runMeldCase(t *testing.T, c meldCase) {
	trump := mustSuit(t, c.Input.Trump)
	pts, names := BestMelds(mustCards(t, c.Input.Hand), trump)
	if c.Expect.MeldPoints == nil {
		t.Fatal("case without expect.meld_points")
	}
	check(t, "meld_points", c.Expect.MeldPoints, pts)
	if c.Expect.Melds != nil {
		want := slices.Clone(c.Expect.Melds)
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("melds = %v, want %v", names, want)
		}
	}
}

func runTrickCase(t *testing.T, c trickCase) {
	played := mustCards(t, c.Input.Cards)
	if c.Expect.Winner == nil || len(played) == 0 {
		t.Fatal("case without cards or expect.winner")
	}
	check(t, "winner", c.Expect.Winner, TrickWinner(played, mustSuit(t, c.Input.Trump)))
}

func runLegalCase(t *testing.T, c legalCase) {
	led := mustCards(t, []string{c.Input.Led})[0]
	got := LegalPlays(mustCards(t, c.Input.Hand), led, mustSuit(t, c.Input.Trump), false)
	want := mustCards(t, c.Expect.Legal)
	if c.Expect.Legal == nil || !slices.Equal(got, want) {
		t.Errorf("legal = %v, want %v", got, want)
	}
}

func mustSuit(t *testing.T, s string) cards.Suit {
	t.Helper()
	st, err := cards.ParseSuit(s)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustCards(t *testing.T, ss []string) []cards.Card {
	t.Helper()
	out := make([]cards.Card, len(ss))
	for i, s := range ss {
		c, err := cards.Parse(s)
		if err != nil || !c.IsFrench() {
			t.Fatalf("bad card %q: %v", s, err)
		}
		out[i] = c
	}
	return out
}
