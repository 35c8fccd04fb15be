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
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *st
	var zones []cards.Set
	for t := range games.Seat(st.n) {
		if t != s {
			zones = append(zones, st.hands[t])
		}
	}
	zones = append(zones, st.stock())
	dealt, _, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return &n // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for t := range games.Seat(st.n) {
		if t != s {
			n.hands[t], dealt = dealt[0], dealt[1:]
		}
	}
	return &n // the stock is what the hands do not hold
}
