package skat

import (
	"math/bits"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Kind is the game played in a deal: a suit game, Grand, Null, Null Ouvert or Ramsch.
type Kind uint8

// The game kinds (skat.md §5, §13). NoKind is "not declared yet".
const (
	NoKind Kind = iota
	Diamonds
	Hearts
	Spades
	Clubs
	Grand
	Null
	NullOuvert
	Ramsch
)

var kindNames = [...]string{"none", "diamonds", "hearts", "spades", "clubs", "grand", "null",
	"null_ouvert", "ramsch"}

// String is the kind's id as the vectors write it ("clubs", "null_ouvert").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// ParseKind reads a kind id written by String.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s && i != int(NoKind) {
			return Kind(i), true
		}
	}
	return NoKind, false
}

// IsSuit reports a suit game (a trump suit besides the jacks).
func (k Kind) IsSuit() bool { return k >= Diamonds && k <= Clubs }

// IsNull reports Null or Null Ouvert: no trumps, no multiplier, jacks in their suits.
func (k Kind) IsNull() bool { return k == Null || k == NullOuvert }

// HasTrumps reports a game with the jacks as trumps: suit games, Grand and Ramsch (§6).
func (k Kind) HasTrumps() bool { return k.IsSuit() || k == Grand || k == Ramsch }

// TrumpSuit is the suit of a suit game, NoSuit otherwise.
func (k Kind) TrumpSuit() cards.Suit {
	switch k {
	case Diamonds:
		return cards.Diamonds
	case Hearts:
		return cards.Hearts
	case Spades:
		return cards.Spades
	case Clubs:
		return cards.Clubs
	}
	return cards.NoSuit
}

// SuitKind is the suit game with trump suit s.
func SuitKind(s cards.Suit) Kind {
	switch s {
	case cards.Diamonds:
		return Diamonds
	case cards.Hearts:
		return Hearts
	case cards.Spades:
		return Spades
	case cards.Clubs:
		return Clubs
	}
	return NoKind
}

// Base is the base value of §10.1 under v: 9–12 for the suits, v.GrandBase for Grand, and the
// fixed values of Null (23) and Null Ouvert (v.NullOuvert).
func (k Kind) Base(v Variant) int {
	switch k {
	case Diamonds:
		return 9
	case Hearts:
		return 10
	case Spades:
		return 11
	case Clubs:
		return 12
	case Grand:
		return v.GrandBase
	case Null:
		return 23
	case NullOuvert:
		return v.NullOuvert
	}
	return 0
}

// skatSuits is the suit order of the Skat table: clubs, spades, hearts, diamonds (§2).
var skatSuits = [4]cards.Suit{cards.Clubs, cards.Spades, cards.Hearts, cards.Diamonds}

// Deck is the 32-card Skat pack.
func Deck() []cards.Card { return cards.FrenchFrom(7) }

// pack is the 32-card Skat pack as a set.
func pack() cards.Set { return cards.SetOf(Deck()...) }

// Points is a card's card points (§2): A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0.
func Points(c cards.Card) int {
	switch c.Rank() {
	case cards.Ace:
		return 11
	case 10:
		return 10
	case cards.King:
		return 4
	case cards.Queen:
		return 3
	case cards.Jack:
		return 2
	}
	return 0
}

// SetPoints is the card points of a set of cards.
func SetPoints(s cards.Set) int {
	n := 0
	for _, c := range s.Cards() {
		n += Points(c)
	}
	return n
}

// jack returns the jack of suit s.
func jack(s cards.Suit) cards.Card { return cards.French(s, cards.Jack) }

// plainOrder is the order of a suit's non-jack cards in trump games, high to low (§6).
var plainOrder = [7]cards.Rank{cards.Ace, 10, cards.King, cards.Queen, 9, 8, 7}

// nullOrder is the order of a suit in Null games, high to low (§6).
var nullOrder = [8]cards.Rank{cards.Ace, cards.King, cards.Queen, cards.Jack, 10, 9, 8, 7}

// TrumpOrder lists the trumps of kind k from high to low (§6): the four jacks, then the trump
// suit's A 10 K Q 9 8 7 in a suit game; nil in Null games.
func TrumpOrder(k Kind) []cards.Card {
	if !k.HasTrumps() {
		return nil
	}
	out := make([]cards.Card, 0, 11)
	for _, s := range skatSuits {
		out = append(out, jack(s))
	}
	if t := k.TrumpSuit(); t != cards.NoSuit {
		for _, r := range plainOrder {
			out = append(out, cards.French(t, r))
		}
	}
	return out
}

// kindTable is what the agent and SortHand ask of a kind on every move, worked out once from
// TrumpOrder, Follow and Beats: a search plays thousands of moves per decision.
type kindTable struct {
	trumps    []cards.Card // TrumpOrder(k), shared: never written
	trumpSet  cards.Set    // the same as a set
	rank      [53]int8     // per card: how many cards of its Follow suit it beats
	followers [5]cards.Set // per Follow suit (Trumps included): the cards that follow it
}

// kindTables holds the kindTable of every kind, NoKind to Ramsch.
var kindTables = func() (out [Ramsch + 1]kindTable) {
	for k := range out {
		t := &out[k]
		t.trumps = TrumpOrder(Kind(k))
		t.trumpSet = cards.SetOf(t.trumps...)
		for _, c := range Deck() {
			f := Follow(Kind(k), c)
			t.followers[f] = t.followers[f].Add(c)
			for _, x := range Deck() {
				if Follow(Kind(k), x) == f && Beats(Kind(k), c, x, f) {
					t.rank[c]++
				}
			}
		}
	}
	return out
}()

// tableOf is k's kindTable (NoKind's for a kind out of range).
func tableOf(k Kind) *kindTable {
	if int(k) >= len(kindTables) {
		return &kindTables[NoKind]
	}
	return &kindTables[k]
}

// Trumps is the pseudo-suit Follow gives every trump in suit games, Grand and Ramsch (§6: a
// jack follows trumps, not its printed suit).
const Trumps cards.Suit = 4

// Follow is the suit c belongs to for following in game k: Trumps for every trump (jacks and
// the trump suit), otherwise the printed suit.
func Follow(k Kind, c cards.Card) cards.Suit {
	if k.HasTrumps() && (c.Rank() == cards.Jack || c.Suit() == k.TrumpSuit()) {
		return Trumps
	}
	return c.Suit()
}

// strength ranks c inside its Follow suit; higher beats lower.
func strength(k Kind, c cards.Card) int {
	if k.IsNull() {
		for i, r := range nullOrder {
			if c.Rank() == r {
				return 8 - i
			}
		}
		return 0
	}
	if c.Rank() == cards.Jack {
		for i, s := range skatSuits {
			if c.Suit() == s {
				return 20 - i
			}
		}
	}
	for i, r := range plainOrder {
		if c.Rank() == r {
			return 7 - i
		}
	}
	return 0
}

// Beats reports whether card c, played later in a trick, beats the card best that leads the trick
// so far, when led is the suit led (§7: the highest trump, else the highest card of the led suit).
func Beats(k Kind, c, best cards.Card, led cards.Suit) bool {
	fc, fb := Follow(k, c), Follow(k, best)
	switch {
	case fc == fb:
		return strength(k, c) > strength(k, best)
	case fc == Trumps:
		return true
	case fb == Trumps:
		return false
	}
	return fc == led && fb != led
}

// TrickWinner is the index in trick (in playing order) of the card that wins it (§7).
func TrickWinner(k Kind, trick []cards.Card) int {
	if len(trick) == 0 {
		return -1
	}
	led := Follow(k, trick[0])
	best := 0
	for i := 1; i < len(trick); i++ {
		if Beats(k, trick[i], trick[best], led) {
			best = i
		}
	}
	return best
}

// LegalPlays is the cards of hand that may be played to a trick whose first card is led (NoCard
// when leading): the cards that follow the led suit if there are any, otherwise all (§7).
func LegalPlays(k Kind, hand cards.Set, led cards.Card) cards.Set {
	if led == cards.NoCard {
		return hand
	}
	var follow cards.Set
	s := Follow(k, led)
	for _, c := range hand.Cards() {
		if Follow(k, c) == s {
			follow = follow.Add(c)
		}
	}
	if follow.Empty() {
		return hand
	}
	return follow
}

// SortHand orders cards for display in game k (NoKind sorts as Grand): trumps high to low first,
// then clubs, spades, hearts, diamonds, each high to low.
func SortHand(k Kind, hand cards.Set) []cards.Card {
	if k == NoKind {
		k = Grand
	}
	out := make([]cards.Card, 0, hand.Len())
	for _, c := range tableOf(k).trumps {
		if hand.Has(c) {
			out = append(out, c)
		}
	}
	for _, s := range skatSuits {
		if s == k.TrumpSuit() {
			continue
		}
		ranks := plainOrder[:]
		if k.IsNull() {
			ranks = nullOrder[:]
		}
		for _, r := range ranks {
			if c := cards.French(s, r); hand.Has(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// lowest is the first card of a non-empty set in canonical order: a loop over a set's bits
// that needs no slice.
func lowest(s cards.Set) cards.Card {
	if s == 0 {
		return cards.NoCard
	}
	return cards.Card(bits.TrailingZeros64(uint64(s)) + 1)
}
