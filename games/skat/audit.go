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
// same permutation so the copy stays consistent. A hand never receives a card of a suit its seat
// has shown it does not hold, so the copy is a deal the play so far could have come from.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *st
	voids := st.voids()
	var places []*cards.Set
	var fits []cards.Set
	constrained := false
	for x := range st.players() {
		if games.Seat(x) != s && !(games.Seat(x) == st.Declarer && st.openHand()) {
			places = append(places, &n.Hands[x])
			fits = append(fits, pack().Minus(voids[x]))
			constrained = constrained || !voids[x].Empty()
		}
	}
	if !st.knowsSkat(s) {
		places = append(places, &n.Skat)
		fits = append(fits, pack())
	}
	if !constrained {
		fits = nil // every deal fits: a plain uniform shuffle
	}
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, perm, err := cards.Redistribute(zones, fits, rng)
	if err != nil {
		return &n // the zones are disjoint, and the deal as it is fits, so this cannot happen
	}
	for i, p := range places {
		*p = dealt[i]
	}
	n.Skat0 = perm.Apply(n.Skat0)
	return &n
}

// voids are, per seat, the cards it has shown it does not hold: every card of a suit (trumps
// counting as one) it did not follow in this deal, since §7 makes a player follow when he can.
func (st *state) voids() [maxSeats]cards.Set {
	var out [maxSeats]cards.Set
	k := st.Contract.Kind
	note := func(leader games.Seat, cs []cards.Card) {
		led := Follow(k, cs[0])
		for i, c := range cs {
			if p := st.player(leader, i); Follow(k, c) != led {
				out[p] = out[p].Union(followers(k, led))
			}
		}
	}
	for _, t := range st.tricks() {
		note(t.Leader, t.Cards[:])
	}
	if cs := st.trickCards(); len(cs) > 0 {
		note(st.Leader, cs)
	}
	return out
}

// followers are the cards of the pack that follow f in game k.
func followers(k Kind, f cards.Suit) cards.Set {
	var out cards.Set
	for _, c := range Deck() {
		if Follow(k, c) == f {
			out = out.Add(c)
		}
	}
	return out
}
