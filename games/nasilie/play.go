package nasilie

import "github.com/kozyr-bot/kozyr/games/cards"

// CardPoints is the value of c in a deal with the given trump (nasilie.md §Players, seating,
// cards): trump J 20, 9 14, A 11, 10 10, K 3, Q 2; plain A 11, 10 10, K 3, Q 2, J 1; the rest 0.
func CardPoints(c cards.Card, trump cards.Suit) int {
	if c.Suit() == trump {
		switch c.Rank() {
		case cards.Jack:
			return 20
		case 9:
			return 14
		}
	}
	switch c.Rank() {
	case cards.Ace:
		return 11
	case 10:
		return 10
	case cards.King:
		return 3
	case cards.Queen:
		return 2
	case cards.Jack:
		return 1
	}
	return 0
}

// SetPoints adds up the card points of a set of cards.
func SetPoints(s cards.Set, trump cards.Suit) int {
	n := 0
	for _, c := range s.Cards() {
		n += CardPoints(c, trump)
	}
	return n
}

// Strength orders the cards of one suit for taking tricks (nasilie.md §Players, seating, cards):
// plain suits in natural order A K Q J 10 9 … 2; trumps J 9 A K Q 10 8 7 … 2 (N-MORE for 2–6).
func Strength(c cards.Card, trump cards.Suit) int {
	r := int(c.Rank())
	if c.Suit() == trump {
		switch c.Rank() {
		case cards.Jack:
			return 20
		case 9:
			return 19
		}
	}
	return r
}

// TrickWinner is the index into played (in play order, played[0] led) of the card that wins the
// trick (nasilie.md §Play): the highest trump, else the highest card of the suit led.
func TrickWinner(played []cards.Card, trump cards.Suit) int {
	best := 0
	for i := 1; i < len(played); i++ {
		if beats(played[i], played[best], trump) {
			best = i
		}
	}
	return best
}

// beats reports whether c beats the card w that is winning so far.
func beats(c, w cards.Card, trump cards.Suit) bool {
	switch {
	case c.Suit() == w.Suit():
		return Strength(c, trump) > Strength(w, trump)
	case c.Suit() == trump:
		return true
	}
	return false
}

// LegalPlays is the subset of hand (in hand order) that may be played to a trick led by led
// (cards.NoCard when leading): nasilie.md §Play, N-FOLLOW. Strictly: follow suit, else trump,
// else anything; on a trump lead the jack of trumps held alone need not be played. Lenient (the
// current pagat rule, an option): a player who can follow may trump instead, and a void player may
// play anything.
func LegalPlays(hand []cards.Card, led cards.Card, trump cards.Suit, lenient bool) []cards.Card {
	if led == cards.NoCard {
		return append([]cards.Card(nil), hand...)
	}
	ls := led.Suit()
	var follow, trumps []cards.Card
	for _, c := range hand {
		if c.Suit() == ls {
			follow = append(follow, c)
		}
		if c.Suit() == trump {
			trumps = append(trumps, c)
		}
	}
	all := append([]cards.Card(nil), hand...)
	if ls == trump {
		// nasilie.md §Play: trump-jack exception, trump leads only.
		if len(follow) == 0 || (len(follow) == 1 && follow[0].Rank() == cards.Jack) {
			return all
		}
		return follow
	}
	if len(follow) > 0 {
		if lenient {
			return filter(hand, func(c cards.Card) bool { return c.Suit() == ls || c.Suit() == trump })
		}
		return follow
	}
	if len(trumps) > 0 && !lenient {
		return trumps
	}
	return all
}

func filter(hand []cards.Card, keep func(cards.Card) bool) []cards.Card {
	var out []cards.Card
	for _, c := range hand {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}
