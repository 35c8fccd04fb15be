package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
)

// maxMoves bounds one match, so an engine that never ends cannot hang the arena.
const maxMoves = 1_000_000

// errLong is returned when a match does not end within maxMoves.
var errLong = errors.New("match did not end")

// side is who plays a seat: 0 for -a, 1 for -b.
type side uint8

// seatings are the plays of one board: the alternating seatings a,b,a,… and b,a,b,… in every
// rotation, each once. With an even count the rotations repeat the two seatings, so a board is two
// plays (a,b,a,b and b,a,b,a); with an odd count it is 2×players plays (3 players: a,b,a · b,a,a ·
// a,a,b and b,a,b · a,b,b · b,b,a), so every seat holds its cards once for each side per seating.
func seatings(players int) [][]side {
	var out [][]side
	seen := map[string]bool{}
	for first := range side(2) {
		for k := range players {
			p := make([]side, players)
			for s := range p {
				p[s] = (first + side((s+k)%players)) % 2
			}
			if key := fmt.Sprint(p); !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// result is one match of a board: each seat's score and how many deals it had.
type result struct {
	score []float64
	deals int
	exact []int // bid record, for games with bids
	bids  []int
}

// clock is the wall time the decisions of each side took, reported apart from the results: the
// budgets are counts, the time is what they cost.
type clock struct {
	spent [2]time.Duration
	moves [2]int
}

// playMatch plays one match of r from seed with x[seat] choosing for each seat, and counts its
// deals (the moves that ended one); with stopAfter > 0 it stops after that many deals. The time
// of each decision goes to c under the seat's side.
func playMatch(r games.Rules, cfg games.Config, seed uint64, x []search.Search, sides []side, rng *rand.Rand, stopAfter int, c *clock) (games.State, int, error) {
	st, err := r.New(cfg, seed)
	if err != nil {
		return nil, 0, fmt.Errorf("new %s match: %w", r.Name(), err)
	}
	deals := 0
	for moves := 0; len(st.ToAct()) > 0 && (stopAfter == 0 || deals < stopAfter); moves++ {
		if moves == maxMoves {
			return nil, deals, fmt.Errorf("%s seed %d: %w after %d moves", r.Name(), seed, errLong, moves)
		}
		s := st.ToAct()[0]
		t0 := time.Now()
		a := x[s].Decide(st, s, rng)
		c.spent[sides[s]] += time.Since(t0)
		c.moves[sides[s]]++
		next, evs, err := st.Apply(s, a)
		if err != nil {
			return nil, deals, fmt.Errorf("%s seed %d seat %d %v: %w", r.Name(), seed, s, a, err)
		}
		st = next
		for _, e := range evs {
			if e.Kind == games.EventDealEnd {
				deals++
				break
			}
		}
	}
	return st, deals, nil
}

// boardSeed is the match seed of board k.
func boardSeed(seed uint64, k int) uint64 { return rand.New(rand.NewPCG(seed, uint64(k))).Uint64() }

// playBoard plays board k once per seating, with a and b as the two sides, and returns each
// play's result alongside its seating.
func playBoard(r games.Rules, g game, cfg games.Config, seed uint64, k int, a, b search.Search, c *clock) ([]result, [][]side, error) {
	bs := boardSeed(seed, k)
	plays := seatings(cfg.Players)
	out := make([]result, len(plays))
	for i, p := range plays {
		x := make([]search.Search, cfg.Players)
		for s, sd := range p {
			x[s] = a
			if sd == 1 {
				x[s] = b
			}
		}
		st, deals, err := playMatch(r, cfg, bs, x, p, rand.New(rand.NewPCG(bs, uint64(i)+1)), 0, c)
		if err != nil {
			return nil, nil, fmt.Errorf("board %d play %d: %w", k, i, err)
		}
		sh := st.Score()
		res := result{score: g.score(sh, cfg.Players), deals: deals}
		if g.bids {
			res.exact, res.bids = bidRecord(sh, cfg.Players)
		}
		out[i] = res
	}
	return out, plays, nil
}

// boardValue is a board's score difference per unit: over its plays, the mean score of the a
// seats minus that of the b seats, summed, divided by the units played (deals, or matches for a
// game scored per match), and the board's units per play.
func boardValue(res []result, plays [][]side, perMatch bool) (value, units float64) {
	var diff float64
	for i, r := range res {
		var sum [2]float64
		var n [2]int
		for s, sd := range plays[i] {
			sum[sd] += r.score[s]
			n[sd]++
		}
		diff += sum[0]/float64(n[0]) - sum[1]/float64(n[1])
		if perMatch {
			units++
		} else {
			units += float64(r.deals)
		}
	}
	if units == 0 {
		return 0, 0
	}
	return diff / units, units / float64(len(res))
}
