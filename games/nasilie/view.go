package nasilie

import (
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is View.Game for Nasilie: the structured facts an agent reads. It holds exactly what the
// seat knows: the public deal, and for the seat itself its own private facts (never other hands).
type View struct {
	Phase      string     // auction, nanny, stock, discard, trump, melds, play, over
	Deal       int        // 1-based deal number
	Dealer     games.Seat // dealer of this deal
	Nanny      games.Seat // the dealer's left: speaks first, must play 1 if everybody passes
	SitOut     games.Seat // the dealer in the five-player 32-card form, else Nobody
	Pack       int        // 32 or 52 cards
	Lenient    bool       // the lenient following rule (may trump at any time)
	Looked     []bool     // per seat: has looked at his cards
	Passed     []bool     // per seat: has passed in this auction
	Calls      []Call     // the auction so far; Bid 0 is a pass, 2 the blind bid
	High       int        // the highest bid so far, 0 if none
	HighSeat   games.Seat // who made it
	NextBid    int        // the one bid that may be made now, 0 if none
	Declarer   games.Seat // Nobody before the auction ends
	Bid        int        // the contract: 1 forced, 2 blind, 3…
	Stock      string     // "", "taken" or "left" (doubled)
	Trump      cards.Suit // NoSuit until named
	Melds      []Meld     // declared melds, public
	MeldPoints int        // their value
	Needed     int        // game points the declarer needs (bid + 10 − melds/10)
	Trick      []Play     // the trick on the table
	Tricks     [][]Play   // the completed tricks of this deal, in order
	TrickCount []int      // tricks won per seat
	Scores     []int      // game points per seat
	Options    []Meld     // the declarer's meld/N choices in the meld phase: meld/N is Options[N-1]
	Took       cards.Set  // the declarer's own view of the stock he took
	Laid       cards.Set  // the declarer's laid-away cards
	StoekOpen  bool       // the declarer may still declare stoek with the trump K or Q
}

// View is what s may know (nasilie.md §Engine notes): public table, own hand once looked at.
func (st *state) View(s games.Seat) games.View {
	if !seatOK(s, st.players) {
		s = games.Nobody
	}
	ps := st.tricks()
	v := games.View{Seat: s, Players: st.players, ToAct: st.ToAct(), Dealer: st.dealer, Game: st.game(s, ps)}
	if st.phase == phaseOver {
		v.Dealer = games.Nobody
	}
	if s != games.Nobody && st.looked[s] && st.phase != phaseOver {
		v.Hand = displayOrder(st.hands[s], st.trump)
	}
	v.Table = st.table(ps)
	if s != games.Nobody {
		v.Private = st.private(s)
		if slices.Contains(v.ToAct, s) {
			v.Prompt = st.prompt(s, ps)
		}
	}
	return v
}

// AgentView is View without the texts for people (Table, Private, Prompt), which agents never
// read and which cost most of a View (games.AgentViewer): a search builds thousands per decision.
func (st *state) AgentView(s games.Seat) games.View {
	if !seatOK(s, st.players) {
		s = games.Nobody
	}
	v := games.View{Seat: s, Players: st.players, ToAct: st.ToAct(), Dealer: st.dealer, Game: st.game(s, st.tricks())}
	if st.phase == phaseOver {
		v.Dealer = games.Nobody
	}
	if s != games.Nobody && st.looked[s] && st.phase != phaseOver {
		v.Hand = displayOrder(st.hands[s], st.trump)
	}
	return v
}

// displayOrder sorts a hand by suit, trumps first, each suit from its strongest card down.
func displayOrder(h cards.Set, trump cards.Suit) []cards.Card {
	cs := h.Cards()
	key := func(c cards.Card) int {
		k := int(c.Suit()) + 1
		if c.Suit() == trump {
			k = 0
		}
		return k*100 - Strength(c, trump)
	}
	slices.SortFunc(cs, func(a, b cards.Card) int { return key(a) - key(b) })
	return cs
}

// game is the View of s.
func (st *state) game(s games.Seat, ps playState) View {
	n := st.players
	d, bid := st.declarer()
	high, highSeat := st.high()
	g := View{
		Phase: st.phase.String(), Deal: st.deal, Dealer: st.dealer, Nanny: st.nanny(), SitOut: games.Nobody,
		Pack: len(st.pack()), Lenient: st.lenient,
		Looked: slices.Clone(st.looked[:n]), Passed: make([]bool, n), Calls: slices.Clone(st.callList()),
		High: high, HighSeat: highSeat, Declarer: d, Bid: bid, Stock: st.choice(),
		Trump: st.trump, Melds: slices.Clone(st.declared()), MeldPoints: st.meldPoints(),
		Trick: ps.trick, Tricks: ps.history, TrickCount: slices.Clone(ps.count[:n]),
		Scores: slices.Clone(st.scores[:n]),
	}
	for p := range g.Passed {
		g.Passed[p] = st.passed(games.Seat(p))
	}
	if st.sitOut {
		g.SitOut = st.dealer
	}
	if st.phase == phaseAuction {
		g.NextBid = st.nextBid()
	}
	if d != games.Nobody {
		g.Needed = bid + 10 - g.MeldPoints/10
	}
	if s != games.Nobody && s == d && st.phase != phaseOver {
		g.Took = st.took
		if !st.took.Empty() && st.phase != phaseDiscard {
			g.Laid = st.stock
		}
		if st.phase == phaseMelds {
			for _, c := range candidates(st.hands[s], st.trump) {
				g.Options = append(g.Options, c.Meld)
			}
		}
		g.StoekOpen = st.stoekOpen()
	}
	return g
}

// table is the group message (nasilie.md §Engine notes): deal, auction, contract, stock, trump,
// melds, trick, last trick, trick counts and the running score.
func (st *state) table(ps playState) []games.Msg {
	var t []games.Msg
	if st.phase == phaseOver {
		t = append(t, games.M("nasilie.t.over", "Seats", st.winners(), "Count", st.deal))
		return append(t, st.scoresMsg())
	}
	t = append(t, games.M("nasilie.t.deal", "N", st.deal, "Seat", st.dealer, "Nanny", st.nanny()))
	if st.sitOut {
		t = append(t, games.M("nasilie.t.sitout", "Seat", st.dealer))
	}
	if st.deal == 1 && st.phase == phaseAuction && st.nCalls == 0 {
		t = append(t, games.M("nasilie.t.firstdealer", "Seat", st.dealer, "Card", st.firstJack))
	}
	if st.nCalls > 0 {
		calls := make([]games.Msg, st.nCalls)
		for i, c := range st.callList() {
			calls[i] = callMsg(c)
		}
		t = append(t, games.M("nasilie.t.calls", "Calls", calls))
	}
	switch st.phase {
	case phaseAuction:
		var blind []games.Seat
		for p := range games.Seat(st.players) {
			if st.active(p) && !st.looked[p] && !st.passed(p) {
				blind = append(blind, p)
			}
		}
		if len(blind) > 0 {
			t = append(t, games.M("nasilie.t.unlooked", "Seats", blind))
		}
	case phaseNanny:
		t = append(t, games.M("nasilie.t.allpassed", "Seat", st.nanny()))
	}
	d, bid := st.declarer()
	if d == games.Nobody {
		return append(t, st.scoresMsg())
	}
	t = append(t, games.M("nasilie.t.contract", "Seat", d, "Contract", bidMsg(bid)))
	switch st.choice() {
	case "taken":
		t = append(t, games.M("nasilie.t.taken"))
	case "left":
		t = append(t, games.M("nasilie.t.left"))
	}
	if st.trump <= cards.Spades {
		t = append(t, games.M("nasilie.t.trump", "Suit", st.trump))
	}
	if st.nMelds > 0 {
		ms := make([]games.Msg, st.nMelds)
		for i, m := range st.declared() {
			ms[i] = meldMsg(m)
		}
		t = append(t, games.M("nasilie.t.melds", "Melds", ms, "N", st.meldPoints()))
	}
	if st.phase == phasePlay || st.phase == phaseMelds {
		t = append(t, games.M("nasilie.t.needed", "N", bid+10-st.meldPoints()/10))
	}
	if st.phase == phasePlay {
		if len(ps.trick) > 0 {
			t = append(t, games.M("nasilie.t.trick", "Plays", playsMsg(ps.trick)))
		}
		if len(ps.trick) == 0 && len(ps.history) > 0 {
			t = append(t, games.M("nasilie.t.lasttrick", "Plays", playsMsg(ps.history[len(ps.history)-1]), "Seat", ps.last))
		}
		var counts []games.Msg
		for p := range games.Seat(st.players) {
			if st.active(p) {
				counts = append(counts, games.M("nasilie.t.tricksof", "Seat", p, "Count", ps.count[p]))
			}
		}
		t = append(t, games.M("nasilie.t.tricks", "List", counts))
	}
	return append(t, st.scoresMsg())
}

// scoresMsg is the running game points of everybody.
func (st *state) scoresMsg() games.Msg {
	list := make([]games.Msg, st.players)
	for p, v := range st.scores[:st.players] {
		list[p] = games.M("nasilie.t.scoreof", "Seat", games.Seat(p), "N", v)
	}
	return games.M("nasilie.t.scores", "List", list, "N", Target)
}

// callMsg is one call of the auction as the table lists it.
func callMsg(c Call) games.Msg {
	switch c.Bid {
	case 0:
		return games.M("nasilie.call.pass", "Seat", c.Seat)
	case 2:
		return games.M("nasilie.call.blind", "Seat", c.Seat)
	}
	return games.M("nasilie.call.bid", "Seat", c.Seat, "N", c.Bid)
}

// bidMsg names a contract: a bid, the blind 2 or the nanny's forced 1.
func bidMsg(bid int) games.Msg {
	switch bid {
	case 1:
		return games.M("nasilie.c.forced", "Points", 110)
	case 2:
		return games.M("nasilie.c.blind", "Points", 120)
	}
	return games.M("nasilie.c.bid", "N", bid, "Points", (bid+10)*10)
}

// meldMsg shows one declared meld with its cards, e.g. "run of 3: J♥ Q♥ K♥ (20)".
func meldMsg(m Meld) games.Msg {
	switch {
	case isRun(m.Kind):
		return games.M("nasilie.meld.run", "Count", m.Cards.Len(), "Cards", m.Cards.Cards(), "Points", MeldPoints(m.Kind))
	case m.Kind == Stoek:
		return games.M("nasilie.meld.stoek", "Cards", m.Cards.Cards(), "Points", MeldPoints(m.Kind))
	}
	return games.M("nasilie.meld.four", "Cards", m.Cards.Cards(), "Points", MeldPoints(m.Kind))
}

// playsMsg lists the cards of a trick with who played them.
func playsMsg(ps []Play) []games.Msg {
	out := make([]games.Msg, len(ps))
	for i, p := range ps {
		out[i] = games.M("nasilie.t.played", "Seat", p.Seat, "Card", p.Card)
	}
	return out
}

// private is what only s knows besides the hand.
func (st *state) private(s games.Seat) []games.Msg {
	var out []games.Msg
	if st.phase == phaseOver {
		return nil
	}
	if !st.looked[s] && st.active(s) {
		out = append(out, games.M("nasilie.v.hidden"))
	}
	if d, _ := st.declarer(); s == d && !st.took.Empty() {
		out = append(out, games.M("nasilie.v.took", "Cards", st.took.Cards()))
		if st.phase != phaseDiscard {
			out = append(out, games.M("nasilie.v.laid", "Cards", st.stock.Cards()))
		}
	}
	return out
}

// prompt is the question for s, who is to act.
func (st *state) prompt(s games.Seat, ps playState) games.Msg {
	switch st.phase {
	case phaseAuction:
		if !st.looked[s] {
			if h, _ := st.high(); h == 0 {
				return games.M("nasilie.p.lookblind")
			}
			return games.M("nasilie.p.look")
		}
		if b := st.nextBid(); b > 0 {
			return games.M("nasilie.p.bid", "N", b, "Points", (b+10)*10)
		}
		return games.M("nasilie.p.pass")
	case phaseNanny:
		return games.M("nasilie.p.nanny")
	case phaseStock:
		_, bid := st.declarer()
		return games.M("nasilie.p.stock", "Contract", bidMsg(bid))
	case phaseDiscard:
		return games.M("nasilie.p.discard", "Count", stockSize-st.stock.Len())
	case phaseTrump:
		return games.M("nasilie.p.trump")
	case phaseMelds:
		cands := candidates(st.hands[s], st.trump)
		var opts []games.Msg
		for _, i := range st.available() {
			opts = append(opts, games.M("nasilie.p.meldopt", "N", i+1, "Meld", meldMsg(cands[i].Meld)))
		}
		if len(opts) == 0 {
			return games.M("nasilie.p.nomelds")
		}
		return games.M("nasilie.p.melds", "Options", opts)
	}
	if len(ps.trick) == 0 {
		return games.M("nasilie.p.lead")
	}
	return games.M("nasilie.p.follow", "Card", ps.trick[0].Card)
}

// Totals are the match totals, Score().Totals without the sheet (games.Totaler).
func (st *state) Totals() []int { return slices.Clone(st.scores[:st.players]) }

// Score is the sheet: a row per deal with the running totals, the declarer's change marked.
func (st *state) Score() games.Sheet {
	n := st.players
	sh := games.Sheet{Totals: st.Totals(), Winners: st.winners()}
	run := make([]int, n)
	for _, r := range st.rows {
		d := r.seat()
		pts := make([]int, n)
		pts[d] = r[rowResult]
		run[d] += r[rowResult]
		cells := make([]string, n)
		for p := range cells {
			cells[p] = strconv.Itoa(run[p])
		}
		cells[d] = strconv.Itoa(run[d]) + " (" + signed(r[rowResult]) + ")"
		var label games.Msg
		if r[rowFlags]&flagDeclined != 0 {
			label = games.M("nasilie.s.declined", "N", r[rowDeal], "Seat", d)
		} else {
			label = games.M("nasilie.s.deal", "N", r[rowDeal], "Seat", d, "Contract", bidMsg(r[rowBid]),
				"Left", r[rowFlags]&flagLeft != 0, "Reached", r[rowReached], "Needed", r[rowNeeded])
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: label, Cells: cells, Points: pts})
	}
	if st.maxDeals == 0 {
		sh.Notes = []games.Msg{games.M("nasilie.s.target100", "N", Target)}
	} else {
		sh.Notes = []games.Msg{games.M("nasilie.s.target", "N", Target, "Count", st.maxDeals)}
	}
	return sh
}

// signed writes n with its sign: "+3", "−12", "0".
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}
