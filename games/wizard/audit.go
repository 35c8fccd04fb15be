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
// those places, each keeping its size.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	ns := *st
	var places []*cards.Set
	for i := range st.n() {
		if games.Seat(i) != s {
			places = append(places, &ns.hands[i])
		}
	}
	places = append(places, &ns.stock)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, _, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return &ns // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = dealt[i]
	}
	return &ns
}
