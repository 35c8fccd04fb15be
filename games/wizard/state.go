package wizard

import (
	"math/bits"
	"slices"

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
	numPhases
)

// String is the phase's name, as View.Phase and the stored state spell it.
func (p phase) String() string {
	switch p {
	case phaseTrump:
		return "trump"
	case phaseBid:
		return "bid"
	case phasePlay:
		return "play"
	case phaseOver:
		return "over"
	}
	return "?"
}

// result is one player's line of one scored round; its points are RoundScore(bid, taken).
type result struct {
	bid, taken int8
}

// state is a moment of a match. It is a plain value (arrays, no slices, maps or pointers), so
// Apply copies it with one assignment and never shares memory with its receiver.
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
	hands  [maxSeats]cards.Set
	bids   [maxSeats]int8 // -1: no bid yet
	taken  [maxSeats]int8
	trick  [maxSeats]cards.Card // the current trick in play order, from leader
	played cards.Set            // cards of the completed tricks of this round

	// voids are, per seat, the suited cards it has shown it does not hold this round: every card
	// of a suit it did not follow, since wizard.md §5 makes a player follow when he can (a Wizard
	// or a Jester shows nothing). A world a search samples keeps them (Redeal).
	voids [maxSeats]cards.Set

	last       [maxSeats]cards.Card // the previous trick of this round, from lastLeader
	lastLeader int8
	lastWinner int8 // -1: no trick completed this round

	// hist holds the scored rounds, 0..ri-1 or 0..ri once over, a row of n results each: a match
	// deals no card twice to one seat, so n rows of Rounds(n) results never exceed the deck.
	hist [deckSize]result
}

// row is the results of scored round r, one per seat.
func (st *state) row(r int) []result {
	n := int(st.n())
	return st.hist[r*n : (r+1)*n]
}

func (st *state) n() int8    { return st.set.players }
func (st *state) round() int { return int(st.set.rounds[st.ri]) }

// next is the seat to the left of s.
func (st *state) next(s int8) int8 { return (s + 1) % st.set.players }

// firstDealer is the seat drawn by lot to deal the first round (wizard.md §2, §9 W1).
func firstDealer(players int8, seed uint64) int8 {
	return int8(cards.Stream(seed, cards.Dealer, 1).IntN(int(players)))
}

// newState starts a match: the first dealer is drawn and the first round is dealt.
func newState(set settings, seed uint64) (*state, []games.Event) {
	st := &state{set: set, seed: seed, dealer: firstDealer(set.players, seed)}
	var evs []games.Event
	st.deal(&evs)
	return st, evs
}

// deal deals round ri (deal number ri+1) and turns trump (wizard.md §3).
func (st *state) deal(evs *[]games.Event) {
	n, r := int(st.n()), st.round()
	order := cards.Shuffle(cards.WizardDeck(), st.seed, uint64(st.ri)+1)
	st.hands = [maxSeats]cards.Set{}
	// wizard.md §3.1: one card at a time, starting at the dealer's left.
	for i := 0; i < r*n; i++ {
		s := (int(st.dealer) + 1 + i%n) % n
		st.hands[s] = st.hands[s].Add(order[i])
	}
	st.turned, st.stock, st.trump = cards.NoCard, 0, cards.NoSuit
	if HasTrumpCard(n, r) {
		// wizard.md §3.2: the top remaining card is turned; the rest stays hidden.
		st.turned = order[r*n]
		st.stock = cards.SetOf(order[r*n+1:]...)
	}
	for i := range st.bids {
		st.bids[i], st.taken[i] = -1, 0
	}
	st.trick, st.nTrick, st.played = [maxSeats]cards.Card{}, 0, 0
	st.voids = [maxSeats]cards.Set{}
	st.last, st.lastLeader, st.lastWinner = [maxSeats]cards.Card{}, -1, -1
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

// maxLegal is the longest Legal list: the 21 bids of a 20-card round.
const maxLegal = maxRounds + 1

// Legal lists s's actions: trump/0..3 for the dealer after a turned Wizard, bid/0..r in bidding,
// play/CARD for every playable card (wizard.md §5) in canonical card order.
func (st *state) Legal(s games.Seat) []games.Action { return st.appendLegal(nil, s) }

// appendLegal appends Legal(s) to dst. Apply lists into an array on its stack with it, so
// checking an action against Legal costs no allocation.
func (st *state) appendLegal(dst []games.Action, s games.Seat) []games.Action {
	if !st.canAct(s) {
		return dst
	}
	switch st.phase {
	case phaseTrump:
		dst = slices.Grow(dst, len(cards.Suits))
		for _, su := range cards.Suits {
			dst = append(dst, games.Num(KindTrump, int(su)))
		}
		return dst
	case phaseBid:
		r, f := st.round(), st.forbiddenBid(s)
		dst = slices.Grow(dst, r+1)
		for b := 0; b <= r; b++ {
			if b != f {
				dst = append(dst, games.Num(KindBid, b))
			}
		}
		return dst
	}
	ok := LegalPlays(st.hands[s], st.trick[:st.nTrick])
	dst = slices.Grow(dst, ok.Len())
	for v := ok; v != 0; v &= v - 1 {
		dst = append(dst, games.With(KindPlay, lowest(v)))
	}
	return dst
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
		for i, h := range st.row(r) {
			out[i] += RoundScore(int(h.bid), int(h.taken))
		}
	}
	return out
}

// winners are the seats with the highest total; equal top totals share the win (wizard.md §8).
func (st *state) winners() []games.Seat {
	t := st.totals()
	best := slices.Max(t)
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
