package joker

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Apply makes a bid or plays a card and runs every automatic step that follows.
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("joker: seat %d %v: %w", s, a, err)
	}
	n := *st
	var evs []games.Event
	if n.phase == phaseBid {
		evs = n.bid(s, int(a.N))
	} else {
		evs = n.play(s, a)
	}
	return &n, evs, nil
}

func info(m games.Msg) games.Event {
	return games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: m}
}

func dealEnd(m games.Msg) games.Event {
	return games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: m}
}

// startParty begins a party among the seats in: zero totals, first dealer by lot (joker.md
// "Dealer and deal", J-MATCH), then its first deal.
func (st *state) startParty(in [maxSeats]bool, extra bool) {
	st.extra, st.in, st.deals = extra, in, nil
	st.dealer = st.firstDealer()
	st.deal()
}

// firstDealer is the dealer of the party in progress drawn by lot among its players, from the
// stream of the party's number.
func (st *state) firstDealer() games.Seat {
	seats := st.seatsIn()
	return seats[cards.Stream(st.seed, cards.Dealer, uint64(st.partyNo())).IntN(len(seats))]
}

// deal deals the deal in progress and opens the bidding.
func (st *state) deal() {
	st.hands, st.turnUp = st.dealt()
	st.bids, st.taken, st.leads = [maxSeats]int{}, [maxSeats]int{}, [maxSeats]int{}
	for s := range st.n {
		st.bids[s] = -1
	}
	st.trick, st.last, st.won = trick{}, trick{}, 0
	st.voids = [maxSeats]suits{}
	st.phase = phaseBid
	st.turn = st.next(st.dealer) // joker.md "Bidding": from the dealer's left
}

// dealt is the deal in progress as the seed deals it: one card at a time from the dealer's left,
// then the turn-up whose suit is trump, no trump if it is a joker (joker.md "Dealer and deal",
// J-DRAW). Deal k of the match (every party has 13 deals) shuffles with stream k.
func (st *state) dealt() (hands [maxSeats]cards.Set, turnUp cards.Card) {
	deck := cards.Shuffle(Pack(), st.seed, uint64(Deals*(st.partyNo()-1)+st.dealNo()))
	s, i := st.dealer, 0
	for range HandSize(st.dealNo()) {
		for range st.players() {
			s = st.next(s)
			hands[s] = hands[s].Add(deck[i])
			i++
		}
	}
	return hands, deck[i]
}

// bid records s's bid b; the dealer's bid, the last, opens the play.
func (st *state) bid(s games.Seat, b int) []games.Event {
	st.bids[s] = b
	ev := info(games.M("joker.ev.bid", "Seat", s, "N", b))
	if b == 0 {
		ev = info(games.M("joker.ev.pass", "Seat", s))
	}
	if s == st.dealer {
		st.phase = phasePlay
		st.turn = st.firstLeader() // joker.md "Play", J-FIRSTLEAD
	} else {
		st.turn = st.next(s)
	}
	return []games.Event{ev}
}

// play puts a card on the trick and runs what follows: collecting the trick, scoring the deal,
// the next deal, the end of the party or match.
func (st *state) play(s games.Seat, a games.Action) []games.Event {
	var evs []games.Event
	c := a.Card
	if st.trick.n == 0 {
		st.last = trick{} // joker.md "Play": the last trick is visible until the next card is played
		if c.IsJoker() && st.hands[s].Len() > 1 {
			// joker.md "Penalties", J-LEADPEN: a joker led while holding other cards costs 10.
			st.leads[s]++
			evs = append(evs, info(games.M("joker.ev.leadpen", "Seat", s)))
		}
	}
	if v := voidOf(st.trick.follow(), c); v != cards.NoSuit {
		st.voids[s] = st.voids[s].add(v)
	}
	st.hands[s] = st.hands[s].Remove(c)
	call := NoCall
	switch a.Kind {
	case KindHigh:
		call = High
	case KindLow:
		call = Low
	case KindPlay:
		if c.IsJoker() {
			// J-TWOJOKERS: the second joker takes the value opposite to the first.
			call = ResolveCalls([]cards.Card{c, c}, []Call{st.trick.firstCall(), NoCall})[1]
		}
	}
	st.trick.add(s, c, call)
	evs = append(evs, info(playMsg("joker.ev", Play{Seat: s, Card: c, Call: call})))
	if st.trick.n < st.players() {
		st.turn = st.next(s)
		return evs
	}
	w := st.trick.winner(st.trump()) // joker.md "Winning a trick"
	st.taken[w]++
	st.won = st.won.Union(st.trick.set())
	st.last, st.trick = st.trick, trick{}
	st.turn = w // joker.md "Play": the winner leads to the next trick
	evs = append(evs, info(games.M("joker.ev.trick", "Seat", w, "Plays", playMsgs("joker.t", st.last.plays()))))
	if st.hands[w].Empty() {
		evs = st.endDeal(evs)
	}
	return evs
}

// playMsg is one card of a trick as a message: prefix+".card", ".high" or ".low".
func playMsg(prefix string, p Play) games.Msg {
	id := prefix + ".card"
	switch p.Call {
	case High:
		id = prefix + ".high"
	case Low:
		id = prefix + ".low"
	}
	return games.M(id, "Seat", p.Seat, "Card", p.Card)
}

func playMsgs(prefix string, ps []Play) []games.Msg {
	out := make([]games.Msg, len(ps))
	for i, p := range ps {
		out[i] = playMsg(prefix, p)
	}
	return out
}

// endDeal scores the deal just finished (joker.md "Scoring a deal", "Penalties"), then deals the
// next one or ends the party.
func (st *state) endDeal(evs []games.Event) []games.Event {
	d := st.dealNo()
	evs = append(evs, dealEnd(games.M("joker.ev.dealend", "Deal", d, "Count", HandSize(d))))
	for _, s := range st.seatsIn() {
		sc := ScoreDeal(st.bids[s], st.taken[s], st.leads[s], false)
		evs = append(evs, dealEnd(games.M("joker.res."+string(sc.Outcome), "Seat", s, "Bid", st.bids[s],
			"Tricks", st.taken[s], "Points", signed(sc.Base), "Total", st.total(s)+sc.Points)))
		if sc.Penalty != 0 {
			evs = append(evs, dealEnd(games.M("joker.res.penalty", "Seat", s, "Count", st.leads[s],
				"Points", signed(sc.Penalty))))
		}
	}
	st.deals = appendShared(st.deals, dealRow{bids: st.bids, tricks: st.taken, leads: st.leads})
	if d < Deals {
		st.dealer = st.next(st.dealer) // joker.md "Dealer and deal": the deal passes clockwise
		st.deal()
		return evs
	}
	return st.endParty(evs)
}

// endParty records the party (joker.md "End of a party and ties", J-TIES), and in a match decides
// what follows (J-MATCH): another regular party, an extra party, or the match winner.
func (st *state) endParty(evs []games.Event) []games.Event {
	p := party{extra: st.extra, in: st.in, totals: st.totals()}
	st.parties = appendShared(st.parties, p)
	winners, _, draw, top := p.result(st.n)
	m := st.standings()
	if !st.match {
		msg := games.M("joker.ev.win", "Seats", winners, "Count", len(winners), "Total", top)
		if draw {
			msg = games.M("joker.ev.draw", "Total", top)
		}
		st.phase = phaseOver
		return append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: msg})
	}
	pm := games.M("joker.ev.partywin", "N", len(st.parties), "Seats", winners, "Count", len(winners))
	if draw {
		pm = games.M("joker.ev.partydraw", "N", len(st.parties))
	}
	evs = append(evs, dealEnd(pm))
	switch {
	case m.over:
		st.phase = phaseOver
		evs = append(evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("joker.ev.matchwin", "Seat", m.winners[0])})
	case m.extra:
		evs = append(evs, dealEnd(games.M("joker.ev.extra", "Seats", seatList(m.in[:st.n]))))
		st.startParty(m.in, true)
	default:
		st.startParty(m.in, false)
	}
	return evs
}

// signed writes a score change with its sign ("+10", "-30") for messages.
func signed(n int) string { return fmt.Sprintf("%+d", n) }

// seatList lists the seats marked in in, in seat order.
func seatList(in []bool) []games.Seat {
	var out []games.Seat
	for s, ok := range in {
		if ok {
			out = append(out, games.Seat(s))
		}
	}
	return out
}
