package games

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Dealer is implemented by the Rules of a game that can deal any deal of a match again from the
// table's seed and configuration alone, exactly as its engine deals it in play. It is what lets
// anyone check, once a match is over and its seed revealed, that the cards came from the seed the
// table committed to at the start (kozyr verify).
type Dealer interface {
	// Deals is the number of deals a match of cfg has, or 0 when play decides it (a race to a
	// score, an open session, a match of parties).
	Deals(cfg Config) (int, error)
	// Deal is deal k (1-based, counted over the whole match) of a match of cfg seeded with seed.
	// played are the moves of deal k from the match's log, or nil when only the seed is known: a
	// game whose deals depend on earlier play (who is still in a Joker match) reads from them what
	// it needs, and says so in an error when they are missing.
	Deal(cfg Config, seed uint64, k int, played []Move) (Deal, error)
}

// Move is one entry of a match's log: who did what.
type Move struct {
	Seat   Seat
	Action Action
}

// Deal is one deal as the seed dealt it: each seat's hand and the cards that went elsewhere.
type Deal struct {
	Dealer Seat        // who dealt (or banked), Nobody where play decides it
	Hands  []cards.Set // per seat, as dealt; empty for a seat dealt nothing
	Piles  []Pile      // the other cards, in the game's own places
}

// Pile is a place of a deal's cards besides the hands, named by a stable lower-case id: "skat",
// "trump" (the card turned for trump), "stock", "aside", or "pack" (the cards in the order a
// banker turns them). Cards are in the order they lie where that order matters, else canonical.
type Pile struct {
	Name  string
	Cards []cards.Card
}

// CheckDeal is the first step of every Dealer.Deal: the deal number against the match's length
// (n, 0 when play decides it).
func CheckDeal(game string, k, n int) error {
	switch {
	case k < 1:
		return fmt.Errorf("%w: %s has no deal %d", ErrBadConfig, game, k)
	case n > 0 && k > n:
		return fmt.Errorf("%w: a %s match of this configuration has %d deals, not %d", ErrBadConfig, game, n, k)
	}
	return nil
}
