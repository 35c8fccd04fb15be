package skat

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

func info(id string, kv ...any) games.Event {
	return games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: games.M(id, kv...)}
}

// Apply checks a against Legal, then performs it and every automatic step after it: collecting
// a trick, settling the deal, dealing the next one.
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("skat: deal %d seat %d %v: %w", st.Deal, s, a, err)
	}
	n := *st
	var evs []games.Event
	switch n.Phase {
	case phAuction:
		evs = n.call(s, a)
	case phChoice:
		evs = n.choose(s, a)
	case phSkat:
		evs = n.pickUp(s, a)
	case phDiscard:
		// §5: lay away any two cards face down.
		n.Hands[s] = n.Hands[s].Remove(a.Card)
		n.Skat = n.Skat.Add(a.Card)
		if n.Skat.Len() == 2 {
			n.Phase = phGame
			evs = append(evs, info("skat.ev.discarded", "Seat", s))
		}
	case phGame:
		evs = n.name(a)
	case phAnnounce:
		for _, c := range Announcements(n.Cfg.Variant, n.Contract.Kind, !n.Taken) {
			if AnnounceAction(c) == a {
				n.Contract = c
			}
		}
		evs = n.declared()
	case phPlay:
		evs = n.play(s, a.Card)
	}
	return &n, evs, nil
}

// call is one auction call (§4).
func (st *state) call(s games.Seat, a games.Action) []games.Event {
	auc, _ := st.Auction.Call(st.bidValues(), st.role(s), a) // legality was checked by Apply
	st.Auction = auc
	st.Calls = appended(st.Calls, Call{Seat: s, Kind: a.Kind, N: int(a.N)})
	var evs []games.Event
	switch a.Kind {
	case "bid":
		evs = append(evs, info("skat.ev.bid", "Seat", s, "N", int(a.N)))
	case "hold":
		evs = append(evs, info("skat.ev.hold", "Seat", s, "N", auc.Highest))
	default:
		evs = append(evs, info("skat.ev.pass", "Seat", s))
	}
	switch {
	case auc.ForehandAlone():
		st.Phase = phChoice
		evs = append(evs, info("skat.ev.alone", "Seat", st.seat(Forehand)))
	case auc.Over():
		st.Declarer, st.Bid, st.Phase = st.seat(auc.Declarer), auc.Highest, phSkat
		evs = append(evs, info("skat.ev.declarer", "Seat", st.Declarer, "N", st.Bid))
	}
	return evs
}

// choose is forehand's choice when nobody bid (§4.5).
func (st *state) choose(s games.Seat, a games.Action) []games.Event {
	switch a.Kind {
	case "playat":
		st.Declarer, st.Bid, st.Phase = s, int(a.N), phSkat
		return []games.Event{info("skat.ev.playat", "Seat", s, "N", st.Bid)}
	case "ramsch":
		// §13: no declarer; the skat stays face down until the end of the deal.
		st.Contract = Contract{Kind: Ramsch}
		st.Phase = phPlay
		return []games.Event{info("skat.ev.ramsch", "Seat", s)}
	}
	// D11: thrown in; nobody scores and the deal counts as played.
	evs := []games.Event{info("skat.ev.throwin", "Seat", s)}
	return append(evs, st.endDeal()...)
}

// pickUp is the declarer's choice between taking the skat and a hand game (§5).
func (st *state) pickUp(s games.Seat, a games.Action) []games.Event {
	if a.Kind == "hand" {
		st.Phase = phGame
		return []games.Event{info("skat.ev.hand", "Seat", s)}
	}
	st.Taken = true
	st.Hands[s] = st.Hands[s].Union(st.Skat)
	st.Skat = 0
	st.Phase = phDiscard
	// §5.1: only the declarer sees the two skat cards.
	return []games.Event{info("skat.ev.pickup", "Seat", s),
		{Kind: games.EventInfo, To: s, Msg: games.M("skat.ev.skat", "Cards", SortHand(NoKind, st.Skat0))}}
}

// name records the game the declarer names (§5).
func (st *state) name(a games.Action) []games.Event {
	for _, k := range gameKinds {
		if GameAction(k) == a {
			st.Contract = Contract{Kind: k, Hand: !st.Taken, Open: k == NullOuvert}
		}
	}
	if !st.Contract.Kind.IsNull() && len(Announcements(st.Cfg.Variant, st.Contract.Kind, !st.Taken)) > 1 {
		st.Phase = phAnnounce
		return nil
	}
	return st.declared()
}

// declared starts play once the declaration is complete; open games show the declarer's hand
// (§5.1).
func (st *state) declared() []games.Event {
	st.Phase = phPlay
	st.Leader = st.seat(Forehand)
	evs := []games.Event{info("skat.ev.declared", "Seat", st.Declarer, "Game", contractMsg(st.Contract))}
	if st.Contract.Open {
		evs = append(evs, info("skat.ev.open", "Seat", st.Declarer,
			"Cards", SortHand(st.Contract.Kind, st.Hands[st.Declarer])))
	}
	return evs
}

// play puts c on the trick; a full trick goes to its winner, who leads next (§7).
func (st *state) play(s games.Seat, c cards.Card) []games.Event {
	st.Hands[s] = st.Hands[s].Remove(c)
	i := st.played()
	st.Trick[i] = c
	if i < 2 {
		return nil
	}
	k := st.Contract.Kind
	w := st.player(st.Leader, TrickWinner(k, st.Trick[:]))
	st.History[st.Done] = trick{Leader: st.Leader, Cards: st.Trick, Winner: w}
	st.Done++
	st.Won[w] = st.Won[w].Union(cards.SetOf(st.Trick[:]...))
	evs := []games.Event{info("skat.ev.trick", "Seat", w, "N", st.Done, "Cards", slices.Clone(st.Trick[:]))}
	st.Trick, st.Leader = [3]cards.Card{}, w
	// §7: the only early ends: the Null declarer wins a trick; the opponents break an announced
	// schwarz.
	switch {
	case k.IsNull() && w == st.Declarer:
		evs = append(evs, info("skat.ev.nulllost", "Seat", w))
	case st.Contract.Schwarz && w != st.Declarer && st.Declarer != games.Nobody:
		evs = append(evs, info("skat.ev.schwarzlost", "Seat", w))
	case st.Done < 10:
		return evs
	}
	return append(evs, st.endDeal()...)
}

// signed writes a score change as "+30" or "-60".
func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// endDeal scores the deal (§12, §13), records its row (§14) and deals the next one, or ends the
// match after the last deal.
func (st *state) endDeal() []games.Event {
	r := st.settle()
	var evs []games.Event
	for s, d := range r.Scores {
		st.Totals[s] += d
	}
	st.Rows = appended(st.Rows, r)
	if r.Kind != rowThrown {
		// §5.1: the skat is turned face up for everyone at the end of the deal.
		evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
			Msg: games.M("skat.ev.skatshown", "Cards", SortHand(st.Contract.Kind, r.Skat))})
	}
	evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: st.resultMsg(r)})
	if st.Deal == st.Cfg.Deals {
		// §14: the highest total wins; equal totals share the win.
		st.Phase = phOver
		w := st.winners()
		evs = append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("skat.ev.matchend", "Seats", w, "Count", len(w), "Totals", st.totalsMsgs())})
		return evs
	}
	st.Dealer = (st.Dealer + 1) % games.Seat(st.players())
	st.deal()
	return evs
}

// settle is the score sheet's row of the deal that has just ended: thrown in (no game was
// named), a Ramsch or a declared game.
func (st *state) settle() row {
	r := row{Deal: st.Deal, Dealer: st.Dealer, Declarer: st.Declarer, Bid: st.Bid, Contract: st.Contract}
	switch st.Contract.Kind {
	case NoKind:
		r.Kind = rowThrown
	case Ramsch:
		r.Kind = rowRamsch
		r.Skat = st.Skat
		st.settleRamsch(&r)
	default:
		r.Kind = rowGame
		r.Skat = st.Skat
		st.settleGame(&r)
	}
	return r
}

// settleGame scores a declared game (§8–§12).
func (st *state) settleGame(r *row) {
	d := st.Declarer
	// §10.2 (D17): matadors count on the dealt cards plus the original skat, i.e. what he still
	// holds, what he played and the two cards in the skat now.
	held := st.Hands[d].Union(st.Skat)
	tricks := 0
	for _, t := range st.tricks() {
		for i, c := range t.Cards {
			if st.player(t.Leader, i) == d {
				held = held.Add(c)
			}
		}
		if t.Winner == d {
			tricks++
		}
	}
	// §8: the skat counts for the declarer in suit games and Grand, for nobody in Null.
	points := SetPoints(st.Won[d])
	if !st.Contract.Kind.IsNull() {
		points += SetPoints(st.Skat)
	}
	opp := 0
	for s, w := range st.Won {
		if games.Seat(s) != d {
			opp += SetPoints(w)
		}
	}
	r.Held, r.Tricks = held, tricks
	r.Points[0], r.Points[1] = points, opp
	// §12: only the declarer's score changes.
	r.Scores[d] = r.outcome(st.Cfg.Variant).Score
}

// settleRamsch scores a Ramsch deal (§13): the skat goes to the winner of trick 10.
func (st *state) settleRamsch(r *row) {
	var points, tricks, last [3]int
	for i, t := range st.tricks() {
		ro := st.role(t.Winner)
		tricks[ro]++
		last[ro] = i + 1
	}
	for ro := Forehand; ro <= Rearhand; ro++ {
		points[ro] = SetPoints(st.Won[st.seat(ro)])
	}
	lastWinner := st.role(st.History[st.Done-1].Winner)
	points[lastWinner] += SetPoints(st.Skat)
	scores := RamschScores(points, tricks, last)
	for ro := Forehand; ro <= Rearhand; ro++ {
		r.Points[st.seat(ro)] = points[ro]
		r.Scores[st.seat(ro)] = scores[ro]
	}
}
