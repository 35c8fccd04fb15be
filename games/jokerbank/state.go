package jokerbank

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// round is one settled round: its banker, the turn of the hit (0 after fourteen misses) and
// every punter's stake (the banker's is 0; a stake is at most 50, the highest ceiling). What
// everyone won or paid follows from those (payout).
type round struct {
	banker games.Seat
	hit    int8
	stakes [maxSeats]uint8
}

// delta is what seat s won (or paid, negative) in the round.
func (r *round) delta(s games.Seat) int {
	if s != r.banker {
		return payout(int(r.hit)) * int(r.stakes[s])
	}
	d := 0
	for _, st := range r.stakes {
		d -= payout(int(r.hit)) * int(st)
	}
	return d
}

// state is one moment of a jokerbank table. It is a value: Apply copies it with one assignment.
// Only history is a slice, and it is append-only: a state extends it through appendShared and
// never writes into it, so copies may share it.
type state struct {
	n       int // players, 2..10
	ceiling int // the highest stake
	rounds  int // the session's length, 0 for an open session
	seed    uint64
	history []round // the settled rounds

	banker  games.Seat
	stakes  [maxSeats]int // this round's stakes, 0 while not staked (hidden from the other seats)
	money   [maxSeats]int // everyone's running money: the sum of the rounds' deltas
	turned  [Turns]cards.Card
	nTurned int        // cards turned in the last round (turned[:nTurned])
	stopper games.Seat // who ended an open session, or Nobody
}

// appendShared appends x to s, a slice states share, without writing into s's array.
func appendShared[T any](s []T, x T) []T { return append(s[:len(s):len(s)], x) }

// newState is a new session whose first banker is drawn by lot.
func newState(n, ceiling, rounds int, seed uint64) *state {
	st := &state{n: n, ceiling: ceiling, rounds: rounds, seed: seed, stopper: games.Nobody}
	_, st.banker = drawBanker(n, seed)
	return st
}

// drawn is one card drawn for the first banker.
type drawn struct {
	Seat games.Seat
	Card cards.Card
}

// drawBanker is the draw for the first banker (joker.md version 1, "Choosing the first banker",
// J1-BANKER): every player draws a card, the highest is banker; the tied highest draw again.
// Draw k shuffles the Pack with the seed's k-th Dealer stream.
func drawBanker(n int, seed uint64) ([][]drawn, games.Seat) {
	drawing := make([]bool, n)
	for i := range drawing {
		drawing[i] = true
	}
	var draws [][]drawn
	for k := uint64(1); ; k++ {
		deck := cards.ShuffleWith(joker.Pack(), cards.Stream(seed, cards.Dealer, k))
		var row []drawn
		hi := 0
		for s := range n {
			if drawing[s] {
				row = append(row, drawn{games.Seat(s), deck[len(row)]})
				hi = max(hi, DrawRank(deck[len(row)-1]))
			}
		}
		draws = append(draws, row)
		var top []games.Seat
		for _, d := range row {
			drawing[d.Seat] = DrawRank(d.Card) == hi
			if drawing[d.Seat] {
				top = append(top, d.Seat)
			}
		}
		if len(top) == 1 {
			return draws, top[0]
		}
	}
}

func (st *state) valid(s games.Seat) bool { return s >= 0 && int(s) < st.n }

// over reports whether the session has ended: its rounds are played, or a punter stopped it.
func (st *state) over() bool {
	return st.stopper != games.Nobody || st.rounds > 0 && len(st.history) >= st.rounds
}

// round is the round being staked, 1-based; the last one once all rounds are played.
func (st *state) round() int {
	if st.rounds > 0 && len(st.history) >= st.rounds {
		return len(st.history)
	}
	return len(st.history) + 1
}

// punters lists the punters in seat order from the banker's left (joker.md version 1, "One round").
func (st *state) punters() []games.Seat {
	out := make([]games.Seat, 0, st.n-1)
	for i := 1; i < st.n; i++ {
		out = append(out, games.Seat((int(st.banker)+i)%st.n))
	}
	return out
}

// ToAct is every punter who has not staked yet: stakes are placed at the same time.
func (st *state) ToAct() []games.Seat {
	if st.over() {
		return nil
	}
	var out []games.Seat
	for s := range games.Seat(st.n) {
		if s != st.banker && st.stakes[s] == 0 {
			out = append(out, s)
		}
	}
	return out
}

// Legal: a punter who has not staked yet may stake 1..ceiling (and stop an open session). It is
// the one legality rule of the game: Apply, the buttons and the agent all take their choices
// from it.
func (st *state) Legal(s games.Seat) []games.Action {
	if st.over() || !st.valid(s) || s == st.banker || st.stakes[s] != 0 {
		return nil
	}
	out := make([]games.Action, 0, st.ceiling+1)
	for v := 1; v <= st.ceiling; v++ {
		out = append(out, games.Num(KindStake, v)) // joker.md version 1, "One round" step 2
	}
	if st.rounds == 0 {
		out = append(out, games.Do(KindStop)) // J1-END: an open session runs until a player ends it
	}
	return out
}
