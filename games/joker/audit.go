package joker

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones are the hands, the trick in progress, the collected tricks, the turn-up and the undealt
// stock of the deal (joker.md "Engine notes": 54 cards conserved per deal).
func (st *state) Zones() []cards.Set {
	z := append([]cards.Set(nil), st.hands[:st.n]...)
	return append(z, st.trick.set(), st.won, cards.SetOf(st.turnUp), st.stock())
}

// Deck is the 54-card Pack.
func (st *state) Deck() cards.Set { return packSet }

// Redeal redistributes the cards hidden from s (the other hands and the stock) among those places.
// A hand never receives a card of a suit its seat has shown it lacks (voidOf), so the copy is a
// deal the play so far could have come from; the jokers may lie anywhere, since a joker may be
// played at any time. What s has seen stays: its hand, the turn-up, the trick on the table and
// the cards collected, which every player saw as they were played. Bids are public, and the
// deals to come are still in the seed, which a search never plays (it stops at the deal's end).
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *st
	var zones, fits []cards.Set
	constrained := false
	for t := range games.Seat(st.n) {
		if t != s {
			zones = append(zones, st.hands[t])
			fits = append(fits, packSet.Minus(st.voids[t].cards()))
			constrained = constrained || st.voids[t] != 0
		}
	}
	zones, fits = append(zones, st.stock()), append(fits, packSet)
	if !constrained {
		fits = nil // every deal fits: a plain uniform shuffle
	}
	dealt, _, err := cards.Redistribute(zones, fits, rng)
	if err != nil {
		return &n // the zones are disjoint and the deal as it is fits, so this cannot happen
	}
	for t := range games.Seat(st.n) {
		if t != s {
			n.hands[t], dealt = dealt[0], dealt[1:]
		}
	}
	return &n // the stock is what the hands do not hold
}
