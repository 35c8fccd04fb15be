package skat

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// vectorFile is the format of shared/rules/skat-vectors.json ("skat-vectors/1").
type vectorFile struct {
	Format       string          `json:"format"`
	Spec         string          `json:"spec"`
	About        string          `json:"about"`
	Conventions  json.RawMessage `json:"conventions"`
	BidValues    []int           `json:"bid_values"`
	Cases        []scoreCase     `json:"cases"`
	RamschCases  []ramschCase    `json:"ramsch_cases"`
	AuctionCases []auctionCase   `json:"auction_cases"`
}

type scoreCase struct {
	ID    string `json:"id"`
	Note  string `json:"note"`
	Input struct {
		Game               string   `json:"game"`
		TrumpsHeld         []string `json:"trumps_held"`
		Hand               bool     `json:"hand"`
		SchneiderAnnounced bool     `json:"schneider_announced"`
		SchwarzAnnounced   bool     `json:"schwarz_announced"`
		Open               bool     `json:"open"`
		DeclarerPoints     *int     `json:"declarer_points"`
		DeclarerTricks     int      `json:"declarer_tricks"`
		Bid                int      `json:"bid"`
	} `json:"input"`
	// Expect maps each expected field to its JSON value; a field may be absent, and null means
	// "does not apply" (multiplier and matadors of a Null game).
	Expect map[string]json.RawMessage `json:"expect"`
}

type ramschCase struct {
	ID    string `json:"id"`
	Note  string `json:"note"`
	Input struct {
		Points       [3]int `json:"points"`
		Tricks       [3]int `json:"tricks"`
		LastTrickWon [3]int `json:"last_trick_won"`
	} `json:"input"`
	Expect struct {
		Scores [3]int `json:"scores"`
	} `json:"expect"`
}

type auctionCase struct {
	ID    string `json:"id"`
	Note  string `json:"note"`
	Input struct {
		Actions [][2]json.RawMessage `json:"actions"`
	} `json:"input"`
	Expect map[string]json.RawMessage `json:"expect"`
}

// TestVectors runs every case of every file in testdata/vectors: a file that cannot be read, has
// an unknown section or field, or a case that does not match fails the test.
func TestVectors(t *testing.T) {
	total := 0
	gametest.EachVectorFile(t, func(t *testing.T, b []byte) {
		var vf vectorFile
		if err := gametest.DecodeStrict(b, &vf); err != nil {
			t.Fatalf("unreadable vector file: %v", err)
		}
		if vf.Format != "skat-vectors/1" {
			t.Fatalf("format %q, want skat-vectors/1", vf.Format)
		}
		values := BidValues(Seed())
		if vf.BidValues != nil && !slices.Equal(vf.BidValues, values) {
			t.Errorf("bid_values differ:\nfile   %v\nengine %v", vf.BidValues, values)
		}
		for _, c := range vf.Cases {
			t.Run(c.ID, func(t *testing.T) { runScoreCase(t, c) })
		}
		for _, c := range vf.RamschCases {
			t.Run(c.ID, func(t *testing.T) {
				in := c.Input
				if got := RamschScores(in.Points, in.Tricks, in.LastTrickWon); got != c.Expect.Scores {
					t.Errorf("%s: scores %v, want %v", c.Note, got, c.Expect.Scores)
				}
			})
		}
		for _, c := range vf.AuctionCases {
			t.Run(c.ID, func(t *testing.T) { runAuctionCase(t, c, values) })
		}
		total += len(vf.Cases) + len(vf.RamschCases) + len(vf.AuctionCases)
	})
	t.Logf("%d vector cases", total)
}

func runScoreCase(t *testing.T, c scoreCase) {
	in := c.Input
	k, ok := ParseKind(in.Game)
	if !ok || k == Ramsch {
		t.Fatalf("unknown game %q", in.Game)
	}
	var held cards.Set
	for _, s := range in.TrumpsHeld {
		card, err := cards.Parse(s)
		if err != nil {
			t.Fatalf("trumps_held: %v", err)
		}
		held = held.Add(card)
	}
	con := Contract{Kind: k, Hand: in.Hand || k.IsNull(), Open: in.Open || k == NullOuvert,
		Schneider: in.SchneiderAnnounced, Schwarz: in.SchwarzAnnounced}
	points := 0
	if in.DeclarerPoints != nil {
		points = *in.DeclarerPoints
	}
	o := Settle(Seed(), con, held, points, in.DeclarerTricks, in.Bid)
	got := map[string]any{
		"game_value": o.Value, "contract_fulfilled": o.Fulfilled, "overbid": o.Overbid,
		"won": o.Won, "score": o.Score,
		"multiplier": o.Multiplier, "matadors": o.Matadors, "with_matadors": o.With,
		"level": int(o.Level),
	}
	if k.IsNull() {
		got["multiplier"], got["matadors"], got["with_matadors"], got["level"] = nil, nil, nil, nil
	}
	for key, raw := range c.Expect {
		g, known := got[key]
		if !known {
			t.Errorf("unknown expect field %q", key)
			continue
		}
		gb, _ := json.Marshal(g)
		if !jsonEqual(gb, raw) {
			t.Errorf("%s: %s = %s, want %s", c.Note, key, gb, raw)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

var roleLetters = map[string]Role{"F": Forehand, "M": Middlehand, "R": Rearhand}

// runAuctionCase plays the calls through Auction and compares the declarer, the bid and the
// forehand-alone flag, or the index of the first illegal call.
func runAuctionCase(t *testing.T, c auctionCase, values []int) {
	a := NewAuction()
	illegal := -1
	for i, pair := range c.Input.Actions {
		var who string
		if err := json.Unmarshal(pair[0], &who); err != nil {
			t.Fatalf("action %d: seat: %v", i, err)
		}
		r, ok := roleLetters[who]
		if !ok {
			t.Fatalf("action %d: unknown seat %q", i, who)
		}
		var call games.Action
		var n int
		var word string
		switch {
		case json.Unmarshal(pair[1], &n) == nil:
			call = games.Num("bid", n)
		case json.Unmarshal(pair[1], &word) == nil && (word == "hold" || word == "pass"):
			call = games.Do(word)
		default:
			t.Fatalf("action %d: unknown call %s", i, pair[1])
		}
		next, err := a.Call(values, r, call)
		if err != nil {
			illegal = i
			break
		}
		a = next
	}
	for key, raw := range c.Expect {
		var want any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("expect %s: %v", key, err)
		}
		var got any
		switch key {
		case "illegal":
			got = float64(illegal)
		case "forehand_alone":
			got = illegal < 0 && a.ForehandAlone()
		case "declarer":
			got = nil
			if illegal < 0 && a.Over() && a.Declarer >= 0 {
				got = "FMR"[a.Declarer : a.Declarer+1]
			}
		case "bid":
			got = nil
			if illegal < 0 && a.Over() && a.Declarer >= 0 {
				got = float64(a.Highest)
			} else if want == 0.0 {
				got = 0.0
			}
		default:
			t.Errorf("unknown expect field %q", key)
			continue
		}
		if got != want {
			t.Errorf("%s: %s = %v, want %v", c.Note, key, got, want)
		}
	}
	if _, ok := c.Expect["illegal"]; !ok && illegal >= 0 {
		t.Errorf("%s: action %d was rejected", c.Note, illegal)
	}
}
