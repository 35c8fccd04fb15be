package nasilie

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// events collects what Apply reports.
type events []games.Event

func (e *events) info(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: m})
}
func (e *events) private(s games.Seat, m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventInfo, To: s, Msg: m})
}
func (e *events) dealEnd(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: m})
}
func (e *events) matchEnd(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: m})
}

// Apply checks a against Legal, applies it to a copy and runs what follows automatically: the end
// of the auction, collecting tricks, scoring, the next deal (nasilie.md §Bidding … §End of the game).
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("nasilie: seat %d %v: %w", s, a, err)
	}
	ns := st.clone()
	var ev events
	switch st.Phase {
	case phaseAuction:
		ns.auction(s, a, &ev)
	case phaseNanny:
		if a.Kind == "decline" {
			ns.decline(&ev)
		} else {
			ev.info(games.M("nasilie.e.playone", "Seat", s))
			ns.contract(s, 1)
		}
	case phaseStock:
		if a.Kind == "take" {
			ns.StockState, ns.Took = stockTaken, ns.Stock
			ns.Hands[s] = ns.Hands[s].Union(ns.Stock)
			ns.Stock = 0
			ns.Phase = phaseDiscard
			ev.info(games.M("nasilie.e.take", "Seat", s))
			ev.private(s, games.M("nasilie.e.took", "Cards", ns.Took.Cards()))
		} else {
			ns.StockState = stockLeft
			ns.Phase = phaseTrump
			ev.info(games.M("nasilie.e.leave", "Seat", s))
		}
	case phaseDiscard:
		ns.Hands[s] = ns.Hands[s].Remove(a.Card)
		ns.Stock = ns.Stock.Add(a.Card)
		if ns.Stock.Len() == 4 {
			ns.Phase = phaseTrump
			ev.info(games.M("nasilie.e.laid", "Seat", s))
		}
	case phaseTrump:
		ns.Trump = trumpOf(a.Kind)
		q, k := cards.French(ns.Trump, cards.Queen), cards.French(ns.Trump, cards.King)
		// N-STOEK: both cards in hand after the exchange.
		ns.StoekOpen = ns.Hands[s].Has(q) && ns.Hands[s].Has(k)
		ns.Phase = phaseMelds
		ev.info(games.M("nasilie.e.trump", "Seat", s, "Suit", ns.Trump))
	case phaseMelds:
		ns.melds(s, a, &ev)
	case phasePlay:
		ns.play(s, a, &ev)
	}
	return ns, ev, nil
}

// auction applies a call (nasilie.md §Bidding).
func (st *state) auction(s games.Seat, a games.Action, ev *events) {
	switch a.Kind {
	case "look":
		st.Looked[s] = true
		return
	case "blind":
		st.High, st.HighSeat = 2, s
		st.Calls = append(st.Calls, Call{s, 2})
		ev.info(games.M("nasilie.e.blind", "Seat", s))
	case "bid":
		st.High, st.HighSeat = int(a.N), s
		st.Calls = append(st.Calls, Call{s, int(a.N)})
		ev.info(games.M("nasilie.e.bid", "Seat", s, "N", int(a.N)))
	case "pass":
		st.Passed[s] = true
		st.Calls = append(st.Calls, Call{s, 0})
		ev.info(games.M("nasilie.e.pass", "Seat", s))
	}
	left := 0
	for p := range games.Seat(st.Players) {
		if st.active(p) && !st.Passed[p] {
			left++
		}
	}
	switch {
	case left == 0:
		// N-NANNY: everybody passed; the nanny must choose, even after her own pass.
		st.Phase = phaseNanny
		ev.info(games.M("nasilie.e.allpassed", "Seat", st.nanny()))
	case left == 1 && st.High > 0:
		st.contract(st.HighSeat, st.High)
	default:
		p := st.next(s)
		for st.Passed[p] {
			p = st.next(p)
		}
		st.Turn = p
	}
}

// contract starts the declarer's game (nasilie.md §After the auction): a blind declarer sees his
// hand now, then decides on the stock.
func (st *state) contract(s games.Seat, bid int) {
	st.Declarer, st.Bid = s, bid
	st.Looked[s] = true
	st.Phase = phaseStock
}

// decline ends the deal with the nanny's −10 (N-NANNY).
func (st *state) decline(ev *events) {
	s := st.nanny()
	o := ScoreHand(Hand{NannyDeclined: true})
	st.Scores[s] += o.Result
	st.Rows = append(st.Rows, row{rowDeal: st.Deal, rowSeat: int(s), rowFlags: flagDeclined, rowResult: o.Result})
	ev.dealEnd(games.M("nasilie.e.declined", "N", st.Deal, "Seat", s, "Total", st.Scores[s]))
	st.endDeal(s, ev)
}

// melds applies a declaration before the first lead (nasilie.md §Declaring melds and trump).
func (st *state) melds(s games.Seat, a games.Action, ev *events) {
	cands := candidates(st.Hands[s], st.Trump)
	switch a.Kind {
	case "meld":
		st.declare(s, cands[a.N-1].Meld, ev)
		return
	case "all":
		for _, c := range cands {
			if c.full && st.declarable(c) {
				st.declare(s, c.Meld, ev)
			}
		}
	}
	st.Phase = phasePlay
	st.Turn = s
	ev.info(games.M("nasilie.e.melded", "Seat", s, "N", st.meldPoints()))
}

func (st *state) declare(s games.Seat, m Meld, ev *events) {
	st.Declared = append(st.Declared, m)
	if m.Kind == Stoek {
		st.StoekOpen = false
	}
	ev.info(games.M("nasilie.e.meld", "Seat", s, "Meld", meldMsg(m)))
}

// play applies a card (nasilie.md §Play), collects a full trick and scores the seventh.
func (st *state) play(s games.Seat, a games.Action, ev *events) {
	if a.Kind == "stoek" {
		// N-STOEK: declared as the trump K or Q is played; the partner card is shown if held.
		st.declare(s, Meld{Stoek, []cards.Card{cards.French(st.Trump, cards.Queen), cards.French(st.Trump, cards.King)}}, ev)
	}
	st.Hands[s] = st.Hands[s].Remove(a.Card)
	st.Plays = append(st.Plays, byte(a.Card))
	n := st.inPlay()
	if len(st.Plays)%n != 0 {
		st.Turn = st.next(s)
		return
	}
	ps := st.played()
	w := ps.last
	st.Turn = w
	played := make([]cards.Card, n)
	for i, p := range ps.history[len(ps.history)-1] {
		played[i] = p.Card
	}
	ev.info(games.M("nasilie.e.trick", "Seat", w, "Cards", played))
	if len(ps.history) == 7 {
		st.score(ps, ev)
	}
}

// score ends a played deal (nasilie.md §Scoring).
func (st *state) score(ps playState, ev *events) {
	d := st.Declarer
	o := ScoreHand(Hand{
		Bid:         st.Bid,
		TrickPoints: SetPoints(ps.won[d], st.Trump),
		LastTrick:   ps.last == d,
		Tricks:      ps.count[d],
		MeldPoints:  st.meldPoints(),
		StockUsed:   st.StockState == stockTaken,
	})
	st.Scores[d] += o.Result
	flags := 0
	if st.StockState == stockLeft {
		flags = flagLeft
	}
	st.Rows = append(st.Rows, row{rowDeal: st.Deal, rowSeat: int(d), rowBid: st.Bid, rowFlags: flags,
		rowReached: o.Achieved, rowNeeded: o.Needed, rowResult: o.Result})
	ev.dealEnd(games.M("nasilie.e.result", "N", st.Deal, "Seat", d, "Contract", st.contractMsg(),
		"Count", ps.count[d], "Points", o.CardPoints, "Reached", o.Achieved, "Needed", o.Needed))
	switch {
	case ps.count[d] == 7:
		ev.dealEnd(games.M("nasilie.e.alltricks"))
	case ps.count[d] == 0:
		ev.dealEnd(games.M("nasilie.e.notrick"))
	}
	if st.StockState == stockLeft {
		ev.dealEnd(games.M("nasilie.e.doubled"))
	}
	ev.dealEnd(games.M("nasilie.e.change", "Seat", d, "N", o.Result, "Total", st.Scores[d]))
	// nasilie.md §After the auction 5: the laid-away cards or the untouched stock are shown.
	if st.StockState == stockTaken {
		ev.dealEnd(games.M("nasilie.e.showlaid", "Seat", d, "Cards", st.Stock.Cards()))
	} else {
		ev.dealEnd(games.M("nasilie.e.showstock", "Cards", st.Stock.Cards()))
	}
	st.endDeal(d, ev)
}

// endDeal ends the match when s reached the target (nasilie.md §End of the game) or the deal limit
// is reached, and deals the next deal otherwise.
func (st *state) endDeal(s games.Seat, ev *events) {
	switch {
	case st.Scores[s] >= Target:
		st.Winners = []games.Seat{s}
		st.Phase = phaseOver
		ev.matchEnd(games.M("nasilie.e.winner", "Seat", s, "N", st.Scores[s]))
	case st.MaxDeals > 0 && st.Deal >= st.MaxDeals:
		best := st.Scores[0]
		for _, v := range st.Scores {
			best = max(best, v)
		}
		st.Winners = nil
		for p, v := range st.Scores {
			if v == best {
				st.Winners = append(st.Winners, games.Seat(p))
			}
		}
		st.Phase = phaseOver
		ev.matchEnd(games.M("nasilie.e.limit", "Seats", st.Winners, "N", best, "Count", st.Deal))
	default:
		st.Deal++
		st.Dealer = (st.Dealer + 1) % games.Seat(st.Players)
		st.deal()
		ev.info(games.M("nasilie.e.newdeal", "N", st.Deal, "Seat", st.Dealer))
	}
}
