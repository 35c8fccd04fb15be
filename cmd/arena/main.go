// Command arena measures the computer players' strength on duplicate deals.
//
//	go run ./cmd/arena -game skat -a normal -b easy -deals 600
//
// Every board (a match seed) is played once per seating of the two sides, so both sides hold the
// same cards from the same seats: the alternating seatings a,b,a,… and b,a,b,… in every rotation
// (2 plays with 4 or 6 players, 2×players with 3 or 5; see seatings). A board's result is, summed
// over its plays, the mean score of the a seats minus that of the b seats, divided by the deals
// played; the report is the mean over the boards with a 95% confidence interval, so the paired
// design takes the luck of the cards out of the difference.
//
// Scores are in each game's own terms: Skat in extended Seeger points per deal (matches of one deal
// per seat), Wizard and Joker in points per match with each side's bid accuracy, Magister and
// Nasilie in points per deal (Nasilie capped at three rounds), jokerbank in money per round
// (ten-round sessions). For Nasilie it also plays all-agent matches at each level without the cap
// and reports the median number of deals until one ends by reaching 100.
//
// The last lines are machine-readable, one per result:
//
//	<game> <a> vs <b>: <mean> per deal, 95% CI [<lo>, <hi>], <n> deals
//	nasilie <level>: median <m> deals to 100, <k> matches
//
// For Wizard and Joker, scored per match, "deal" there reads "match".
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "arena:", err)
		os.Exit(1)
	}
}

// settings are the command line.
type settings struct {
	game     string
	a, b     search.Level
	deals    int
	seed     uint64
	parallel int
	players  int
	scale    float64
	matches  int
	maxDeals int
	random   int
	margin   float64
}

// errUsage is returned for a command line the arena cannot run.
var errUsage = errors.New("usage")

func parse(args []string, stderr io.Writer) (settings, error) {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s settings
	var a, b string
	fs.StringVar(&s.game, "game", "all", "game id, or all")
	fs.StringVar(&a, "a", "normal", "level of side a")
	fs.StringVar(&b, "b", "easy", "level of side b")
	fs.IntVar(&s.deals, "deals", 60, "duplicate deals per game (matches for Wizard and Joker)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed of the boards")
	fs.IntVar(&s.parallel, "parallel", runtime.GOMAXPROCS(0), "boards played at once")
	fs.IntVar(&s.players, "players", 0, "players per table (0: the game's usual count)")
	fs.Float64Var(&s.scale, "budget", 1, "scale of the search budgets, for quick runs")
	fs.IntVar(&s.matches, "matches", 20, "Nasilie: all-agent matches per level for the median deals to 100 (0: none)")
	fs.IntVar(&s.random, "randomafter", -1, "override the budgets' RandomAfter (-1: keep)")
	fs.Float64Var(&s.margin, "margin", -1, "override the budgets' Margin (-1: keep)")
	fs.IntVar(&s.maxDeals, "maxdeals", 1000, "Nasilie: deals after which an all-agent match counts as not ending")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	var err error
	if s.a, err = search.ParseLevel(a); err != nil {
		return s, fmt.Errorf("-a: %w", err)
	}
	if s.b, err = search.ParseLevel(b); err != nil {
		return s, fmt.Errorf("-b: %w", err)
	}
	if s.deals < 1 || s.parallel < 1 || s.scale <= 0 || s.matches < 0 || s.maxDeals < 1 {
		return s, fmt.Errorf("%w: -deals, -parallel, -budget and -maxdeals must be positive", errUsage)
	}
	if fs.NArg() > 0 {
		return s, fmt.Errorf("%w: unexpected %q", errUsage, fs.Arg(0))
	}
	return s, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	s, err := parse(args, stderr)
	if err != nil {
		return err
	}
	var rules []games.Rules
	for _, r := range all.Rules() {
		if s.game == "all" || s.game == r.Name() {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return fmt.Errorf("%w: no game %q", errUsage, s.game)
	}
	var lines []string
	for _, r := range rules {
		ls, err := arena(r, s, stdout, stderr)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name(), err)
		}
		lines = append(lines, ls...)
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return nil
}

// arena measures one game, prints the human report to out and its progress to progress, and returns
// its machine-readable lines.
func arena(r games.Rules, s settings, out, progress io.Writer) ([]string, error) {
	g, ok := gameOf(r.Name())
	if !ok {
		return nil, fmt.Errorf("%w: the arena cannot score %s", errUsage, r.Name())
	}
	cfg := games.Config{Players: g.players}
	if lo, hi := r.Seats(); s.players != 0 {
		if s.players < lo || s.players > hi {
			return nil, fmt.Errorf("%w: %s takes %d–%d players", errUsage, r.Name(), lo, hi)
		}
		cfg.Players = s.players
	}
	if g.options != nil {
		cfg.Options = g.options(cfg.Players)
	}
	a, b := playerFor(r, s.a, s), playerFor(r, s.b, s)
	boards := (s.deals + g.nominal(cfg.Players) - 1) / g.nominal(cfg.Players)
	res := make([][]result, boards)
	plays := seatings(cfg.Players)
	var c clock
	var mu sync.Mutex
	done := 0
	err := each(boards, s.parallel, func(k int, c *clock) error {
		rs, _, err := playBoard(r, g, cfg, s.seed, k, a, b, c)
		res[k] = rs
		v, _ := boardValue(rs, plays, g.perMatch)
		mu.Lock()
		done++
		// Each board's value as it comes, so a long run can be read before it ends.
		fmt.Fprintf(progress, "%s: board %d of %d played (board %d: a − b %.2f)\n", r.Name(), done, boards, k, v)
		mu.Unlock()
		return err
	}, &c)
	if err != nil {
		return nil, err
	}
	values := make([]float64, boards)
	var units float64
	var exact, bids [2]int
	for k, rs := range res {
		var u float64
		values[k], u = boardValue(rs, plays, g.perMatch)
		units += u
		for i, x := range rs {
			for seat, sd := range plays[i] {
				if x.bids != nil {
					exact[sd] += x.exact[seat]
					bids[sd] += x.bids[seat]
				}
			}
		}
	}
	mean, lo, hi := meanCI(values)
	fmt.Fprintf(out, "%s: %d players, %d boards × %d plays, %s; a = %s, b = %s\n",
		r.Name(), cfg.Players, boards, len(plays), g.unit, s.a, s.b)
	fmt.Fprintf(out, "  a − b: %.2f, 95%% CI [%.2f, %.2f]\n", mean, lo, hi)
	for sd, l := range []search.Level{s.a, s.b} {
		line := fmt.Sprintf("  %s (%c): %.2f ms per decision", l, 'a'+sd, msPer(c.spent[sd], c.moves[sd]))
		if g.bids && bids[sd] > 0 {
			line += fmt.Sprintf(", bid accuracy %.3f (%d of %d deals)", float64(exact[sd])/float64(bids[sd]), exact[sd], bids[sd])
		}
		fmt.Fprintln(out, line)
	}
	lines := []string{fmt.Sprintf("%s %s vs %s: %.2f per deal, 95%% CI [%.2f, %.2f], %d deals",
		r.Name(), s.a, s.b, mean, lo, hi, int(math.Round(units)))}
	if r.Name() == "nasilie" && s.matches > 0 {
		levels := []search.Level{s.a}
		if s.b != s.a {
			levels = append(levels, s.b)
		}
		for _, l := range levels {
			m, err := toHundred(r, cfg.Players, l, s, progress)
			if err != nil {
				return nil, err
			}
			lines = append(lines, fmt.Sprintf("nasilie %s: median %s deals to 100, %d matches",
				l, strconv.FormatFloat(m, 'f', -1, 64), s.matches))
		}
	}
	return lines, nil
}

// toHundred plays s.matches Nasilie matches with every seat at level l and no cap on the deals, and
// returns the median number of deals a match took (s.maxDeals for one still running then); each
// match's count and totals (how far the seats drifted from 100) go to progress as it ends.
func toHundred(r games.Rules, players int, l search.Level, s settings, progress io.Writer) (float64, error) {
	cfg := games.Config{Players: players}
	x := make([]search.Search, players)
	sides := make([]side, players)
	for i := range x {
		x[i] = playerFor(r, l, s)
	}
	deals := make([]int, s.matches)
	var c clock
	var mu sync.Mutex
	err := each(s.matches, s.parallel, func(k int, c *clock) error {
		seed := boardSeed(s.seed^0x6e61, k)
		st, n, err := playMatch(r, cfg, seed, x, sides, rand.New(rand.NewPCG(seed, 0)), s.maxDeals, c)
		deals[k] = n
		if err != nil {
			return err
		}
		mu.Lock()
		fmt.Fprintf(progress, "nasilie %s: match %d took %d deals, totals %v\n", l, k, n, st.Score().Totals)
		mu.Unlock()
		return nil
	}, &c)
	return median(deals), err
}

// each runs f for 0..n-1 on up to par goroutines, each with its own clock added to c at the end,
// and returns the first error.
func each(n, par int, f func(k int, c *clock) error, c *clock) error {
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range min(par, max(n, 1)) {
		wg.Go(func() {
			var mine clock
			for k := range jobs {
				if err := f(k, &mine); err != nil {
					mu.Lock()
					first = cmpErr(first, err)
					mu.Unlock()
				}
			}
			mu.Lock()
			for i := range mine.spent {
				c.spent[i] += mine.spent[i]
				c.moves[i] += mine.moves[i]
			}
			mu.Unlock()
		})
	}
	for k := range n {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	return first
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func msPer(d time.Duration, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(d) / float64(n) / float64(time.Millisecond)
}
