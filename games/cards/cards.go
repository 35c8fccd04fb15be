// Package cards is the one card universe every kozyr game draws from: the 52 French cards, the four
// Wizards and four Jesters of Wizard, and two jokers. A Card is a small integer, a Set a uint64
// bitmask, so engines copy hands for free and compare them with ==.
package cards

import (
	"fmt"
	"strconv"
	"strings"
)

// Suit is one of the four French suits. Its order (clubs, diamonds, hearts, spades) is only the
// canonical sort order; each game ranks suits by its own rules.
type Suit uint8

// The four suits, and NoSuit for the special cards (Wizards, Jesters, jokers).
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
	NoSuit Suit = 255
)

// Suits lists the four suits in canonical order.
var Suits = [4]Suit{Clubs, Diamonds, Hearts, Spades}

var suitLetters = [4]byte{'C', 'D', 'H', 'S'}
var suitNames = [4]string{"clubs", "diamonds", "hearts", "spades"}

// Letter is the suit's notation letter: C, D, H or S.
func (s Suit) Letter() string {
	if s > Spades {
		return "?"
	}
	return string(suitLetters[s])
}

// String is the suit's lower-case English name, the stable id used in vectors, options and
// locale keys ("clubs", "hearts").
func (s Suit) String() string {
	if s > Spades {
		return "none"
	}
	return suitNames[s]
}

// ParseSuit accepts a suit letter (C, D, H, S) or name (clubs, ...), in any case.
func ParseSuit(s string) (Suit, error) {
	l := strings.ToLower(s)
	for i, name := range suitNames {
		if l == name || l == strings.ToLower(string(suitLetters[i])) {
			return Suit(i), nil
		}
	}
	return NoSuit, fmt.Errorf("cards: unknown suit %q", s)
}

// Rank is the face value of a French card: 2..10, then Jack=11, Queen=12, King=13, Ace=14. It is
// the natural order; games with other orders (Skat's tens, Nasilie's jacks) map it themselves.
type Rank uint8

// Named ranks.
const (
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
	Ace   Rank = 14
)

// String is the rank's notation: 2..10, J, Q, K, A.
func (r Rank) String() string {
	switch r {
	case Jack:
		return "J"
	case Queen:
		return "Q"
	case King:
		return "K"
	case Ace:
		return "A"
	}
	if r >= 2 && r <= 10 {
		return strconv.Itoa(int(r))
	}
	return "?"
}

// Card is one card of the universe. The zero value is NoCard, so an Action or a struct field
// without a card needs no sentinel. Valid cards are 1..62: French cards first (suit-major,
// rank 2..A), then W1–W4, N1–N4, X1, X2.
type Card uint8

// NoCard is the absent card.
const NoCard Card = 0

const (
	firstWizard = 53
	firstJester = 57
	firstJoker  = 61
	lastCard    = 62
)

// French returns the French card of suit s and rank r.
func French(s Suit, r Rank) Card {
	if s > Spades || r < 2 || r > Ace {
		return NoCard
	}
	return Card(1 + int(s)*13 + int(r) - 2)
}

// Wizard returns Wizard number i (1..4).
func Wizard(i int) Card { return special(firstWizard, i, 4) }

// Jester returns Jester number i (1..4).
func Jester(i int) Card { return special(firstJester, i, 4) }

// Joker returns joker number i (1..2).
func Joker(i int) Card { return special(firstJoker, i, 2) }

func special(first Card, i, n int) Card {
	if i < 1 || i > n {
		return NoCard
	}
	return first + Card(i-1)
}

// Valid reports whether c is a card of the universe.
func (c Card) Valid() bool { return c >= 1 && c <= lastCard }

// IsFrench reports whether c is one of the 52 suited cards.
func (c Card) IsFrench() bool { return c >= 1 && c < firstWizard }

// IsWizard reports whether c is one of W1–W4.
func (c Card) IsWizard() bool { return c >= firstWizard && c < firstJester }

// IsJester reports whether c is one of N1–N4.
func (c Card) IsJester() bool { return c >= firstJester && c < firstJoker }

// IsJoker reports whether c is X1 or X2.
func (c Card) IsJoker() bool { return c >= firstJoker && c <= lastCard }

// Suit is the card's suit, NoSuit for special cards.
func (c Card) Suit() Suit {
	if !c.IsFrench() {
		return NoSuit
	}
	return Suit((c - 1) / 13)
}

// Rank is the card's rank, 0 for special cards.
func (c Card) Rank() Rank {
	if !c.IsFrench() {
		return 0
	}
	return Rank((c-1)%13 + 2)
}

// String is the canonical notation: suit letter + rank ("S10", "HQ"), or W1–W4, N1–N4, X1, X2.
func (c Card) String() string {
	if !c.Valid() {
		return "-"
	}
	return cardNames[c]
}

// cardNames is every card's notation, computed once: marshalling states spells cards a lot.
var cardNames = func() (names [lastCard + 1]string) {
	for c := Card(1); c <= lastCard; c++ {
		names[c] = c.notation()
	}
	return names
}()

// notation spells c out; String reads it from cardNames.
func (c Card) notation() string {
	switch {
	case c.IsFrench():
		return c.Suit().Letter() + c.Rank().String()
	case c.IsWizard():
		return "W" + strconv.Itoa(int(c-firstWizard+1))
	case c.IsJester():
		return "N" + strconv.Itoa(int(c-firstJester+1))
	case c.IsJoker():
		return "X" + strconv.Itoa(int(c-firstJoker+1))
	}
	return "-"
}

// MarshalText writes the canonical notation, so cards read well in JSON.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("cards: marshal invalid card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText accepts exactly what MarshalText writes, the canonical notation, so a stored state
// decodes only from its one canonical form; Parse is the lenient reader for what people type.
func (c *Card) UnmarshalText(b []byte) error {
	p, ok := parseCanonical(b)
	if !ok {
		return fmt.Errorf("cards: %q is not a card in canonical notation", b)
	}
	*c = p
	return nil
}

// parseCanonical reads exactly the canonical notation String writes, without allocating: decoding
// a stored state reads many cards.
func parseCanonical(b []byte) (Card, bool) {
	if len(b) < 2 || len(b) > 3 {
		return NoCard, false
	}
	var c Card
	if len(b) == 2 && b[1] >= '1' && b[1] <= '4' {
		switch i := int(b[1] - '0'); b[0] {
		case 'W':
			c = Wizard(i)
		case 'N':
			c = Jester(i)
		case 'X':
			c = Joker(i)
		}
	}
	if st := strings.IndexByte("CDHS", b[0]); st >= 0 && c == NoCard {
		var r Rank
		switch {
		case len(b) == 3:
			if b[1] == '1' && b[2] == '0' {
				r = 10
			}
		case b[1] >= '2' && b[1] <= '9':
			r = Rank(b[1] - '0')
		case b[1] == 'J':
			r = Jack
		case b[1] == 'Q':
			r = Queen
		case b[1] == 'K':
			r = King
		case b[1] == 'A':
			r = Ace
		}
		c = French(Suit(st), r)
	}
	return c, c != NoCard
}

func parseRank(s string) (Rank, bool) {
	switch s {
	case "J":
		return Jack, true
	case "Q":
		return Queen, true
	case "K":
		return King, true
	case "A":
		return Ace, true
	case "T":
		return 10, true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 2 || n > 10 || s[0] == '0' || s[0] == '+' {
		return 0, false
	}
	return Rank(n), true
}

// Parse reads a card in canonical notation (suit letter first: "S10", "CJ") or rank first
// ("10S", "6H", as magister.md writes them); letters may be lower case. W1–W4, N1–N4, X1, X2
// name the special cards.
func Parse(s string) (Card, error) {
	u := strings.ToUpper(s)
	if len(u) == 2 && u[1] >= '1' && u[1] <= '4' {
		i := int(u[1] - '0')
		var c Card
		switch u[0] {
		case 'W':
			c = Wizard(i)
		case 'N':
			c = Jester(i)
		case 'X':
			c = Joker(i)
		}
		if c != NoCard {
			return c, nil
		}
	}
	if len(u) >= 2 && len(u) <= 3 {
		if st, err := ParseSuit(u[:1]); err == nil {
			if r, ok := parseRank(u[1:]); ok {
				return French(st, r), nil
			}
		}
		if st, err := ParseSuit(u[len(u)-1:]); err == nil {
			if r, ok := parseRank(u[:len(u)-1]); ok {
				return French(st, r), nil
			}
		}
	}
	return NoCard, fmt.Errorf("cards: cannot parse card %q", s)
}

// MustParse is Parse for literals in tests and tables; it panics on a bad card.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads space- or comma-separated cards.
func ParseList(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
	out := make([]Card, 0, len(fields))
	for _, f := range fields {
		c, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MustParseList is ParseList for literals; it panics on a bad card.
func MustParseList(s string) []Card {
	cs, err := ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}
