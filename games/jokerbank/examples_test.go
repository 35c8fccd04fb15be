package jokerbank

import (
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// TestBankerExamples are the worked examples of joker.md version 1.
func TestBankerExamples(t *testing.T) {
	tests := []struct {
		name   string
		stakes []int
		turned string
		deltas []int
		banker int
		passes bool
	}{
		{"joker first: stakes doubled", []int{5, 10}, "X1", []int{-10, -20}, 30, false},
		{"ace on turn 2", []int{3, 7, 10}, "C5 DA", []int{-3, -7, -10}, 20, false},
		{"fourteen misses", []int{4, 6}, "X1", nil, -10, true}, // turned replaced below
		{"joker on turn 3 is a miss, jack on turn 5 hits", []int{10}, "C8 D8 X2 HA SJ", []int{-10}, 10, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turned := cards.MustParseList(tt.turned)
			if tt.passes {
				// A sequence that never matches the calls Joker, A, K, … 2.
				turned = cards.MustParseList("C2 C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA X1")
				tt.deltas = []int{4, 6}
			}
			s := Settle(tt.stakes, turned)
			if !slices.Equal(s.Deltas, tt.deltas) || s.Banker != tt.banker || s.PassesLeft != tt.passes {
				t.Errorf("Settle = %+v, want deltas %v banker %+d passes %v", s, tt.deltas, tt.banker, tt.passes)
			}
		})
	}
}

// TestCalls checks the banker's fourteen calls (joker.md version 1, "One round" step 3).
func TestCalls(t *testing.T) {
	want := []string{"?", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"}
	for turn := 1; turn <= Turns; turn++ {
		if got := CalledRank(turn).String(); got != want[turn-1] {
			t.Errorf("turn %d calls %s, want %s", turn, got, want[turn-1])
		}
	}
	if !IsHit(1, cards.Joker(2)) || IsHit(2, cards.Joker(1)) || !IsHit(14, cards.MustParse("H2")) || IsHit(15, cards.MustParse("H2")) {
		t.Errorf("IsHit disagrees with the calls")
	}
}
