package nasilie

import (
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

// hiddenFrom lists pointers to the zones of ns holding cards s cannot see, with the part of each
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

// Redeal permutes the cards hidden from s among the places hidden from s. Cards the declarer has
// shown in a meld stay in his hand; the record of the stock he took follows its cards.
func (st *state) Redeal(s games.Seat, rng uint64) games.State {
	ns := st.clone()
	keep := st.shown()
	zones := ns.hidden(s)
	var pool []cards.Card
	sizes := make([]int, len(zones))
	for i, z := range zones {
		h := z.Minus(keep)
		pool = append(pool, h.Cards()...)
		sizes[i] = h.Len()
		*z = z.Minus(h)
	}
	r := cards.NewRand(rng, 0)
	perm := append([]cards.Card(nil), pool...)
	for i := len(perm) - 1; i > 0; i-- {
		j := int(r.Uint64N(uint64(i + 1)))
		perm[i], perm[j] = perm[j], perm[i]
	}
	k := 0
	for i, z := range zones {
		for range sizes[i] {
			*z = z.Add(perm[k])
			k++
		}
	}
	var took cards.Set
	for _, c := range st.Took.Cards() {
		if i := indexOf(pool, c); i >= 0 {
			c = perm[i]
		}
		took = took.Add(c)
	}
	ns.Took = took
	return ns
}

func indexOf(cs []cards.Card, c cards.Card) int {
	for i, x := range cs {
		if x == c {
			return i
		}
	}
	return -1
}
