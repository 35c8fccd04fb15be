package joker

import "github.com/kozyr-bot/kozyr/games/cards"

// Deals is the number of deals of a party (joker.md "Structure").
const Deals = 13

// schedule is the hand size of deals 1..13 (joker.md "Deal schedule", J-SCHEDULE).
var schedule = [Deals]int{2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2}

// HandSize is the number of cards each player receives in deal 1..13 of a party, for every player
// count (joker.md "Deal schedule", J-SCHEDULE); 0 outside the schedule.
func HandSize(deal int) int {
	if deal < 1 || deal > Deals {
		return 0
	}
	return schedule[deal-1]
}

// Pack is the 54-card pack both games of joker.md play with, 52 French cards and the jokers X1
// and X2, in canonical order: the order every shuffle starts from (joker.md "Players and cards").
func Pack() []cards.Card {
	return append(cards.FrenchFrom(2), cards.Joker(1), cards.Joker(2))
}

// Masks of a cards.Set (bit c-1 stands for card c; X1 is card 61): the jokers X1 and X2, and the
// Pack (the 52 French cards are cards 1..52).
const (
	jokers  cards.Set = 3 << 60
	packSet cards.Set = 1<<52 - 1 | jokers
)

// ForbiddenBid is the one bid the dealer may not make, or -1 when the dealer is unrestricted
// (joker.md "Bidding", J-HOOK): the value that would make all bids add up to the hand size.
func ForbiddenBid(hand int, others []int) int {
	f := hand
	for _, b := range others {
		f -= b
	}
	if f < 0 || f > hand {
		return -1
	}
	return f
}

// DealerBids lists the dealer's legal bids in ascending order (joker.md "Bidding", J-HOOK).
func DealerBids(hand int, others []int) []int {
	f := ForbiddenBid(hand, others)
	out := make([]int, 0, hand+1)
	for b := 0; b <= hand; b++ {
		if b != f {
			out = append(out, b)
		}
	}
	return out
}
