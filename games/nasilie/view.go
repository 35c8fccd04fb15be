package nasilie

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Game is View.Game: the structured facts an agent reads. It holds exactly what the seat knows:
// the public deal, and for the seat itself its own private facts (never other hands).
type Game struct {
	Phase      string       // auction, nanny, stock, discard, trump, melds, play, over
	Deal       int          // 1-based deal number
	Dealer     games.Seat   // dealer of this deal
	Nanny      games.Seat   // the dealer's left: speaks first, must play 1 if everybody passes
	SitOut     games.Seat   // the dealer in the five-player 32-card form, else Nobody
	Pack       int          // 32 or 52 cards
	Lenient    bool         // the lenient following rule (may trump at any time)
	Looked     []bool       // per seat: has looked at his cards
	Passed     []bool       // per seat: has passed in this auction
	Calls      []Call       // the auction so far; Bid 0 is a pass, 2 the blind bid
	High       int          // the highest bid so far, 0 if none
	HighSeat   games.Seat   // who made it
	NextBid    int          // the one bid that may be made now, 0 if none
	Declarer   games.Seat   // Nobody before the auction ends
	Bid        int          // the contract: 1 forced, 2 blind, 3…
	Stock      string       // "", "taken" or "left" (doubled)
	Trump      cards.Suit   // NoSuit until named
	Melds      []Meld       // declared melds, public
	MeldPoints int          // their value
	Needed     int          // game points the declarer needs (bid + 10 − melds/10)
	Trick      []Play       // the trick on the table
	Tricks     [][]Play     // the completed tricks of this deal, in order
	TrickCount []int        // tricks won per seat
	Scores     []int        // game points per seat
	Options    []Meld       // the declarer's meld/N choices in the meld phase: meld/N is Options[N-1]
	Took       []cards.Card // the declarer's own view of the stock he took
	Laid       []cards.Card // the declarer's laid-away cards
	StoekOpen  bool         // the declarer may still declare stoek with the trump K or Q
}

// View is what s may know (nasilie.md §Engine notes): public table, own hand once looked at.
func (st *state) View(s games.Seat) games.View {
	if !seatOK(s, st.Players) {
		s = games.Nobody
	}
	ps := st.played()
	v := games.View{Seat: s, Players: st.Players, ToAct: st.ToAct(), Dealer: st.Dealer, Game: st.game(s, ps)}
	if st.Phase == phaseOver {
		v.Dealer = games.Nobody
	}
	if s != games.Nobody && st.Looked[s] && st.Phase != phaseOver {
		v.Hand = displayOrder(st.Hands[s], st.Trump)
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

func (st *state) game(s games.Seat, ps playState) Game {
	g := Game{
		Phase: st.Phase, Deal: st.Deal, Dealer: st.Dealer, Nanny: st.nanny(), SitOut: games.Nobody,
		Pack: len(st.pack()), Lenient: st.Lenient,
		Looked: slices.Clone(st.Looked), Passed: slices.Clone(st.Passed), Calls: slices.Clone(st.Calls),
		High: st.High, HighSeat: st.HighSeat, Declarer: st.Declarer, Bid: st.Bid,
		Trump: st.Trump, Melds: slices.Clone(st.Declared), MeldPoints: st.meldPoints(),
		Trick: ps.trick, Tricks: ps.history, TrickCount: ps.count, Scores: slices.Clone(st.Scores),
	}
	if st.SitOut {
		g.SitOut = st.Dealer
	}
	if st.Phase == phaseAuction {
		g.NextBid = st.nextBid()
	}
	switch st.StockState {
	case stockTaken:
		g.Stock = "taken"
	case stockLeft:
		g.Stock = "left"
	}
	if st.Declarer != games.Nobody {
		g.Needed = st.Bid + 10 - g.MeldPoints/10
	}
	if s != games.Nobody && s == st.Declarer && st.Phase != phaseOver {
		if st.StockState == stockTaken {
			g.Took = st.Took.Cards()
			if st.Phase != phaseDiscard {
				g.Laid = st.Stock.Cards()
			}
		}
		if st.Phase == phaseMelds {
			for _, c := range candidates(st.Hands[s], st.Trump) {
				g.Options = append(g.Options, c.Meld)
			}
		}
		g.StoekOpen = st.StoekOpen
	}
	return g
}

// table is the group message (nasilie.md §Engine notes): deal, auction, contract, stock, trump,
// melds, trick, last trick, trick counts and the running score.
func (st *state) table(ps playState) []games.Msg {
	var t []games.Msg
	if st.Phase == phaseOver {
		t = append(t, games.M("nasilie.t.over", "Seats", st.Winners, "Count", st.Deal))
		return append(t, st.scoresMsg())
	}
	t = append(t, games.M("nasilie.t.deal", "N", st.Deal, "Seat", st.Dealer, "Nanny", st.nanny()))
	if st.SitOut {
		t = append(t, games.M("nasilie.t.sitout", "Seat", st.Dealer))
	}
	if st.Deal == 1 && st.Phase == phaseAuction && len(st.Calls) == 0 {
		t = append(t, games.M("nasilie.t.firstdealer", "Seat", st.Dealer, "Card", st.FirstJack))
	}
	if len(st.Calls) > 0 {
		calls := make([]games.Msg, len(st.Calls))
		for i, c := range st.Calls {
			calls[i] = callMsg(c)
		}
		t = append(t, games.M("nasilie.t.calls", "Calls", calls))
	}
	switch st.Phase {
	case phaseAuction:
		var blind []games.Seat
		for p := range games.Seat(st.Players) {
			if st.active(p) && !st.Looked[p] && !st.Passed[p] {
				blind = append(blind, p)
			}
		}
		if len(blind) > 0 {
			t = append(t, games.M("nasilie.t.unlooked", "Seats", blind))
		}
	case phaseNanny:
		t = append(t, games.M("nasilie.t.allpassed", "Seat", st.nanny()))
	}
	if st.Declarer == games.Nobody {
		return append(t, st.scoresMsg())
	}
	t = append(t, games.M("nasilie.t.contract", "Seat", st.Declarer, "Contract", st.contractMsg()))
	switch st.StockState {
	case stockTaken:
		t = append(t, games.M("nasilie.t.taken"))
	case stockLeft:
		t = append(t, games.M("nasilie.t.left"))
	}
	if st.Trump <= cards.Spades {
		t = append(t, games.M("nasilie.t.trump", "Suit", st.Trump))
	}
	if len(st.Declared) > 0 {
		ms := make([]games.Msg, len(st.Declared))
		for i, m := range st.Declared {
			ms[i] = meldMsg(m)
		}
		t = append(t, games.M("nasilie.t.melds", "Melds", ms, "N", st.meldPoints()))
	}
	if st.Phase == phasePlay || st.Phase == phaseMelds {
		t = append(t, games.M("nasilie.t.needed", "N", st.Bid+10-st.meldPoints()/10))
	}
	if st.Phase == phasePlay {
		if len(ps.trick) > 0 {
			t = append(t, games.M("nasilie.t.trick", "Plays", playsMsg(ps.trick)))
		}
		if len(ps.trick) == 0 && len(ps.history) > 0 {
			t = append(t, games.M("nasilie.t.lasttrick", "Plays", playsMsg(ps.history[len(ps.history)-1]), "Seat", ps.last))
		}
		var counts []games.Msg
		for p := range games.Seat(st.Players) {
			if st.active(p) {
				counts = append(counts, games.M("nasilie.t.tricksof", "Seat", p, "Count", ps.count[p]))
			}
		}
		t = append(t, games.M("nasilie.t.tricks", "List", counts))
	}
	return append(t, st.scoresMsg())
}

func (st *state) scoresMsg() games.Msg {
	list := make([]games.Msg, st.Players)
	for p, v := range st.Scores {
		list[p] = games.M("nasilie.t.scoreof", "Seat", games.Seat(p), "N", v)
	}
	return games.M("nasilie.t.scores", "List", list, "N", Target)
}

func callMsg(c Call) games.Msg {
	switch c.Bid {
	case 0:
		return games.M("nasilie.call.pass", "Seat", c.Seat)
	case 2:
		return games.M("nasilie.call.blind", "Seat", c.Seat)
	}
	return games.M("nasilie.call.bid", "Seat", c.Seat, "N", c.Bid)
}

// contractMsg names the contract: a bid, the blind 2 or the nanny's forced 1.
func (st *state) contractMsg() games.Msg {
	return bidMsg(st.Bid)
}

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
		return games.M("nasilie.meld.run", "Count", len(m.Cards), "Cards", m.Cards, "Points", MeldPoints(m.Kind))
	case m.Kind == Stoek:
		return games.M("nasilie.meld.stoek", "Cards", m.Cards, "Points", MeldPoints(m.Kind))
	}
	return games.M("nasilie.meld.four", "Cards", m.Cards, "Points", MeldPoints(m.Kind))
}

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
	if st.Phase == phaseOver {
		return nil
	}
	if !st.Looked[s] && st.active(s) {
		out = append(out, games.M("nasilie.v.hidden"))
	}
	if s == st.Declarer && st.StockState == stockTaken {
		out = append(out, games.M("nasilie.v.took", "Cards", st.Took.Cards()))
		if st.Phase != phaseDiscard {
			out = append(out, games.M("nasilie.v.laid", "Cards", st.Stock.Cards()))
		}
	}
	return out
}

// prompt is the question for s, who is to act.
func (st *state) prompt(s games.Seat, ps playState) games.Msg {
	switch st.Phase {
	case phaseAuction:
		if !st.Looked[s] {
			if st.High == 0 {
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
		return games.M("nasilie.p.stock", "Contract", st.contractMsg())
	case phaseDiscard:
		return games.M("nasilie.p.discard", "Count", 4-st.Stock.Len())
	case phaseTrump:
		return games.M("nasilie.p.trump")
	case phaseMelds:
		cands := candidates(st.Hands[s], st.Trump)
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

// Score is the sheet: a row per deal with the running totals, the declarer's change marked.
func (st *state) Score() games.Sheet {
	sh := games.Sheet{Totals: slices.Clone(st.Scores), Winners: slices.Clone(st.Winners)}
	run := make([]int, st.Players)
	for _, r := range st.Rows {
		d := r.seat()
		pts := make([]int, st.Players)
		pts[d] = r[rowResult]
		run[d] += r[rowResult]
		cells := make([]string, st.Players)
		for p := range cells {
			cells[p] = itoa(run[p])
		}
		cells[d] = itoa(run[d]) + " (" + signed(r[rowResult]) + ")"
		var label games.Msg
		if r[rowFlags]&flagDeclined != 0 {
			label = games.M("nasilie.s.declined", "N", r[rowDeal], "Seat", d)
		} else {
			label = games.M("nasilie.s.deal", "N", r[rowDeal], "Seat", d, "Contract", bidMsg(r[rowBid]),
				"Left", r[rowFlags]&flagLeft != 0, "Reached", r[rowReached], "Needed", r[rowNeeded])
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: label, Cells: cells, Points: pts})
	}
	if st.MaxDeals == 0 {
		sh.Notes = []games.Msg{games.M("nasilie.s.target100", "N", Target)}
	} else {
		sh.Notes = []games.Msg{games.M("nasilie.s.target", "N", Target, "Count", st.MaxDeals)}
	}
	return sh
}
