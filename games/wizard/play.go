package wizard

import "github.com/kozyr-bot/kozyr/games/cards"

// Masks of the special cards in a cards.Set: bit c-1 stands for card c (W1 is card 53, N1 card 57).
const (
	wizards cards.Set = 0xF << 52
	jesters cards.Set = 0xF << 56
	// deckSet is the 60-card Wizard deck: 52 French cards, four Wizards, four Jesters.
	deckSet cards.Set = 1<<deckSize - 1
)

// deckSize is the number of cards of the Wizard deck.
const deckSize = 60

// HasTrumpCard reports whether a card is left to turn for trump after dealing round r to the
// players (wizard.md §3.3: only the round that deals all 60 cards has none).
func HasTrumpCard(players, r int) bool { return players*r < deckSize }

// LedSuit is the suit to follow in a trick so far, or cards.NoSuit when there is none (yet).
// wizard.md §5: Jesters are skipped; the first non-Jester decides; a Wizard there frees the trick.
func LedSuit(trick []cards.Card) cards.Suit {
	for _, c := range trick {
		switch {
		case c.IsJester():
			continue
		case c.IsWizard():
			return cards.NoSuit
		default:
			return c.Suit()
		}
	}
	return cards.NoSuit
}

// LegalPlays is the part of hand that may be played onto trick. wizard.md §5: holding a card of
// the led suit, a player must play that suit, a Wizard or a Jester; otherwise anything.
func LegalPlays(hand cards.Set, trick []cards.Card) cards.Set {
	led := LedSuit(trick)
	if led == cards.NoSuit {
		return hand
	}
	follow := hand.Suit(led)
	if follow.Empty() {
		return hand
	}
	return follow | hand&(wizards|jesters)
}

// TrickWinner is the index in trick (play order) of the card that wins it under trump
// (cards.NoSuit for no trump), or -1 for an empty trick.
func TrickWinner(trick []cards.Card, trump cards.Suit) int {
	if len(trick) == 0 {
		return -1
	}
	// wizard.md §6.1: the first Wizard wins.
	for i, c := range trick {
		if c.IsWizard() {
			return i
		}
	}
	// wizard.md §6.2: only Jesters — the first Jester wins.
	best := -1
	for i, c := range trick {
		if c.IsFrench() {
			best = i
			break
		}
	}
	if best < 0 {
		return 0
	}
	// wizard.md §6.3–4: the first suited card sets the led suit; a trump beats any non-trump,
	// within a suit the higher rank wins, and other suits never win.
	for i := best + 1; i < len(trick); i++ {
		c, b := trick[i], trick[best]
		if !c.IsFrench() {
			continue
		}
		if c.Suit() == b.Suit() {
			if c.Rank() > b.Rank() {
				best = i
			}
		} else if trump != cards.NoSuit && c.Suit() == trump {
			best = i
		}
	}
	return best
}

// RoundScore is one player's score for a round (wizard.md §7): 20 + 10 per trick when the bid is
// met exactly, otherwise −10 per trick over or under.
func RoundScore(bid, taken int) int {
	if bid == taken {
		return 20 + 10*taken
	}
	d := taken - bid
	if d < 0 {
		d = -d
	}
	return -10 * d
}
