package nasilie

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Zones lists every place a card can be: each hand, the stock (or the laid-away cards), the cards
// set aside, the trick on the table and each player's won tricks.
func (st *state) Zones() []cards.Set {
	out := append([]cards.Set(nil), st.hands[:st.players]...)
	ps := st.tricks()
	var trick cards.Set
	for _, p := range ps.trick {
		trick = trick.Add(p.Card)
	}
	out = append(out, st.stock, st.aside, trick)
	return append(out, ps.won[:st.players]...)
}

// Deck is the pack of this match: 32 cards, or 52 with five or six players.
func (st *state) Deck() cards.Set { return cards.SetOf(st.pack()...) }

// hidden lists pointers to the zones of st holding cards s cannot see: the hands of the others
// (and his own until he looks), the stock unless he is the declarer who took it, and the cards
// set aside.
func (st *state) hidden(s games.Seat) []*cards.Set {
	var out []*cards.Set
	for p := range st.hands[:st.players] {
		if games.Seat(p) != s || !st.looked[p] {
			out = append(out, &st.hands[p])
		}
	}
	if d, _ := st.declarer(); s == games.Nobody || s != d || st.took.Empty() {
		out = append(out, &st.stock)
	}
	return append(out, &st.aside)
}

// Redeal redistributes the cards hidden from s among the places hidden from s. Cards the declarer
// has shown in a meld stay in his hand; the record of the stock he took follows its cards.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	ns := *st
	keep := st.shown()
	places := ns.hidden(s)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = p.Minus(keep)
	}
	dealt, perm, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return &ns // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = p.Intersect(keep).Union(dealt[i])
	}
	ns.took = perm.Apply(st.took)
	return &ns
}
