package wizard

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Apply performs a and every automatic step after it: collecting a trick, scoring the round,
// dealing the next one. The receiver is never changed; on error the State is nil.
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	var buf [maxLegal]games.Action
	if !slices.Contains(st.appendLegal(buf[:0], s), a) {
		// games.CheckLegal names the sentinel: over, not s's turn, or not in Legal.
		err := games.CheckLegal(st, s, a)
		if err == nil {
			err = games.ErrIllegal
		}
		return nil, nil, fmt.Errorf("wizard: seat %d %v: %w", s, a, err)
	}
	ns := *st
	var evs []games.Event
	switch a.Kind {
	case KindTrump:
		ns.trump = cards.Suit(a.N)
		ns.phase, ns.turn = phaseBid, ns.next(ns.dealer)
		evs = append(evs, info(games.M("wizard.ev.trump", "Seat", s, "Suit", ns.trump)))
	case KindBid:
		ns.bid(int8(s), int8(a.N), &evs)
	case KindPlay:
		ns.play(int8(s), a.Card, &evs)
	}
	return &ns, evs, nil
}

// info is a public table update.
func info(m games.Msg) games.Event {
	return games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: m}
}

// bid records a bid (wizard.md §4): in turn from the dealer's left, the dealer last; with
// hidden_bids all are revealed together once the last one is in.
func (st *state) bid(s, b int8, evs *[]games.Event) {
	st.bids[s] = b
	if st.set.hidden {
		for i := range st.n() {
			if st.bids[i] < 0 {
				return
			}
		}
		plays := make([]games.Msg, 0, st.n())
		for i, p := int8(0), st.next(st.dealer); i < st.n(); i, p = i+1, st.next(p) {
			plays = append(plays, games.M("wizard.ev.bid", "Seat", games.Seat(p), "Count", int(st.bids[p])))
		}
		*evs = append(*evs, info(games.M("wizard.ev.bids", "Bids", plays)))
	} else {
		*evs = append(*evs, info(games.M("wizard.ev.bid", "Seat", games.Seat(s), "Count", int(b))))
		if s != st.dealer {
			st.turn = st.next(s)
			return
		}
	}
	// wizard.md §5: the player to the dealer's left leads the first trick.
	st.phase, st.leader, st.turn = phasePlay, st.next(st.dealer), st.next(st.dealer)
}

// play puts c on the trick; the last card of a trick goes to its winner (wizard.md §6), who leads
// the next (§5); the last trick of a round scores it (§7).
func (st *state) play(s int8, c cards.Card, evs *[]games.Event) {
	if led := LedSuit(st.trick[:st.nTrick]); led != cards.NoSuit && c.IsFrench() && c.Suit() != led {
		st.voids[s] |= deckSet.Suit(led) // wizard.md §5: he would have followed
	}
	st.hands[s] = st.hands[s].Remove(c)
	st.trick[st.nTrick] = c
	st.nTrick++
	if st.nTrick < st.n() {
		st.turn = st.next(s)
		return
	}
	trick := st.trick[:st.nTrick]
	w := (st.leader + int8(TrickWinner(trick, st.trump))) % st.n()
	st.taken[w]++
	st.played |= cards.SetOf(trick...)
	st.last, st.lastLeader, st.lastWinner = st.trick, st.leader, w
	*evs = append(*evs, info(games.M("wizard.ev.trick", "Seat", games.Seat(w),
		"Card", st.trick[(w-st.leader+st.n())%st.n()])))
	st.trick, st.nTrick = [maxSeats]cards.Card{}, 0
	st.leader, st.turn = w, w
	if st.hands[w].Empty() {
		st.endRound(evs)
	}
}

// endRound scores the round (wizard.md §7) and deals the next one, or ends the match (§8).
func (st *state) endRound(evs *[]games.Event) {
	r := st.round()
	*evs = slices.Grow(*evs, int(st.n())+3)
	*evs = append(*evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody,
		Msg: games.M("wizard.ev.roundend", "Round", int(st.ri)+1, "Count", r)})
	totals := st.totals()
	for i := range st.n() {
		p := RoundScore(int(st.bids[i]), int(st.taken[i]))
		st.row(int(st.ri))[i] = result{bid: st.bids[i], taken: st.taken[i]}
		totals[i] += p
		*evs = append(*evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: games.M("wizard.ev.result",
			"Seat", games.Seat(i), "Bid", int(st.bids[i]), "Taken", int(st.taken[i]),
			"Points", signed(p), "Total", totals[i])})
	}
	if st.ri+1 < st.set.nRounds {
		st.ri++
		// wizard.md §2: the deal passes one seat to the left.
		st.dealer = st.next(st.dealer)
		st.deal(evs)
		return
	}
	st.phase, st.voids = phaseOver, [maxSeats]cards.Set{}
	win := st.winners()
	*evs = append(*evs, games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: games.M("wizard.ev.winner",
		"Seats", win, "Count", len(win), "Points", totals[win[0]])})
}
