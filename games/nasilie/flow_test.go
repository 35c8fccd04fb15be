package nasilie

import (
	"errors"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

func newState(t *testing.T, players int, opts map[string]string) *state {
	t.Helper()
	st, err := Rules().New(games.Config{Players: players, Options: opts}, 7)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

// do applies a sequence of "seat:action" steps and fails on the first error.
func do(t *testing.T, st *state, steps ...string) (*state, []games.Event) {
	t.Helper()
	var all []games.Event
	for _, s := range steps {
		seat := games.Seat(s[0] - '0')
		a, err := games.ParseAction(s[2:])
		if err != nil {
			t.Fatal(err)
		}
		next, evs, err := st.Apply(seat, a)
		if err != nil {
			t.Fatalf("%s: %v (legal %v)", s, err, st.Legal(seat))
		}
		st = next.(*state)
		all = append(all, evs...)
	}
	return st, all
}

func legalText(st *state, s games.Seat) []string {
	var out []string
	for _, a := range st.Legal(s) {
		out = append(out, a.String())
	}
	return out
}

func wantLegal(t *testing.T, st *state, s games.Seat, want ...string) {
	t.Helper()
	if got := legalText(st, s); !slices.Equal(got, want) {
		t.Fatalf("seat %d legal %v, want %v", s, got, want)
	}
}

// rig sets the hands and the stock of a freshly dealt 4-player deal (the rest of the pack is
// unchanged, so every card stays somewhere).
func rig(t *testing.T, st *state, stock string, hands ...string) {
	t.Helper()
	var all cards.Set
	for i, h := range hands {
		st.hands[i] = cards.SetOf(cards.MustParseList(h)...)
		all = all.Union(st.hands[i])
	}
	st.stock = cards.SetOf(cards.MustParseList(stock)...)
	all = all.Union(st.stock)
	if all != cards.SetOf(cards.FrenchFrom(7)...) || all.Len() != 32 {
		t.Fatalf("rigged deal is not the pack: %v", all)
	}
}

func TestFirstDealerIsFirstJack(t *testing.T) {
	st := newState(t, 4, nil)
	if st.firstJack.Rank() != cards.Jack {
		t.Fatalf("first dealer card %v is not a jack", st.firstJack)
	}
	pack := cards.ShuffleWith(cards.FrenchFrom(7), cards.Stream(7, cards.Dealer, 1))
	i := slices.IndexFunc(pack, func(c cards.Card) bool { return c.Rank() == cards.Jack })
	if st.dealer != games.Seat(i%4) || st.ToAct()[0] != (st.dealer+1)%4 {
		t.Fatalf("dealer %d turn %d, first jack at %d", st.dealer, st.ToAct()[0], i)
	}
}

func TestDealSizes(t *testing.T) {
	for _, tt := range []struct {
		players     int
		opts        map[string]string
		pack, aside int
	}{
		{4, nil, 32, 0}, {5, nil, 52, 13}, {6, nil, 52, 6},
		{5, map[string]string{OptFive: FiveDealer}, 32, 0},
		{4, map[string]string{OptFive: FiveDealer}, 32, 0}, // the option only concerns five players
	} {
		st := newState(t, tt.players, tt.opts)
		if st.Deck().Len() != tt.pack || st.aside.Len() != tt.aside || st.stock.Len() != 4 {
			t.Errorf("%d players %v: pack %d aside %d stock %d", tt.players, tt.opts, st.Deck().Len(), st.aside.Len(), st.stock.Len())
		}
		for p, h := range st.hands[:st.players] {
			want := 7
			if st.sitOut && games.Seat(p) == st.dealer {
				want = 0
			}
			if h.Len() != want {
				t.Errorf("%d players: seat %d holds %d cards", tt.players, p, h.Len())
			}
		}
	}
}

func TestHandHiddenUntilLooked(t *testing.T) {
	st := newState(t, 4, nil)
	n := st.ToAct()[0]
	if v := st.View(n); v.Hand != nil || len(v.Private) == 0 || v.Private[0].ID != "nasilie.v.hidden" {
		t.Fatalf("unlooked view shows %v / %v", v.Hand, v.Private)
	}
	wantLegal(t, st, n, "look", "blind")
	st, _ = do(t, st, seat(n)+":look")
	if v := st.View(n); len(v.Hand) != 7 {
		t.Fatalf("looked view shows %v", v.Hand)
	}
	wantLegal(t, st, n, "pass", "bid/3")
}

func seat(s games.Seat) string { return string(rune('0' + s)) }

// N-BLIND: blind 2 only while nobody has bid; the next bid is 4; the blind declarer sees his hand
// when he wins the auction.
func TestBlindBid(t *testing.T) {
	st := newState(t, 4, nil) // the test works from whoever is nanny
	a := st.ToAct()[0]
	b, c, d := (a+1)%4, (a+2)%4, (a+3)%4
	st, _ = do(t, st, seat(a)+":blind")
	wantLegal(t, st, b, "look")
	st, _ = do(t, st, seat(b)+":look")
	wantLegal(t, st, b, "pass", "bid/4")
	st, _ = do(t, st, seat(b)+":pass", seat(c)+":look", seat(c)+":bid/4", seat(d)+":look", seat(d)+":pass")
	// a bid blind and has still not looked: he looks before raising to 5.
	wantLegal(t, st, a, "look")
	if v := st.View(a); v.Hand != nil {
		t.Fatal("blind bidder sees his hand")
	}
	st, _ = do(t, st, seat(a)+":look")
	wantLegal(t, st, a, "pass", "bid/5")
	st, _ = do(t, st, seat(a)+":pass")
	if d, bid := st.declarer(); d != c || bid != 4 || st.phase != phaseStock {
		t.Fatalf("declarer %d bid %d phase %s", d, bid, st.phase)
	}

	st = newState(t, 4, nil)
	st, _ = do(t, st, seat(a)+":blind", seat(b)+":look", seat(b)+":pass", seat(c)+":look", seat(c)+":pass",
		seat(d)+":look", seat(d)+":pass")
	if d, bid := st.declarer(); d != a || bid != 2 || !st.looked[a] || len(st.View(a).Hand) != 7 {
		t.Fatalf("blind 2 unopposed: declarer %d bid %d looked %v", d, bid, st.looked[a])
	}
	if st.View(games.Nobody).Table[1].ID != "nasilie.t.calls" {
		t.Fatalf("table %v", st.View(games.Nobody).Table)
	}
}

func TestBidLadder(t *testing.T) {
	st := newState(t, 4, nil)
	a := st.ToAct()[0]
	b, c, d := (a+1)%4, (a+2)%4, (a+3)%4
	st, _ = do(t, st, seat(a)+":look", seat(a)+":bid/3", seat(b)+":look")
	wantLegal(t, st, b, "pass", "bid/4")
	st, _ = do(t, st, seat(b)+":bid/4", seat(c)+":look", seat(c)+":pass", seat(d)+":look", seat(d)+":pass")
	// Passed players are skipped; a, still in, must bid exactly 5.
	wantLegal(t, st, a, "pass", "bid/5")
	top := *st
	top.calls[1].Bid = MaxBid // N-MAXBID: as if b had made the highest bid
	wantLegal(t, &top, a, "pass")
	st, _ = do(t, st, seat(a)+":bid/5")
	wantLegal(t, st, b, "pass", "bid/6")
	st, _ = do(t, st, seat(b)+":pass")
	if d, bid := st.declarer(); d != a || bid != 5 {
		t.Fatalf("declarer %d bid %d", d, bid)
	}
	if _, _, err := st.Apply(a, games.Num("bid", 6)); !errors.Is(err, games.ErrIllegal) {
		t.Fatalf("bid after the auction: %v", err)
	}
}

// N-NANNY: when everybody passes the nanny plays 1 or pays 10, even after her own pass.
func TestNanny(t *testing.T) {
	allPass := func() *state {
		st := newState(t, 4, nil)
		a := st.ToAct()[0]
		var steps []string
		for i := range games.Seat(4) {
			steps = append(steps, seat((a+i)%4)+":look", seat((a+i)%4)+":pass")
		}
		st, _ = do(t, st, steps...)
		return st
	}
	st := allPass()
	nanny, dealer := st.nanny(), st.dealer
	if st.phase != phaseNanny || !slices.Equal(st.ToAct(), []games.Seat{nanny}) {
		t.Fatalf("phase %s toAct %v", st.phase, st.ToAct())
	}
	wantLegal(t, st, nanny, "playone", "decline")
	one, _ := do(t, st, seat(nanny)+":playone")
	if d, bid := one.declarer(); d != nanny || bid != 1 || one.phase != phaseStock {
		t.Fatalf("forced game: declarer %d bid %d", d, bid)
	}
	st, evs := do(t, st, seat(nanny)+":decline")
	if st.scores[nanny] != -10 || st.deal != 2 || st.dealer != (dealer+1)%4 || st.phase != phaseAuction {
		t.Fatalf("after declining: scores %v deal %d dealer %d", st.scores, st.deal, st.dealer)
	}
	if !slices.ContainsFunc(evs, func(e games.Event) bool { return e.Kind == games.EventDealEnd }) {
		t.Fatal("no deal-end event")
	}
	sh := st.Score()
	if len(sh.Rows) != 1 || sh.Rows[0].Points[nanny] != -10 || sh.Totals[nanny] != -10 {
		t.Fatalf("sheet %+v", sh)
	}
}

// A whole rigged deal: stock taken and laid away, trump, melds, stoek with the king, play, score.
func TestRiggedDeal(t *testing.T) {
	st := newState(t, 4, nil)
	st.dealer = 3 // seat 0 is the nanny
	rig(t, st, "C7 C8 D7 D8",
		"HJ H9 HA HK HQ SA S10",
		"H10 H8 H7 CA C10 CK CQ",
		"DA D10 DK DQ DJ D9 S7",
		"SK SQ SJ S9 S8 CJ C9")
	st, _ = do(t, st, "0:look", "0:bid/3", "1:look", "1:pass", "2:look", "2:pass", "3:look", "3:pass")
	wantLegal(t, st, 0, "take", "leave")
	st, evs := do(t, st, "0:take")
	if st.hands[0].Len() != 11 || evs[len(evs)-1].To != 0 || evs[len(evs)-1].Msg.ID != "nasilie.e.took" {
		t.Fatalf("after take: %v %v", st.hands[0], evs)
	}
	if g := st.View(1).Game.(View); !g.Took.Empty() {
		t.Fatal("another seat sees the stock")
	}
	st, _ = do(t, st, "0:discard/C7", "0:discard/C8", "0:discard/D7", "0:discard/D8")
	wantLegal(t, st, 0, "clubs", "diamonds", "hearts", "spades")
	st, _ = do(t, st, "0:hearts")
	// Candidates: the run J-Q-K-A of hearts (4) and its top 3, then stoek.
	wantLegal(t, st, 0, "all", "meld/1", "meld/2", "meld/3", "done")
	st, _ = do(t, st, "0:meld/1")
	wantLegal(t, st, 0, "all", "meld/3", "done") // the shorter run shares the cards; stoek remains
	st, _ = do(t, st, "0:done")
	if st.meldPoints() != 50 || !st.stoekOpen() {
		t.Fatalf("melds %d stoek open %v", st.meldPoints(), st.stoekOpen())
	}
	g := st.View(games.Nobody).Game.(View)
	if g.Needed != 8 || len(g.Melds) != 1 {
		t.Fatalf("public game %+v", g)
	}
	// Lead the trump king with stoek: stoek scores now, the queen is already shown.
	if !slices.Contains(legalText(st, 0), "stoek/HK") {
		t.Fatalf("no stoek offer: %v", legalText(st, 0))
	}
	st, _ = do(t, st, "0:stoek/HK")
	if st.meldPoints() != 70 || st.stoekOpen() || slices.Contains(legalText(st, 0), "stoek/HQ") {
		t.Fatalf("after stoek: %d %v", st.meldPoints(), st.stoekOpen())
	}
	wantLegal(t, st, 1, "play/H7", "play/H8", "play/H10")
	st, _ = do(t, st, "1:play/H10", "2:play/S7", "3:play/CJ")
	if c := st.tricks().count; c[0] != 1 || st.ToAct()[0] != 0 {
		t.Fatalf("trick 1: %v turn %d", c, st.ToAct()[0])
	}
	// Play the rest out with the first legal card and check the score adds up.
	for st.phase == phasePlay {
		s := st.ToAct()[0]
		st, _ = do(t, st, seat(s)+":"+st.Legal(s)[0].String())
	}
	r := st.rows[0]
	if r.seat() != 0 || r[rowBid] != 3 || r[rowNeeded] != 6 || st.scores[0] != r[rowResult] {
		t.Fatalf("row %+v scores %v", r, st.scores)
	}
}

func TestMatchEnd(t *testing.T) {
	st := newState(t, 4, nil)
	st.scores[2] = 104
	var ev events
	st.endDeal(2, &ev)
	if st.phase != phaseOver || !slices.Equal(st.winners(), []games.Seat{2}) || len(st.ToAct()) != 0 {
		t.Fatalf("phase %s winners %v", st.phase, st.winners())
	}
	if ev[0].Kind != games.EventMatchEnd {
		t.Fatalf("events %v", ev)
	}
	st = newState(t, 4, map[string]string{OptRounds: "3"})
	st.deal, st.scores = 12, [maxPlayers]int{-20, 30, 30, -100}
	st.endDeal(0, &ev)
	if st.phase != phaseOver || !slices.Equal(st.winners(), []games.Seat{1, 2}) {
		t.Fatalf("deal limit: phase %s winners %v", st.phase, st.winners())
	}
	st = newState(t, 4, nil)
	st.scores[1] = 99
	st.endDeal(1, &ev)
	if st.phase != phaseAuction || st.deal != 2 {
		t.Fatal("99 ended the match")
	}
	// By default there is no cap: only reaching 100 ends the match ("End of the game").
	st = newState(t, 4, nil)
	st.deal, st.scores = 500, [maxPlayers]int{-20, 99, 30, -100}
	st.endDeal(1, &ev)
	if st.phase != phaseAuction || st.deal != 501 {
		t.Fatalf("deal 500 without a cap: phase %s deal %d", st.phase, st.deal)
	}
}

func TestUnmarshalCorrupt(t *testing.T) {
	for _, b := range []string{"", "{}", `{"players":9}`, "\x00"} {
		if _, err := Rules().Unmarshal([]byte(b)); !errors.Is(err, games.ErrCorrupt) {
			t.Errorf("Unmarshal(%q): %v", b, err)
		}
	}
}
