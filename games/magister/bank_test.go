package magister

import (
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// ownTrumps reads "DHCS" as seat 1 ♦, seat 2 ♥, ... (variant 1); "" is variant 2.
func ownTrumps(t *testing.T, s string) Trumps {
	t.Helper()
	if s == "" {
		return Trumps{Variant: VariantNone}
	}
	var own []cards.Suit
	for _, l := range s {
		su, err := cards.ParseSuit(string(l))
		if err != nil {
			t.Fatal(err)
		}
		own = append(own, su)
	}
	tr, err := OwnTrumps(own...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// playBank plays a bank from seat 0, each follower holding only the card he plays (the seed's
// examples give no hands), and returns the taker and the outcomes.
func playBank(tr Trumps, plays string) (games.Seat, []string) {
	cs := cards.MustParseList(plays)
	b := Open(0, cs[0])
	var outs []string
	for i, c := range cs[1:] {
		var o Outcome
		b, o = b.Play(tr, games.Seat(i+1), c, cards.SetOf(c))
		outs = append(outs, o.String())
	}
	return b.Holder(), outs
}

// TestSeedExamples is magister.md §12: the seed's 25 worked banks, four players, seat 1 leads.
// Trumps are the §12 column completed per M-EXOWNER, seat 1 first ("" = no trumps, variant 2).
func TestSeedExamples(t *testing.T) {
	tests := []struct {
		id, plays, trumps string
		taker             int // 1-based
		outcomes          string
	}{
		{"E1", "6S JS 10S QH", "", 1, "none none none"},          // nobody beats 6♠
		{"E2", "6S JS 10S QH", "CDSH", 4, "none none trump"},     // trump Q♥ > 6
		{"E3", "6S JS 7C QH", "DHCS", 3, "none trump none"},      // trump 7♣ > 6
		{"E4", "6S JS 10C QS", "", 4, "none none higher"},        // Q beats 6
		{"E5", "6S JS 10C QS", "DHCS", 4, "none trump higher"},   // M-MAINTRUMP
		{"E6", "6S 8S QS 7C", "", 3, "eight higher none"},        // Q♠ beats 8♠ and 6♠
		{"E7", "6S 8S KS 7C", "", 1, "eight cancel none"},        // K♠ beats 8♠, not 6♠
		{"E8", "6S 8S QS AS", "", 1, "eight higher cancel"},      // A♠ beats Q♠, not 6♠
		{"E9", "6S JS 10C 6C", "", 4, "none none rank"},          // equal rank
		{"E10", "6S JS 10C 6C", "DHCS", 3, "none trump none"},    // ordinary 6♣ can't displace
		{"E11", "6S 6C 10C 6H", "", 4, "rank none rank"},         // last equal-rank beat
		{"E12", "6S 6C 10C 6H", "DCHS", 2, "rank none none"},     // trump equal rank holds
		{"E13", "7S 7C 10C 7H", "DCSH", 4, "rank none rank"},     // later trump equal rank
		{"E14", "7S 7C 10C 7H", "SCHD", 1, "none none none"},     // protected main card
		{"E15", "7S JS 10S QH", "CDSH", 3, "higher higher none"}, // Q♥ not senior to 10♠
		{"E16", "7S 8S JS 9S", "", 2, "eight none none"},         // only Q, K, 8 beat an 8
		{"E17", "8S 9S 8C QC", "", 4, "none switch higher"},      // 8♣ switches to clubs
		{"E18", "8S 8C QC 10C", "", 4, "switch higher higher"},   // no main card any more
		{"E19", "JS 9S 10C 6C", "", 2, "lower none none"},        // one below the J♠
		{"E20", "JS 9S 10C 6C", "DHCS", 3, "lower trump none"},   // trump 10♣ > J, 9
		{"E21", "JS 9S 10S 6C", "", 3, "lower higher none"},      // 10♠ beats 9♠ and J♠
		{"E22", "JS 6C 10S KS", "", 3, "none higher none"},       // no one-below on 10♠
		{"E23", "KS QS JS 9S", "", 4, "lower lower lower"},       // one-below chain
		{"E24", "KS 9S QS JS", "", 4, "none lower lower"},        // 9♠ fails; Q♠, J♠ chain
		{"E25", "KS 9C QS JS", "DCHS", 4, "none lower lower"},    // trump 9♣ < K
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			w, outs := playBank(ownTrumps(t, tt.trumps), tt.plays)
			if int(w)+1 != tt.taker || !slices.Equal(outs, strings.Fields(tt.outcomes)) {
				t.Errorf("%s: taker %d %v, want %d %s", tt.plays, w+1, outs, tt.taker, tt.outcomes)
			}
		})
	}
}

// TestBeatTable spot-checks §5.1 read as rules.
func TestBeatTable(t *testing.T) {
	c := cards.MustParse
	tests := []struct {
		x, y     string
		b, below bool
	}{
		{"6S", "AS", true, false}, {"6S", "QS", false, false}, {"6S", "8S", false, false},
		{"QS", "6S", true, false}, {"8S", "6S", true, false}, {"KS", "6S", false, false},
		{"7S", "6S", false, false}, {"8S", "QS", false, false}, {"8S", "KS", false, false},
		{"8S", "AS", true, false}, {"QS", "8S", true, false}, {"KS", "8S", true, false},
		{"9S", "JS", false, true}, {"JS", "QS", false, true}, {"QS", "KS", false, true},
		{"KS", "10S", false, true}, {"10S", "AS", false, true}, {"KS", "AS", false, false},
		{"AS", "KS", true, false}, {"10S", "KS", true, false}, {"6S", "6H", false, false},
		{"AS", "7H", false, false},
	}
	for _, tt := range tests {
		if got := B(c(tt.x), c(tt.y)); got != tt.b {
			t.Errorf("B(%s, %s) = %v", tt.x, tt.y, got)
		}
		if got := OneBelow(c(tt.x), c(tt.y)); got != tt.below {
			t.Errorf("OneBelow(%s, %s) = %v", tt.x, tt.y, got)
		}
	}
	// No two cards beat each other.
	for _, x := range Pack() {
		for _, y := range Pack() {
			if x != y && B(x, y) && B(y, x) {
				t.Errorf("%v and %v beat each other", x, y)
			}
		}
	}
}

// TestLegalPlays checks §7 on its own: the main suit or the led rank, a beating card, else any.
func TestLegalPlays(t *testing.T) {
	none := Trumps{Variant: VariantNone}
	tests := []struct {
		lead, hand, want string
	}{
		{"6S", "JS 8C 6H AD", "JS 6H"}, // follow suit or rank; off-suit 8 illegal (M-EIGHT)
		{"6S", "8C AD", "8C AD"},       // void in both: anything
		{"6S", "6H 8C AD", "6H 8C"},    // 8♣ switches, so it is legal as a beat
		{"8S", "8C 9S", "8C 9S"},       // 8♣ is of L's rank: a plain discard, still legal
		{"QS", "8S AH", "8S"},          // 8♠ on Q♠ does nothing but follows suit
	}
	for _, tt := range tests {
		b := Open(0, cards.MustParse(tt.lead))
		hand := cards.SetOf(cards.MustParseList(tt.hand)...)
		got := LegalPlays(b, none, 1, hand)
		if want := cards.SetOf(cards.MustParseList(tt.want)...); got != want {
			t.Errorf("lead %s, hand %s: legal %v, want %v", tt.lead, tt.hand, got, want)
		}
	}
}
