package skat

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Deck is the 32-card pack every deal uses.
func (st *state) Deck() cards.Set { return pack() }

// Zones are the skat, the current trick, and each seat's hand and won cards.
func (st *state) Zones() []cards.Set {
	n := st.players()
	z := append([]cards.Set{st.Skat, cards.SetOf(st.trickCards()...)}, st.Hands[:n]...)
	return append(z, st.Won[:n]...)
}

// Redeal redistributes the cards hidden from s (other hands unless shown open, and the skat unless
// s took it) among the places they lie in, and rewrites the record of the original skat with the
// same permutation so the copy stays consistent.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *st
	var places []*cards.Set
	for x := range st.players() {
		if games.Seat(x) != s && !(games.Seat(x) == st.Declarer && st.openHand()) {
			places = append(places, &n.Hands[x])
		}
	}
	if !st.knowsSkat(s) {
		places = append(places, &n.Skat)
	}
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, perm, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return &n // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = dealt[i]
	}
	n.Skat0 = perm.Apply(n.Skat0)
	return &n
}
