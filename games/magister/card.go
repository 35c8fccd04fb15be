package magister

import (
	"slices"
	"strings"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Pack is the 36-card pack of §1: 6 to ace in the four suits, in canonical order.
func Pack() []cards.Card { return cards.FrenchFrom(6) }

// PackSet is the 36-card pack as a Set.
func PackSet() cards.Set { return cards.SetOf(Pack()...) }

// Seniority is a card's place in the order 6 < 7 < 8 < 9 < J < Q < K < 10 < A (magister.md §1,
// M-ORDER): 0 for the six up to 8 for the ace, -1 for a card outside the pack.
func Seniority(c cards.Card) int {
	switch r := c.Rank(); r {
	case 6, 7, 8, 9:
		return int(r) - 6
	case cards.Jack:
		return 4
	case cards.Queen:
		return 5
	case cards.King:
		return 6
	case 10:
		return 7
	case cards.Ace:
		return 8
	}
	return -1
}

// beatTable is §5.1, row = the card played, column = the card it is played on, both in
// seniority order 6 7 8 9 J Q K 10 A: 'x' beats (B), 'o' beats only as a one-below beat
// (OneBelow), '.' does not beat (M-TABLE, M-KA).
var beatTable = [9]string{
	"-x.xx.xxx", // 6
	".-.......", // 7
	"xx-xx..xx", // 8
	".x.-o....", // 9
	".x.x-o...", // J
	"xxxxx-o..", // Q
	".xxxxx-o.", // K
	".x.xxxx-o", // 10
	".x.xxxxx-", // A
}

func tableEntry(x, y cards.Card) byte {
	i, j := Seniority(x), Seniority(y)
	if i < 0 || j < 0 {
		return '.'
	}
	return beatTable[i][j]
}

// B is the unconditional beat of §5.1: x beats y of its own suit. Cards of different suits never
// beat each other by the table.
func B(x, y cards.Card) bool {
	return x.Suit() == y.Suit() && tableEntry(x, y) == 'x'
}

// OneBelow is the (✓) relation of §5.1: x, one step below y in its suit, may beat y only as a
// one-below beat (rule R2, M-LOWER).
func OneBelow(x, y cards.Card) bool {
	return x.Suit() == y.Suit() && tableEntry(x, y) == 'o'
}

// CardPoints are the card points of §1 used in the Max deals: A 12, 10 10, K 5, Q 3, J 1, else 0.
func CardPoints(c cards.Card) int {
	switch c.Rank() {
	case cards.Ace:
		return 12
	case 10:
		return 10
	case cards.King:
		return 5
	case cards.Queen:
		return 3
	case cards.Jack:
		return 1
	}
	return 0
}

// suitOrder is the display order of magister.md §13: spades, hearts, diamonds, clubs.
var suitOrder = [4]cards.Suit{cards.Spades, cards.Hearts, cards.Diamonds, cards.Clubs}

func suitIndex(s cards.Suit) int { return slices.Index(suitOrder[:], s) }

// Less orders cards as the vectors and the hand display do: by suit S, H, D, C, then by
// seniority.
func Less(a, b cards.Card) bool {
	if sa, sb := suitIndex(a.Suit()), suitIndex(b.Suit()); sa != sb {
		return sa < sb
	}
	return Seniority(a) < Seniority(b)
}

// Sorted lists the cards of s in display order (Less).
func Sorted(s cards.Set) []cards.Card {
	cs := s.Cards()
	slices.SortFunc(cs, func(a, b cards.Card) int {
		switch {
		case Less(a, b):
			return -1
		case Less(b, a):
			return 1
		}
		return 0
	})
	return cs
}

// Notation writes c as magister.md does, rank then suit letter: "6S", "10C", "QH".
func Notation(c cards.Card) string {
	return c.Rank().String() + c.Suit().Letter()
}

// ParseCard reads a card of the 36-card pack in either notation ("10C" or "C10").
func ParseCard(s string) (cards.Card, bool) {
	c, err := cards.Parse(strings.TrimSpace(s))
	if err != nil || !PackSet().Has(c) {
		return cards.NoCard, false
	}
	return c, true
}
