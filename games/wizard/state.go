package wizard

import (
	"math/bits"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Action kinds.
const (
	KindTrump = "trump" // trump/N: the dealer names suit N (0 clubs, 1 diamonds, 2 hearts, 3 spades)
	KindBid   = "bid"   // bid/N: N tricks
	KindPlay  = "play"  // play/CARD
)

// phase is where a round stands.
type phase uint8

const (
	phaseTrump phase = iota // a Wizard was turned: the dealer names trump
	phaseBid                // bidding
	phasePlay               // trick play
	phaseOver               // the match is over
)

// phaseNames are the phases' names, as View.Phase and the stored state spell them.
var phaseNames = [...]string{"trump", "bid", "play", "over"}

// String is the phase's name.
func (p phase) String() string { return phaseNames[p] }

// result is one player's line of one round on the score sheet.
type result struct {
	bid, taken int8
	points     int16
}

// state is a moment of a match. It is a plain value (no slices or maps), so Apply copies it with one
// assignment and never shares anything with its receiver.
type state struct {
	set    settings
	seed   uint64
	ri     int8 // index of the current round in set.rounds
	phase  phase
	dealer int8
	turn   int8 // the seat to act, outside hidden bidding
	leader int8 // the seat that led (or leads) the current trick
	nTrick int8 // cards in the current trick
	turned cards.Card
	trump  cards.Suit
	stock  cards.Set // undealt cards besides the turned one: hidden from everybody
	hands  [6]cards.Set
	bids   [6]int8 // -1: no bid yet
	taken  [6]int8
	trick  [6]cards.Card // the current trick in play order, from leader
	played cards.Set     // cards of the completed tricks of this round

	last       [6]cards.Card // the previous trick of this round, from lastLeader
	lastLeader int8
	lastWinner int8 // -1: no trick completed this round

	// hist holds the scored rounds (0..ri-1, or 0..ri once over). It is copied on write, never
	// changed in place, so states may share it.
	hist [][6]result
}

func (st *state) n() int8    { return st.set.players }
func (st *state) round() int { return int(st.set.rounds[st.ri]) }

// next is the seat to the left of s.
func (st *state) next(s int8) int8 { return (s + 1) % st.set.players }

// newState starts a match: the first dealer is drawn at random (wizard.md §2, §9 W1) and the
// first round is dealt.
func newState(set settings, seed uint64) (*state, []games.Event) {
	st := &state{set: set, seed: seed}
	st.dealer = int8(cards.Stream(seed, cards.Dealer, 1).IntN(int(set.players)))
	var evs []games.Event
	st.deal(&evs)
	return st, evs
}

// deal deals round ri (deal number ri+1) and turns trump (wizard.md §3).
func (st *state) deal(evs *[]games.Event) {
	n, r := int(st.n()), st.round()
	order := cards.Shuffle(cards.WizardDeck(), st.seed, uint64(st.ri)+1)
	st.hands = [6]cards.Set{}
	// wizard.md §3.1: one card at a time, starting at the dealer's left.
	for i := 0; i < r*n; i++ {
		s := (int(st.dealer) + 1 + i%n) % n
		st.hands[s] = st.hands[s].Add(order[i])
	}
	st.turned, st.stock, st.trump = cards.NoCard, 0, cards.NoSuit
	if r*n < len(order) {
		// wizard.md §3.2: the top remaining card is turned; the rest stays hidden.
		st.turned = order[r*n]
		st.stock = cards.SetOf(order[r*n+1:]...)
	}
	for i := range st.bids {
		st.bids[i], st.taken[i] = -1, 0
	}
	st.trick, st.nTrick, st.played = [6]cards.Card{}, 0, 0
	st.last, st.lastLeader, st.lastWinner = [6]cards.Card{}, -1, -1
	st.leader = st.next(st.dealer)
	st.phase, st.turn = phaseBid, st.leader
	switch {
	case st.turned.IsFrench():
		st.trump = st.turned.Suit()
	case st.turned.IsWizard():
		// wizard.md §3.2, §9 W3: the dealer names a suit before anyone bids.
		st.phase, st.turn = phaseTrump, st.dealer
	}
	*evs = append(*evs, games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: games.M("wizard.ev.deal",
		"Round", int(st.ri)+1, "Count", r, "Seat", games.Seat(st.dealer), "Trump", st.trumpMsg())})
}

// ToAct is the dealer naming trump, the bidder or player whose turn it is, or every seat still to
// bid secretly with hidden_bids.
func (st *state) ToAct() []games.Seat {
	switch st.phase {
	case phaseOver:
		return nil
	case phaseBid:
		if st.set.hidden {
			out := make([]games.Seat, 0, st.n())
			for i, s := int8(0), st.next(st.dealer); i < st.n(); i, s = i+1, st.next(s) {
				if st.bids[s] < 0 {
					out = append(out, games.Seat(s))
				}
			}
			return out
		}
	}
	return []games.Seat{games.Seat(st.turn)}
}

// canAct reports whether s is in ToAct without building the list.
func (st *state) canAct(s games.Seat) bool {
	if s < 0 || s >= games.Seat(st.n()) {
		return false
	}
	switch st.phase {
	case phaseOver:
		return false
	case phaseBid:
		if st.set.hidden {
			return st.bids[s] < 0
		}
	}
	return s == games.Seat(st.turn)
}

// forbiddenBid is the bid the dealer may not make with bids_cannot_match (wizard.md §10), or -1.
// The restriction exists only once every other seat has bid: before that nothing is forbidden.
func (st *state) forbiddenBid(s games.Seat) int {
	if !st.set.cannotMatch || st.phase != phaseBid || int8(s) != st.dealer {
		return -1
	}
	sum := 0
	for i := range st.n() {
		if i != st.dealer {
			if st.bids[i] < 0 {
				return -1
			}
			sum += int(st.bids[i])
		}
	}
	if f := st.round() - sum; f >= 0 {
		return f
	}
	return -1
}

// Legal lists s's actions: trump/0..3 for the dealer after a turned Wizard, bid/0..r in bidding,
// play/CARD for every playable card (wizard.md §5) in canonical card order.
func (st *state) Legal(s games.Seat) []games.Action {
	if !st.canAct(s) {
		return nil
	}
	switch st.phase {
	case phaseTrump:
		out := make([]games.Action, 4)
		for i := range out {
			out[i] = games.Num(KindTrump, i)
		}
		return out
	case phaseBid:
		r, f := st.round(), st.forbiddenBid(s)
		out := make([]games.Action, 0, r+1)
		for b := 0; b <= r; b++ {
			if b != f {
				out = append(out, games.Num(KindBid, b))
			}
		}
		return out
	}
	ok := LegalPlays(st.hands[s], st.trick[:st.nTrick])
	out := make([]games.Action, 0, ok.Len())
	for v := ok; v != 0; v &= v - 1 {
		out = append(out, games.Action{Kind: KindPlay, Card: lowest(v)})
	}
	return out
}

// allowed reports whether a is in Legal(s), without building the list.
func (st *state) allowed(s games.Seat, a games.Action) bool {
	if !st.canAct(s) {
		return false
	}
	switch st.phase {
	case phaseTrump:
		return a.Kind == KindTrump && a.HasN && a.Card == cards.NoCard && a.N >= 0 && a.N <= 3
	case phaseBid:
		return a.Kind == KindBid && a.HasN && a.Card == cards.NoCard && a.N >= 0 && int(a.N) <= st.round() &&
			int(a.N) != st.forbiddenBid(s)
	}
	return a.Kind == KindPlay && !a.HasN && a.N == 0 && a.Card.Valid() &&
		LegalPlays(st.hands[s], st.trick[:st.nTrick]).Has(a.Card)
}

// scored is the number of rounds played and scored so far.
func (st *state) scored() int {
	if st.phase == phaseOver {
		return int(st.ri) + 1
	}
	return int(st.ri)
}

// totals are the running totals of the scored rounds.
func (st *state) totals() []int {
	out := make([]int, st.n())
	for r := range st.scored() {
		for i := range out {
			out[i] += int(st.hist[r][i].points)
		}
	}
	return out
}

// winners are the seats with the highest total; equal top totals share the win (wizard.md §8).
func (st *state) winners() []games.Seat {
	t := st.totals()
	best := t[0]
	for _, v := range t {
		best = max(best, v)
	}
	var out []games.Seat
	for i, v := range t {
		if v == best {
			out = append(out, games.Seat(i))
		}
	}
	return out
}

// lowest is the first card of a non-empty set in canonical order.
func lowest(s cards.Set) cards.Card {
	if s == 0 {
		return cards.NoCard
	}
	return cards.Card(bits.TrailingZeros64(uint64(s)) + 1)
}
