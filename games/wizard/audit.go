package wizard

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones are the hands, the undealt stock, the turned card, the current trick and the cards of the
// completed tricks of this round.
func (st *state) Zones() []cards.Set {
	out := make([]cards.Set, 0, st.n()+4)
	for i := range st.n() {
		out = append(out, st.hands[i])
	}
	return append(out, st.stock, cards.SetOf(st.turned), cards.SetOf(st.trick[:st.nTrick]...), st.played)
}

// Deck is the 60-card Wizard deck.
func (st *state) Deck() cards.Set { return deckSet }

// Redeal redistributes the cards hidden from s (the other hands and the undealt stock) among
// those places, each keeping its size, so that no hand receives a card of a suit its seat did not
// follow this round: the copy is a deal the play so far could have come from.
//
// With hidden_bids a bid that is in but not shown to s is hidden too, and not a card: the copy
// gives that seat the bid the package's agent would make on its redealt hand, so what a search
// plays out never depends on the real secret bid.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	ns := *st
	var zones, fits []cards.Set
	var seats []int8
	constrained := false
	for i := range st.n() {
		if games.Seat(i) != s {
			zones, fits, seats = append(zones, st.hands[i]), append(fits, deckSet.Minus(st.voids[i])), append(seats, i)
			constrained = constrained || st.voids[i] != 0
		}
	}
	zones, fits = append(zones, st.stock), append(fits, deckSet)
	if !constrained {
		fits = nil // every deal fits: a plain uniform shuffle
	}
	dealt, _, err := cards.Redistribute(zones, fits, rng)
	if err != nil {
		// The zones of a state are disjoint and the real deal fits its voids (the decoder checks
		// both), so this cannot happen; the copy is then the state as it is.
		return &ns
	}
	for j, i := range seats {
		ns.hands[i] = dealt[j]
	}
	ns.stock = dealt[len(seats)]
	for _, i := range seats {
		if ns.bids[i] >= 0 && !st.bidVisible(i, s) {
			ns.bids[i] = int8(nearestBid(expectedTricks(ns.hands[i], ns.trump, int(ns.n()), ns.round()), ns.round()))
		}
	}
	return &ns
}
