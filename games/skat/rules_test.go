package skat

import (
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
)

func set(s string) cards.Set { return cards.SetOf(cards.MustParseList(s)...) }

// TestWorkedExamples is skat.md §17, example by example.
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name          string
		c             Contract
		held          string
		points, trick int
		bid           int
		value, score  int
		overbid       bool
	}{
		{"1 hearts skat taken with 2", Contract{Kind: Hearts}, "CJ SJ DJ HA H10", 78, 6, 27, 30, 30, false},
		{"2 spades hand without 2 schneider", Contract{Kind: Spades, Hand: true}, "HJ DJ SA", 93, 8, 44, 55, 55, false},
		{"3 grand skat taken with 3", Contract{Kind: Grand}, "CJ SJ HJ", 64, 5, 40, 80, 80, false},
		{"4 diamonds overbid", Contract{Kind: Diamonds}, "SJ DA", 85, 7, 36, 18, -72, true},
		{"5 clubs hand schwarz announced, made", Contract{Kind: Clubs, Hand: true, Schwarz: true}, "CJ SJ CA", 120, 10, 108, 108, 108, false},
		{"5 clubs hand schwarz announced, one trick lost", Contract{Kind: Clubs, Hand: true, Schwarz: true}, "CJ SJ CA", 100, 9, 108, 108, -108, false},
		{"6 null takes a trick", Contract{Kind: Null, Hand: true}, "", 0, 1, 22, 23, -22, false},
		{"6 null ouvert overbid", Contract{Kind: NullOuvert, Hand: true, Open: true}, "", 0, 0, 27, 24, -27, true},
		{"7 grand hand open with 1, 70 points", Contract{Kind: Grand, Hand: true, Open: true}, "CJ", 70, 6, 100, 120, 120, false},
		{"7 grand hand open with 1, 55 points", Contract{Kind: Grand, Hand: true, Open: true}, "CJ", 55, 4, 100, 120, -100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Settle(Seed(), tt.c, set(tt.held), tt.points, tt.trick, tt.bid)
			if o.Value != tt.value || o.Score != tt.score || o.Overbid != tt.overbid {
				t.Errorf("value %d score %d overbid %v; want %d %d %v (%+v)",
					o.Value, o.Score, o.Overbid, tt.value, tt.score, tt.overbid, o)
			}
		})
	}
	// Example 8: Ramsch.
	ramsch := []struct {
		points, tricks, last, want [3]int
	}{
		{[3]int{52, 19, 49}, [3]int{4, 2, 4}, [3]int{9, 7, 10}, [3]int{0, 10, 0}},
		{[3]int{33, 33, 54}, [3]int{3, 3, 4}, [3]int{6, 2, 10}, [3]int{10, 0, 0}},
		{[3]int{0, 120, 0}, [3]int{0, 10, 0}, [3]int{0, 10, 0}, [3]int{0, -30, 0}},
	}
	for _, r := range ramsch {
		if got := RamschScores(r.points, r.tricks, r.last); got != r.want {
			t.Errorf("Ramsch %v: %v, want %v", r.points, got, r.want)
		}
	}
}

func TestRamschRules(t *testing.T) {
	tests := []struct {
		name                       string
		points, tricks, last, want [3]int
	}{
		{"all forty: forehand", [3]int{40, 40, 40}, [3]int{3, 3, 4}, [3]int{8, 9, 10}, [3]int{10, 0, 0}},
		{"alone lowest without a trick", [3]int{0, 60, 60}, [3]int{0, 5, 5}, [3]int{0, 9, 10}, [3]int{20, 0, 0}},
		{"tie on 0, one took no trick (D12)", [3]int{0, 0, 120}, [3]int{0, 1, 9}, [3]int{0, 3, 10}, [3]int{20, 0, 0}},
		{"tie, later last trick wins (D12)", [3]int{60, 30, 30}, [3]int{4, 3, 3}, [3]int{10, 5, 8}, [3]int{0, 0, 10}},
	}
	for _, tt := range tests {
		if got := RamschScores(tt.points, tt.tricks, tt.last); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMatadors(t *testing.T) {
	tests := []struct {
		k    Kind
		held string
		n    int
		with bool
	}{
		{Hearts, "CJ SJ HJ HA", 3, true}, // §10.2: CJ SJ HJ, no DJ → with 3
		{Hearts, "HA H10 S7", 4, false},  // highest trump the trump ace → without 4
		{Grand, "CJ SJ DJ", 2, true},     // Grand with CJ SJ DJ → with 2
		{Clubs, "S7 H8", 11, false},      // no trump: without 11
		{Grand, "SA", 4, false},          // no trump in Grand: without 4
		{Diamonds, "CJ SJ HJ DJ DA D10 DK DQ D9 D8 D7", 11, true},
	}
	for _, tt := range tests {
		n, with := Matadors(tt.k, set(tt.held))
		if n != tt.n || with != tt.with {
			t.Errorf("%v %s: %d %v, want %d %v", tt.k, tt.held, n, with, tt.n, tt.with)
		}
	}
}

func TestCardOrder(t *testing.T) {
	tests := []struct {
		k     Kind
		trick string
		want  int
	}{
		{Hearts, "SA S7 DJ", 2},  // a jack trumps a plain suit
		{Hearts, "DJ H7 HA", 0},  // a jack beats the trump ace
		{Hearts, "H7 DJ SJ", 2},  // a trump lead; SJ is higher than DJ
		{Grand, "HA H10 HK", 0},  // plain suit A 10 K
		{Grand, "H10 SA HK", 0},  // not following never wins
		{Grand, "CJ SJ HJ", 0},   // CJ highest
		{Null, "HJ HQ H10", 1},   // Null: A K Q J 10
		{Null, "H10 HJ SA", 1},   // jack in its suit, ace of another suit loses
		{Ramsch, "D7 DJ DA", 1},  // Ramsch: jacks are trumps as in Grand
		{Clubs, "SK S10 C7", 2},  // the trump seven trumps
		{Spades, "D9 D10 D8", 1}, // 10 above K and 9
	}
	for _, tt := range tests {
		if got := TrickWinner(tt.k, cards.MustParseList(tt.trick)); got != tt.want {
			t.Errorf("%v %s: winner %d, want %d", tt.k, tt.trick, got, tt.want)
		}
	}
}

func TestLegalPlays(t *testing.T) {
	tests := []struct {
		k    Kind
		hand string
		led  string
		want string
	}{
		{Hearts, "CJ H7 SA", "HA", "CJ H7"}, // a jack follows trumps
		{Hearts, "CJ SA S7", "SK", "SA S7"}, // a jack does not follow its printed suit
		{Hearts, "CJ D7", "SK", "CJ D7"},    // cannot follow: anything, no duty to trump
		{Grand, "CJ CA", "C7", "CA"},        // Grand: CJ is trump, not a club
		{Grand, "CJ CA", "HJ", "CJ"},        // a led jack calls for trumps
		{Null, "CJ CA HK", "C7", "CJ CA"},   // Null: the jack is a club
		{Ramsch, "DJ D7 SA", "DA", "D7"},    // Ramsch as Grand
		{Clubs, "SJ C7 H8", "", "SJ C7 H8"}, // leading: anything
	}
	for _, tt := range tests {
		var led cards.Card
		if tt.led != "" {
			led = cards.MustParse(tt.led)
		}
		if got := LegalPlays(tt.k, set(tt.hand), led); got != set(tt.want) {
			t.Errorf("%v hand %s led %s: %v, want %s", tt.k, tt.hand, tt.led, got, tt.want)
		}
	}
}

// TestBidValues checks §4.4: the seed list (88 values) against the formula the spec gives, and
// that the §16 value switches change the list.
func TestBidValues(t *testing.T) {
	seen := map[int]bool{23: true, 24: true}
	for _, b := range []int{9, 10, 11, 12} {
		for k := 2; k <= 18; k++ {
			seen[b*k] = true
			if k >= 3 {
				seen[2*b*k] = true
			}
		}
	}
	for k := 2; k <= 11; k++ {
		seen[20*k] = true
		if k >= 3 {
			seen[40*k] = true
		}
	}
	var want []int
	for v := range seen {
		want = append(want, v)
	}
	slices.Sort(want)
	got := BidValues(Seed())
	if !slices.Equal(got, want) || len(got) != 88 {
		t.Fatalf("seed bid values (%d):\n%v\nwant (%d):\n%v", len(got), got, len(want), want)
	}
	for _, v := range []int{35, 46, 59} {
		if slices.Contains(got, v) {
			t.Errorf("seed list has %d", v)
		}
	}
	isko := BidValues(ISkO())
	for _, v := range []int{18, 20, 22, 23, 24, 27, 30, 33, 36, 40, 44, 45, 46, 48, 50, 54, 55, 60, 72, 264} {
		if !slices.Contains(isko, v) {
			t.Errorf("ISkO list lacks %d", v)
		}
	}
	// The ladder needs no more buttons than a Telegram keyboard holds.
	for _, v := range []Variant{Seed(), ISkO(), {GrandBase: 24, NullOuvert: 46, SchneiderMin: 90}} {
		if n := len(BidValues(v)); n > 99 {
			t.Errorf("%+v: %d bid values", v, n)
		}
	}
	t.Logf("ISkO preset: %d bid values, up to %d", len(isko), isko[len(isko)-1])
}

// TestVariantValues checks the §16 value switches on single games.
func TestVariantValues(t *testing.T) {
	iskoLevels := Seed()
	iskoLevels.ISkOLevels = true
	iskoOpen := Seed()
	iskoOpen.ISkOOpen = true
	tests := []struct {
		name   string
		v      Variant
		c      Contract
		held   string
		points int
		tricks int
		bid    int
		value  int
		score  int
	}{
		{"isko grand 24 with 1", ISkO(), Contract{Kind: Grand}, "CJ", 70, 6, 18, 48, 48},
		{"isko null ouvert 46", ISkO(), Contract{Kind: NullOuvert, Hand: true, Open: true}, "", 0, 0, 46, 46, 46},
		{"isko schneider at 90", ISkO(), Contract{Kind: Hearts}, "CJ", 90, 8, 18, 30, 30},
		{"seed: 90 is no schneider", Seed(), Contract{Kind: Hearts}, "CJ", 90, 8, 18, 20, 20},
		{"isko levels: schneider announced 2", iskoLevels, Contract{Kind: Clubs, Hand: true, Schneider: true}, "CJ", 95, 8, 18, 60, 60},
		{"isko levels: schwarz announced 4, 1+1+1+4", iskoLevels, Contract{Kind: Clubs, Hand: true, Schwarz: true}, "CJ", 120, 10, 18, 84, 84},
		{"isko open +1 (seed levels): 1+1+1+5+1", iskoOpen, Contract{Kind: Grand, Hand: true, Open: true, Schwarz: true}, "CJ", 120, 10, 18, 180, 180},
		{"isko loss: -2 x value", ISkO(), Contract{Kind: Grand}, "CJ", 50, 4, 48, 48, -96},
		{"isko loss: schneidered declarer", ISkO(), Contract{Kind: Grand}, "CJ", 30, 2, 48, 72, -144},
		{"isko loss: schwarz declarer", ISkO(), Contract{Kind: Grand}, "CJ", 0, 0, 48, 96, -192},
		{"isko overbid: next multiple of base", ISkO(), Contract{Kind: Diamonds}, "CJ", 70, 6, 30, 18, -72},
		{"seed loss hand: -bid", Seed(), Contract{Kind: Grand, Hand: true}, "CJ", 50, 4, 60, 60, -60},
	}
	for _, tt := range tests {
		o := Settle(tt.v, tt.c, set(tt.held), tt.points, tt.tricks, tt.bid)
		if o.Value != tt.value || o.Score != tt.score {
			t.Errorf("%s: value %d score %d, want %d %d (%+v)", tt.name, o.Value, o.Score, tt.value, tt.score, o)
		}
	}
}

func TestAnnouncements(t *testing.T) {
	kinds := func(cs []Contract) []string {
		var out []string
		for _, c := range cs {
			out = append(out, AnnounceAction(c).Kind)
		}
		return out
	}
	tests := []struct {
		name string
		v    Variant
		hand bool
		want []string
	}{
		{"seed, skat taken (D6)", Seed(), false, []string{"simple", "schneider", "schwarz"}},
		{"seed, hand (D7)", Seed(), true, []string{"simple", "schneider", "schwarz", "open", "openschneider", "openschwarz"}},
		{"isko, skat taken", ISkO(), false, []string{"simple"}},
		{"isko, hand", ISkO(), true, []string{"simple", "schneider", "schwarz", "openschwarz"}},
	}
	for _, tt := range tests {
		if got := kinds(Announcements(tt.v, Grand, tt.hand)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
