package skat

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// Role is an active player's place in a deal relative to the dealer (skat.md §1).
type Role int8

// The three active roles.
const (
	Forehand Role = iota
	Middlehand
	Rearhand
)

// Auction is the bidding of §4 as a pure value: who is bidder and holder, whose turn it is and
// the highest number named. It knows roles, not seats.
type Auction struct {
	Phase    int8 `json:"p"`           // 1: middlehand against forehand; 2: rearhand against the survivor; 3: over
	Bidder   Role `json:"b"`           // names numbers (§4.2, §4.3)
	Holder   Role `json:"h"`           // answers hold or pass
	Turn     Role `json:"t"`           // whose call it is
	Highest  int  `json:"n,omitempty"` // highest number named so far, 0 if none
	Declarer Role `json:"d"`           // when over: the declarer, or -1 when nobody bid (§4.5)
}

// NewAuction is the auction's start: middlehand bids to forehand (§4.2).
func NewAuction() Auction {
	return Auction{Phase: 1, Bidder: Middlehand, Holder: Forehand, Turn: Middlehand, Declarer: -1}
}

// Over reports the end of the auction: a declarer, or nobody bid.
func (a Auction) Over() bool { return a.Phase == 3 }

// ForehandAlone reports that middlehand and rearhand passed without naming a number (§4.5).
func (a Auction) ForehandAlone() bool { return a.Over() && a.Declarer < 0 }

// Calls lists the calls legal now for the role to call (§4.1), in canonical order: the bids
// higher than every number named (from values, ascending), then hold, then pass.
func (a Auction) Calls(values []int) []games.Action {
	if a.Over() {
		return nil
	}
	out := make([]games.Action, 0, len(values)+1)
	if a.Turn == a.Bidder {
		for _, v := range values {
			if v > a.Highest {
				out = append(out, games.Num("bid", v))
			}
		}
	} else {
		out = append(out, games.Do("hold"))
	}
	return append(out, games.Do("pass"))
}

// Call applies role r's call c, or returns an error wrapping games.ErrNotYourTurn or
// games.ErrIllegal (§4.1).
func (a Auction) Call(values []int, r Role, c games.Action) (Auction, error) {
	if a.Over() {
		return a, fmt.Errorf("skat: auction is over: %w", games.ErrIllegal)
	}
	if r != a.Turn {
		return a, fmt.Errorf("skat: auction: role %d calls out of turn: %w", r, games.ErrNotYourTurn)
	}
	if !slices.Contains(a.Calls(values), c) {
		return a, fmt.Errorf("skat: auction: %v by role %d: %w", c, r, games.ErrIllegal)
	}
	switch {
	case c.Kind == "bid":
		a.Highest = int(c.N)
		a.Turn = a.Holder
	case c.Kind == "hold":
		a.Turn = a.Bidder
	case a.Phase == 1:
		// §4.2: the one who did not pass survives and holds against rearhand.
		survivor := a.Bidder
		if r == a.Bidder {
			survivor = a.Holder
		}
		a.Phase, a.Bidder, a.Holder, a.Turn = 2, Rearhand, survivor, Rearhand
	default:
		// §4.3: the other becomes declarer, unless nobody named a number (§4.5).
		a.Phase = 3
		switch {
		case r == a.Holder:
			a.Declarer = a.Bidder
		case a.Highest > 0:
			a.Declarer = a.Holder
		}
	}
	return a, nil
}
