package cards

import (
	"bytes"
	"fmt"
	"math/bits"
)

// Set is a set of cards as a bitmask: bit c-1 stands for card c. Hands, piles and skats are Sets,
// so they copy by value and compare with ==. As text (and so in JSON) a Set is its cards in
// canonical notation, "S10 SQ X1".
type Set uint64

// SetOf builds a Set from cards.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s = s.Add(c)
	}
	return s
}

// universe holds the bits of the 62 cards; a Set with any other bit is not a set of cards.
const universe = Set(1)<<lastCard - 1

func bit(c Card) Set {
	if !c.Valid() {
		return 0
	}
	return 1 << (c - 1)
}

// Has reports whether c is in s.
func (s Set) Has(c Card) bool { return c.Valid() && s&bit(c) != 0 }

// Add returns s with c added.
func (s Set) Add(c Card) Set { return s | bit(c) }

// Remove returns s without c.
func (s Set) Remove(c Card) Set { return s &^ bit(c) }

// Union returns the cards in s or t.
func (s Set) Union(t Set) Set { return s | t }

// Intersect returns the cards in both s and t.
func (s Set) Intersect(t Set) Set { return s & t }

// Minus returns the cards of s not in t.
func (s Set) Minus(t Set) Set { return s &^ t }

// Len is the number of cards in s.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Empty reports whether s has no cards.
func (s Set) Empty() bool { return s == 0 }

// Cards lists the cards of s in canonical order (suit-major, rank ascending, then specials).
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for v := uint64(s); v != 0; v &= v - 1 {
		out = append(out, Card(bits.TrailingZeros64(v)+1))
	}
	return out
}

// Suit returns the cards of s in suit st.
func (s Set) Suit(st Suit) Set {
	if st > Spades {
		return 0
	}
	return s & (Set(1<<13-1) << (13 * uint(st)))
}

// String lists the cards in canonical notation, space separated.
func (s Set) String() string { return string(s.appendText(nil)) }

// appendText appends String's text to b.
func (s Set) appendText(b []byte) []byte {
	for v := uint64(s); v != 0; v &= v - 1 {
		if v != uint64(s) {
			b = append(b, ' ')
		}
		b = append(b, Card(bits.TrailingZeros64(v)+1).String()...)
	}
	return b
}

// MarshalText writes the cards of s in canonical notation and order, space separated ("S10 SQ X1";
// the empty set is ""), so JSON carries a Set exactly and readably: a raw uint64 above 2^53 is
// silently rounded by JavaScript and jq.
func (s Set) MarshalText() ([]byte, error) {
	if s&^universe != 0 {
		return nil, fmt.Errorf("cards: marshal set with non-card bits %#x", uint64(s&^universe))
	}
	return s.appendText(make([]byte, 0, 4*s.Len())), nil
}

// UnmarshalText accepts exactly what MarshalText writes: canonical card notation, ascending
// canonical order, single spaces. Anything else (another spelling, a repeated or unknown card,
// stray spaces) is an error, so a stored state decodes only from its one canonical form.
func (s *Set) UnmarshalText(b []byte) error {
	var out Set
	prev := NoCard
	for rest := b; len(rest) > 0; {
		tok := rest
		if i := bytes.IndexByte(rest, ' '); i >= 0 {
			tok, rest = rest[:i], rest[i+1:]
			if len(rest) == 0 {
				return fmt.Errorf("cards: set %q ends in a space", b)
			}
		} else {
			rest = nil
		}
		c, ok := parseCanonical(tok)
		if !ok {
			return fmt.Errorf("cards: set %q: %q is not a card in canonical notation", b, tok)
		}
		if c <= prev {
			return fmt.Errorf("cards: set %q: %s repeated or out of order", b, tok)
		}
		out, prev = out.Add(c), c
	}
	*s = out
	return nil
}
