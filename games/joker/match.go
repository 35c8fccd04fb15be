package joker

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// endDeal scores the deal just finished (joker.md "Scoring a deal", "Penalties"), then deals the
// next one or ends the party.
func (st *trickState) endDeal(evs []games.Event) []games.Event {
	row := dealRow{
		Deal:   st.DealNo,
		Bids:   slices.Clone(st.Bids),
		Tricks: slices.Clone(st.Taken),
		Leads:  slices.Clone(st.Leads),
		Points: make([]int, st.N),
	}
	evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
		Msg: games.M("joker.ev.dealend", "Deal", st.DealNo, "Count", HandSize(st.DealNo))})
	for _, s := range st.seatsIn() {
		d := ScoreDeal(st.Bids[s], st.Taken[s], st.Leads[s], false)
		row.Points[s] = d.Points
		evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
			Msg: games.M("joker.res."+string(d.Outcome), "Seat", s, "Bid", st.Bids[s],
				"Tricks", st.Taken[s], "Points", signed(d.Base), "Total", st.total(s)+d.Points)})
		if d.Penalty != 0 {
			evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
				Msg: games.M("joker.res.penalty", "Seat", s, "Count", st.Leads[s], "Points", signed(d.Penalty))})
		}
	}
	st.Rows = append(st.Rows, row)
	if st.DealNo < Deals {
		st.DealNo++
		st.Dealer = st.next(st.Dealer) // joker.md "Dealer and deal": the deal passes clockwise
		st.deal()
		return evs
	}
	return st.endParty(evs)
}

// total is s's total in the party in progress.
func (st *trickState) total(s games.Seat) int {
	t := 0
	for _, r := range st.Rows {
		t += r.Points[s]
	}
	return t
}

// totals are the party totals of every seat (0 for seats not in the party).
func (st *trickState) totals() []int {
	out := make([]int, st.N)
	for s := range games.Seat(st.N) {
		out[s] = st.total(s)
	}
	return out
}

// endParty records the party (joker.md "End of a party and ties", J-TIES), and in a match decides
// what follows (J-MATCH): another regular party, an extra party, or the match winner.
func (st *trickState) endParty(evs []games.Event) []games.Event {
	seats := st.seatsIn()
	totals := st.totals()
	sub := make([]int, len(seats))
	for i, s := range seats {
		sub[i] = totals[s]
	}
	w, draw := PartyWinners(sub)
	res := partyResult{Extra: st.Extra, In: st.In, Totals: totals}
	for _, i := range w {
		res.Winners = append(res.Winners, seats[i])
	}
	if !st.Extra && !draw {
		for _, i := range SecondPlaces(sub, w) {
			res.Seconds = append(res.Seconds, seats[i])
		}
		for _, s := range res.Winners {
			st.Wins[s]++
		}
		for _, s := range res.Seconds {
			st.Seconds[s]++
		}
	}
	st.History = append(st.History, res)
	if !st.Match {
		st.Winners = res.Winners
		if draw {
			st.Winners = seats // a drawn party: nobody wins, everybody shares the result
		}
		msg := games.M("joker.ev.win", "Seats", res.Winners, "Count", len(res.Winners), "Total", slices.Max(sub))
		if draw {
			msg = games.M("joker.ev.draw", "Total", slices.Max(sub))
		}
		return st.finish(append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: msg}))
	}
	pm := games.M("joker.ev.partywin", "N", st.Party, "Seats", res.Winners, "Count", len(res.Winners))
	if draw {
		pm = games.M("joker.ev.partydraw", "N", st.Party)
	}
	evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: pm})
	var (
		more   bool
		winner = -1
		extra  []int
	)
	if st.Extra {
		idx := make([]int, len(seats))
		for i, s := range seats {
			idx[i] = int(s)
		}
		winner, extra = MatchAfterExtra(idx, sub)
	} else {
		more, winner, extra = MatchAfterRegular(st.Wins, st.Seconds, st.regularPlayed())
	}
	switch {
	case more:
		all := make([]bool, st.N)
		for i := range all {
			all[i] = true
		}
		st.startParty(all, false)
	case winner >= 0:
		st.Winners = []games.Seat{games.Seat(winner)}
		evs = append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("joker.ev.matchwin", "Seat", games.Seat(winner))})
		evs = st.finish(evs)
	default:
		in := make([]bool, st.N)
		var who []games.Seat
		for _, s := range extra {
			in[s] = true
			who = append(who, games.Seat(s))
		}
		evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
			Msg: games.M("joker.ev.extra", "Seats", who)})
		st.startParty(in, true)
	}
	return evs
}

// regularPlayed counts the regular parties finished.
func (st *trickState) regularPlayed() int {
	k := 0
	for _, h := range st.History {
		if !h.Extra {
			k++
		}
	}
	return k
}

// finish ends the match; the cards of the last deal stay where they are.
func (st *trickState) finish(evs []games.Event) []games.Event {
	st.Phase = phaseOver
	return evs
}

// signed writes a score change with its sign ("+10", "-30") for messages.
func signed(n int) string { return fmt.Sprintf("%+d", n) }
