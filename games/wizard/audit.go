package wizard

import (
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

// Redeal shuffles the cards hidden from s (the other hands and the undealt stock) among those
// places, each keeping its size.
func (st *state) Redeal(s games.Seat, rng uint64) games.State {
	ns := *st
	var places []*cards.Set
	for i := range st.n() {
		if games.Seat(i) != s {
			places = append(places, &ns.hands[i])
		}
	}
	places = append(places, &ns.stock)
	var hidden []cards.Card
	sizes := make([]int, len(places))
	for i, p := range places {
		sizes[i] = p.Len()
		hidden = append(hidden, p.Cards()...)
	}
	r := cards.NewRand(rng, 0)
	for i := len(hidden) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		hidden[i], hidden[j] = hidden[j], hidden[i]
	}
	for i, p := range places {
		*p = cards.SetOf(hidden[:sizes[i]]...)
		hidden = hidden[sizes[i]:]
	}
	return &ns
}
