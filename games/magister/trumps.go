package magister

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// The five trump variants of magister.md §3.
const (
	VariantOwn          = 1 // each player his own trump (default)
	VariantNone         = 2 // no trumps
	VariantOne          = 3 // one trump suit for all
	VariantTwo          = 4 // two equal trump suits for all
	VariantSeniorJunior = 5 // ♠ senior, ♦ junior trump for all
)

// ErrTrumps is returned for a trump configuration of the wrong shape (§3, M-TRUMPCHOICE).
var ErrTrumps = errors.New("bad trump configuration")

// Trumps is the trump configuration of a game, fixed for all 24 deals (§3, M-TRUMPFIX). The
// bank rules read it only through Level and Variant. Its slices are never written in place once
// it is made (the trump choice replaces Own), so states may share them.
type Trumps struct {
	Variant int
	Own     []cards.Suit // variant 1: seat → its own trump, NoSuit = none
	Shared  []cards.Suit // variants 3 (one suit) and 4 (two suits)
}

// OwnTrumps is variant 1 with seat i's trump own[i]; the suits must be distinct (§3).
func OwnTrumps(own ...cards.Suit) (Trumps, error) {
	t := Trumps{Variant: VariantOwn, Own: slices.Clone(own)}
	return t, t.Validate(len(own))
}

// SharedTrumps is variant 2 (no suits), 3 (one suit), 4 (two suits) or 5 (no suits: ♠ and ♦
// are fixed).
func SharedTrumps(variant int, suits ...cards.Suit) (Trumps, error) {
	t := Trumps{Variant: variant, Shared: slices.Clone(suits)}
	if len(suits) == 0 {
		t.Shared = nil
	}
	return t, t.Validate(4)
}

// Validate checks the shape of the configuration for a table of the given size: variant 1 gives
// every player exactly one suit and no two players the same suit (§3), variant 3 one suit,
// variant 4 two different suits, variants 2 and 5 nothing.
func (t Trumps) Validate(players int) error {
	want := 0
	switch t.Variant {
	case VariantOwn:
		if len(t.Own) != players || len(t.Shared) != 0 {
			return fmt.Errorf("%w: variant 1 needs one suit for each of %d players", ErrTrumps, players)
		}
		return distinctSuits(t.Own)
	case VariantNone, VariantSeniorJunior:
		want = 0
	case VariantOne:
		want = 1
	case VariantTwo:
		want = 2
	default:
		return fmt.Errorf("%w: no variant %d", ErrTrumps, t.Variant)
	}
	if len(t.Shared) != want || len(t.Own) != 0 {
		return fmt.Errorf("%w: variant %d needs %d chosen suit(s)", ErrTrumps, t.Variant, want)
	}
	return distinctSuits(t.Shared)
}

func distinctSuits(ss []cards.Suit) error {
	for i, s := range ss {
		if s > cards.Spades {
			return fmt.Errorf("%w: %v is not a suit", ErrTrumps, s)
		}
		if slices.Contains(ss[:i], s) {
			return fmt.Errorf("%w: suit %v given twice", ErrTrumps, s)
		}
	}
	return nil
}

// IsShared reports a shared variant (3, 4, 5), where the level rule M-LEVEL applies.
func (t Trumps) IsShared() bool { return t.Variant >= VariantOne }

// Level is the trump level of card c in the hand of seat p (§3): 0 ordinary, 1 trump (junior),
// 2 senior trump.
func (t Trumps) Level(c cards.Card, p games.Seat) int {
	s := c.Suit()
	if s > cards.Spades {
		return 0
	}
	switch t.Variant {
	case VariantOwn:
		if p >= 0 && int(p) < len(t.Own) && t.Own[p] == s {
			return 1
		}
	case VariantOne, VariantTwo:
		if slices.Contains(t.Shared, s) {
			return 1
		}
	case VariantSeniorJunior:
		switch s {
		case cards.Spades:
			return 2
		case cards.Diamonds:
			return 1
		}
	}
	return 0
}

// TrumpOf is seat p's own trump in variant 1, NoSuit otherwise.
func (t Trumps) TrumpOf(p games.Seat) cards.Suit {
	if t.Variant == VariantOwn && p >= 0 && int(p) < len(t.Own) {
		return t.Own[p]
	}
	return cards.NoSuit
}

// clone is a copy of t that shares no memory with it, for a View handed out to agents.
func (t Trumps) clone() Trumps {
	t.Own = slices.Clone(t.Own)
	t.Shared = slices.Clone(t.Shared)
	return t
}
