package joker

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// fixedDeal is a deal with chosen hands: deal dealNo of a party of len(hands) players, seat 0
// dealing, seat 1 to bid. The deals before it are scored as nobody's (no bids, no points).
func fixedDeal(t *testing.T, dealNo int, turnUp string, hands ...string) *state {
	t.Helper()
	st0, err := Rules().New(games.Config{Players: len(hands)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := *st0.(*state)
	var none dealRow
	for s := range st.n {
		none.bids[s] = -1
	}
	for range dealNo - 1 {
		st.deals = appendShared(st.deals, none)
	}
	st.dealer, st.turn = 0, 1
	for i, h := range hands {
		st.hands[i] = cards.SetOf(cards.MustParseList(h)...)
		if st.hands[i].Len() != HandSize(dealNo) {
			t.Fatalf("hand %d has %d cards, deal %d needs %d", i, st.hands[i].Len(), dealNo, HandSize(dealNo))
		}
	}
	st.turnUp = cards.MustParse(turnUp)
	return &st
}

func mustApply(t *testing.T, st games.State, s games.Seat, a string) (games.State, []games.Event) {
	t.Helper()
	act, err := games.ParseAction(a)
	if err != nil {
		t.Fatal(err)
	}
	next, evs, err := st.Apply(s, act)
	if err != nil {
		t.Fatalf("seat %d %s: %v (legal %v)", s, a, err, st.Legal(s))
	}
	return next, evs
}
func actions(as []games.Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	return out
}

// TestDealFlow plays a whole 2-card deal: bids from the dealer's left, the dealer restricted and
// leading first, joker announcements, the two-jokers rule, the lead penalty and its exemption
// (J-LEADPEN), scoring, and the next deal dealt by the next seat.
func TestDealFlow(t *testing.T) {
	var st games.State = fixedDeal(t, 1, "H5", "X1 X2", "S9 SA", "C3 H2")
	if got := st.ToAct(); !slices.Equal(got, []games.Seat{1}) {
		t.Fatalf("first bidder %v, want the dealer's left (1)", got)
	}
	st, _ = mustApply(t, st, 1, "bid/1")
	st, _ = mustApply(t, st, 2, "pass")
	// Dealer: 2 - (1 + 0) = 1 is forbidden.
	if got := actions(st.Legal(0)); !slices.Equal(got, []string{"pass", "bid/2"}) {
		t.Fatalf("dealer's bids %v, want [pass bid/2]", got)
	}
	if p := st.View(0).Prompt; p.ID != "joker.pr.biddealer" || p.Args["N"] != 1 {
		t.Errorf("dealer prompt %+v", p)
	}
	st, _ = mustApply(t, st, 0, "bid/2")
	if got := st.ToAct(); !slices.Equal(got, []games.Seat{0}) {
		t.Fatalf("first lead %v, want the dealer (J-FIRSTLEAD)", got)
	}
	// Both jokers are one card for the buttons: one pair high/low.
	if got := actions(st.Legal(0)); !slices.Equal(got, []string{"high/X1", "low/X1"}) {
		t.Fatalf("leader's plays %v", got)
	}
	st, evs := mustApply(t, st, 0, "high/X1")
	if !slices.ContainsFunc(evs, func(e games.Event) bool { return e.Msg.ID == "joker.ev.leadpen" }) {
		t.Errorf("no lead penalty event for a joker led with another card in hand")
	}
	// A joker led fixes no suit.
	if got := actions(st.Legal(1)); !slices.Equal(got, []string{"play/S9", "play/SA"}) {
		t.Fatalf("after a joker lead %v", got)
	}
	st, _ = mustApply(t, st, 1, "play/S9")
	if got := actions(st.Legal(2)); !slices.Equal(got, []string{"play/C3", "play/H2"}) {
		t.Fatalf("void in spades %v", got)
	}
	st, _ = mustApply(t, st, 2, "play/H2")
	// The high joker won; its player leads his last card, a joker: no penalty.
	g := st.View(games.Nobody).Game.(View)
	if g.Taken[0] != 1 || len(g.Last) != 3 || g.LastWon != 0 {
		t.Fatalf("after trick 1: %+v", g)
	}
	st, evs = mustApply(t, st, 0, "low/X2")
	if slices.ContainsFunc(evs, func(e games.Event) bool { return e.Msg.ID == "joker.ev.leadpen" }) {
		t.Errorf("lead penalty for the last card")
	}
	st, _ = mustApply(t, st, 1, "play/SA")
	st, evs = mustApply(t, st, 2, "play/C3")
	// Seat 1 won trick 2 with SA (low joker led, spades fixed by SA, C3 off suit). Seat 0 bid 2,
	// took 1 and led a joker with another card in hand: -10 - 10.
	sh := st.Score()
	if len(sh.Rows) < 1 || !slices.Equal(sh.Rows[0].Points, []int{-10 - 10, 10, 5}) {
		t.Fatalf("deal 1 points %v, want [-20 10 5]", sh.Rows[0].Points)
	}
	if !slices.ContainsFunc(evs, func(e games.Event) bool { return e.Kind == games.EventDealEnd }) {
		t.Errorf("no deal-end event")
	}
	v := st.View(games.Nobody)
	g = v.Game.(View)
	if g.Deal != 2 || g.Dealer != 1 || g.HandSize != 3 || !g.Bidding || !slices.Equal(v.ToAct, []games.Seat{2}) {
		t.Errorf("deal 2: %+v, to act %v", g, v.ToAct)
	}
}

// TestSecondJoker: the second joker of a trick is played without an announcement and takes the
// opposite value (J-TWOJOKERS).
func TestSecondJoker(t *testing.T) {
	var st games.State = fixedDeal(t, 1, "X2", "D3 D4", "X1 S4", "D5 D6")
	for _, a := range []struct {
		s games.Seat
		a string
	}{{1, "pass"}, {2, "pass"}, {0, "bid/1"}, {0, "play/D3"}, {1, "low/X1"}} {
		st, _ = mustApply(t, st, a.s, a.a)
	}
	g := st.View(2).Game.(View)
	if g.Trump != cards.NoSuit {
		t.Errorf("joker turned: trump %v, want none", g.Trump)
	}
	st, _ = mustApply(t, st, 2, "play/D5")
	g = st.View(0).Game.(View)
	if g.LastWon != 2 {
		t.Errorf("low joker and no trump: D5 should win, got seat %d", g.LastWon)
	}
	// Hands with the second joker: a fresh 3-player deal in which seat 1 holds X1, seat 2 X2.
	st = fixedDeal(t, 1, "H5", "D3 D4", "X1 S4", "X2 D6")
	for _, a := range []struct {
		s games.Seat
		a string
	}{{1, "pass"}, {2, "pass"}, {0, "bid/1"}, {0, "play/D3"}, {1, "low/X1"}} {
		st, _ = mustApply(t, st, a.s, a.a)
	}
	if got := actions(st.Legal(2)); !slices.Equal(got, []string{"play/D6", "play/X2"}) {
		t.Fatalf("second joker offered as %v", got)
	}
	st, _ = mustApply(t, st, 2, "play/X2")
	g = st.View(0).Game.(View)
	if g.LastWon != 2 || g.Last[2].Call != High {
		t.Errorf("second joker after a low one: winner %d, call %v", g.LastWon, g.Last[2].Call)
	}
}

// TestFirstLeadLeft is the table variant of J-FIRSTLEAD.
func TestFirstLeadLeft(t *testing.T) {
	st, err := Rules().New(games.Config{Players: 4, Options: map[string]string{OptFirstLead: "left"}}, 9)
	if err != nil {
		t.Fatal(err)
	}
	d := st.View(games.Nobody).Dealer
	for range 4 {
		s := st.ToAct()[0]
		st, _ = mustApply(t, st, s, st.Legal(s)[0].String())
	}
	if got := st.ToAct()[0]; got != (d+1)%4 {
		t.Errorf("first lead by %d, want %d", got, (d+1)%4)
	}
}

// TestPartyAndMatch plays random parties and matches and checks their structure: 13 deals per
// party, scheduled hand sizes, at most three regular parties, extra parties only among candidates.
func TestPartyAndMatch(t *testing.T) {
	extras := 0
	for seed := range uint64(30) {
		for _, parties := range []string{"1", "3"} {
			n := 2 + int(seed%5)
			st, err := Rules().New(games.Config{Players: n, Options: map[string]string{OptParties: parties}}, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 3))
			deals := 0
			for len(st.ToAct()) > 0 {
				s := st.ToAct()[0]
				l := st.Legal(s)
				var evs []games.Event
				st, evs, err = st.Apply(s, l[rng.IntN(len(l))])
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range evs {
					if e.Msg.ID == "joker.ev.dealend" {
						deals++
						if e.Msg.Args["Count"] != HandSize(e.Msg.Args["Deal"].(int)) {
							t.Fatalf("deal %v with %v cards", e.Msg.Args["Deal"], e.Msg.Args["Count"])
						}
					}
				}
			}
			ts := st.(*state)
			for i, r := range ts.deals {
				tricks, bids := 0, 0
				for s, b := range r.bids[:ts.n] {
					if b >= 0 {
						tricks += r.tricks[s]
						bids += b
					}
				}
				if tricks != HandSize(i+1) || bids == HandSize(i+1) {
					t.Fatalf("deal %d: %d tricks, bids add up to %d, hand size %d", i+1, tricks, bids, HandSize(i+1))
				}
			}
			if deals != Deals*len(ts.parties) || len(ts.deals) != Deals {
				t.Fatalf("%d deals for %d parties", deals, len(ts.parties))
			}
			if parties == "1" && len(ts.parties) != 1 {
				t.Fatalf("single party table played %d parties", len(ts.parties))
			}
			m := ts.standings()
			if m.regular > 3 || len(m.winners) == 0 {
				t.Fatalf("regular parties %d, winners %v", m.regular, m.winners)
			}
			if parties == "3" && len(m.winners) != 1 {
				t.Fatalf("a match has one winner, got %v", m.winners)
			}
			for i, p := range ts.parties {
				if p.extra {
					extras++
				}
				if p.extra && i > 0 {
					prev := ts.parties[i-1]
					for s, in := range p.in {
						if in && !prev.in[s] {
							t.Fatalf("seat %d joined an extra party", s)
						}
					}
				}
			}
		}
	}
	if extras == 0 {
		t.Errorf("no extra party in 30 random matches")
	}
	t.Logf("%d extra parties in 30 random matches", extras)
}

// TestLegalSet: the engine's set-based legality, Playable, agrees with LegalPlays.
func TestLegalSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	deck := Pack()
	for range 2000 {
		d := cards.Shuffle(deck, rng.Uint64(), 0)
		hand := cards.SetOf(d[:1+rng.IntN(8)]...)
		trick := d[9 : 9+rng.IntN(4)]
		want := cards.SetOf(LegalPlays(hand.Cards(), trick)...)
		if got := Playable(hand, FollowSuit(trick)); got != want {
			t.Fatalf("hand %v trick %v: Playable %v, LegalPlays %v", hand, trick, got, want)
		}
	}
}

// TestApplyKeepsSiblings: two states applied from one parent never share what they change.
func TestApplyKeepsSiblings(t *testing.T) {
	r := Rules()
	st, _ := r.New(games.Config{Players: 3}, 4)
	rng := rand.New(rand.NewPCG(4, 4))
	for len(st.ToAct()) > 0 {
		s := st.ToAct()[0]
		l := st.Legal(s)
		a, _, _ := st.Apply(s, l[0])
		ab, _ := a.MarshalBinary()
		_, _, _ = st.Apply(s, l[len(l)-1])
		if ab2, _ := a.MarshalBinary(); string(ab) != string(ab2) {
			t.Fatalf("%s: applying to the parent changed a sibling", r.Name())
		}
		st, _, _ = st.Apply(s, l[rng.IntN(len(l))])
	}
}
