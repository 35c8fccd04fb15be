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
// has shown in a meld stay in his hand; the record of the stock he took follows its cards. A hand
// never receives a card its seat has shown it does not hold by not following suit or not trumping
// (voids), so the copy is a deal the play so far could have come from. The deals still to come are
// hidden too: the copy draws them from a fresh seed, so a search that plays on past this deal
// cannot see the real cards.
func (st *state) Redeal(s games.Seat, rng *rand.Rand) games.State {
	ns := *st
	keep := st.shown()
	voids := st.voids()
	places := ns.hidden(s)
	zones := make([]cards.Set, len(places))
	var fits []cards.Set
	deck := st.Deck()
	for i, p := range places {
		zones[i] = p.Minus(keep)
		fit := deck
		for q := range st.hands[:st.players] {
			if p == &ns.hands[q] {
				fit = deck.Minus(voids[q])
			}
		}
		fits = append(fits, fit)
	}
	if voids == [maxPlayers]cards.Set{} {
		fits = nil // every deal fits: a plain uniform shuffle
	}
	dealt, perm, err := cards.Redistribute(zones, fits, rng)
	if err != nil {
		return &ns // the zones are disjoint and the real deal fits, so this cannot happen
	}
	for i, p := range places {
		*p = p.Intersect(keep).Union(dealt[i])
	}
	ns.took = perm.Apply(st.took)
	ns.seed = rng.Uint64()
	return &ns
}

// voids are, per seat, the cards it has shown it does not hold this deal (nasilie.md §Play,
// N-FOLLOW): the cards whose presence in its hand would have made one of its plays illegal.
func (st *state) voids() [maxPlayers]cards.Set {
	var out [maxPlayers]cards.Set
	if st.nPlays == 0 {
		return out
	}
	deck := st.Deck()
	ps := st.tricks()
	note := func(t []Play) {
		led := t[0].Card.Suit()
		for _, p := range t[1:] {
			out[p.Seat] = out[p.Seat].Union(missing(deck, led, p.Card, st.trump, st.lenient))
		}
	}
	for _, t := range ps.history {
		note(t)
	}
	if len(ps.trick) > 0 {
		note(ps.trick)
	}
	return out
}

// missing is what playing c to a trick led in suit led shows a player lacks: on a trump lead, a
// card of another suit shows no trump but perhaps the jack (the trump-jack exception); on a plain
// lead, a trump shows none of the suit led (strictly; leniently a player may trump at will), and
// any other card none of the suit led and, strictly, no trump either.
func missing(deck cards.Set, led cards.Suit, c cards.Card, trump cards.Suit, lenient bool) cards.Set {
	switch s := c.Suit(); {
	case s == led:
		return 0
	case led == trump:
		return deck.Suit(trump).Remove(cards.French(trump, cards.Jack))
	case s == trump:
		if lenient {
			return 0
		}
		return deck.Suit(led)
	case lenient:
		return deck.Suit(led)
	}
	return deck.Suit(led).Union(deck.Suit(trump))
}
