package magister

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones are the places a card can be: each hand, the cards set aside, the undealt pack, each
// seat's taken banks and the bank on the table.
func (g *state) Zones() []cards.Set {
	z := make([]cards.Set, 0, 2*g.N+3)
	z = append(z, g.Hands[:g.N]...)
	z = append(z, g.Aside, g.Stock)
	z = append(z, g.Taken[:g.N]...)
	if g.Bank != nil {
		z = append(z, g.Bank.Cards())
	}
	return z
}

// Deck is the 36-card pack; every deal is played with all of it (§2.4).
func (g *state) Deck() cards.Set { return PackSet() }

// Redeal permutes the cards s cannot see (the other hands, the cards set aside, the undealt pack)
// among those places. Taken banks are public: every card in them was played face up.
func (g *state) Redeal(s games.Seat, rng uint64) games.State {
	n := g.clone()
	var hidden []*cards.Set
	for p := range n.N {
		if games.Seat(p) != s {
			hidden = append(hidden, &n.Hands[p])
		}
	}
	hidden = append(hidden, &n.Aside, &n.Stock)
	var pool []cards.Card
	sizes := make([]int, len(hidden))
	for i, h := range hidden {
		pool = append(pool, h.Cards()...)
		sizes[i] = h.Len()
		*h = 0
	}
	r := cards.NewRand(rng, 0)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i, h := range hidden {
		*h = cards.SetOf(pool[:sizes[i]]...)
		pool = pool[sizes[i]:]
	}
	return n
}
