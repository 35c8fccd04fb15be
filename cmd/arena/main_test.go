package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
)

// TestSmoke runs the arena on every game with a tiny count and budget, and checks that its last
// lines are the machine-readable results, one per game and one per Nasilie level.
func TestSmoke(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"-game", "all", "-a", "normal", "-b", "easy", "-deals", "1", "-budget", "0.01",
		"-randomafter", "1", "-matches", "1", "-maxdeals", "1", "-parallel", "2"}
	if err := run(args, &out, &errs); err != nil {
		t.Fatalf("arena %v: %v\n%s", args, err, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	result := regexp.MustCompile(`^(\w+) (\w+) vs (\w+): (\S+) per deal, 95% CI \[(\S+), (\S+)\], (\d+) deals$`)
	hundred := regexp.MustCompile(`^nasilie (\w+): median (\S+) deals to 100, (\d+) matches$`)
	want := []string{"wizard", "skat", "joker", "jokerbank", "magister", "nasilie"}
	if len(lines) < len(want)+2 {
		t.Fatalf("only %d lines:\n%s", len(lines), out.String())
	}
	tail := lines[len(lines)-len(want)-2:]
	for i, g := range want {
		m := result.FindStringSubmatch(tail[i])
		if m == nil || m[1] != g || m[2] != "normal" || m[3] != "easy" {
			t.Errorf("line %q is not the result of %s", tail[i], g)
			continue
		}
		for _, f := range m[4:7] {
			if _, err := parseFloat(f); err != nil {
				t.Errorf("%s: %q is no number", g, f)
			}
		}
	}
	for i, l := range []string{"normal", "easy"} {
		if m := hundred.FindStringSubmatch(tail[len(want)+i]); m == nil || m[1] != l || m[3] != "1" {
			t.Errorf("line %q is not Nasilie's median at %s", tail[len(want)+i], l)
		}
	}
}

func parseFloat(s string) (float64, error) {
	var f float64
	_, err := fmt.Sscan(s, &f)
	if err != nil && (s == "+Inf" || s == "-Inf") {
		return math.Inf(1), nil
	}
	return f, err
}

func TestBadCommandLines(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "chess"},
		{"-a", "hard"},
		{"-deals", "0"},
		{"-game", "skat", "-players", "7"},
		{"extra"},
	} {
		var out, errs bytes.Buffer
		if err := run(args, &out, &errs); err == nil {
			t.Errorf("arena %v ran", args)
		}
	}
}

func TestSeatings(t *testing.T) {
	tests := []struct {
		players int
		want    []string
	}{
		{2, []string{"ab", "ba"}},
		{3, []string{"aba", "baa", "aab", "bab", "abb", "bba"}},
		{4, []string{"abab", "baba"}},
		{5, []string{"ababa", "babaa", "abaab", "baaba", "aabab", "babab", "ababb", "babba", "abbab", "bbaba"}},
		{6, []string{"ababab", "bababa"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range seatings(tt.players) {
			var b strings.Builder
			for _, s := range p {
				b.WriteByte('a' + byte(s))
			}
			got = append(got, b.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%d players: %v, want %v", tt.players, got, tt.want)
		}
		// Every seat is played as often by a as by b.
		for s := range tt.players {
			n := 0
			for _, p := range seatings(tt.players) {
				n += int(p[s])
			}
			if 2*n != len(tt.want) {
				t.Errorf("%d players: seat %d is b in %d of %d plays", tt.players, s, n, len(tt.want))
			}
		}
	}
}

func TestSeeger(t *testing.T) {
	won := func(d games.Seat, pts ...int) games.SheetRow {
		return games.SheetRow{Label: games.M("skat.row.won", "Seat", d, "Dealer", games.Seat(0)), Points: pts}
	}
	lost := func(d games.Seat, pts ...int) games.SheetRow {
		return games.SheetRow{Label: games.M("skat.row.null.lost", "Seat", d, "Dealer", games.Seat(0)), Points: pts}
	}
	ramsch := games.SheetRow{Label: games.M("skat.row.ramsch", "Dealer", games.Seat(0)), Points: []int{0, -20, 0}}
	thrown := games.SheetRow{Label: games.M("skat.row.thrownin", "Dealer", games.Seat(0)), Points: []int{0, 0, 0}}
	tests := []struct {
		name    string
		players int
		rows    []games.SheetRow
		want    []float64
	}{
		{"a won game: value + 50", 3, []games.SheetRow{won(1, 0, 36, 0)}, []float64{0, 86, 0}},
		{"a lost game: value − 50, +40 each opponent", 3, []games.SheetRow{lost(2, 0, 0, -46)}, []float64{40, 40, -96}},
		{"Ramsch and a throw-in: points only", 3, []games.SheetRow{ramsch, thrown}, []float64{0, -20, 0}},
		{"four players: +30 to the two who played", 4, []games.SheetRow{lost(1, 0, -48, 0, 0)}, []float64{0, -98, 30, 30}},
	}
	for _, tt := range tests {
		if got := seeger(games.Sheet{Rows: tt.rows}, tt.players); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBidRecord(t *testing.T) {
	sh := games.Sheet{Rows: []games.SheetRow{
		{Cells: []string{"1/1 +30", "0/1 -10", "2/2 +40"}, Points: []int{30, -10, 40}},
		{Cells: []string{"—", "3/0 -30", "0/0 +20"}, Points: []int{0, -30, 20}},
		{Cells: []string{"12 ★", "9", "1"}}, // a display row
	}}
	exact, deals := bidRecord(sh, 3)
	if !slices.Equal(exact, []int{1, 0, 2}) || !slices.Equal(deals, []int{1, 2, 2}) {
		t.Errorf("exact %v of %v", exact, deals)
	}
}

func TestStats(t *testing.T) {
	mean, lo, hi := meanCI([]float64{1, 2, 3, 4})
	if mean != 2.5 || math.Abs(hi-mean-3.182*math.Sqrt(5.0/3/4)) > 1e-12 || math.Abs((mean-lo)-(hi-mean)) > 1e-12 {
		t.Errorf("meanCI = %v [%v, %v]", mean, lo, hi)
	}
	if _, lo, hi := meanCI([]float64{7}); !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("one value gives [%v, %v]", lo, hi)
	}
	if d := t975(31) - 2.040; math.Abs(d) > 0.001 {
		t.Errorf("t975(31) is off by %v", d)
	}
	if d := t975(120) - 1.980; math.Abs(d) > 0.001 {
		t.Errorf("t975(120) is off by %v", d)
	}
	for _, tt := range []struct {
		xs   []int
		want float64
	}{{nil, 0}, {[]int{5}, 5}, {[]int{9, 1, 5}, 5}, {[]int{4, 1, 3, 10}, 3.5}} {
		if got := median(tt.xs); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

func TestBoardValue(t *testing.T) {
	plays := [][]side{{0, 1, 0}, {1, 0, 1}}
	res := []result{
		{score: []float64{10, 4, 20}, deals: 3}, // a: 15, b: 4
		{score: []float64{6, 9, 0}, deals: 3},   // a: 9, b: 3
	}
	v, u := boardValue(res, plays, false)
	if v != (11.0+6.0)/6 || u != 3 {
		t.Errorf("per deal: %v over %v deals per play", v, u)
	}
	if v, u := boardValue(res, plays, true); v != 17.0/2 || u != 1 {
		t.Errorf("per match: %v over %v matches per play", v, u)
	}
}

// TestSeegerReadsSkat: on real Skat matches the Seeger adapter finds the declared games (each
// adds or takes 50 beside the sheet's points), so a change of Skat's row labels cannot go unseen.
func TestSeegerReadsSkat(t *testing.T) {
	r := rulesNamed(t, "skat")
	g, _ := gameOf("skat")
	cfg := games.Config{Players: 3, Options: g.options(3)}
	x := playerFor(r, search.Easy, settings{scale: 1, random: -1, margin: -1})
	declared := 0
	for seed := range uint64(10) {
		st, _, err := playMatch(r, cfg, seed, []search.Search{x, x, x}, make([]side, 3), rand.New(rand.NewPCG(seed, 1)), 0, &clock{})
		if err != nil {
			t.Fatal(err)
		}
		sh := st.Score()
		s := seeger(sh, 3)
		for seat := range 3 {
			if d := s[seat] - float64(sh.Totals[seat]); d != 0 {
				declared++
			}
		}
	}
	if declared == 0 {
		t.Error("no declared game in 30 deals changed a Seeger score")
	}
}

func rulesNamed(t *testing.T, name string) games.Rules {
	t.Helper()
	for _, r := range all.Rules() {
		if r.Name() == name {
			return r
		}
	}
	t.Fatalf("no game %s", name)
	return nil
}
