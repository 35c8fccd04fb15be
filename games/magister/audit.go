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
// pack) among those places. Taken banks are public: every card in them was played face up. A hand
// never receives a card its seat has shown it does not hold (voids), so the copy is a deal the
// play so far could have come from. The deals still to come are hidden too: the copy draws them
// from a fresh seed (and drops the given packs of later deals), so a search that plays on past
// this deal, or chooses the trumps before deal 1, cannot see the real cards.
func (g *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := *g
	var places []*cards.Set
	var fits []cards.Set
	constrained := false
	for p := range n.n {
		if games.Seat(p) != s {
			places = append(places, &n.hands[p])
			fits = append(fits, PackSet().Minus(g.voids[p]))
			constrained = constrained || !g.voids[p].Empty()
		}
	}
	places = append(places, &n.aside, &n.stock)
	fits = append(fits, PackSet(), PackSet())
	if !constrained {
		fits = nil // every deal fits: a plain uniform shuffle
	}
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, _, err := cards.Redistribute(zones, fits, rng)
	if err != nil {
		return &n // the zones are disjoint and the real deal fits, so this cannot happen
	}
	for i, p := range places {
		*p = dealt[i]
	}
	n.seed = rng.Uint64()
	n.packs = n.packs[:min(len(n.packs), n.deal):min(len(n.packs), n.deal)]
	return &n
}

// shownMissing is what a follower shows he does not hold by playing x onto bank b with outcome o
// (§7, M-DISCARD): a card that neither takes nor knocks out and is neither of the main suit nor of
// the main card's rank is allowed only to a player with no card of either; an eight of another
// suit takes (a switch, R1e) only from a player without the main suit (R1a), unless it is of the
// main card's rank. Everything else is allowed to any hand and shows nothing. These are exactly
// the cards whose presence in the hand would have made x illegal.
func shownMissing(b Bank, x cards.Card, o Outcome) cards.Set {
	if x.Suit() == b.S || x.Rank() == b.L.Rank() {
		return 0 // following the main suit or the main card's rank is allowed to any hand
	}
	switch o {
	case Switch:
		return PackSet().Suit(b.S)
	case None:
		out := PackSet().Suit(b.S)
		for _, c := range Pack() {
			if c.Rank() == b.L.Rank() {
				out = out.Add(c)
			}
		}
		return out
	}
	return 0
}
