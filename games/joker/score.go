package joker

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

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

// result is a finished party's outcome among the n seats of its table (joker.md "End of a party
// and ties", J-TIES): its winners (none when drawn), its second places (those of a regular party
// that has winners, J-MATCH) and the highest total.
func (p *party) result(n int) (winners, seconds []games.Seat, draw bool, top int) {
	var seats []games.Seat
	var sub []int
	for s := range games.Seat(n) {
		if p.in[s] {
			seats = append(seats, s)
			sub = append(sub, p.totals[s])
		}
	}
	w, draw := PartyWinners(sub)
	for _, i := range w {
		winners = append(winners, seats[i])
	}
	if !p.extra && !draw {
		for _, i := range SecondPlaces(sub, w) {
			seconds = append(seconds, seats[i])
		}
	}
	return winners, seconds, draw, slices.Max(sub)
}

// standings is a match after its finished parties (joker.md "Matches", J-MATCH): the party wins
// and second places so far, and what follows. A table of one party is a match that ends after it.
type standings struct {
	wins, seconds [maxSeats]int  // of the regular parties
	regular       int            // regular parties played
	over          bool           // no party follows
	winners       []games.Seat   // once over: the match winner, or the single party's winners
	extra         bool           // the party that follows is an extra party …
	in            [maxSeats]bool // … among these seats; a regular party is everybody's
}

// newStandings is a match of n players before its first party.
func newStandings(n int) standings { return standings{in: allSeats(n)} }

// add records p, the party that followed, and decides what follows it.
func (m *standings) add(p party, n int, match bool) {
	winners, seconds, draw, _ := p.result(n)
	if !p.extra {
		m.regular++
		for _, s := range winners {
			m.wins[s]++
		}
		for _, s := range seconds {
			m.seconds[s]++
		}
	}
	if !match {
		m.over, m.winners = true, winners
		if draw {
			// A drawn party: nobody wins, everybody shares the result.
			m.winners = seatList(p.in[:n])
		}
		return
	}
	var (
		more   bool
		winner = -1
		extra  []int
	)
	if p.extra {
		var players, totals []int
		for s := range n {
			if p.in[s] {
				players, totals = append(players, s), append(totals, p.totals[s])
			}
		}
		winner, extra = MatchAfterExtra(players, totals)
	} else {
		more, winner, extra = MatchAfterRegular(m.wins[:n], m.seconds[:n], m.regular)
	}
	switch {
	case more:
		m.extra, m.in = false, allSeats(n)
	case winner >= 0:
		m.over, m.winners = true, []games.Seat{games.Seat(winner)}
	default:
		m.extra, m.in = true, [maxSeats]bool{}
		for _, s := range extra {
			m.in[s] = true
		}
	}
}
