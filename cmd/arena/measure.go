package main

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
)

// game is how the arena plays and scores one game: the table it sets up for a board and what a
// seat's result of a match is in the game's own terms.
type game struct {
	players  int                                 // default player count
	options  func(players int) map[string]string // the board's match options
	unit     string                              // what one result counts, for the report
	perMatch bool                                // results per match (else per deal or round)
	nominal  func(players int) int               // deals a board is expected to hold
	score    func(sh games.Sheet, players int) []float64
	bids     bool // the sheet cells carry "bid/taken", so bid accuracy is reported
}

// gameOf is the arena's view of each game. Skat, Magister, Nasilie and jokerbank are scored per deal
// (per round in jokerbank) from the score sheet; Wizard and Joker per match. Skat's matches are one
// deal per seat so every seat deals once per board; Nasilie's are capped at three rounds, since a
// race to 100 can run for thousands of deals.
func gameOf(name string) (game, bool) {
	one := func(int) int { return 1 }
	switch name {
	case "skat":
		return game{players: 3, unit: "extended Seeger points per deal",
			options: func(p int) map[string]string { return map[string]string{"match_deals": strconv.Itoa(p)} },
			nominal: func(p int) int { return p }, score: seeger}, true
	case "wizard":
		return game{players: 4, unit: "points per match", perMatch: true, nominal: one, score: totals, bids: true}, true
	case "joker":
		return game{players: 4, unit: "points per match", perMatch: true, nominal: one, score: totals, bids: true}, true
	case "jokerbank":
		return game{players: 4, unit: "money per round",
			options: func(int) map[string]string { return map[string]string{"rounds": "10"} },
			nominal: func(int) int { return 10 }, score: totals}, true
	case "magister":
		return game{players: 4, unit: "points per deal", nominal: func(int) int { return 24 }, score: totals}, true
	case "nasilie":
		return game{players: 4, unit: "points per deal",
			options: func(int) map[string]string { return map[string]string{"rounds": "3"} },
			nominal: func(p int) int { return 3 * p }, score: totals}, true
	}
	return game{}, false
}

// totals are the sheet's totals.
func totals(sh games.Sheet, players int) []float64 {
	out := make([]float64, players)
	for s := range min(players, len(sh.Totals)) {
		out[s] = float64(sh.Totals[s])
	}
	return out
}

// seeger is extended Seeger scoring from Skat's sheet: each row's points (the game value as the
// rules score it, Ramsch included), +50 to the declarer of a won game, −50 to the declarer of a
// lost one and, for each lost game, +40 to each opponent at a three-player table (+30 at four).
func seeger(sh games.Sheet, players int) []float64 {
	out := make([]float64, players)
	for _, r := range sh.Rows {
		for s, p := range r.Points {
			if s < players {
				out[s] += float64(p)
			}
		}
		id := r.Label.ID
		won, lost := strings.HasSuffix(id, ".won"), strings.HasSuffix(id, ".lost")
		d, ok := r.Label.Args["Seat"].(games.Seat)
		if !won && !lost || !ok || int(d) >= players || d < 0 {
			continue
		}
		if won {
			out[d] += 50
			continue
		}
		out[d] -= 50
		bonus := 40.0
		dealer := games.Nobody
		if players == 4 {
			bonus = 30
			if x, ok := r.Label.Args["Dealer"].(games.Seat); ok {
				dealer = x // skat.md §1: the dealer sits out with four players
			}
		}
		for s := range games.Seat(players) {
			if s != d && s != dealer {
				out[s] += bonus
			}
		}
	}
	return out
}

// bidRecord counts, per seat, the deals whose sheet cell reads "bid/taken" and those where the two
// are equal: Wizard's and Joker's "2/2 +40".
func bidRecord(sh games.Sheet, players int) (exact, deals []int) {
	exact, deals = make([]int, players), make([]int, players)
	for _, r := range sh.Rows {
		if r.Points == nil {
			continue
		}
		for s, c := range r.Cells {
			b, t, ok := bidTaken(c)
			if ok && s < players {
				deals[s]++
				if b == t {
					exact[s]++
				}
			}
		}
	}
	return exact, deals
}

// bidTaken reads the "bid/taken" at the start of a cell.
func bidTaken(cell string) (bid, taken int, ok bool) {
	head, _, _ := strings.Cut(cell, " ")
	b, t, found := strings.Cut(head, "/")
	if !found {
		return 0, 0, false
	}
	bid, err1 := strconv.Atoi(b)
	taken, err2 := strconv.Atoi(t)
	return bid, taken, err1 == nil && err2 == nil
}

// meanCI is the mean of xs and its 95% confidence interval (Student's t, as the boards are few);
// the interval is unbounded with fewer than two values.
func meanCI(xs []float64) (mean, lo, hi float64) {
	if len(xs) == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, math.Inf(-1), math.Inf(1)
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := t975(len(xs)-1) * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
	return mean, mean - half, mean + half
}

// median is the median of xs (the mean of the middle two for an even count), 0 for none.
func median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	m := len(s) / 2
	if len(s)%2 == 1 {
		return float64(s[m])
	}
	return float64(s[m-1]+s[m]) / 2
}

// t975 is the 97.5% quantile of Student's t with df degrees of freedom: the table up to 30, then
// the first terms of its expansion around the normal's 1.96 (within 0.001 from there on).
func t975(df int) float64 {
	table := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df >= 1 && df <= len(table) {
		return table[df-1]
	}
	const z = 1.959964
	n := float64(max(df, 1))
	return z + (z*z*z+z)/(4*n) + (5*z*z*z*z*z+16*z*z*z+3*z)/(96*n*n)
}
