package joker

import (
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// TestDealerRestriction is example 1 of joker.md and the example of "Bidding".
func TestDealerRestriction(t *testing.T) {
	if got := DealerBids(4, []int{1, 2}); !slices.Equal(got, []int{0, 2, 3, 4}) {
		t.Errorf("4 cards, bids 1 and 2: dealer may bid %v, want [0 2 3 4]", got)
	}
	if got := ForbiddenBid(5, []int{2, 1}); got != 2 {
		t.Errorf("5 cards, bids 2 and 1: forbidden %d, want 2", got)
	}
	if got := ForbiddenBid(3, []int{2, 2}); got != -1 {
		t.Errorf("bids over the hand size: forbidden %d, want none", got)
	}
	// Example 1: B bids 2 and takes 3, C bids 1 and takes 1, A (dealer) bids 1 and takes 1.
	for _, c := range []struct{ bid, tricks, want int }{{2, 3, 3}, {1, 1, 10}, {1, 1, 10}} {
		if got := ScoreDeal(c.bid, c.tricks, 0, false).Points; got != c.want {
			t.Errorf("bid %d tricks %d: %d, want %d", c.bid, c.tricks, got, c.want)
		}
	}
}

// TestScoreExamples are examples 2–8 of joker.md.
func TestScoreExamples(t *testing.T) {
	tests := []struct {
		name               string
		bid, tricks, leads int
		revoke             bool
		outcome            Outcome
		points             int
	}{
		{"2 pass made", 0, 0, 0, false, PassMade, 5},
		{"3 pass broken", 0, 2, 0, false, Over, 2},
		{"4 short", 4, 1, 0, false, Short, -30},
		{"5 over on a big hand", 3, 5, 0, false, Over, 5},
		{"6 joker lead penalty", 2, 2, 1, false, Exact, 10},
		{"6 pass with a joker lead", 0, 0, 1, false, PassMade, -5},
		{"7 last-card exemption", 2, 1, 0, false, Short, -10},
		{"8 revoke", 3, 3, 1, true, "", -50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ScoreDeal(tt.bid, tt.tricks, tt.leads, tt.revoke)
			if d.Outcome != tt.outcome || d.Points != tt.points || d.Replay != tt.revoke {
				t.Errorf("ScoreDeal = %+v, want %s %+d", d, tt.outcome, tt.points)
			}
		})
	}
}

// TestJokerTricks is example 9 of joker.md (trump hearts).
func TestJokerTricks(t *testing.T) {
	tests := []struct {
		name   string
		trick  string
		calls  []Call
		winner int
	}{
		{"high joker led", "X1 S5 H2", []Call{High}, 0},
		{"low joker led, spades fixed", "X1 S5 SK", []Call{Low}, 2},
		{"low joker led, trumped", "X1 S5 H2", []Call{Low}, 2},
		{"high then second joker", "D3 X1 X2", []Call{NoCall, High}, 1},
		{"low then second joker", "D3 X1 X2", []Call{NoCall, Low}, 2},
		{"low joker led, second joker, spade", "X1 X2 S5", []Call{Low}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrickWinner(cards.MustParseList(tt.trick), tt.calls, cards.Hearts); got != tt.winner {
				t.Errorf("winner %d, want %d", got, tt.winner)
			}
		})
	}
	// After JOKER, JOKER, 5♠ the players after must follow spades.
	got := LegalPlays(cards.MustParseList("SA H3 D4"), cards.MustParseList("X1 X2 S5"))
	if !slices.Equal(got, cards.MustParseList("SA")) {
		t.Errorf("after X X S5: legal %v, want [SA]", got)
	}
	// A joker led fixes no suit: the next player may play anything.
	got = LegalPlays(cards.MustParseList("SA H3 X2"), cards.MustParseList("X1"))
	if !slices.Equal(got, cards.MustParseList("SA H3 X2")) {
		t.Errorf("after a joker lead: legal %v, want all", got)
	}
	// No obligation to trump; a joker may always be played (J-ANYTIME).
	got = LegalPlays(cards.MustParseList("H3 C4 X2"), cards.MustParseList("SA"))
	if !slices.Equal(got, cards.MustParseList("H3 C4 X2")) {
		t.Errorf("void in spades: legal %v, want all", got)
	}
	got = LegalPlays(cards.MustParseList("S3 H3 X2"), cards.MustParseList("SA"))
	if !slices.Equal(got, cards.MustParseList("S3 X2")) {
		t.Errorf("holding spades: legal %v, want [S3 X2]", got)
	}
	// Without trumps the highest card of the suit wins; off-suit cards never do.
	if w := TrickWinner(cards.MustParseList("S5 HA S9"), nil, cards.NoSuit); w != 2 {
		t.Errorf("no trump: winner %d, want 2", w)
	}
}

// TestPartyEnd is example 10 of joker.md.
func TestPartyEnd(t *testing.T) {
	tests := []struct {
		totals  []int
		winners []int
		draw    bool
	}{
		{[]int{123, 98, 110}, []int{0}, false},
		{[]int{50, 50, 20}, []int{0, 1}, false},
		{[]int{40, 40, 40}, nil, true},
	}
	for _, tt := range tests {
		w, d := PartyWinners(tt.totals)
		if !slices.Equal(w, tt.winners) || d != tt.draw {
			t.Errorf("%v: winners %v draw %v, want %v %v", tt.totals, w, d, tt.winners, tt.draw)
		}
	}
	if got := SecondPlaces([]int{50, 50, 20}, []int{0, 1}); !slices.Equal(got, []int{2}) {
		t.Errorf("second places %v, want [2]", got)
	}
	if got := SecondPlaces([]int{123, 98, 110}, []int{0}); !slices.Equal(got, []int{2}) {
		t.Errorf("second places %v, want [2]", got)
	}
}

// TestMatchExamples is example 11 of joker.md and the rules of "Matches" (J-MATCH).
func TestMatchExamples(t *testing.T) {
	// Party 1: A wins, B second. Party 2: B wins, C second. Party 3: C wins, B second.
	more, w, extra := MatchAfterRegular([]int{1, 1, 1}, []int{0, 2, 1}, 3)
	if more || w != 1 || extra != nil {
		t.Errorf("example 11a: more %v winner %d extra %v, want B wins", more, w, extra)
	}
	// After two parties one win each: a third party.
	if more, _, _ := MatchAfterRegular([]int{1, 1, 0}, []int{0, 1, 1}, 2); !more {
		t.Errorf("1-1-0 after two parties: want a third party")
	}
	// A and B share first place twice: no third party, extra party between A and B.
	more, w, extra = MatchAfterRegular([]int{2, 2, 0}, []int{0, 0, 0}, 2)
	if more || w != -1 || !slices.Equal(extra, []int{0, 1}) {
		t.Errorf("example 11b: more %v winner %d extra %v, want extra [0 1]", more, w, extra)
	}
	// A sole leader with two wins ends the match early.
	if _, w, _ := MatchAfterRegular([]int{2, 0, 0}, []int{0, 1, 1}, 2); w != 0 {
		t.Errorf("2-0-0: winner %d, want 0", w)
	}
	// All three parties drawn: everybody is a candidate.
	if _, _, extra := MatchAfterRegular([]int{0, 0, 0}, []int{0, 0, 0}, 3); !slices.Equal(extra, []int{0, 1, 2}) {
		t.Errorf("three draws: extra %v, want all", extra)
	}
	// Extra parties: drawn → the same players again; shared → the co-winners; sole → the match.
	if w, extra := MatchAfterExtra([]int{0, 2}, []int{30, 30}); w != -1 || !slices.Equal(extra, []int{0, 2}) {
		t.Errorf("drawn extra party: winner %d extra %v", w, extra)
	}
	if w, extra := MatchAfterExtra([]int{0, 1, 2}, []int{30, 10, 30}); w != -1 || !slices.Equal(extra, []int{0, 2}) {
		t.Errorf("shared extra party: winner %d extra %v", w, extra)
	}
	if w, _ := MatchAfterExtra([]int{1, 2}, []int{10, 30}); w != 2 {
		t.Errorf("extra party won by seat 2: winner %d", w)
	}
}
func TestSchedule(t *testing.T) {
	sum := 0
	for d := 1; d <= Deals; d++ {
		sum += HandSize(d)
	}
	if sum != 62 || HandSize(7) != 8 || HandSize(0) != 0 || HandSize(14) != 0 {
		t.Errorf("schedule wrong: total %d", sum)
	}
	if 6*HandSize(7)+1 > 54 {
		t.Errorf("six players cannot be dealt the biggest deal")
	}
}
