package cards

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// ErrInfeasible is returned (wrapped) by Redistribute when no deal of the cards meets the fits.
var ErrInfeasible = errors.New("cards: no redistribution fits the constraints")

// maxZones is the most zones Redistribute takes: a zone set is a uint64 bitmask.
const maxZones = 64

// Permutation maps each card to the card that took its place in a Redistribute, so a record of
// where cards once were (Skat's original skat, Nasilie's stock as taken) can follow the new deal.
// Cards it does not move map to themselves; the zero value is the identity.
type Permutation struct {
	to [lastCard + 1]Card
}

// Card is the card that took c's place; c itself when c was not moved.
func (p Permutation) Card(c Card) Card {
	if c.Valid() && p.to[c] != NoCard {
		return p.to[c]
	}
	return c
}

// Apply maps every card of s through p.
func (p Permutation) Apply(s Set) Set {
	var out Set
	for _, c := range s.Cards() {
		if c.Valid() {
			out = out.Add(p.Card(c))
		} else {
			out |= 1 << (c - 1) // not a card of the universe: left as it is
		}
	}
	return out
}

// Redistribute deals the cards of zones anew among the same zones at random, each zone keeping its
// size, and returns the new zones and the permutation from old cards to new ones (within each
// zone, old and new cards are paired at random). zones must be pairwise disjoint; they are not
// modified.
//
// With fit nil every deal is equally likely: a plain Fisher–Yates shuffle. Otherwise len(fit) must
// equal len(zones) and zone i only receives cards of fit[i] (what the seat is known to be able to
// hold: voids shown by not following suit, cards known to be in a hand). Redistribute then finds a
// deal whenever one exists, and returns an error wrapping ErrInfeasible when none does. That deal
// is random but not exactly uniform: the cards, in random order, each go to a zone drawn with
// probability proportional to its remaining room among the zones where the rest can still be
// placed.
func Redistribute(zones, fit []Set, rng *rand.Rand) ([]Set, Permutation, error) {
	var p Permutation
	if len(zones) > maxZones {
		return nil, p, fmt.Errorf("cards: redistribute: %d zones, at most %d", len(zones), maxZones)
	}
	if fit != nil && len(fit) != len(zones) {
		return nil, p, fmt.Errorf("cards: redistribute: %d fits for %d zones", len(fit), len(zones))
	}
	var all Set
	for i, z := range zones {
		if both := all.Intersect(z); !both.Empty() {
			return nil, p, fmt.Errorf("cards: redistribute: zone %d shares %v with an earlier zone", i, both)
		}
		all = all.Union(z)
	}
	if fit == nil {
		out, p := shuffleZones(zones, rng)
		return out, p, nil
	}
	return fitZones(zones, fit, rng)
}

// shuffleZones is Redistribute without fits: the zones' cards in zone order, shuffled, cut back
// into zones of the old sizes; the card at each position replaces the card that was there.
func shuffleZones(zones []Set, rng *rand.Rand) ([]Set, Permutation) {
	var p Permutation
	var old []Card
	for _, z := range zones {
		old = append(old, z.Cards()...)
	}
	perm := ShuffleWith(old, rng)
	out := make([]Set, len(zones))
	k := 0
	for i, z := range zones {
		n := z.Len()
		out[i] = SetOf(perm[k : k+n]...)
		k += n
	}
	for i, c := range old {
		p.to[c] = perm[i]
	}
	return out, p
}

// dealing is the assignment of cards to zones that fitZones works on.
type dealing struct {
	cs      []Card
	allowed []uint64 // per card, the zones it fits
	where   []int    // per card, its zone; -1 while unplaced
	fixed   []bool   // per card, whether its zone is final
	room    []int    // per zone, its size minus its cards placed so far
}

// fitZones is Redistribute with fits. It first finds any deal (a maximum matching grown by
// augmenting paths), then fixes the cards one by one in random order, each into a random zone that
// keeps the rest feasible: moving it there is one more augmenting path through the unfixed cards.
func fitZones(zones, fit []Set, rng *rand.Rand) ([]Set, Permutation, error) {
	var p Permutation
	d := &dealing{room: make([]int, len(zones))}
	for i, z := range zones {
		d.room[i] = z.Len()
		for _, c := range z.Cards() {
			var allowed uint64
			for j, f := range fit {
				if f.Has(c) {
					allowed |= 1 << j
				}
			}
			d.cs = append(d.cs, c)
			d.allowed = append(d.allowed, allowed)
			where := -1
			if allowed&(1<<i) != 0 {
				where = i
				d.room[i]--
			}
			d.where = append(d.where, where)
		}
	}
	d.fixed = make([]bool, len(d.cs))
	for k := range d.cs {
		if d.where[k] < 0 && !d.place(k, d.allowed[k]) {
			return nil, p, fmt.Errorf("cards: redistribute %v: %w", d.cs[k], ErrInfeasible)
		}
	}
	open := make([]int, len(zones)) // per zone, its size minus its cards fixed so far
	for i, z := range zones {
		open[i] = z.Len()
	}
	for _, k := range rng.Perm(len(d.cs)) {
		cand := d.allowed[k]
		for {
			z := drawZone(cand, open, d.where[k], rng)
			if z == d.where[k] || d.move(k, z) {
				break
			}
			cand &^= 1 << z
		}
		d.fixed[k] = true
		open[d.where[k]]--
	}
	out := make([]Set, len(zones))
	for k, c := range d.cs {
		out[d.where[k]] = out[d.where[k]].Add(c)
	}
	for i, z := range zones {
		old, now := z.Cards(), ShuffleWith(out[i].Cards(), rng)
		for j, c := range old {
			p.to[c] = now[j]
		}
	}
	return out, p, nil
}

// drawZone draws a zone of cand with probability proportional to its room. cand always holds the
// card's own zone, which has room (the card itself is not fixed yet); that zone is also the answer
// should there be no room at all.
func drawZone(cand uint64, open []int, own int, rng *rand.Rand) int {
	total := 0
	for z, r := range open {
		if cand&(1<<z) != 0 {
			total += r
		}
	}
	if total <= 0 {
		return own
	}
	x := rng.IntN(total)
	for z, r := range open {
		if cand&(1<<z) != 0 {
			if x < r {
				return z
			}
			x -= r
		}
	}
	return own
}

// place puts the unplaced card k into one of the zones in into, shifting unfixed cards along an
// augmenting path if those zones are full, and reports whether such a path existed.
func (d *dealing) place(k int, into uint64) bool {
	// A breadth-first search over zones: reaching zone z by card via[z] means that card moves
	// into z from zone from[z] (k comes from nowhere).
	const none = -1
	var via, from, queue [maxZones]int
	n, head, tail := len(d.room), 0, 0
	for z := range n {
		via[z], from[z] = none, none
		if into&(1<<z) != 0 {
			via[z] = k
			queue[tail] = z
			tail++
		}
	}
	for head < tail {
		z := queue[head]
		head++
		if d.room[z] > 0 {
			for z != none {
				m := via[z]
				if prev := d.where[m]; prev >= 0 {
					d.room[prev]++
				}
				d.where[m] = z
				d.room[z]--
				z = from[z]
			}
			return true
		}
		for m, w := range d.where {
			if w != z || d.fixed[m] {
				continue
			}
			for y := range n {
				if d.allowed[m]&(1<<y) != 0 && via[y] == none {
					via[y], from[y] = m, z
					queue[tail] = y
					tail++
				}
			}
		}
	}
	return false
}

// move moves the unfixed card k into zone z if the other unfixed cards can make room, and reports
// whether it did; otherwise nothing changes.
func (d *dealing) move(k, z int) bool {
	prev := d.where[k]
	d.where[k] = -1
	d.room[prev]++
	if d.place(k, 1<<z) {
		return true
	}
	d.where[k] = prev
	d.room[prev]--
	return false
}
