package cards

import "math/rand/v2"

// FrenchFrom returns the French cards of every suit with rank min..Ace, in canonical order:
// FrenchFrom(2) is the 52-card pack, FrenchFrom(6) the 36-card pack, FrenchFrom(7) the 32-card pack.
func FrenchFrom(min Rank) []Card {
	out := make([]Card, 0, 4*(int(Ace)-int(min)+1))
	for _, s := range Suits {
		for r := min; r <= Ace; r++ {
			out = append(out, French(s, r))
		}
	}
	return out
}

// WizardDeck is Wizard's 60 cards: the 52-card pack, W1–W4 and N1–N4.
func WizardDeck() []Card {
	d := FrenchFrom(2)
	for i := 1; i <= 4; i++ {
		d = append(d, Wizard(i))
	}
	for i := 1; i <= 4; i++ {
		d = append(d, Jester(i))
	}
	return d
}

// NewRand is the random source for deal k of a table with the given seed (design §2): a PCG
// seeded with (seed, k), so every deal is reproducible on its own.
func NewRand(seed, k uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, k))
}

// Shuffle returns a shuffled copy of deck for deal k of the table seeded with seed. It is our own
// Fisher–Yates over NewRand, so the order never depends on a library's shuffle algorithm.
func Shuffle(deck []Card, seed, k uint64) []Card {
	out := append([]Card(nil), deck...)
	r := NewRand(seed, k)
	for i := len(out) - 1; i > 0; i-- {
		j := int(r.Uint64N(uint64(i + 1)))
		out[i], out[j] = out[j], out[i]
	}
	return out
}
