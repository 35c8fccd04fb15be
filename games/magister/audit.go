package magister

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones are the places a card can be: each hand, the cards set aside, the undealt pack, each
// seat's taken banks and the bank on the table.
func (g *state) Zones() []cards.Set {
	z := make([]cards.Set, 0, 2*g.n+3)
	z = append(z, g.hands[:g.n]...)
	z = append(z, g.aside, g.stock)
	z = append(z, g.taken[:g.n]...)
	return append(z, g.bank.Cards())
}

// Deck is the 36-card pack; every deal is played with all of it (§2.4).
func (g *state) Deck() cards.Set { return PackSet() }

// Redeal redistributes the cards s cannot see (the other hands, the cards set aside, the undealt
// pack) among those places. Taken banks are public: every card in them was played face up.
func (g *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *g
	var places []*cards.Set
	for p := range n.n {
		if games.Seat(p) != s {
			places = append(places, &n.hands[p])
		}
	}
	places = append(places, &n.aside, &n.stock)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, _, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return &n // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = dealt[i]
	}
	return &n
}
