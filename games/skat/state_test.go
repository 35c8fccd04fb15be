package skat

import (
	"errors"
	"math/rand/v2"
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

// layout replaces the deal with fixed hands for forehand, middlehand, rearhand and the skat.
func layout(st *state, f, m, r, skat string) *state {
	n := *st
	for i := range n.Hands {
		n.Hands[i] = 0
	}
	n.Hands[n.seat(Forehand)] = set(f)
	n.Hands[n.seat(Middlehand)] = set(m)
	n.Hands[n.seat(Rearhand)] = set(r)
	n.Skat, n.Skat0 = set(skat), set(skat)
	return &n
}

// do applies the actions in order, each by the seat to act, and returns the state and all events.
func do(t *testing.T, st *state, actions ...string) (*state, []games.Event) {
	t.Helper()
	var all []games.Event
	for _, text := range actions {
		a, err := games.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		s := st.ToAct()[0]
		next, evs, err := st.Apply(s, a)
		if err != nil {
			t.Fatalf("%s by seat %d: %v (legal %v)", text, s, err, st.Legal(s))
		}
		st = next.(*state)
		all = append(all, evs...)
	}
	return st, all
}

func hasMsg(ms []games.Msg, id string) (games.Msg, bool) {
	for _, m := range ms {
		if m.ID == id {
			return m, true
		}
	}
	return games.Msg{}, false
}

func eventMsgs(evs []games.Event, kind games.EventKind, to games.Seat) []games.Msg {
	var out []games.Msg
	for _, e := range evs {
		if e.Kind == kind && e.To == to {
			out = append(out, e.Msg)
		}
	}
	return out
}

func TestDealPackets(t *testing.T) {
	for _, players := range []int{3, 4} {
		st := newState(t, players, nil)
		d := cards.Shuffle(Deck(), 7, 1)
		// skat.md §3: 3 each, 2 to the skat, 4 each, 3 each, starting with forehand.
		for r := Forehand; r <= Rearhand; r++ {
			i := int(r)
			want := cards.SetOf(append(append(slices.Clone(d[3*i:3*i+3]), d[11+4*i:15+4*i]...), d[23+3*i:26+3*i]...)...)
			if got := st.Hands[st.seat(r)]; got != want {
				t.Errorf("%d players, role %d: %v, want %v", players, r, got, want)
			}
		}
		if st.Skat != cards.SetOf(d[9], d[10]) {
			t.Errorf("skat %v", st.Skat)
		}
		// §1: forehand is left of the dealer; at four the dealer holds nothing and never acts.
		if st.seat(Forehand) != (st.Dealer+1)%games.Seat(players) {
			t.Errorf("forehand %d, dealer %d", st.seat(Forehand), st.Dealer)
		}
		if players == 4 {
			if !st.Hands[st.Dealer].Empty() || st.role(st.Dealer) != -1 {
				t.Errorf("the sitting-out dealer has cards %v", st.Hands[st.Dealer])
			}
			if _, ok := hasMsg(st.View(games.Nobody).Table, "skat.sitsout"); !ok {
				t.Errorf("table does not say who sits out")
			}
		} else if st.seat(Rearhand) != st.Dealer {
			t.Errorf("rearhand is not the dealer at three")
		}
	}
}

func TestNobodyBids(t *testing.T) {
	st := newState(t, 3, nil)
	st, evs := do(t, st, "pass", "pass")
	if st.Phase != phChoice || st.ToAct()[0] != st.seat(Forehand) {
		t.Fatalf("phase %d to act %v", st.Phase, st.ToAct())
	}
	if _, ok := hasMsg(eventMsgs(evs, games.EventInfo, games.Nobody), "skat.ev.alone"); !ok {
		t.Errorf("no alone event in %v", evs)
	}
	want := []games.Action{games.Num("playat", 18), games.Do("ramsch"), games.Do("throwin")}
	if got := st.Legal(st.seat(Forehand)); !slices.Equal(got, want) {
		t.Errorf("choice %v, want %v", got, want)
	}
	// D11: thrown in: nobody scores, the deal counts, the next dealer deals.
	dealer := st.Dealer
	next, evs := do(t, st, "throwin")
	if next.Deal != 2 || next.Dealer != (dealer+1)%3 || len(next.Rows) != 1 || next.Rows[0].Kind != "thrown" {
		t.Errorf("after throw-in: deal %d dealer %d rows %+v", next.Deal, next.Dealer, next.Rows)
	}
	if _, ok := hasMsg(eventMsgs(evs, games.EventDealEnd, games.Nobody), "skat.result.thrownin"); !ok {
		t.Errorf("no thrown-in result")
	}
	// §4.5: play at 18 makes forehand declarer at 18.
	p18, _ := do(t, st, "playat/18")
	if p18.Declarer != st.seat(Forehand) || p18.Bid != 18 || p18.Phase != phSkat {
		t.Errorf("play at 18: declarer %d bid %d phase %d", p18.Declarer, p18.Bid, p18.Phase)
	}
	// ramsch_mandatory: no throw-in.
	m := newState(t, 3, map[string]string{OptRamschMandatory: "true"})
	m, _ = do(t, m, "pass", "pass")
	if got := m.Legal(m.seat(Forehand)); slices.Contains(got, games.Do("throwin")) || len(got) != 2 {
		t.Errorf("ramsch_mandatory offers %v", got)
	}
}

func TestAuctionThroughApply(t *testing.T) {
	st := newState(t, 3, nil)
	m := st.seat(Middlehand)
	if got := st.Legal(m); len(got) != 89 || got[0] != games.Num("bid", 18) || got[88] != games.Do("pass") {
		t.Fatalf("middlehand's first calls: %d, %v … %v", len(got), got[0], got[len(got)-1])
	}
	if _, _, err := st.Apply(m, games.Num("bid", 35)); !errors.Is(err, games.ErrIllegal) {
		t.Errorf("bid 35: %v", err)
	}
	if _, _, err := st.Apply(st.seat(Forehand), games.Do("hold")); !errors.Is(err, games.ErrNotYourTurn) {
		t.Errorf("forehand out of turn: %v", err)
	}
	st, evs := do(t, st, "bid/18", "hold", "bid/20", "pass", "bid/22", "pass")
	// M survived at 20; R bid 22 and M passed: R is declarer at 22.
	if st.Declarer != st.seat(Rearhand) || st.Bid != 22 || st.Phase != phSkat {
		t.Fatalf("declarer %d bid %d", st.Declarer, st.Bid)
	}
	if m, ok := hasMsg(eventMsgs(evs, games.EventInfo, games.Nobody), "skat.ev.declarer"); !ok || m.Args["N"] != 22 {
		t.Errorf("declarer event %v", m)
	}
	if d, ok := hasMsg(st.View(games.Nobody).Table, "skat.declarer"); !ok || d.Args["Seat"] != st.Declarer {
		t.Errorf("table %v", st.View(games.Nobody).Table)
	}
}

func TestSkatTakenAndDeclared(t *testing.T) {
	st := layout(newState(t, 3, nil),
		"CJ SJ HA H10 HK HQ H9 SA S10 D7",
		"HJ DJ CA C10 CK CQ C9 C8 C7 H8",
		"SK SQ S9 S8 S7 DA D10 DK DQ D9",
		"H7 D8")
	decl := st.seat(Forehand)
	st, evs := do(t, st, "pass", "pass", "playat/18", "skat")
	// §5.1: only the declarer sees the skat.
	priv := eventMsgs(evs, games.EventInfo, decl)
	if len(priv) != 1 || priv[0].ID != "skat.ev.skat" {
		t.Fatalf("private skat event: %v", priv)
	}
	if _, ok := hasMsg(st.View(decl).Private, "skat.private.skat"); !ok {
		t.Errorf("declarer's view lacks the skat")
	}
	for _, s := range []games.Seat{games.Nobody, st.seat(Middlehand)} {
		if v := st.View(s); len(v.Private) != 0 || v.Game.(View).Skat != nil {
			t.Errorf("seat %d sees the skat", s)
		}
	}
	if len(st.Hands[decl].Cards()) != 12 || len(st.Legal(decl)) != 12 {
		t.Fatalf("hand after pick-up %v", st.Hands[decl])
	}
	st, _ = do(t, st, "discard/D7", "discard/D8")
	// D3: no Null with the skat taken.
	want := []games.Action{games.Do("clubs"), games.Do("spades"), games.Do("hearts"), games.Do("diamonds"), games.Do("grand")}
	if got := st.Legal(decl); !slices.Equal(got, want) {
		t.Errorf("games after pick-up: %v", got)
	}
	st, _ = do(t, st, "hearts")
	// D6: announcements allowed after taking the skat; open is not.
	if got := st.Legal(decl); len(got) != 3 || slices.Contains(got, games.Do("open")) {
		t.Errorf("announcements %v", got)
	}
	st, evs = do(t, st, "simple")
	if m, ok := hasMsg(eventMsgs(evs, games.EventInfo, games.Nobody), "skat.ev.declared"); !ok ||
		m.Args["Game"].(games.Msg).ID != "skat.contract" {
		t.Errorf("declared event %v", evs)
	}
	// Play it out: forehand leads; the declarer's trumps first in the hand order.
	if h := st.View(decl).Hand; h[0] != cards.MustParse("CJ") || h[2] != cards.MustParse("HA") {
		t.Errorf("hand order %v", h)
	}
	for st.Phase == phPlay && st.Deal == 1 {
		s := st.ToAct()[0]
		st, evs = do(t, st, st.Legal(s)[0].String())
	}
	end := eventMsgs(evs, games.EventDealEnd, games.Nobody)
	if len(end) != 2 || end[0].ID != "skat.ev.skatshown" || cards.SetOf(end[0].Args["Cards"].([]cards.Card)...) != set("D7 D8") {
		t.Fatalf("deal end %v", end)
	}
	if end[1].ID != "skat.result.won" && end[1].ID != "skat.result.lost" {
		t.Errorf("result %v", end[1])
	}
	r := st.Rows[0]
	// Matadors from the dealt cards and the skat: CJ SJ, no HJ → with 2; hearts 10 × 3 = 30.
	if o := r.outcome(st.Cfg.Variant); o.Matadors != 2 || !o.With || (o.Won && o.Value < 30) {
		t.Errorf("outcome %+v", o)
	}
	if r.Points[0]+r.Points[1] != 120 {
		t.Errorf("points %v do not add up to 120", r.Points)
	}
}

func TestOpenAndNullOuvert(t *testing.T) {
	st := layout(newState(t, 3, nil),
		"C7 C8 C9 S7 S8 S9 H7 H8 D7 D8",
		"CJ SJ HJ DJ CA C10 CK CQ SA S10",
		"SK SQ HA H10 HK HQ H9 DA D10 DK",
		"DQ D9")
	decl := st.seat(Forehand)
	st, _ = do(t, st, "pass", "pass", "playat/18", "hand")
	if got := st.Legal(decl); !slices.Contains(got, games.Do("null")) || !slices.Contains(got, games.Do("nullouvert")) {
		t.Fatalf("hand games %v", got)
	}
	st, evs := do(t, st, "nullouvert")
	if st.Phase != phPlay || !st.Contract.Open {
		t.Fatalf("null ouvert: phase %d %+v", st.Phase, st.Contract)
	}
	if _, ok := hasMsg(eventMsgs(evs, games.EventInfo, games.Nobody), "skat.ev.open"); !ok {
		t.Errorf("no open event")
	}
	oc, ok := hasMsg(st.View(games.Nobody).Table, "skat.opencards")
	if !ok || len(oc.Args["Cards"].([]cards.Card)) != 10 {
		t.Errorf("open cards on the table: %v", oc)
	}
	for st.Deal == 1 {
		s := st.ToAct()[0]
		l := st.Legal(s)
		st, _ = do(t, st, l[len(l)-1].String())
	}
	r := st.Rows[0]
	o := r.outcome(st.Cfg.Variant)
	if r.Kind != "game" || o.Value != 24 || o.Won != (r.Tricks == 0) || (!o.Won && o.Score != -18) {
		t.Errorf("row %+v outcome %+v", r, o)
	}
}

func TestNullEndsEarly(t *testing.T) {
	st := layout(newState(t, 3, nil),
		"CA C7 S7 S8 S9 H7 H8 D7 D8 D9",
		"CJ SJ HJ DJ C10 CK CQ SA S10 SK",
		"SQ HA H10 HK HQ H9 DA D10 DK C9",
		"DQ C8")
	st, _ = do(t, st, "pass", "pass", "playat/18", "hand", "null")
	st, evs := do(t, st, "play/CA", "play/C10", "play/C9")
	if st.Deal != 2 || len(st.Rows) != 1 {
		t.Fatalf("null did not end at the declarer's first trick")
	}
	r := st.Rows[0]
	o := r.outcome(st.Cfg.Variant)
	if r.Tricks != 1 || o.Won || o.Score != -18 {
		t.Errorf("row %+v outcome %+v", r, o)
	}
	if m, ok := hasMsg(eventMsgs(evs, games.EventDealEnd, games.Nobody), "skat.result.null.lost"); !ok ||
		m.Args["Reason"].(games.Msg).ID != "skat.why.null" {
		t.Errorf("result %v", eventMsgs(evs, games.EventDealEnd, games.Nobody))
	}
}

func TestRamschDeal(t *testing.T) {
	st := newState(t, 4, nil)
	st, _ = do(t, st, "pass", "pass", "ramsch")
	if st.Contract.Kind != Ramsch || st.Declarer != games.Nobody || st.Phase != phPlay {
		t.Fatalf("ramsch: %+v", st.Contract)
	}
	var evs []games.Event
	for st.Deal == 1 {
		s := st.ToAct()[0]
		if s == 0 && st.Dealer == 0 {
			t.Fatal("the sitting-out dealer plays")
		}
		st, evs = do(t, st, st.Legal(s)[0].String())
	}
	r := st.Rows[0]
	sum := 0
	for _, p := range r.Points {
		sum += p
	}
	if r.Kind != "ramsch" || sum != 120 || r.Scores[r.Dealer] != 0 {
		t.Errorf("ramsch row %+v", r)
	}
	if _, ok := hasMsg(eventMsgs(evs, games.EventDealEnd, games.Nobody), "skat.result.ramsch"); !ok {
		t.Errorf("no ramsch result")
	}
}

func TestMatchEnd(t *testing.T) {
	st := newState(t, 4, map[string]string{OptDeals: "4"})
	var evs []games.Event
	for range 4 {
		st, evs = do(t, st, "pass", "pass", "throwin")
	}
	if len(st.ToAct()) != 0 || st.Phase != phOver {
		t.Fatalf("match not over after 4 deals: phase %d", st.Phase)
	}
	if m := eventMsgs(evs, games.EventMatchEnd, games.Nobody); len(m) != 1 || m[0].ID != "skat.ev.matchend" {
		t.Errorf("match end %v", evs)
	}
	sh := st.Score()
	if len(sh.Rows) != 4 || len(sh.Winners) != 4 {
		t.Errorf("sheet %+v", sh)
	}
	// Every player dealt once (§14).
	dealers := map[games.Seat]bool{}
	for _, r := range st.Rows {
		dealers[r.Dealer] = true
	}
	if len(dealers) != 4 {
		t.Errorf("dealers %v", dealers)
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		opts map[string]string
		want Variant
	}{
		{nil, Seed()},
		{map[string]string{OptPreset: PresetISkO}, ISkO()},
		{map[string]string{OptPreset: PresetISkO, OptGrandBase: "20"}, func() Variant { v := ISkO(); v.GrandBase = 20; return v }()},
		{map[string]string{OptLossScoring: "isko", OptRamschMandatory: "true"}, func() Variant { v := Seed(); v.ISkOLoss, v.RamschMandatory = true, true; return v }()},
	}
	for _, tt := range tests {
		st := newState(t, 3, tt.opts)
		if st.Cfg.Variant != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.opts, st.Cfg.Variant, tt.want)
		}
	}
	if _, err := Rules().New(games.Config{Players: 4, Options: map[string]string{OptDeals: "6"}}, 1); !errors.Is(err, games.ErrBadConfig) {
		t.Errorf("6 deals at 4 players: %v", err)
	}
	if _, err := Rules().New(games.Config{Players: 3, Options: map[string]string{OptGrandBase: "22"}}, 1); !errors.Is(err, games.ErrBadConfig) {
		t.Errorf("grand_base 22: %v", err)
	}
	if _, err := Rules().Unmarshal([]byte(`{"v":1}`)); !errors.Is(err, games.ErrCorrupt) {
		t.Errorf("unmarshal of an empty state: %v", err)
	}
}

func TestSchwarzAnnouncedEndsEarly(t *testing.T) {
	st := layout(newState(t, 3, nil),
		"CJ SJ HJ DJ CA C10 CK CQ C9 C8",
		"SA S10 SK SQ S9 S8 S7 HA H10 HK",
		"HQ H9 H8 H7 DA D10 DK DQ D9 D8",
		"C7 D7")
	decl := st.seat(Forehand)
	st, _ = do(t, st, "pass", "pass", "playat/18", "hand", "grand")
	want := []games.Action{games.Do("simple"), games.Do("schneider"), games.Do("schwarz"),
		games.Do("open"), games.Do("openschneider"), games.Do("openschwarz")}
	if got := st.Legal(decl); !slices.Equal(got, want) {
		t.Fatalf("hand announcements %v", got)
	}
	st, _ = do(t, st, "openschwarz")
	v := st.View(games.Nobody)
	if c, ok := hasMsg(v.Table, "skat.contract.ext"); !ok || len(c.Args["Extras"].([]games.Msg)) != 3 {
		t.Errorf("contract line %v", v.Table)
	}
	if _, ok := hasMsg(v.Table, "skat.opencards"); !ok || len(v.Game.(View).Open) != 10 {
		t.Errorf("open cards not public: %v", v.Table)
	}
	// The declarer leads C8, the opponents cannot follow... they can't win with plain cards; lead
	// a low card the opponents can beat: they hold no clubs and no trumps, so the declarer wins
	// every trick and makes schwarz.
	for st.Deal == 1 {
		s := st.ToAct()[0]
		st, _ = do(t, st, st.Legal(s)[0].String())
	}
	o := st.Rows[0].outcome(st.Cfg.Variant)
	// Grand with 4, hand, schwarz announced: (1+4+1+5) × 20 = 220, open doubles → 440.
	if !o.Won || o.Value != 440 || st.Totals[decl] != 440 {
		t.Errorf("outcome %+v totals %v", o, st.Totals)
	}

	// Now the same with a hand that loses a trick: the deal ends at the opponents' first trick.
	st = layout(newState(t, 3, nil),
		"CJ SJ HJ DJ CA C10 CK CQ C9 H7",
		"SA S10 SK SQ S9 S8 S7 HA H10 HK",
		"HQ H9 H8 C7 DA D10 DK DQ D9 D8",
		"C8 D7")
	st, _ = do(t, st, "pass", "pass", "playat/18", "hand", "grand", "schwarz", "play/H7", "play/HA", "play/H8")
	if st.Deal != 2 || len(st.Rows) != 1 {
		t.Fatalf("schwarz announced did not end at the opponents' trick")
	}
	r := st.Rows[0]
	if o := r.outcome(st.Cfg.Variant); o.Fulfilled || o.Score != -18 || r.Points[0] != SetPoints(set("C8 D7")) {
		t.Errorf("row %+v outcome %+v", r, o)
	}
}

// TestGameViewBids: skat.md §4.4: the structured view lists the table's legal bid values (88 in
// the seed rules, derived from the active values under a switch), for every seat and the public.
func TestGameViewBids(t *testing.T) {
	tests := []struct {
		name  string
		opts  map[string]string
		count int
		has   int
	}{
		{"seed", nil, 88, 440},
		{"grand_base=24", map[string]string{OptGrandBase: "24"}, len(BidValues(Variant{GrandBase: 24, NullOuvert: 24, SchneiderMin: 91})), 48},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newState(t, 3, tt.opts)
			for _, s := range []games.Seat{games.Nobody, st.seat(Forehand), st.seat(Middlehand)} {
				bids := st.View(s).Game.(View).Bids
				if len(bids) != tt.count || bids[0] != 18 || !slices.Contains(bids, tt.has) {
					t.Errorf("seat %d: %d bids %v", s, len(bids), bids)
				}
			}
		})
	}
}

// TestUnseatedSeats: a seat that is not at the table (seat 3 of three, or out of any range) sees
// the public view, may do nothing, and redeals like the public.
func TestUnseatedSeats(t *testing.T) {
	st := newState(t, 3, nil)
	for _, s := range []games.Seat{3, 7, -5} {
		v := st.View(s)
		if v.Hand != nil || v.Private != nil || v.Prompt.ID != "" || len(st.Legal(s)) != 0 {
			t.Errorf("seat %d sees %v %v %v and may do %v", s, v.Hand, v.Private, v.Prompt, st.Legal(s))
		}
		if got := st.Redeal(s, rand.New(rand.NewPCG(1, 2))).(*state); got.Skat == st.Skat && got.Hands == st.Hands {
			t.Errorf("seat %d: Redeal redealt nothing", s)
		}
	}
}
