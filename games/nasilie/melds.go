package nasilie

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Meld kinds, named as in the rule vectors.
const (
	Seq3     = "seq3"
	Seq4     = "seq4"
	Seq5Plus = "seq5plus"
	Stoek    = "stoek"
)

// Meld is one declaration: its kind ("seq4", "four_J", "stoek") and the cards it shows.
type Meld struct {
	Kind  string
	Cards cards.Set
}

// MeldPoints is the value of one meld kind (nasilie.md §Declaring melds and trump), 0 for a kind
// that scores nothing.
func MeldPoints(kind string) int {
	switch kind {
	case Seq3, Stoek:
		return 20
	case Seq4:
		return 50
	case Seq5Plus, "four_10", "four_Q", "four_K", "four_A":
		return 100
	case "four_9":
		return 140
	case "four_J":
		return 200
	}
	return 0
}

// fourKind names the four of a kind of rank r, or "" when four of that rank score nothing
// (7s, 8s and 2–6: nasilie.md §Declaring melds and trump).
func fourKind(r cards.Rank) string {
	if r < 9 {
		return ""
	}
	return "four_" + r.String()
}

// runKind names a run of n cards in one suit (N-SEQ: five or more count once as "5 or more").
func runKind(n int) string {
	switch {
	case n >= 5:
		return Seq5Plus
	case n == 4:
		return Seq4
	}
	return Seq3
}

// runs lists the maximal runs of three or more cards of hand in natural order 2-…-A, suit by suit,
// each from its lowest card up.
func runs(hand cards.Set) [][]cards.Card {
	var out [][]cards.Card
	for _, st := range cards.Suits {
		var cur []cards.Card
		for r := cards.Rank(2); r <= cards.Ace+1; r++ {
			c := cards.French(st, r)
			if r <= cards.Ace && hand.Has(c) {
				cur = append(cur, c)
				continue
			}
			if len(cur) >= 3 {
				out = append(out, cur)
			}
			cur = nil
		}
	}
	return out
}

// candidate is a meld the hand allows; group ties the variants of one run together, since a card
// may sit in one run only (N-SEQ).
type candidate struct {
	Meld
	group int // runs: index of the maximal run + 1; 0 for fours and stoek
	full  bool
}

// candidates lists every meld the declarer may declare from hand with the given trump, in a fixed
// order: runs (each maximal run in full, then its top 5, 4 and 3 cards where shorter), fours,
// stoek. meld/N actions index this list from 1 (nasilie.md §Declaring melds and trump: "any subset
// of his melds, including a shorter run than he holds").
func candidates(hand cards.Set, trump cards.Suit) []candidate {
	var out []candidate
	for i, run := range runs(hand) {
		out = append(out, candidate{Meld{runKind(len(run)), cards.SetOf(run...)}, i + 1, true})
		for _, k := range []int{5, 4, 3} {
			if k < len(run) {
				out = append(out, candidate{Meld{runKind(k), cards.SetOf(run[len(run)-k:]...)}, i + 1, false})
			}
		}
	}
	for r := cards.Rank(9); r <= cards.Ace; r++ {
		var four cards.Set
		for _, st := range cards.Suits {
			if c := cards.French(st, r); hand.Has(c) {
				four = four.Add(c)
			}
		}
		if four.Len() == 4 {
			out = append(out, candidate{Meld{fourKind(r), four}, 0, true})
		}
	}
	if q, k := cards.French(trump, cards.Queen), cards.French(trump, cards.King); hand.Has(q) && hand.Has(k) {
		out = append(out, candidate{Meld{Stoek, cards.SetOf(q, k)}, 0, true})
	}
	return out
}

// declarable reports whether candidate c may be declared after the melds already declared: not
// twice, and not sharing a card with a declared run (N-SEQ: a card may sit in one run only; stoek
// scores at most once, N-STOEK).
func declarable(c candidate, declared []Meld) bool {
	for _, d := range declared {
		if d == c.Meld {
			return false
		}
		if c.group > 0 && isRun(d.Kind) && !d.Cards.Intersect(c.Cards).Empty() {
			return false
		}
	}
	return true
}

// isRun reports whether a meld kind is a run.
func isRun(kind string) bool { return kind == Seq3 || kind == Seq4 || kind == Seq5Plus }

// BestMelds is the highest declaration from a hand with the given trump: every maximal run,
// every scoring four of a kind and stoek (N-SEQ: K and Q of trumps count in a run and as stoek, a
// card may be in a run and a four). It returns the points and the sorted meld names.
func BestMelds(hand []cards.Card, trump cards.Suit) (int, []string) {
	pts := 0
	var names []string
	for _, c := range candidates(cards.SetOf(hand...), trump) {
		if c.full {
			pts += MeldPoints(c.Kind)
			names = append(names, c.Kind)
		}
	}
	slices.Sort(names)
	return pts, names
}
