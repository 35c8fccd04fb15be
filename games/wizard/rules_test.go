package wizard

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// wizard.md §11: every worked example.
func TestWorkedExamples(t *testing.T) {
	tricks := []struct {
		name  string
		trump cards.Suit
		trick string
		want  int
	}{
		{"hearts trump; HA is the only trump", cards.Hearts, "C9 HA C2", 1},
		{"no trump (final round); led spades, SJ wins", cards.NoSuit, "SJ N1 S4 DA", 0},
		{"diamonds trump; Jester, Jester, Wizard, DA: the Wizard wins", cards.Diamonds, "N1 N2 W1 DA", 2},
		{"clubs trump; Jester, H7, Jester, HQ: hearts set by H7, HQ wins", cards.Clubs, "N1 H7 N2 HQ", 3},
	}
	for _, tt := range tricks {
		if got := TrickWinner(cards.MustParseList(tt.trick), tt.trump); got != tt.want {
			t.Errorf("%s: winner %d, want %d", tt.name, got, tt.want)
		}
	}
	// "everyone after the Wizard could play anything"
	hand := cards.SetOf(cards.MustParseList("D2 S5 HK N3")...)
	if got := LegalPlays(hand, cards.MustParseList("N1 N2 W1")); got != hand {
		t.Errorf("after Jester, Jester, Wizard: legal %v, want the whole hand", got)
	}
	scores := []struct{ bid, taken, want int }{
		{2, 2, 40}, // round 5, bid 2, took 2
		{0, 2, -20},
		{3, 1, -20},
	}
	for _, tt := range scores {
		if got := RoundScore(tt.bid, tt.taken); got != tt.want {
			t.Errorf("bid %d took %d: %d, want %d", tt.bid, tt.taken, got, tt.want)
		}
	}
}

func TestTrickWinner(t *testing.T) {
	tests := []struct {
		rule  string
		trump cards.Suit
		trick string
		want  int
	}{
		{"§6.1 first Wizard beats a later one", cards.Hearts, "D5 W1 W2 HA", 1},
		{"§6.2 only Jesters: the first", cards.Spades, "N3 N1 N2", 0},
		{"§6.3 highest trump", cards.Spades, "HA S2 S9 HK", 2},
		{"§6.4 highest of the led suit; off-suit ace loses", cards.NoSuit, "H5 SA H9 CA", 2},
		{"§6.4 Jester led: the next card sets the suit", cards.Clubs, "N1 D4 DA HA", 2},
		{"§6.3 trump led", cards.Hearts, "H2 HA SA", 1},
		{"§6 trump after Jester lead", cards.Hearts, "N4 S10 H2", 2},
		{"§6 Jester and one suited card", cards.NoSuit, "N1 N2 C2", 2},
		{"§6.1 Wizard last", cards.Diamonds, "DA DK W4", 2},
	}
	for _, tt := range tests {
		if got := TrickWinner(cards.MustParseList(tt.trick), tt.trump); got != tt.want {
			t.Errorf("%s: %s under %v won by %d, want %d", tt.rule, tt.trick, tt.trump, got, tt.want)
		}
	}
	if got := TrickWinner(nil, cards.Hearts); got != -1 {
		t.Errorf("empty trick: %d", got)
	}
}

func TestLegalPlays(t *testing.T) {
	tests := []struct {
		rule        string
		hand, trick string
		want        string
	}{
		{"§5 lead: anything", "H2 S5 W1", "", "H2 S5 W1"},
		{"§5 follow suit, Wizard and Jester always", "H2 HK S5 W1 N1", "H9", "H2 HK W1 N1"},
		{"§5 void: anything, trump not compulsory", "C2 S5 N2", "H9", "C2 S5 N2"},
		{"§5 led Wizard frees the trick", "H2 S5", "W1 H9", "H2 S5"},
		{"§5 Jester led, then Wizard: free", "H2 S5", "N1 W2", "H2 S5"},
		{"§5 Jesters led, first suited card sets the suit", "H2 S5 C7", "N1 N2 S9", "S5"},
		{"§5 only Jesters so far: anything", "H2 S5", "N1 N2", "H2 S5"},
		{"§9 W7 a later Wizard keeps the suit", "H2 S5 W3", "S9 W1", "S5 W3"},
	}
	for _, tt := range tests {
		hand := cards.SetOf(cards.MustParseList(tt.hand)...)
		got := LegalPlays(hand, cards.MustParseList(tt.trick))
		if want := cards.SetOf(cards.MustParseList(tt.want)...); got != want {
			t.Errorf("%s: %v on %q: %v, want %v", tt.rule, tt.hand, tt.trick, got, want)
		}
	}
}

func TestRounds(t *testing.T) {
	for players, want := range map[int]int{3: 20, 4: 15, 5: 12, 6: 10} {
		if got := Rounds(players); got != want {
			t.Errorf("Rounds(%d) = %d, want %d", players, got, want)
		}
		if HasTrumpCard(players, want) || !HasTrumpCard(players, want-1) {
			t.Errorf("%d players: only round %d has no trump card", players, want)
		}
	}
}

func TestShortGameRounds(t *testing.T) {
	tests := []struct {
		players int
		value   string
		want    []int
	}{
		{4, "off", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{4, "3", []int{1, 2, 3}},
		{6, "10", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{5, "odd", []int{1, 3, 5, 7, 9, 11}},
		{6, "even", []int{2, 4, 6, 8, 10}},
		{3, "7", []int{1, 2, 3, 4, 5, 6, 7}},
	}
	for _, tt := range tests {
		if got := roundList(tt.players, tt.value); !slices.Equal(got, tt.want) {
			t.Errorf("%d players, short_game=%s: %v, want %v", tt.players, tt.value, got, tt.want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []games.Config{
		{Players: 2}, {Players: 7},
		{Players: 4, Options: map[string]string{"nope": "on"}},
		{Players: 4, Options: map[string]string{OptShortGame: "4"}},
		{Players: 4, Options: map[string]string{OptCannotMatch: "on", OptHiddenBids: "on"}},
	} {
		if _, err := Rules().New(cfg, 1); !errors.Is(err, games.ErrBadConfig) {
			t.Errorf("New(%v) = %v, want ErrBadConfig", cfg, err)
		}
	}
}

// mustApply applies the action text for seat s and fails the test on an error.
func mustApply(t *testing.T, st games.State, s games.Seat, text string) (games.State, []games.Event) {
	t.Helper()
	a, err := games.ParseAction(text)
	if err != nil {
		t.Fatal(err)
	}
	next, evs, err := st.Apply(s, a)
	if err != nil {
		t.Fatalf("seat %d %s: %v", s, text, err)
	}
	return next, evs
}

func newMatch(t *testing.T, players int, seed uint64, opts map[string]string) *state {
	t.Helper()
	st, err := Rules().New(games.Config{Players: players, Options: opts}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

// Seed 0, 4 players: dealer 1, S3 turned, hands D9 S7 D2 CK for seats 0..3.
func TestFirstRound(t *testing.T) {
	st := newMatch(t, 4, 0, nil)
	if st.dealer != 1 || st.turned != cards.MustParse("S3") || st.trump != cards.Spades {
		t.Fatalf("dealer %d turned %v trump %v", st.dealer, st.turned, st.trump)
	}
	for i := range 4 {
		if st.hands[i].Len() != 1 {
			t.Fatalf("seat %d has %d cards in round 1", i, st.hands[i].Len())
		}
	}
	if st.stock.Len() != 60-4-1 {
		t.Fatalf("stock %d", st.stock.Len())
	}
	// wizard.md §4: bidding from the dealer's left, the dealer last.
	var g games.State = st
	for _, s := range []games.Seat{2, 3, 0, 1} {
		if got := g.ToAct(); !slices.Equal(got, []games.Seat{s}) {
			t.Fatalf("to bid: %v, want %d", got, s)
		}
		if l := g.Legal(s); !slices.Equal(l, []games.Action{games.Num(KindBid, 0), games.Num(KindBid, 1)}) {
			t.Fatalf("bids %v", l)
		}
		g, _ = mustApply(t, g, s, "bid/1")
	}
	// wizard.md §5: the dealer's left leads. S7 (trump) beats D2, D9, CK.
	if got := g.ToAct(); !slices.Equal(got, []games.Seat{2}) {
		t.Fatalf("first lead: %v", got)
	}
	g, _ = mustApply(t, g, 2, "play/D2")
	g, _ = mustApply(t, g, 3, "play/CK")
	g, _ = mustApply(t, g, 0, "play/D9")
	g, evs := mustApply(t, g, 1, "play/S7")
	if got := trickTaker(evs); got != 1 {
		t.Fatalf("trick to %d, want 1", got)
	}
	sh := g.Score()
	if want := []int{-10, 30, -10, -10}; !slices.Equal(sh.Totals, want) {
		t.Fatalf("totals %v, want %v", sh.Totals, want)
	}
	if len(sh.Rows) != 1 || sh.Rows[0].Cells[1] != "1/1 +30" {
		t.Fatalf("sheet %+v", sh.Rows)
	}
	var kinds []games.EventKind
	for _, e := range evs {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Contains(kinds, games.EventDealEnd) {
		t.Fatalf("no deal-end event in %v", kinds)
	}
	// wizard.md §2: round 2 deals two cards each and the deal passes left.
	s2 := g.(*state)
	if s2.round() != 2 || s2.dealer != 2 || s2.hands[0].Len() != 2 {
		t.Fatalf("round %d dealer %d", s2.round(), s2.dealer)
	}
}

// Seed 9, 4 players: a Wizard is turned; the dealer (seat 0 for this seed) names trump before
// anybody bids.
func TestWizardTurned(t *testing.T) {
	st := newMatch(t, 4, 9, nil)
	if !st.turned.IsWizard() || st.phase != phaseTrump {
		t.Fatalf("turned %v phase %v", st.turned, st.phase)
	}
	if got := st.ToAct(); !slices.Equal(got, []games.Seat{0}) || st.dealer != 0 {
		t.Fatalf("to act %v, want the dealer %d", got, st.dealer)
	}
	want := []games.Action{games.Num(KindTrump, 0), games.Num(KindTrump, 1), games.Num(KindTrump, 2), games.Num(KindTrump, 3)}
	if got := st.Legal(0); !slices.Equal(got, want) {
		t.Fatalf("legal %v: the four suits, never no trump", got)
	}
	if st.View(0).Prompt.ID != "wizard.p.trump" {
		t.Fatalf("prompt %v", st.View(0).Prompt)
	}
	g, _ := mustApply(t, st, 0, "trump/2")
	s := g.(*state)
	if s.trump != cards.Hearts || s.phase != phaseBid || !slices.Equal(g.ToAct(), []games.Seat{1}) {
		t.Fatalf("trump %v phase %v to act %v", s.trump, s.phase, g.ToAct())
	}
	if p := g.View(games.Nobody).Game.(View); p.Trump != cards.Hearts || !p.Turned.IsWizard() {
		t.Fatalf("public %+v", p)
	}
}

// Seed 14: a Jester is turned, so there is no trump (wizard.md §3.2).
func TestJesterTurned(t *testing.T) {
	st := newMatch(t, 4, 14, nil)
	if !st.turned.IsJester() || st.trump != cards.NoSuit || st.phase != phaseBid {
		t.Fatalf("turned %v trump %v phase %v", st.turned, st.trump, st.phase)
	}
}

func TestLastRoundHasNoTrump(t *testing.T) {
	for players := 3; players <= 6; players++ {
		st := newMatch(t, players, 3, nil)
		st.ri = st.set.nRounds - 1
		var evs []games.Event
		st.deal(&evs)
		if st.turned != cards.NoCard || st.trump != cards.NoSuit || st.stock != 0 || st.phase != phaseBid {
			t.Errorf("%d players, last round: turned %v trump %v", players, st.turned, st.trump)
		}
	}
	// wizard.md §3.3: the last round of a short game still turns a card.
	st := newMatch(t, 4, 3, map[string]string{OptShortGame: "5"})
	st.ri = st.set.nRounds - 1
	var evs []games.Event
	st.deal(&evs)
	if st.round() != 5 || st.turned == cards.NoCard {
		t.Errorf("short game last round %d turned %v", st.round(), st.turned)
	}
}

func TestBidsCannotMatch(t *testing.T) {
	// Seed 0: dealer 1; bidders 2, 3, 0 then the dealer.
	st := newMatch(t, 4, 0, map[string]string{OptCannotMatch: "on"})
	var g games.State = st
	g, _ = mustApply(t, g, 2, "bid/0")
	g, _ = mustApply(t, g, 3, "bid/0")
	g, _ = mustApply(t, g, 0, "bid/0")
	// wizard.md §10: the total may not equal r = 1, so the dealer may not bid 1.
	if got := g.Legal(1); !slices.Equal(got, []games.Action{games.Num(KindBid, 0)}) {
		t.Fatalf("dealer legal %v, want only bid/0", got)
	}
	if p := g.View(1).Prompt; p.ID != "wizard.p.bidnot" || p.Args["N"] != 1 {
		t.Fatalf("prompt %v", p)
	}
	if f := g.View(1).Game.(View).Forbidden; f != 1 {
		t.Fatalf("forbidden %d", f)
	}
	if _, _, err := g.Apply(1, games.Num(KindBid, 1)); !errors.Is(err, games.ErrIllegal) {
		t.Fatalf("matching bid: %v", err)
	}
	// Others' total above r: nothing is forbidden.
	g = st
	g, _ = mustApply(t, g, 2, "bid/1")
	g, _ = mustApply(t, g, 3, "bid/1")
	g, _ = mustApply(t, g, 0, "bid/0")
	if got := g.Legal(1); len(got) != 2 {
		t.Fatalf("dealer legal %v, want both", got)
	}
	// Only the dealer is restricted.
	if got := st.Legal(2); len(got) != 2 {
		t.Fatalf("first bidder legal %v", got)
	}
}

func TestHiddenBids(t *testing.T) {
	st := newMatch(t, 4, 0, map[string]string{OptHiddenBids: "on"})
	var g games.State = st
	if got := g.ToAct(); !slices.Equal(got, []games.Seat{2, 3, 0, 1}) {
		t.Fatalf("to act %v, want everybody", got)
	}
	g, evs := mustApply(t, g, 0, "bid/1")
	if len(evs) != 0 {
		t.Fatalf("a secret bid was announced: %v", evs)
	}
	if got := g.ToAct(); !slices.Equal(got, []games.Seat{2, 3, 1}) {
		t.Fatalf("to act %v", got)
	}
	for _, s := range []games.Seat{games.Nobody, 1, 2, 3} {
		if b := g.View(s).Game.(View).Bids[0]; b != -1 {
			t.Fatalf("seat %d sees the secret bid %d", s, b)
		}
	}
	if v := g.View(0); v.Game.(View).Bids[0] != 1 || len(v.Private) != 1 {
		t.Fatalf("seat 0 does not see its own bid: %+v", v)
	}
	if _, _, err := g.Apply(0, games.Num(KindBid, 0)); !errors.Is(err, games.ErrNotYourTurn) {
		t.Fatalf("second bid: %v", err)
	}
	g, _ = mustApply(t, g, 3, "bid/0")
	g, _ = mustApply(t, g, 1, "bid/1")
	g, evs = mustApply(t, g, 2, "bid/0")
	if len(evs) != 1 || evs[0].Msg.ID != "wizard.ev.bids" {
		t.Fatalf("reveal events %v", evs)
	}
	if got := g.View(games.Nobody).Game.(View).Bids; !slices.Equal(got, []int{1, 1, 0, 0}) {
		t.Fatalf("revealed bids %v", got)
	}
	if got := g.ToAct(); !slices.Equal(got, []games.Seat{2}) {
		t.Fatalf("first lead %v", got)
	}
}

// A whole match with a fixed strategy: the sheet adds up, the dealer rotates, the match ends.
func TestMatchEnds(t *testing.T) {
	for _, opts := range []map[string]string{nil, {OptShortGame: "odd"}, {OptShortGame: "3"}} {
		st := newMatch(t, 5, 11, opts)
		var g games.State = st
		first := st.dealer
		rounds := 0
		var last []games.Event
		for len(g.ToAct()) > 0 {
			s := g.ToAct()[0]
			var evs []games.Event
			g, evs = mustApply(t, g, s, g.Legal(s)[0].String())
			for _, e := range evs {
				if e.Msg.ID == "wizard.ev.roundend" {
					rounds++
				}
			}
			if len(evs) > 0 {
				last = evs
			}
			if cur := g.(*state); cur.phase != phaseOver && cur.dealer != (first+int8(rounds))%5 {
				t.Fatalf("after %d rounds dealer %d, first %d", rounds, cur.dealer, first)
			}
		}
		want := len(roundList(5, games.Config{Options: opts}.Get(Rules().Options(), OptShortGame)))
		if rounds != want {
			t.Fatalf("%v: %d rounds, want %d", opts, rounds, want)
		}
		sh := g.Score()
		if len(sh.Rows) != want || len(sh.Winners) == 0 || last[len(last)-1].Kind != games.EventMatchEnd {
			t.Fatalf("sheet %+v", sh)
		}
		if _, _, err := g.Apply(0, games.Num(KindBid, 0)); !errors.Is(err, games.ErrOver) {
			t.Fatalf("after the end: %v", err)
		}
	}
}

func TestWinnersShare(t *testing.T) {
	st := newMatch(t, 3, 1, map[string]string{OptShortGame: "3"})
	st.phase, st.ri = phaseOver, 0
	copy(st.row(0), []result{{bid: 1, taken: 1}, {bid: 0, taken: 1}, {bid: 1, taken: 1}}) // +30, -10, +30
	if got := st.winners(); !slices.Equal(got, []games.Seat{0, 2}) {
		t.Fatalf("winners %v", got)
	}
}

func TestUnmarshalCorrupt(t *testing.T) {
	st := newMatch(t, 4, 5, nil)
	good, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{
		nil, []byte("{}"), []byte("garbage"),
		bytes.Replace(good, []byte(`"players":4`), []byte(`"players":9`), 1),
		bytes.Replace(good, []byte(`"phase":"bid"`), []byte(`"phase":"nap"`), 1),
		bytes.Replace(good, []byte(`"v":1`), []byte(`"v":2`), 1),
		bytes.Replace(good, []byte(`"dealer":`), []byte(`"dealer":7`), 1),
	} {
		if _, err := Rules().Unmarshal(bad); !errors.Is(err, games.ErrCorrupt) {
			t.Errorf("Unmarshal(%.60q) = %v, want ErrCorrupt", bad, err)
		}
	}
	// Cards must be conserved: drop a card from a hand.
	var g games.State = st
	w := g.(*state)
	w.hands[0] = 0
	b, _ := w.MarshalBinary()
	if _, err := Rules().Unmarshal(b); !errors.Is(err, games.ErrCorrupt) {
		t.Errorf("a lost card: %v", err)
	}
}

// TestApplyAcceptsExactlyLegal checks, all through random matches of every variant, that Apply
// accepts exactly what games.CheckLegal accepts (Legal is its one test) and refuses the rest with
// CheckLegal's sentinel, leaving its receiver as it was.
func TestApplyAcceptsExactlyLegal(t *testing.T) {
	var candidates []games.Action
	for c := cards.Card(0); c <= 63; c++ {
		candidates = append(candidates, games.With(KindPlay, c), games.WithNum(KindPlay, c, 0))
	}
	for n := -1; n <= 21; n++ {
		candidates = append(candidates, games.Num(KindBid, n), games.Num(KindTrump, n),
			games.WithNum(KindBid, cards.MustParse("SA"), n), games.Num(KindPlay, n))
	}
	candidates = append(candidates, games.Do(KindBid), games.Do(KindTrump), games.Do("pass"),
		games.Action{Kind: KindPlay, Card: cards.MustParse("W1"), N: 3})
	for _, opts := range []map[string]string{nil, {OptHiddenBids: "on"}, {OptCannotMatch: "on"}} {
		for players := 3; players <= 6; players++ {
			for steps := 0; steps < 400; steps += 37 {
				st := fuzzState(players, opts, uint64(steps+players), steps)
				before, _ := st.MarshalBinary()
				for s := games.Seat(-1); s <= 6; s++ {
					for _, a := range append(st.Legal(max(s, 0)), candidates...) {
						want := games.CheckLegal(st, s, a)
						next, _, err := st.Apply(s, a)
						if want == nil && (err != nil || next == nil) || want != nil && (!errors.Is(err, want) || next != nil) {
							t.Fatalf("%v players %d step %d: Apply(%d, %#v) = %v, %v; CheckLegal says %v",
								opts, players, steps, s, a, next, err, want)
						}
					}
				}
				if after, _ := st.MarshalBinary(); !bytes.Equal(before, after) {
					t.Fatalf("%v players %d step %d: Apply changed its receiver", opts, players, steps)
				}
			}
		}
	}
}

// wizard.md §10 bids_cannot_match: the dealer, bidding last, may not name the one number that
// makes the total equal r. Before every other seat has bid there is no such number yet, so the
// dealer's view must not report one (it used to count the missing bids as -1 each).
func TestForbiddenOnlyOnceOthersBid(t *testing.T) {
	// Seed 0, 4 players: dealer 1, r = 1; bidders 2, 3, 0 then the dealer.
	st := newMatch(t, 4, 0, map[string]string{OptCannotMatch: "on"})
	var g games.State = st
	for _, c := range []struct {
		bids []string // bids of seats 2, 3, 0 made so far
		want int
	}{
		{nil, -1},
		{[]string{"bid/0"}, -1},
		{[]string{"bid/0", "bid/0"}, -1},
		{[]string{"bid/0", "bid/0", "bid/0"}, 1},
	} {
		g = st
		for i, b := range c.bids {
			g, _ = mustApply(t, g, []games.Seat{2, 3, 0}[i], b)
		}
		if f := g.View(1).Game.(View).Forbidden; f != c.want {
			t.Errorf("after %v: dealer's Forbidden %d, want %d", c.bids, f, c.want)
		}
	}
}
