package joker

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games/cards"
)

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

// FollowSuit is the suit of the first non-joker card of a trick, or NoSuit while only jokers (or
// nothing) have been played (joker.md "Play", J-LEAD).
func FollowSuit(trick []cards.Card) cards.Suit {
	for _, c := range trick {
		if !c.IsJoker() {
			return c.Suit()
		}
	}
	return cards.NoSuit
}

// LegalPlays is the subset of hand, in hand order, that may be played to trick (joker.md "Play"):
// a player holding the suit to follow plays that suit or a joker (J-ANYTIME); otherwise any card.
// There is no obligation to trump.
func LegalPlays(hand, trick []cards.Card) []cards.Card {
	st := FollowSuit(trick)
	has := st != cards.NoSuit && slices.ContainsFunc(hand, func(c cards.Card) bool { return c.Suit() == st })
	out := make([]cards.Card, 0, len(hand))
	for _, c := range hand {
		if !has || c.IsJoker() || c.Suit() == st {
			out = append(out, c)
		}
	}
	return out
}

// legalSet is LegalPlays on sets, for the engine's hot path.
func legalSet(hand cards.Set, follow cards.Suit) cards.Set {
	if in := hand.Suit(follow); !in.Empty() {
		return in.Union(hand.Intersect(cards.SetOf(cards.Joker(1), cards.Joker(2))))
	}
	return hand
}

// Call is a joker's announced value: high beats everything, low never wins (joker.md "Jokers").
type Call uint8

// Calls. NoCall stands for a non-joker card, and for the second joker of a trick before
// ResolveCalls gives it the value opposite to the first (J-TWOJOKERS).
const (
	NoCall Call = iota
	High
	Low
)

// ResolveCalls returns calls with the second joker of the trick set opposite to the first
// (joker.md "Jokers", J-TWOJOKERS); calls of non-jokers become NoCall.
func ResolveCalls(trick []cards.Card, calls []Call) []Call {
	out := make([]Call, len(trick))
	first := NoCall
	for i, c := range trick {
		if !c.IsJoker() {
			continue
		}
		switch {
		case first == NoCall:
			first = Low
			if i < len(calls) && calls[i] == High {
				first = High
			}
			out[i] = first
		case first == High:
			out[i] = Low
		default:
			out[i] = High
		}
	}
	return out
}

// TrickWinner is the index of the card that wins trick (joker.md "Winning a trick"): a high joker,
// else the highest trump (trump NoSuit: a deal without trumps), else the highest card of the suit
// to follow. calls holds the announcements, NoCall for the second joker. -1 for an empty trick.
func TrickWinner(trick []cards.Card, calls []Call, trump cards.Suit) int {
	res := ResolveCalls(trick, calls)
	for i, c := range res {
		if c == High {
			return i
		}
	}
	best := -1
	better := func(c cards.Card) bool {
		if best < 0 {
			return true
		}
		b := trick[best]
		if c.Suit() == b.Suit() {
			return c.Rank() > b.Rank()
		}
		return trump != cards.NoSuit && c.Suit() == trump
	}
	follow := FollowSuit(trick)
	for i, c := range trick {
		if c.IsJoker() || (c.Suit() != follow && c.Suit() != trump) {
			continue
		}
		if better(c) {
			best = i
		}
	}
	return best
}

// Outcome is how a deal went for one player (joker.md "Scoring a deal"); its text is the vectors'.
type Outcome string

// Outcomes of a deal.
const (
	Exact    Outcome = "exact"
	PassMade Outcome = "pass_made"
	Over     Outcome = "over"
	Short    Outcome = "short"
)

// Points of joker.md "Scoring a deal" and "Penalties".
const (
	PassPoints    = 5
	LeadPenalty   = -10
	RevokePenalty = -50
)

// DealScore is one player's score for one deal.
type DealScore struct {
	Outcome Outcome // empty on a revoke
	Base    int     // score before penalties
	Penalty int     // joker leads (or the revoke), <= 0
	Points  int     // Base + Penalty, entered on the sheet
	Replay  bool    // the deal is cancelled and dealt again (revoke)
}

// ScoreDeal scores one player's deal (joker.md "Scoring a deal", "Penalties"): bid b, tricks t,
// leads the number of joker leads made while holding other cards (J-LEADPEN; leads of the last
// card are exempt and not counted). A revoke voids everything else and costs 50 (J-REVOKE).
func ScoreDeal(b, t, leads int, revoke bool) DealScore {
	if revoke {
		return DealScore{Penalty: RevokePenalty, Points: RevokePenalty, Replay: true}
	}
	var d DealScore
	switch {
	case t == b && b == 0:
		d.Outcome, d.Base = PassMade, PassPoints // J-PASS
	case t == b:
		d.Outcome, d.Base = Exact, 10*b
	case t > b:
		d.Outcome, d.Base = Over, t // J-OVER: one point for each trick taken
	default:
		d.Outcome, d.Base = Short, -10*(b-t)
	}
	d.Penalty = LeadPenalty * leads
	d.Points = d.Base + d.Penalty
	return d
}

// PartyWinners returns the indices sharing the highest total, or draw when every total is equal
// (joker.md "End of a party and ties", J-TIES). A single total is a win, not a draw.
func PartyWinners(totals []int) (winners []int, draw bool) {
	if len(totals) == 0 {
		return nil, true
	}
	hi := slices.Max(totals)
	for i, t := range totals {
		if t == hi {
			winners = append(winners, i)
		}
	}
	if len(totals) > 1 && len(winners) == len(totals) {
		return nil, true
	}
	return winners, false
}

// SecondPlaces returns the indices scoring a second place in a regular party with winners:
// those whose total equals the highest total among the non-winners (joker.md "Matches", J-MATCH).
func SecondPlaces(totals []int, winners []int) []int {
	hi, found := 0, false
	for i, t := range totals {
		if !slices.Contains(winners, i) && (!found || t > hi) {
			hi, found = t, true
		}
	}
	var out []int
	for i, t := range totals {
		if found && !slices.Contains(winners, i) && t == hi {
			out = append(out, i)
		}
	}
	return out
}

// MatchAfterRegular decides what follows a regular party of a match (joker.md "Matches",
// J-MATCH), given each player's party wins and second places and the number of regular parties
// played: another regular party (more), a match winner (winner >= 0), or the candidates who play an
// extra party (extra, at least two).
func MatchAfterRegular(wins, seconds []int, played int) (more bool, winner int, extra []int) {
	if slices.Max(wins) < 2 && played < 3 {
		return true, -1, nil
	}
	cands := argMax(wins, nil)
	if len(cands) == 1 {
		return false, cands[0], nil
	}
	cands = argMax(seconds, cands)
	if len(cands) == 1 {
		return false, cands[0], nil
	}
	return false, -1, cands
}

// MatchAfterExtra decides what follows an extra party among players (seat indices) with these
// totals (joker.md "Matches", J-MATCH): its sole winner wins the match; co-winners play another
// extra party; after a draw the same players play again.
func MatchAfterExtra(players, totals []int) (winner int, extra []int) {
	w, draw := PartyWinners(totals)
	switch {
	case draw:
		return -1, slices.Clone(players)
	case len(w) == 1:
		return players[w[0]], nil
	}
	out := make([]int, len(w))
	for i, x := range w {
		out[i] = players[x]
	}
	return -1, out
}

// argMax returns the indices among among (all indices when nil) holding the highest value of v.
func argMax(v []int, among []int) []int {
	if among == nil {
		for i := range v {
			among = append(among, i)
		}
	}
	hi := v[among[0]]
	for _, i := range among {
		hi = max(hi, v[i])
	}
	var out []int
	for _, i := range among {
		if v[i] == hi {
			out = append(out, i)
		}
	}
	return out
}
