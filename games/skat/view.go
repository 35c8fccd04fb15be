package skat

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is Skat's structured view, what agents read (games.View.Game): the same knowledge as the
// rest of the games.View, nothing hidden from its seat.
type View struct {
	Phase    string        // auction, choice, skat, discard, game, announce, play, over
	Deal     int           // 1-based number of the deal
	Deals    int           // deals in the match
	Seats    [3]games.Seat // forehand, middlehand, rearhand of this deal
	Role     Role          // the viewer's role, -1 for the sitting-out dealer and the public
	Variant  Variant       // the rules this table plays
	Bids     []int         // the legal bid values (§4.4)
	Auction  Auction       // the auction so far
	Bidding  []Call        // every auction call in order
	Declarer games.Seat    // Nobody before the auction ends and in Ramsch
	Bid      int           // the bid the declarer must reach
	Taken    bool          // the declarer picked up the skat
	Contract Contract      // the game, once named (Kind NoKind before)
	Skat     []cards.Card  // the declarer's own view of the picked-up skat, else nil
	Laid     []cards.Card  // the declarer's own view of the laid-away cards, else nil
	Open     []cards.Card  // the declarer's remaining cards in an open game
	Leader   games.Seat    // who led the current trick
	Trick    []cards.Card  // the current trick in playing order from Leader
	Tricks   []Trick       // the finished tricks of this deal
	HandSize []int         // cards in each seat's hand
	Totals   []int         // running totals per seat
}

// Call is one auction call: a bid of N, hold or pass.
type Call struct {
	Seat games.Seat
	Kind string // bid, hold, pass
	N    int
}

// Trick is a finished trick: cards in playing order from Leader, and who won it.
type Trick struct {
	Leader games.Seat
	Cards  []cards.Card
	Winner games.Seat
}

// knowsSkat reports whether s may see the cards in the skat zone: only the declarer who took it.
func (st *state) knowsSkat(s games.Seat) bool {
	return s != games.Nobody && s == st.Declarer && st.Taken
}

// openHand reports whether the declarer's cards are face up (§5.1).
func (st *state) openHand() bool {
	return st.Phase == phPlay && st.Contract.Open && st.Declarer != games.Nobody
}

// View is what s may know (§5.1): its hand, the public table, the skat it picked up. A seat
// that is not at the table (Nobody, or out of range) sees only what the public sees.
func (st *state) View(s games.Seat) games.View {
	v := st.AgentView(s)
	v.Table = st.table()
	if s >= 0 && int(s) < st.players() {
		if st.knowsSkat(s) && st.Phase != phOver {
			v.Private = append(v.Private, games.M("skat.private.skat", "Cards", SortHand(NoKind, st.Skat0)))
			if !st.Skat.Empty() {
				v.Private = append(v.Private, games.M("skat.private.laid",
					"Cards", SortHand(st.Contract.Kind, st.Skat)))
			}
		}
		if slices.Contains(v.ToAct, s) {
			v.Prompt = st.prompt()
		}
	}
	return v
}

// AgentView is View without the texts for people (games.AgentViewer): the hand and the
// structured View an agent reads, which a search builds thousands of times per decision.
func (st *state) AgentView(s games.Seat) games.View {
	v := games.View{Seat: s, Players: st.players(), ToAct: st.ToAct(), Dealer: st.Dealer, Game: st.view(s)}
	if s >= 0 && int(s) < st.players() {
		v.Hand = SortHand(st.Contract.Kind, st.Hands[s])
	}
	return v
}

// view is the structured View of s.
func (st *state) view(s games.Seat) View {
	g := View{Phase: phaseNames[st.Phase], Deal: st.Deal, Deals: st.Cfg.Deals, Role: st.role(s),
		Variant: st.Cfg.Variant, Bids: slices.Clone(st.bidValues()), Auction: st.Auction,
		Bidding: slices.Clone(st.Calls), Declarer: st.Declarer, Bid: st.Bid, Taken: st.Taken,
		Contract: st.Contract, Leader: st.Leader, Trick: st.trickCards(),
		Totals: slices.Clone(st.Totals[:st.players()])}
	for r := Forehand; r <= Rearhand; r++ {
		g.Seats[r] = st.seat(r)
	}
	for _, t := range st.tricks() {
		g.Tricks = append(g.Tricks, Trick{Leader: t.Leader, Cards: slices.Clone(t.Cards[:]), Winner: t.Winner})
	}
	for _, h := range st.Hands[:st.players()] {
		g.HandSize = append(g.HandSize, h.Len())
	}
	if st.knowsSkat(s) {
		g.Skat = SortHand(NoKind, st.Skat0)
		g.Laid = SortHand(st.Contract.Kind, st.Skat)
	}
	if st.openHand() {
		g.Open = SortHand(st.Contract.Kind, st.Hands[st.Declarer])
	}
	return g
}

// plays lists the cards of a trick with who played each.
func (st *state) plays(leader games.Seat, cs []cards.Card) []games.Msg {
	out := make([]games.Msg, len(cs))
	for i, c := range cs {
		out[i] = games.M("skat.play", "Seat", st.player(leader, i), "Card", c)
	}
	return out
}

// table is the group's table message (§5.1: everything public).
func (st *state) table() []games.Msg {
	t := []games.Msg{games.M("skat.deal", "N", st.Deal, "Total", st.Cfg.Deals, "Seat", st.Dealer)}
	if st.Cfg.Players == 4 {
		// skat.md §1: with four players the dealer sits out.
		t = append(t, games.M("skat.sitsout", "Seat", st.Dealer))
	}
	t = append(t, games.M("skat.roles", "F", st.seat(Forehand), "M", st.seat(Middlehand), "R", st.seat(Rearhand)))
	switch {
	case st.Phase == phOver:
		w := st.winners()
		return append(t, games.M("skat.over", "Seats", w, "Count", len(w)),
			games.M("skat.totals", "Items", st.totalsMsgs()))
	case st.Phase == phAuction:
		if len(st.Calls) == 0 {
			t = append(t, games.M("skat.auction.start", "Seat", st.seat(Middlehand)))
		} else {
			var calls []games.Msg
			for _, c := range st.Calls {
				calls = append(calls, games.M("skat.call."+c.Kind, "Seat", c.Seat, "N", c.N))
			}
			t = append(t, games.M("skat.auction", "Calls", calls, "N", st.Auction.Highest))
		}
	case st.Phase == phChoice:
		t = append(t, games.M("skat.alone", "Seat", st.seat(Forehand)))
	case st.Contract.Kind == Ramsch:
		t = append(t, games.M("skat.ramschgame"))
	default:
		t = append(t, games.M("skat.declarer", "Seat", st.Declarer, "N", st.Bid))
		switch {
		case st.Taken:
			t = append(t, games.M("skat.pickedup", "Seat", st.Declarer))
		case st.Phase > phSkat:
			t = append(t, games.M("skat.handgame", "Seat", st.Declarer))
		}
		if st.Phase == phPlay {
			t = append(t, contractMsg(st.Contract))
		}
	}
	if st.openHand() {
		t = append(t, games.M("skat.opencards", "Seat", st.Declarer,
			"Cards", SortHand(st.Contract.Kind, st.Hands[st.Declarer])))
	}
	for i, tr := range st.tricks() {
		t = append(t, games.M("skat.done", "N", i+1, "Leader", tr.Leader, "Cards", slices.Clone(tr.Cards[:]),
			"Seat", tr.Winner))
	}
	if st.Phase == phPlay {
		if st.played() == 0 {
			t = append(t, games.M("skat.lead", "N", st.Done+1, "Seat", st.Leader))
		} else {
			t = append(t, games.M("skat.trick", "N", st.Done+1, "Plays", st.plays(st.Leader, st.trickCards())))
		}
		var won []games.Msg
		for r := Forehand; r <= Rearhand; r++ {
			s, n := st.seat(r), 0
			for _, tr := range st.tricks() {
				if tr.Winner == s {
					n++
				}
			}
			won = append(won, games.M("skat.tricksof", "Seat", s, "Count", n))
		}
		t = append(t, games.M("skat.tricks", "Items", won))
	}
	return append(t, games.M("skat.totals", "Items", st.totalsMsgs()))
}

// prompt is the question for the seat to act.
func (st *state) prompt() games.Msg {
	a := st.Auction
	switch st.Phase {
	case phAuction:
		if a.Turn == a.Holder {
			return games.M("skat.prompt.answer", "N", a.Highest, "Seat", st.seat(a.Bidder))
		}
		if a.Highest == 0 {
			return games.M("skat.prompt.open", "Seat", st.seat(a.Holder))
		}
		return games.M("skat.prompt.bid", "N", a.Highest, "Seat", st.seat(a.Holder))
	case phChoice:
		if st.Cfg.Variant.RamschMandatory {
			return games.M("skat.prompt.alone.mandatory")
		}
		return games.M("skat.prompt.alone")
	case phSkat:
		return games.M("skat.prompt.skat", "N", st.Bid)
	case phDiscard:
		return games.M("skat.prompt.discard", "Count", 2-st.Skat.Len())
	case phGame:
		if st.Taken {
			return games.M("skat.prompt.game.taken", "N", st.Bid)
		}
		return games.M("skat.prompt.game", "N", st.Bid)
	case phAnnounce:
		return games.M("skat.prompt.announce", "Game", games.M("skat.game."+st.Contract.Kind.String()))
	case phPlay:
		if st.played() == 0 {
			return games.M("skat.prompt.lead")
		}
		return games.M("skat.prompt.follow", "Card", st.Trick[0])
	}
	return games.Msg{}
}
