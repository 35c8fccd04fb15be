package jokerbank

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// Apply records a stake; the last one plays and settles the round.
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("jokerbank: seat %d %v: %w", s, a, err)
	}
	n := *st
	if a.Kind == KindStop {
		n.stopper = s
		n.stakes = [maxSeats]int{} // the unfinished round is void; its stakes are never shown
		return &n, []games.Event{{Kind: games.EventMatchEnd, To: games.Nobody,
			Msg: games.M("jokerbank.ev.stopped", "Seat", s, "Lines", n.moneyLines())}}, nil
	}
	n.stakes[s] = int(a.N)
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody, Msg: games.M("jokerbank.ev.staked", "Seat", s)}}
	if len(n.ToAct()) > 0 {
		return &n, evs, nil
	}
	return &n, n.playRound(evs), nil
}

func event(kind games.EventKind, m games.Msg) games.Event {
	return games.Event{Kind: kind, To: games.Nobody, Msg: m}
}

// playRound reveals the stakes, settles the round and reports every card turned, what everyone
// won or paid and where the bank goes (joker.md version 1, "One round", "Settlement").
func (st *state) playRound(evs []games.Event) []games.Event {
	var lines []games.Msg
	for _, p := range st.punters() {
		lines = append(lines, games.M("jokerbank.stakeof", "Seat", p, "N", st.stakes[p]))
	}
	evs = append(evs, event(games.EventInfo, games.M("jokerbank.ev.stakes", "Lines", lines, "Seat", st.banker)))
	r := st.settle()
	for i, c := range st.turned[:st.nTurned] {
		id := "jokerbank.ev.miss"
		if IsHit(i+1, c) {
			id = "jokerbank.ev.hit"
		}
		evs = append(evs, event(games.EventInfo, games.M(id, "N", i+1, "Call", callMsg(i+1), "Card", c)))
	}
	evs = append(evs, event(games.EventDealEnd, roundMsg(r)))
	for s := range games.Seat(st.n) {
		evs = append(evs, event(games.EventDealEnd,
			games.M("jokerbank.ev.delta", "Seat", s, "Delta", signed(r.delta(s)), "Total", st.money[s])))
	}
	if st.banker != r.banker {
		evs = append(evs, event(games.EventDealEnd, games.M("jokerbank.ev.pass", "Seat", st.banker)))
	}
	if st.over() {
		evs = append(evs, event(games.EventMatchEnd,
			games.M("jokerbank.ev.end", "Count", st.round(), "Lines", st.moneyLines())))
	}
	return evs
}

// settle plays the round whose stakes are all in: a fresh shuffle (step 1), cards turned until a
// hit or fourteen misses, Settle's payments, and the bank passed left after fourteen misses. It
// returns the round as recorded.
func (st *state) settle() round {
	punters := st.punters()
	stakes := make([]int, len(punters))
	r := round{banker: st.banker}
	for i, p := range punters {
		stakes[i] = st.stakes[p]
		r.stakes[p] = uint8(stakes[i])
	}
	deck := cards.Shuffle(joker.Pack(), st.seed, uint64(st.round()))
	set := Settle(stakes, deck)
	r.hit = int8(set.Hit)
	st.nTurned = copy(st.turned[:], deck[:Turns])
	if set.Hit > 0 {
		st.nTurned = set.Hit
	}
	st.money[st.banker] += set.Banker
	for i, p := range punters {
		st.money[p] += set.Deltas[i]
	}
	st.history = appendShared(st.history, r)
	if set.PassesLeft {
		st.banker = games.Seat((int(st.banker) + 1) % st.n) // the bank passes to the left
	}
	st.stakes = [maxSeats]int{}
	return r
}

// callMsg is the banker's call on turn 1..14: Joker, Ace, King … Two.
func callMsg(turn int) games.Msg {
	if turn == 1 {
		return games.M("jokerbank.call.joker")
	}
	return games.M("jokerbank.call." + CalledRank(turn).String())
}

// roundMsg is the headline of a settled round.
func roundMsg(r round) games.Msg {
	switch d := r.delta(r.banker); {
	case r.hit == 1:
		return games.M("jokerbank.ev.double", "Seat", r.banker, "N", d)
	case r.hit > 1:
		return games.M("jokerbank.ev.won", "Seat", r.banker, "N", d, "Turn", int(r.hit))
	default:
		return games.M("jokerbank.ev.lost", "Seat", r.banker, "N", -d)
	}
}

// moneyLines is everybody's running money.
func (st *state) moneyLines() []games.Msg {
	out := make([]games.Msg, st.n)
	for s := range games.Seat(st.n) {
		out[s] = games.M("jokerbank.t.moneyof", "Seat", s, "N", st.money[s])
	}
	return out
}

// signed writes a money change with its sign ("+10", "-30") for messages.
func signed(n int) string { return fmt.Sprintf("%+d", n) }
