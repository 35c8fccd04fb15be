package cards

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
