package skat

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Deck is the 32-card pack every deal uses.
func (st *state) Deck() cards.Set { return cards.SetOf(Deck()...) }

// Zones are the hands, the skat, the current trick and each seat's won cards.
func (st *state) Zones() []cards.Set {
	z := append([]cards.Set{st.Skat, cards.SetOf(st.Trick...)}, st.Hands...)
	return append(z, st.Won...)
}

// Redeal permutes the cards hidden from s (other hands unless shown open, and the skat unless s
// took it) among the places they lie in, and rewrites the record of the original skat with the
// same permutation so the copy stays consistent.
func (st *state) Redeal(s games.Seat, rng uint64) games.State {
	n := st.clone()
	hiddenHand := func(x games.Seat) bool {
		return x != s && !(x == st.Declarer && st.openHand())
	}
	var hidden []cards.Card
	for x, h := range n.Hands {
		if hiddenHand(games.Seat(x)) {
			hidden = append(hidden, h.Cards()...)
		}
	}
	if !st.knowsSkat(s) {
		hidden = append(hidden, n.Skat.Cards()...)
	}
	perm := append([]cards.Card(nil), hidden...)
	r := cards.NewRand(rng, 0)
	for i := len(perm) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	to := make(map[cards.Card]cards.Card, len(hidden))
	for i, c := range hidden {
		to[c] = perm[i]
	}
	mapSet := func(set cards.Set) cards.Set {
		var out cards.Set
		for _, c := range set.Cards() {
			if m, ok := to[c]; ok {
				c = m
			}
			out = out.Add(c)
		}
		return out
	}
	for x := range n.Hands {
		if hiddenHand(games.Seat(x)) {
			n.Hands[x] = mapSet(n.Hands[x])
		}
	}
	if !st.knowsSkat(s) {
		n.Skat = mapSet(n.Skat)
	}
	n.Skat0 = mapSet(n.Skat0)
	return n
}
