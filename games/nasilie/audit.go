package nasilie

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones lists every place a card can be: each hand, the stock (or the laid-away cards), the cards
// set aside, the trick on the table and each player's won tricks.
func (st *state) Zones() []cards.Set {
	out := append([]cards.Set(nil), st.Hands...)
	ps := st.played()
	var trick cards.Set
	for _, p := range ps.trick {
		trick = trick.Add(p.Card)
	}
	out = append(out, st.Stock, st.Aside, trick)
	return append(out, ps.won...)
}

// Deck is the pack of this match: 32 cards, or 52 with five or six players.
func (st *state) Deck() cards.Set { return cards.SetOf(st.pack()...) }

// hidden lists pointers to the zones of st holding cards s cannot see, with the part of each
// that is hidden.
func (st *state) hidden(s games.Seat) []*cards.Set {
	var out []*cards.Set
	for p := range st.Hands {
		if games.Seat(p) != s || !st.Looked[p] {
			out = append(out, &st.Hands[p])
		}
	}
	if s == games.Nobody || s != st.Declarer || st.StockState != stockTaken {
		out = append(out, &st.Stock)
	}
	return append(out, &st.Aside)
}

// Redeal redistributes the cards hidden from s among the places hidden from s. Cards the declarer
// has shown in a meld stay in his hand; the record of the stock he took follows its cards.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	ns := st.clone()
	keep := st.shown()
	places := ns.hidden(s)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = p.Minus(keep)
	}
	dealt, perm, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return ns // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = p.Intersect(keep).Union(dealt[i])
	}
	ns.Took = perm.Apply(st.Took)
	return ns
}
