package joker

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// FollowSuit is the suit of the first non-joker card of a trick, or NoSuit while only jokers (or
// nothing) have been played (joker.md "Play", J-LEAD).
func FollowSuit(trick []cards.Card) cards.Suit {
	for _, c := range trick {
		if !c.IsJoker() {
			return c.Suit()
		}
	}
	return cards.NoSuit
}

// LegalPlays is the subset of hand, in hand order, that may be played to trick (joker.md "Play"):
// a player holding the suit to follow plays that suit or a joker (J-ANYTIME); otherwise any card.
// There is no obligation to trump.
func LegalPlays(hand, trick []cards.Card) []cards.Card {
	ok := Playable(cards.SetOf(hand...), FollowSuit(trick))
	out := make([]cards.Card, 0, len(hand))
	for _, c := range hand {
		if ok.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// Playable is LegalPlays on sets, the form the engine and its agent use: the cards of hand that
// may be played to a trick whose suit to follow is follow (NoSuit: none is fixed yet).
func Playable(hand cards.Set, follow cards.Suit) cards.Set {
	if in := hand.Suit(follow); !in.Empty() {
		return in.Union(hand.Intersect(jokers))
	}
	return hand
}

// Call is a joker's announced value: high beats everything, low never wins (joker.md "Jokers").
type Call uint8

// Calls. NoCall stands for a non-joker card, and for the second joker of a trick before
// ResolveCalls gives it the value opposite to the first (J-TWOJOKERS).
const (
	NoCall Call = iota
	High
	Low
)

// ResolveCalls returns calls with the second joker of the trick set opposite to the first
// (joker.md "Jokers", J-TWOJOKERS); calls of non-jokers become NoCall.
func ResolveCalls(trick []cards.Card, calls []Call) []Call {
	out := make([]Call, len(trick))
	first := NoCall
	for i, c := range trick {
		if c.IsJoker() {
			out[i] = resolve(first, i, calls)
			if first == NoCall {
				first = out[i]
			}
		}
	}
	return out
}

// resolve is the value of the joker at index i of a trick in which the first joker, if any came
// before it, took the value first (J-TWOJOKERS).
func resolve(first Call, i int, calls []Call) Call {
	switch {
	case first == High:
		return Low
	case first == Low:
		return High
	case i < len(calls) && calls[i] == High:
		return High
	}
	return Low
}

// TrickWinner is the index of the card that wins trick (joker.md "Winning a trick"): a high joker,
// else the highest trump (trump NoSuit: a deal without trumps), else the highest card of the suit
// to follow. calls holds the announcements, NoCall for the second joker. -1 for an empty trick.
func TrickWinner(trick []cards.Card, calls []Call, trump cards.Suit) int {
	follow := FollowSuit(trick)
	best, first := -1, NoCall
	for i, c := range trick {
		if c.IsJoker() {
			v := resolve(first, i, calls)
			if v == High {
				return i
			}
			if first == NoCall {
				first = v
			}
			continue
		}
		if c.Suit() != follow && c.Suit() != trump {
			continue
		}
		if best < 0 || beats(c, trick[best], trump) {
			best = i
		}
	}
	return best
}

// beats reports whether c, of the suit to follow or trump, beats b, the best such card so far.
func beats(c, b cards.Card, trump cards.Suit) bool {
	if c.Suit() == b.Suit() {
		return c.Rank() > b.Rank()
	}
	return trump != cards.NoSuit && c.Suit() == trump
}

// Play is one card of a trick: who played it and, for a joker, its value (High or Low, the second
// joker's already resolved); NoCall for a suited card.
type Play struct {
	Seat games.Seat
	Card cards.Card
	Call Call
}

// trick is a trick's cards in play order, kept as arrays so a state copies it with one assignment
// and the rule functions read it without allocating.
type trick struct {
	n     int
	seats [maxSeats]games.Seat
	cards [maxSeats]cards.Card
	calls [maxSeats]Call
}

// add appends a play.
func (t *trick) add(s games.Seat, c cards.Card, v Call) {
	t.seats[t.n], t.cards[t.n], t.calls[t.n] = s, c, v
	t.n++
}

// winner is the seat that wins the trick so far.
func (t *trick) winner(trump cards.Suit) games.Seat {
	return t.seats[TrickWinner(t.cards[:t.n], t.calls[:t.n], trump)]
}

// follow is the suit to follow (joker.md "Play", J-LEAD).
func (t *trick) follow() cards.Suit { return FollowSuit(t.cards[:t.n]) }

// set is the trick's cards as a set.
func (t *trick) set() cards.Set { return cards.SetOf(t.cards[:t.n]...) }

// hasJoker reports whether a joker was played to the trick.
func (t *trick) hasJoker() bool { return !t.set().Intersect(jokers).Empty() }

// plays lists the trick for views and messages.
func (t *trick) plays() []Play {
	out := make([]Play, t.n)
	for i := range t.n {
		out[i] = Play{Seat: t.seats[i], Card: t.cards[i], Call: t.calls[i]}
	}
	return out
}

// valueOf is the value card c takes when played now with announcement call: the second joker of
// a trick takes the value opposite to the first (J-TWOJOKERS); NoCall for a suited card.
func (t *trick) valueOf(c cards.Card, call Call) Call {
	if !c.IsJoker() {
		return NoCall
	}
	switch t.firstCall() {
	case High:
		return Low
	case Low:
		return High
	}
	return call
}

// firstCall is the value of the joker already in the trick, NoCall if there is none.
func (t *trick) firstCall() Call {
	for i, c := range t.cards[:t.n] {
		if c.IsJoker() {
			return t.calls[i]
		}
	}
	return NoCall
}
