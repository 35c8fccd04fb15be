package magister

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// packFor builds the pack that deals hands[p] to seat p when dealer deals (§2.4: one card at a
// time from the dealer's left), the remaining cards of the pack last, in canonical order.
func packFor(t *testing.T, dealer games.Seat, hands ...string) []cards.Card {
	t.Helper()
	n := len(hands)
	hs := make([][]cards.Card, n)
	var used cards.Set
	for p, h := range hands {
		hs[p] = cards.MustParseList(h)
		used = used.Union(cards.SetOf(hs[p]...))
	}
	var pack []cards.Card
	for i := 0; ; i++ {
		p := (int(dealer) + 1 + i) % n
		k := i / n
		if k >= len(hs[p]) {
			break
		}
		pack = append(pack, hs[p][k])
	}
	for _, c := range Pack() {
		if !used.Has(c) {
			pack = append(pack, c)
		}
	}
	if len(pack) != 36 || cards.SetOf(pack...) != PackSet() {
		t.Fatalf("bad hands %v", hands)
	}
	return pack
}

func mustNew(t *testing.T, cfg games.Config, su Setup) *state {
	t.Helper()
	st, err := NewGame(cfg, 7, su)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

func seatPtr(s games.Seat) *games.Seat { return &s }

func apply(t *testing.T, g *state, a games.Action) (*state, []games.Event) {
	t.Helper()
	next, evs, err := g.Apply(g.turn, a)
	if err != nil {
		t.Fatalf("seat %d %v: %v", g.turn, a, err)
	}
	return next.(*state), evs
}

// playFirst plays the first legal action until the deal number reaches deal.
func playFirst(t *testing.T, g *state, deal int) *state {
	t.Helper()
	for g.deal < deal && !g.over {
		g, _ = apply(t, g, g.Legal(g.turn)[0])
	}
	return g
}

// TestFirstLead is §2.5 (M-FIRSTLEAD): the lowest diamond by seniority leads deal 1, K♦ below
// 10♦; without a diamond dealt the player left of the dealer; later deals always left of the
// dealer, whose place goes to the previous deal's first leader (M-DEALER).
func TestFirstLead(t *testing.T) {
	t.Run("lowest diamond by seniority", func(t *testing.T) {
		// Three players, "All" deal: 6♦ 7♦ 8♦ 9♦ J♦ Q♦ lie among the set-aside cards.
		pack := packFor(t, 0,
			"6S 7S 8S 9S JS QS KS 10S 10D",
			"AS 6H 7H 8H 9H JH QH KH 10H",
			"KD AH 6C 7C 8C 9C JC QC KC")
		g := mustNew(t, games.Config{Players: 3, Options: map[string]string{OptVariant: "2"}},
			Setup{Dealer: seatPtr(0), Packs: [][]cards.Card{pack}})
		if g.leader != 2 || g.turn != 2 {
			t.Fatalf("deal 1 led by seat %d, want 2 (K♦ below 10♦)", g.leader)
		}
		for p, h := range g.hands[:3] {
			if h.Len() != 9 {
				t.Fatalf("seat %d holds %d cards in an All deal", p, h.Len())
			}
		}
		if g.aside.Len() != 9 {
			t.Fatalf("%d cards set aside, want 9", g.aside.Len())
		}
		g = playFirst(t, g, 2)
		if g.dealer != 2 || g.leader != 0 {
			t.Fatalf("deal 2: dealer %d leader %d, want 2 and 0", g.dealer, g.leader)
		}
		for p, h := range g.hands[:3] {
			if h.Len() != 12 {
				t.Fatalf("seat %d holds %d cards in deal 2", p, h.Len())
			}
		}
		for d := 3; d <= 13; d++ {
			prev := g.leader
			g = playFirst(t, g, d)
			if g.dealer != prev || g.leader != g.left(g.dealer) {
				t.Fatalf("deal %d: dealer %d leader %d after leader %d", d, g.dealer, g.leader, prev)
			}
		}
		if g.deal != 13 || g.hands[0].Len() != 9 {
			t.Fatalf("deal 13 is an All deal of 9 cards, got deal %d with %d", g.deal, g.hands[0].Len())
		}
	})
	t.Run("no diamond dealt", func(t *testing.T) {
		pack := packFor(t, 1,
			"6S 7S 8S 9S JS QS KS 10S AS",
			"6H 7H 8H 9H JH QH KH 10H AH")
		g := mustNew(t, games.Config{Players: 2, Options: map[string]string{OptVariant: "2"}},
			Setup{Dealer: seatPtr(1), Packs: [][]cards.Card{pack}})
		if g.leader != 0 {
			t.Fatalf("deal 1 led by seat %d, want 0 (left of dealer 1)", g.leader)
		}
	})
}

// TestTrumpChoice is M-TRUMPCHOICE: from the first dealer's left, each player picks from the
// suits still free; deal 1 is dealt after the last choice.
func TestTrumpChoice(t *testing.T) {
	g := mustNew(t, games.Config{Players: 3}, Setup{Dealer: seatPtr(1)})
	if !g.choosing || g.turn != 2 || g.hands[0].Len() != 0 {
		t.Fatalf("choosing %v turn %d", g.choosing, g.turn)
	}
	want := []games.Action{games.Do("spades"), games.Do("hearts"), games.Do("diamonds"), games.Do("clubs")}
	if l := g.Legal(2); !slices.Equal(l, want) {
		t.Fatalf("legal %v", l)
	}
	g, _ = apply(t, g, games.Do("hearts"))
	if l := g.Legal(0); g.turn != 0 || slices.Contains(l, games.Do("hearts")) || len(l) != 3 {
		t.Fatalf("turn %d legal %v", g.turn, l)
	}
	g, _ = apply(t, g, games.Do("clubs"))
	g, _ = apply(t, g, games.Do("spades"))
	if g.choosing || g.deal != 1 || g.hands[0].Len() != 9 {
		t.Fatalf("deal 1 not dealt after the choice")
	}
	if !slices.Equal(g.tr.Own, []cards.Suit{cards.Clubs, cards.Spades, cards.Hearts}) {
		t.Fatalf("trumps %v", g.tr.Own)
	}
	// A trump map of the wrong shape is rejected (§3).
	for _, own := range [][]cards.Suit{
		{cards.Clubs, cards.Clubs, cards.Hearts},
		{cards.Clubs, cards.Hearts},
		{cards.Clubs, cards.Hearts, cards.NoSuit},
	} {
		if _, err := NewGame(games.Config{Players: 3}, 1, Setup{Own: own}); err == nil {
			t.Errorf("trump map %v accepted", own)
		}
	}
	// trumps=random gives every player a different suit, decided by the seed.
	for seed := range uint64(20) {
		st, err := NewGame(games.Config{Players: 4, Options: map[string]string{OptTrumps: "random"}}, seed, Setup{})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.(*state).tr.Validate(4); err != nil || st.(*state).choosing {
			t.Fatalf("random trumps: %v", err)
		}
	}
}

// TestSharedTrumpOptions: variants 3 and 4 take their suits from the lobby (§3).
func TestSharedTrumpOptions(t *testing.T) {
	g := mustNew(t, games.Config{Players: 2, Options: map[string]string{OptVariant: "3", OptTrump3: "spades"}}, Setup{})
	if !slices.Equal(g.tr.Shared, []cards.Suit{cards.Spades}) {
		t.Errorf("variant 3: %v", g.tr.Shared)
	}
	g = mustNew(t, games.Config{Players: 2, Options: map[string]string{OptVariant: "4"}}, Setup{})
	if !slices.Equal(g.tr.Shared, []cards.Suit{cards.Hearts, cards.Clubs}) {
		t.Errorf("variant 4 default: %v", g.tr.Shared)
	}
	g = mustNew(t, games.Config{Players: 2, Options: map[string]string{OptVariant: "5"}}, Setup{})
	if g.tr.Level(cards.MustParse("AS"), 0) != 2 || g.tr.Level(cards.MustParse("6D"), 1) != 1 || g.tr.Level(cards.MustParse("AH"), 0) != 0 {
		t.Errorf("variant 5 levels")
	}
	if _, err := NewGame(games.Config{Players: 2, Options: map[string]string{OptVariant: "6"}}, 1, Setup{}); err == nil {
		t.Errorf("variant 6 accepted")
	}
}

// TestEarlyEnd is M-EARLYEND in deal 9 (Q♠ only): the deal ends after the bank in which Q♠ is
// taken, the cards still in hand are the remaining banks, and the check sums hold.
func TestEarlyEnd(t *testing.T) {
	cfg := games.Config{Players: 4, Options: map[string]string{OptVariant: "2"}}
	// Deal 9 in a 4-player game: seat 1 leads Q♠ at once if it is his lead; with first-legal play
	// the Q♠ falls as soon as its holder leads or must follow spades.
	g := mustNew(t, cfg, Setup{Dealer: seatPtr(0)})
	g = playFirst(t, g, 9)
	banks := 0
	for g.deal == 9 {
		before := g.played
		g, _ = apply(t, g, g.Legal(g.turn)[0])
		if g.deal == 9 && g.played > before {
			banks = g.played
			if g.allScoringTaken() {
				t.Fatalf("deal 9 went on after Q♠ was taken")
			}
		}
	}
	rec := g.records[8]
	if rec.Remaining == 0 || rec.Remaining != 9-(banks+1) {
		t.Fatalf("remaining %d after %d banks", rec.Remaining, banks+1)
	}
	sum := 0
	for _, p := range rec.Points {
		sum += p
	}
	if sum != -9 {
		t.Fatalf("deal 9 points %v", rec.Points)
	}
	if err := CheckSums(4, g.records); err != nil {
		t.Fatal(err)
	}
}

// TestDealScoring is §8.1 and §8.3 on given piles.
func TestDealScoring(t *testing.T) {
	set := func(s string) cards.Set { return cards.SetOf(cards.MustParseList(s)...) }
	taken := []cards.Set{set("KS JS 6H QS"), set("KH 10D AD"), set("8C QD KD JD"), 0}
	banks, last, fours := []int{3, 2, 1, 0}, []int{0, 1, 1, 0}, []int{0, 0, 1, 0}
	tests := []struct {
		c    Contract
		want []int
	}{
		{All, []int{3, 2, 1, 0}},
		{KingsJack, []int{4, 2, 4, 0}},
		{Sixes, []int{3, 0, 0, 0}},
		{Hearts, []int{4, 4, 0, 0}},
		{TensAces, []int{0, 10, 0, 0}},
		{JackKing, []int{0, 0, 18, 0}},
		{Queens, []int{7, 0, 7, 0}},
		{Eights, []int{0, 0, 8, 0}},
		{QueenSp, []int{9, 0, 0, 0}},
		{KingHt, []int{0, 10, 0, 0}},
		{LastTwo, []int{0, 11, 11, 0}},
		// Max: 5+1+0+3 = 9; 5+10+12 = 27; 0+3+5+1+10 bonus = 19; 0.
		{Max, []int{0, 12, 0, 0}},
	}
	for _, tt := range tests {
		if got := DealPoints(tt.c, taken, banks, last, fours); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.c.ID(), got, tt.want)
		}
	}
	sum := 0
	for c := All; c <= Max; c++ {
		sum += c.Total()
	}
	if sum != HalfTotal {
		t.Errorf("totals add up to %d, want 244 (M-TOTAL)", sum)
	}
	// M-MAX: ties split the 12 equally.
	for _, tt := range []struct{ counts, want []int }{
		{[]int{30, 30, 10, 0}, []int{6, 6, 0, 0}},
		{[]int{20, 20, 20, 0}, []int{4, 4, 4, 0}},
		{[]int{31, 31, 31, 31}, []int{3, 3, 3, 3}},
		{[]int{62, 62}, []int{6, 6}},
		{[]int{40, 50, 34}, []int{0, 12, 0}},
	} {
		if got := MaxSplit(tt.counts); !slices.Equal(got, tt.want) {
			t.Errorf("MaxSplit(%v) = %v, want %v", tt.counts, got, tt.want)
		}
	}
	// M-BONUS: four cards of one suit in one bank.
	if !FourOfASuit(set("6S 7S QS AS")) || FourOfASuit(set("6S 7S QS AH")) || FourOfASuit(set("6S 7S QS")) {
		t.Errorf("FourOfASuit")
	}
	if MaxCount(set("AS 10S KS QS"), 1) != 40 {
		t.Errorf("MaxCount of a four-spade bank: %d", MaxCount(set("AS 10S KS QS"), 1))
	}
}

// TestMaxBonusInPlay: a 4-player bank of four spades counts 10 more for its taker in deal 12.
func TestMaxBonusInPlay(t *testing.T) {
	cfg := games.Config{Players: 4, Options: map[string]string{OptVariant: "2"}}
	packs := make([][]cards.Card, 12)
	for i := range 11 {
		packs[i] = cards.Shuffle(Pack(), 3, uint64(i+1))
	}
	// Deal 12's dealer is deal 11's first leader; build the pack once we know him.
	g := mustNew(t, cfg, Setup{Dealer: seatPtr(0), Packs: packs[:11]})
	g = playFirst(t, g, 11)
	dealer := g.leader
	packs[11] = packFor(t, dealer,
		"6S 6H 7H 8H 9H JH QH KH 10H",
		"7S AH 6D 7D 8D 9D JD QD KD",
		"8S 10D AD 6C 7C 8C 9C JC QC",
		"9S KC 10C AC JS QS KS 10S AS")
	g2 := mustNew(t, cfg, Setup{Dealer: seatPtr(0), Packs: packs})
	g2 = playFirst(t, g2, 12)
	if g2.deal != 12 || g2.dealer != dealer {
		t.Fatalf("deal %d dealer %d", g2.deal, g2.dealer)
	}
	// Whoever leads, play the hand of seat 0..3 so that the first bank is 6S 7S 8S 9S.
	for g2.played == 0 {
		s := g2.turn
		spade := g2.hands[s].Suit(cards.Spades)
		low := Sorted(spade)[0]
		g2, _ = apply(t, g2, games.With("play", low))
	}
	w := g2.last.Holder()
	if g2.fours[w] != 1 || MaxCount(g2.taken[w], g2.fours[w]) != 10 {
		t.Fatalf("taker %d: fours %d count %d", w, g2.fours[w], MaxCount(g2.taken[w], g2.fours[w]))
	}
}

// TestRating is §10's worked numbers and M-PLACE.
func TestRating(t *testing.T) {
	if got := RatingText(56); got != "61.48%" {
		t.Errorf("rating(+56) = %s", got)
	}
	if got := RatingText(-56); got != "38.52%" {
		t.Errorf("rating(-56) = %s", got)
	}
	if got := OverallRatingText(56-20, 2); got != "53.69%" {
		t.Errorf("overall(+56, -20) = %s", got)
	}
	if got := OverallRatingText(0, 0); got != "—" {
		t.Errorf("overall of no games = %s", got)
	}
	if RatingText(244) != "100.00%" || RatingText(-244) != "0.00%" || RatingText(0) != "50.00%" {
		t.Errorf("rating bounds")
	}
	if got := Places([]int{10, 5, 5, -20}, []int{30, 20, 20, 40}); !slices.Equal(got, []int{1, 2, 2, 4}) {
		t.Errorf("places %v", got)
	}
	if got := Places([]int{5, 5, -10}, []int{20, 25, 40}); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("places by fewer banks: %v", got)
	}
}

// TestOverallRating is §10's overall rating through the games.Rater the bot uses: the sum of the
// game results over the number of games, exact, half up to two decimals, "—" with no games.
func TestOverallRating(t *testing.T) {
	rater, ok := Rules().(games.Rater)
	if !ok {
		t.Fatal("magister's rules are not a games.Rater")
	}
	for _, c := range []struct {
		total, games int
		want         string
	}{
		{56 - 20, 2, "53.69%"}, // §10: two games ended +56 and −20
		{56, 1, "61.48%"},
		{-56, 1, "38.52%"},
		{0, 3, "50.00%"},
		{244 * 2, 2, "100.00%"},
		{-244, 1, "0.00%"},
		{1, 4, "50.05%"}, // 50 + 100/1952 = 50.0512…
		{0, 0, "—"},
	} {
		m := rater.OverallRating(c.total, c.games)
		if m.ID != "magister.overall" || m.Args["Rating"] != c.want || m.Args["Count"] != c.games {
			t.Errorf("OverallRating(%d, %d) = %+v, want %s", c.total, c.games, m, c.want)
		}
	}
}

// TestGameInvariants plays random games of every size and variant and checks §14's invariants
// and every check sum of §8.2 and §9 after each deal, the rules of M-EARLYEND at every bank, and
// the sheet and ratings at the end.
func TestGameInvariants(t *testing.T) {
	for v := 1; v <= 5; v++ {
		for n := 2; n <= 4; n++ {
			cfg := games.Config{Players: n, Options: map[string]string{OptVariant: string(rune('0' + v))}}
			for seed := range uint64(2) {
				checkGame(t, cfg, seed+uint64(10*v+n))
			}
		}
	}
}

func checkGame(t *testing.T, cfg games.Config, seed uint64) {
	t.Helper()
	st, err := Rules().New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	g := st.(*state)
	rng := rand.New(rand.NewPCG(seed, 99))
	n := cfg.Players
	for !g.over {
		s := g.turn
		legal := g.Legal(s)
		if len(legal) == 0 {
			t.Fatalf("seat %d to act without a legal action", s)
		}
		a := legal[rng.IntN(len(legal))]
		gv := g.View(s).Game.(View)
		if gv.Takes.Union(gv.Knocks).Minus(g.playable(s)) != 0 || gv.Takes.Intersect(gv.Knocks) != 0 {
			t.Fatalf("takes %v / knocks %v not disjoint legal cards", gv.Takes, gv.Knocks)
		}
		next, _ := apply(t, g, a)
		if !g.leading() {
			b := next.bank
			if next.leading() {
				b = next.last
			}
			if next.deal == g.deal && gv.Takes.Has(a.Card) != (b.Holder() == s) {
				t.Fatalf("seat %d played %v (marked as taking: %v) and the bank is held by %d", s, a.Card, gv.Takes.Has(a.Card), b.Holder())
			}
		}
		collected := !g.leading() && len(g.bank.Plays) == n-1
		switch {
		case collected && next.deal == g.deal && !next.over:
			w := next.last.Holder()
			took := w == next.last.Leader
			for _, p := range next.last.Plays {
				took = took || p.Seat == w && p.Outcome.Takes()
			}
			if !took {
				t.Fatalf("bank %v taken by seat %d whose card did not take", next.last.Plays, w)
			}
			if g.contract().EndsEarly() && next.allScoringTaken() {
				t.Fatalf("deal %d goes on with every scoring card taken", g.deal)
			}
		case collected:
			rec := next.records[len(next.records)-1]
			if rec.Remaining != g.hands[g.left(s)].Len() {
				t.Fatalf("deal %d: remaining %d, hands hold %d", rec.Deal, rec.Remaining, g.hands[g.left(s)].Len())
			}
			if rec.Remaining > 0 {
				var taken cards.Set
				for _, tk := range g.taken[:n] {
					taken = taken.Union(tk)
				}
				open := g.contract().ScoringCards().Minus(taken).Minus(g.bank.Cards()).Remove(a.Card)
				if !open.Empty() {
					t.Fatalf("deal %d ended early with %v not taken", rec.Deal, open)
				}
			}
			if err := CheckSums(n, next.records); err != nil {
				t.Fatal(err)
			}
		}
		if next.leading() && !next.over && !next.choosing {
			for p := range n {
				if next.hands[p].Len() != next.hands[0].Len() {
					t.Fatalf("hands of different sizes between banks") // §2.4
				}
			}
		}
		g = next
	}
	if len(g.records) != Deals {
		t.Fatalf("%d deals", len(g.records))
	}
	if err := CheckSums(n, g.records); err != nil {
		t.Fatal(err)
	}
	sh := g.Score()
	tally := TallyOf(n, g.records)
	if !slices.Equal(sh.Totals, tally.GameResult) {
		t.Fatalf("totals %v, results %v", sh.Totals, tally.GameResult)
	}
	// §10: the ratings of one game average exactly 50 % because the results add up to 0.
	sum := 0
	for _, r := range sh.Totals {
		sum += r
	}
	if sum != 0 || OverallRatingText(sum, n) != "50.00%" {
		t.Fatalf("results %v: the ratings do not average 50%%", sh.Totals)
	}
	if len(sh.Winners) == 0 {
		t.Fatalf("no winners")
	}
}
