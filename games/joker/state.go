package joker

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// phase is where a deal stands.
type phase uint8

const (
	phaseBid  phase = iota // bidding, from the dealer's left
	phasePlay              // trick play
	phaseOver              // the match is over; the last deal's cards stay where they are
)

var phaseNames = [...]string{"bid", "play", "over"}

func (p phase) String() string { return phaseNames[p] }

// party is a finished party: whether it was an extra party of a match, who played it and their
// totals (0 for the seats not in it). Its winners and second places follow from those.
type party struct {
	extra  bool
	in     [maxSeats]bool
	totals [maxSeats]int
}

// dealRow is one scored deal: per seat the bid (-1 for a seat not in the party), the tricks taken
// and the penalised joker leads. Its points follow from those (ScoreDeal).
type dealRow struct {
	bids, tricks, leads [maxSeats]int
}

// points is s's score for the deal.
func (r *dealRow) points(s games.Seat) int {
	if r.bids[s] < 0 {
		return 0
	}
	return ScoreDeal(r.bids[s], r.tricks[s], r.leads[s], false).Points
}

// state is one moment of a joker table. It is a value: Apply copies it with one assignment. Only
// parties and deals are slices, and those two are append-only: a state extends them through
// appendShared and never writes into them, so copies may share them.
type state struct {
	n         int  // players at the table, 2..6
	match     bool // option parties = "3" (J-MATCH)
	leftLeads bool // option firstlead = "left" (J-FIRSTLEAD)
	seed      uint64

	parties []party   // the finished parties of the match
	deals   []dealRow // the scored deals of the party in progress (of the last party, once over)

	extra  bool           // the party in progress is an extra party of a match
	in     [maxSeats]bool // the seats playing the party in progress
	dealer games.Seat
	phase  phase
	turn   games.Seat // the seat to bid or play; the rest of the state decides it
	turnUp cards.Card
	hands  [maxSeats]cards.Set
	bids   [maxSeats]int // -1: not bid yet, or not in the party
	taken  [maxSeats]int
	leads  [maxSeats]int   // penalised joker leads this deal (J-LEADPEN)
	trick  trick           // the trick in progress
	last   trick           // the last trick collected, while it is shown (until a card is played)
	won    cards.Set       // the cards of the tricks collected this deal
	voids  [maxSeats]suits // the suits each seat has shown it lacks this deal (see voidOf)
}

// suits is a set of the four suits, bit s standing for suit s.
type suits uint8

// add returns v with suit s.
func (v suits) add(s cards.Suit) suits { return v | 1<<s }

// has reports whether s is in v.
func (v suits) has(s cards.Suit) bool { return s < 4 && v&(1<<s) != 0 }

// cards are the cards of the Pack of the suits in v.
func (v suits) cards() cards.Set {
	var out cards.Set
	for _, s := range cards.Suits {
		if v.has(s) {
			out = out.Union(packSet.Suit(s))
		}
	}
	return out
}

// String is the suits' letters in canonical order ("CH"), "" for none: their stored form.
func (v suits) String() string {
	out := ""
	for _, s := range cards.Suits {
		if v.has(s) {
			out += s.Letter()
		}
	}
	return out
}

// voidOf is the suit a play of c to a trick whose suit to follow is follow shows its player to
// lack, NoSuit when it shows nothing: a player who holds the suit to follow plays it or a joker
// (joker.md "Play", J-ANYTIME), so a card of another suit means he has none. A joker, a card to a
// trick whose suit is not fixed yet (after a led joker, J-LEAD) and a card that follows show
// nothing; there is no obligation to trump, so nothing is learnt about trumps.
func voidOf(follow cards.Suit, c cards.Card) cards.Suit {
	if follow == cards.NoSuit || c.IsJoker() || c.Suit() == follow {
		return cards.NoSuit
	}
	return follow
}

// appendShared appends x to s, a slice states share, without writing into s's array.
func appendShared[T any](s []T, x T) []T { return append(s[:len(s):len(s)], x) }

// allSeats is every seat of an n-player table.
func allSeats(n int) [maxSeats]bool {
	var in [maxSeats]bool
	for s := range n {
		in[s] = true
	}
	return in
}

func (st *state) valid(s games.Seat) bool { return s >= 0 && int(s) < st.n }

// dealNo is the deal in progress, 1..13 (the last one once the match is over).
func (st *state) dealNo() int { return min(len(st.deals)+1, Deals) }

// partyNo is the party in progress, 1-based, counting extra parties (the last one once over).
func (st *state) partyNo() int {
	if st.phase == phaseOver {
		return len(st.parties)
	}
	return len(st.parties) + 1
}

// players is the number of seats in the party in progress.
func (st *state) players() int {
	k := 0
	for _, in := range st.in {
		if in {
			k++
		}
	}
	return k
}

// seatsIn lists the seats of the party in progress in seat order.
func (st *state) seatsIn() []games.Seat { return seatList(st.in[:st.n]) }

// next is the next seat clockwise after s that plays the party in progress.
func (st *state) next(s games.Seat) games.Seat {
	for i := 1; i <= st.n; i++ {
		t := games.Seat((int(s) + i) % st.n)
		if st.in[t] {
			return t
		}
	}
	return s
}

// firstLeader leads the first trick of a deal (joker.md "Play", J-FIRSTLEAD).
func (st *state) firstLeader() games.Seat {
	if st.leftLeads {
		return st.next(st.dealer)
	}
	return st.dealer
}

// trump is the deal's trump suit, NoSuit when a joker was turned (joker.md "Dealer and deal").
func (st *state) trump() cards.Suit { return st.turnUp.Suit() }

// collected is the number of tricks collected this deal.
func (st *state) collected() int {
	k := 0
	for _, t := range st.taken[:st.n] {
		k += t
	}
	return k
}

// stock is the undealt rest of the Pack.
func (st *state) stock() cards.Set {
	s := packSet.Minus(st.trick.set()).Minus(st.won).Remove(st.turnUp)
	for _, h := range st.hands[:st.n] {
		s = s.Minus(h)
	}
	return s
}

// total is s's total in the party in progress.
func (st *state) total(s games.Seat) int {
	t := 0
	for i := range st.deals {
		t += st.deals[i].points(s)
	}
	return t
}

// totals are the party totals of every seat (0 for seats not in the party).
func (st *state) totals() [maxSeats]int {
	var out [maxSeats]int
	for s := range games.Seat(st.n) {
		out[s] = st.total(s)
	}
	return out
}

// ToAct is the one player to bid or play, none when the match is over.
func (st *state) ToAct() []games.Seat {
	if st.phase == phaseOver {
		return nil
	}
	return []games.Seat{st.turn}
}

// forbidden is the dealer's forbidden bid (J-HOOK), or -1; meaningful while bidding.
func (st *state) forbidden() int {
	var others []int
	for s, b := range st.bids[:st.n] {
		if games.Seat(s) != st.dealer && b >= 0 {
			others = append(others, b)
		}
	}
	return ForbiddenBid(HandSize(st.dealNo()), others)
}

// bidAction is the action for bid b: "pass" for zero (joker.md "Bidding": pass is a bid of 0).
func bidAction(b int) games.Action {
	if b == 0 {
		return games.Do(KindPass)
	}
	return games.Num(KindBid, b)
}

// Legal lists the bids or the playable cards, jokers with their high/low call. It is the one
// legality rule of the game: Apply, the buttons and the agent all take their choices from it.
func (st *state) Legal(s games.Seat) []games.Action {
	if st.phase == phaseOver || s != st.turn {
		return nil
	}
	h := HandSize(st.dealNo())
	if st.phase == phaseBid {
		f := -1
		if s == st.dealer {
			f = st.forbidden() // joker.md "Bidding", J-HOOK
		}
		out := make([]games.Action, 0, h+1)
		for b := 0; b <= h; b++ {
			if b != f {
				out = append(out, bidAction(b))
			}
		}
		return out
	}
	second := st.trick.hasJoker()
	out := make([]games.Action, 0, h+1)
	jokerOffered := false
	for _, c := range Playable(st.hands[s], st.trick.follow()).Cards() {
		switch {
		case !c.IsJoker():
			out = append(out, games.With(KindPlay, c))
		case jokerOffered:
			// Both jokers in one hand are the same card: offer one of them.
		case second:
			// joker.md "Jokers", J-TWOJOKERS: the second joker of a trick is not announced.
			out = append(out, games.With(KindPlay, c))
			jokerOffered = true
		default:
			out = append(out, games.With(KindHigh, c), games.With(KindLow, c))
			jokerOffered = true
		}
	}
	return out
}

// standings is the match after its finished parties.
func (st *state) standings() standings {
	m := newStandings(st.n)
	for _, p := range st.parties {
		m.add(p, st.n, st.match)
	}
	return m
}
