package nasilie

import (
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// The worked examples of nasilie.md, as written there.
func TestWorkedScores(t *testing.T) {
	seq3, seq4, stoek, fourJ, four9, fourA := 20, 50, 20, 200, 140, 100
	tests := []struct {
		name                       string
		bid, points, tricks, melds int
		last, left                 bool
		needed, reached, result    int
	}{
		// §The seed's worked examples, checked.
		{"seed 1", 4, 127, 5, 0, false, false, 14, 13, -12},
		{"seed 2", 3, 138, 5, 0, false, false, 13, 14, 1},
		{"seed 3: four 9s, stock untouched", 5, 93, 4, four9, false, true, 1, 9, 16},
		{"seed 4: all tricks", 3, 141, 7, 0, true, false, 13, 25, 12},
		{"seed 5: run of 3 + stoek", 4, 84, 4, seq3 + stoek, false, false, 10, 8, -14},
		// §More worked examples.
		{"on target", 3, 130, 5, 0, false, false, 13, 13, 0},
		{"129 with the last trick", 3, 124, 6, 0, true, false, 13, 13, 0},
		{"124, last trick lost", 3, 124, 6, 0, false, false, 13, 12, -12},
		{"blind 2", 2, 118, 5, 0, false, false, 12, 12, 0},
		{"nanny forced 1", 1, 104, 4, 0, false, false, 11, 10, -12},
		{"no trick: −50", 3, 0, 0, 0, false, false, 13, 0, -50},
		{"no trick, bid 14: −58", 14, 0, 0, 0, false, false, 24, 0, -58},
		{"96, stock untouched", 4, 96, 4, 0, false, true, 14, 10, -36},
		{"all tricks, stock untouched", 6, 120, 7, 0, true, true, 16, 25, 18},
		{"four Js, all tricks", 3, 130, 7, fourJ, true, false, -7, 25, 32},
		{"four As + run of 3", 6, 101, 5, fourA + seq3, false, false, 4, 10, 6},
		{"135: a tie rounds up (N-ROUND)", 3, 130, 5, 0, true, false, 13, 14, 1},
		// §Scoring step 2: bid 5 with A-K-Q-J of trumps (run of 4 + stoek).
		{"step 2: needed 8", 5, 75, 4, seq4 + stoek, false, false, 8, 8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := ScoreHand(Hand{Bid: tt.bid, TrickPoints: tt.points, LastTrick: tt.last, Tricks: tt.tricks,
				MeldPoints: tt.melds, StockUsed: !tt.left})
			if o.Needed != tt.needed || o.Achieved != tt.reached || o.Result != tt.result {
				t.Errorf("needed %d reached %d result %d; want %d %d %d",
					o.Needed, o.Achieved, o.Result, tt.needed, tt.reached, tt.result)
			}
		})
	}
	if o := ScoreHand(Hand{NannyDeclined: true}); o.Result != -10 {
		t.Errorf("nanny declines: %d, want −10", o.Result)
	}
	// N-FOURJACKS: four jacks (200) and 100 card points make 300 points, 30 game points.
	if got := (MeldPoints("four_J") + 100) / 10; got != 30 {
		t.Errorf("four jacks + 100 = %d game points, want 30", got)
	}
}

func TestWorkedMelds(t *testing.T) {
	tests := []struct {
		hand  string
		trump cards.Suit
		want  int
	}{
		{"HJ HQ HK", cards.Hearts, 40},
		{"SA SK SQ SJ", cards.Spades, 70},
		{"S9 H9 D9 C9", cards.Hearts, 140},
		{"SJ HJ DJ CJ CQ CK CA", cards.Clubs, 270},
		{"S7 S8 S9 S10 SJ SQ", cards.Hearts, 100},
		{"S7 S8 S9 D10 DJ DQ", cards.Hearts, 40},
		{"HK HQ", cards.Spades, 0},
		{"S7 S8 C7 C8 D7 D8 H7", cards.Spades, 0}, // 7s and 8s score nothing
		{"S7 H7 D7 C7 S8 H8 D8", cards.Spades, 0},
		{"S2 S3 S4 S5 S6 H6 D6", cards.Hearts, 100}, // N-MORE: runs may use 2–6
	}
	for _, tt := range tests {
		if got, _ := BestMelds(cards.MustParseList(tt.hand), tt.trump); got != tt.want {
			t.Errorf("%s [%v] = %d, want %d", tt.hand, tt.trump, got, tt.want)
		}
	}
}

func TestWorkedTricks(t *testing.T) {
	tests := []struct {
		trump  cards.Suit
		played string
		want   int
	}{
		{cards.Spades, "HA H10 S7 HK", 2},
		{cards.Spades, "SA S9 SK SJ", 3},
		{cards.Diamonds, "C10 CK CJ HA", 1},
		{cards.Hearts, "H10 HQ HK H8", 2}, // the ten ranks below the queen
		{cards.Clubs, "S10 SJ SQ S9", 2},  // plain: A K Q J 10 9
		{cards.Clubs, "C9 CA CK C10", 0},  // trump 9 above the ace
		{cards.Hearts, "H2 H7 S6 D3", 1},  // N-MORE: 2–6 below the 7
		{cards.Hearts, "SA S2 H2 SK", 2},  // the lowest trump wins a plain trick
		{cards.Diamonds, "CA C7 D7 DJ", 3},
	}
	for _, tt := range tests {
		if got := TrickWinner(cards.MustParseList(tt.played), tt.trump); got != tt.want {
			t.Errorf("%s [%v]: winner %d, want %d", tt.played, tt.trump, got, tt.want)
		}
	}
}

func TestLegalPlays(t *testing.T) {
	tests := []struct {
		name    string
		trump   cards.Suit
		led     string
		hand    string
		lenient bool
		want    string
	}{
		{"follow suit", cards.Spades, "H8", "HA H7 S9 D7", false, "HA H7"},
		{"void: must trump", cards.Spades, "H8", "S9 S7 D7", false, "S9 S7"},
		{"void: the lone trump jack must be played on a plain lead", cards.Spades, "H8", "SJ D7", false, "SJ"},
		{"trump lead, lone jack free", cards.Spades, "S8", "SJ HA D7", false, "SJ HA D7"},
		{"trump lead, jack with another trump", cards.Spades, "S8", "SJ S7 HA", false, "SJ S7"},
		{"trump lead, void", cards.Spades, "S8", "HA D7", false, "HA D7"},
		{"void in both: anything", cards.Spades, "H8", "DA C7", false, "DA C7"},
		{"lenient: may trump instead of following", cards.Spades, "H8", "HA S9 D7", true, "HA S9"},
		{"lenient: void, anything", cards.Spades, "H8", "S9 D7", true, "S9 D7"},
	}
	for _, tt := range tests {
		got := LegalPlays(cards.MustParseList(tt.hand), cards.MustParse(tt.led), tt.trump, tt.lenient)
		if !slices.Equal(got, cards.MustParseList(tt.want)) {
			t.Errorf("%s: %v, want %s", tt.name, got, tt.want)
		}
	}
	if cardPointsTotal(cards.FrenchFrom(7), cards.Hearts) != 141 || cardPointsTotal(cards.FrenchFrom(2), cards.Hearts) != 141 {
		t.Error("the pack is not worth 141 card points")
	}
}

// cardPointsTotal sums a list of cards (test helper).
func cardPointsTotal(cs []cards.Card, trump cards.Suit) int {
	return SetPoints(cards.SetOf(cs...), trump)
}
