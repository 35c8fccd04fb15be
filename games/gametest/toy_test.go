package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// toy is a minimal honest engine: each deal every seat gets two cards, plays them one trick at a
// time, the highest rank wins (the earliest on a tie); a trick is a point. It exists to prove the
// suite passes a correct engine and catches each kind of broken one: bug names the defect built
// in, version overrides its rules version (1).
type toy struct {
	bug     string
	version int
}

func (r toy) Name() string      { return "toy" }
func (r toy) Seats() (int, int) { return 2, 4 }
func (r toy) Options() []games.Option {
	return []games.Option{{Key: "deals", Values: []string{"1", "3"}, Default: "3"}}
}

func (r toy) Version() int {
	if r.version != 0 {
		return r.version
	}
	return 1
}

type toyState struct {
	bug     string
	Players int          `json:"players"`
	Deals   int          `json:"deals"`
	Deal    int          `json:"deal"`
	Seed    uint64       `json:"seed"`
	Hands   []cards.Set  `json:"hands"`
	Trick   []cards.Card `json:"trick"`
	Played  []cards.Card `json:"played"` // this deal's cards in the order played
	Won     cards.Set    `json:"won"`
	Rest    cards.Set    `json:"rest"`
	Turn    games.Seat   `json:"turn"`
	Leader  games.Seat   `json:"leader"`
	Points  [][]int      `json:"points"`
	Over    bool         `json:"over"`
}

func (r toy) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, err
	}
	st := &toyState{bug: r.bug, Players: cfg.Players, Seed: seed, Deals: 3}
	if cfg.Get(r.Options(), "deals") == "1" {
		st.Deals = 1
	}
	st.deal()
	return st, nil
}

// Unmarshal decodes strictly: known fields only, a state the engine can continue, its cards
// conserved, and only the canonical encoding. The "lenient" bug takes any JSON; "noaudit" skips
// the card audit.
func (r toy) Unmarshal(b []byte) (games.State, error) {
	st := &toyState{bug: r.bug}
	if r.bug == "lenient" {
		if err := json.Unmarshal(b, st); err != nil {
			return nil, fmt.Errorf("toy: %w: %v", games.ErrCorrupt, err)
		}
		return st, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(st); err != nil {
		return nil, fmt.Errorf("toy: %w: %v", games.ErrCorrupt, err)
	}
	if err := st.check(r.bug != "noaudit"); err != nil {
		return nil, fmt.Errorf("toy: %w: %v", games.ErrCorrupt, err)
	}
	if out, err := json.Marshal(st); err != nil || !bytes.Equal(out, b) {
		return nil, fmt.Errorf("toy: %w: not the canonical encoding", games.ErrCorrupt)
	}
	return st, nil
}

// check refuses what no match reaches in a way that could make a method misbehave.
func (st *toyState) check(conserved bool) error {
	n := st.Players
	seat := func(s games.Seat) bool { return s >= 0 && int(s) < n }
	switch {
	case n < 2 || n > 4, st.Deals != 1 && st.Deals != 3, st.Deal < 1 || st.Deal > st.Deals:
		return fmt.Errorf("players %d, deal %d of %d", n, st.Deal, st.Deals)
	case len(st.Hands) != n || len(st.Trick) >= n || len(st.Points) != st.Deal:
		return fmt.Errorf("lists of the wrong length")
	case !seat(st.Turn) || !seat(st.Leader):
		return fmt.Errorf("turn %d, leader %d", st.Turn, st.Leader)
	}
	for _, p := range st.Points {
		if len(p) != n {
			return fmt.Errorf("a score row of %d seats", len(p))
		}
	}
	if conserved {
		return audit(st)
	}
	return nil
}

func (st *toyState) deal() {
	st.Deal++
	d := cards.Shuffle(cards.FrenchFrom(2), st.Seed, uint64(st.Deal))
	st.Hands = make([]cards.Set, st.Players)
	for i := range st.Players {
		st.Hands[i] = cards.SetOf(d[2*i], d[2*i+1])
	}
	st.Rest = cards.SetOf(d[2*st.Players:]...)
	if st.bug == "lose" {
		st.Rest = st.Rest.Remove(d[len(d)-1])
	}
	st.Won, st.Trick, st.Played = 0, nil, nil
	st.Turn = games.Seat((st.Deal - 1) % st.Players)
	st.Leader = st.Turn
	st.Points = append(st.Points, make([]int, st.Players))
}

func (st *toyState) clone() *toyState {
	c := *st
	c.Hands = slices.Clone(st.Hands)
	c.Trick = slices.Clone(st.Trick)
	if st.bug != "alias" {
		c.Played = slices.Clip(st.Played) // an append on the copy must not write into st's array
	}
	c.Points = make([][]int, len(st.Points))
	for i, p := range st.Points {
		c.Points[i] = slices.Clone(p)
	}
	return &c
}

func (st *toyState) ToAct() []games.Seat {
	if st.Over {
		return nil
	}
	return []games.Seat{st.Turn}
}

func (st *toyState) Legal(s games.Seat) []games.Action {
	if st.Over || s != st.Turn {
		return nil
	}
	var out []games.Action
	for _, c := range st.Hands[s].Cards() {
		out = append(out, games.With("play", c))
	}
	return out
}

func (st *toyState) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil && (st.bug != "lax" || st.Over) {
		return nil, nil, fmt.Errorf("toy: seat %d %v: %w", s, a, err)
	}
	n := st
	if st.bug != "mutate" {
		n = st.clone()
	}
	n.Hands[s] = n.Hands[s].Remove(a.Card)
	n.Trick = append(n.Trick, a.Card)
	n.Played = append(n.Played, a.Card)
	if st.bug == "dup" {
		n.Won = n.Won.Add(a.Card)
	}
	n.Turn = (s + 1) % games.Seat(n.Players)
	var evs []games.Event
	if len(n.Trick) == n.Players {
		best := 0
		for i, c := range n.Trick {
			if c.Rank() > n.Trick[best].Rank() {
				best = i
			}
		}
		if st.bug == "lowest" { // a rules change: the lowest card wins
			best = 0
			for i, c := range n.Trick {
				if c.Rank() < n.Trick[best].Rank() {
					best = i
				}
			}
		}
		w := (n.Leader + games.Seat(best)) % games.Seat(n.Players)
		n.Points[len(n.Points)-1][w]++
		n.Won = n.Won.Union(cards.SetOf(n.Trick...))
		n.Trick, n.Turn, n.Leader = nil, w, w
		evs = append(evs, games.Event{To: games.Nobody, Msg: games.M("toy.trick", "Seat", w)})
		if n.Hands[w].Empty() {
			evs = append(evs, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: games.M("toy.deal")})
			if n.Deal == n.Deals {
				n.Over = true
			} else {
				n.deal()
			}
		}
	}
	return n, evs, nil
}

func (st *toyState) View(s games.Seat) games.View {
	trick := slices.Clone(st.Trick)
	if st.bug == "sortview" {
		trick = st.Trick
		slices.Sort(trick) // sorts the state's own trick: View writes into its receiver
	}
	v := games.View{Seat: s, Players: st.Players, ToAct: st.ToAct(), Dealer: games.Nobody,
		Table: []games.Msg{games.M("toy.trick", "Cards", trick)}}
	if s >= 0 && int(s) < st.Players {
		v.Hand = st.Hands[s].Cards()
		if st.bug == "leak" {
			v.Private = []games.Msg{games.M("toy.next", "Cards", st.Hands[(int(s)+1)%st.Players])}
		}
		if !st.Over && s == st.Turn {
			v.Prompt = games.M("toy.play")
		}
	}
	return v
}

func (st *toyState) Score() games.Sheet {
	sh := games.Sheet{Totals: make([]int, st.Players)}
	for i, p := range st.Points {
		row := games.SheetRow{Label: games.M("toy.row", "Count", i+1), Points: slices.Clone(p)}
		for s, x := range p {
			row.Cells = append(row.Cells, fmt.Sprint(x))
			sh.Totals[s] += x
		}
		sh.Rows = append(sh.Rows, row)
	}
	if st.bug == "sum" {
		sh.Totals[0]++
	}
	if st.Over {
		best := slices.Max(sh.Totals)
		for s, t := range sh.Totals {
			if t == best {
				sh.Winners = append(sh.Winners, games.Seat(s))
			}
		}
	}
	return sh
}

// Totals are the column sums (games.Totaler); the "totals" bug counts one point too many.
func (st *toyState) Totals() []int {
	out := make([]int, st.Players)
	for _, p := range st.Points {
		for s, x := range p {
			out[s] += x
		}
	}
	if st.bug == "totals" {
		out[0]++
	}
	return out
}

// MarshalBinary is JSON; the "indent" bug changes only the encoding, not the rules.
func (st *toyState) MarshalBinary() ([]byte, error) {
	if st.bug == "indent" {
		return json.MarshalIndent(st, "", " ")
	}
	return json.Marshal(st)
}

func (st *toyState) Deck() cards.Set { return cards.SetOf(cards.FrenchFrom(2)...) }

func (st *toyState) Zones() []cards.Set {
	z := append(slices.Clone(st.Hands), st.Won, st.Rest)
	var t cards.Set
	for _, c := range st.Trick {
		t = t.Add(c)
	}
	return append(z, t)
}

// Redeal redistributes the other hands and the rest; the "redeal" bug forgets to copy the hands.
func (st *toyState) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := st.clone()
	if st.bug == "redeal" {
		c := *st
		n = &c
	}
	var places []*cards.Set
	for i := range n.Hands {
		if games.Seat(i) != s {
			places = append(places, &n.Hands[i])
		}
	}
	places = append(places, &n.Rest)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, _, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return n
	}
	for i, p := range places {
		*p = dealt[i]
	}
	return n
}

func TestToyConforms(t *testing.T) {
	Run(t, toy{}, Settings{Seeds: 3, MaxSteps: 1000, LeakEvery: 1, Strict: true})
}

// recorder is a testing.TB whose Fatalf records the failure and ends the goroutine, so a test can
// check that the suite fails a broken engine.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
	r.mu.Unlock()
	runtime.Goexit()
}

// failures runs check against a recorder and returns the failures it reported.
func failures(t *testing.T, check func(tb testing.TB)) []string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(rec)
	}()
	<-done
	return rec.failed
}

func TestSuiteCatchesBrokenEngines(t *testing.T) {
	tests := []struct {
		bug  string
		want string
	}{
		{"mutate", "mutated its receiver"},
		{"leak", "View changed"},
		{"lose", "cards not conserved"},
		{"dup", "in two zones"},
		{"lax", "out of turn"},
		{"sum", "not the column sums"},
		{"totals", "but the sheet's totals are"},
		{"alias", "the two results share memory"},
		{"sortview", "changed before its turn"},
		{"redeal", "Redeal changed the state it copies"},
		{"lenient", "Unmarshal of the state"},
		{"noaudit", "duplicated from"},
	}
	for _, tt := range tests {
		t.Run(tt.bug, func(t *testing.T) {
			r := toy{bug: tt.bug}
			cfg := games.Config{Players: 3}
			st, err := r.New(cfg, 5)
			if err != nil {
				t.Fatal(err)
			}
			failed := failures(t, func(tb testing.TB) {
				Playout(tb, r, cfg, 5, st, Settings{Seeds: 1, MaxSteps: 1000, LeakEvery: 1, Strict: true})
			})
			if len(failed) == 0 || !strings.Contains(failed[0], tt.want) {
				t.Fatalf("bug %q: suite reported %q, want a failure containing %q", tt.bug, failed, tt.want)
			}
		})
	}
}

// TestStrictIsOptIn: a lenient decoder passes while Settings.Strict is off, so engines keep
// passing until they switch it on.
func TestStrictIsOptIn(t *testing.T) {
	r := toy{bug: "lenient"}
	cfg := games.Config{Players: 2}
	st, err := r.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if failed := failures(t, func(tb testing.TB) {
		Playout(tb, r, cfg, 1, st, Settings{Seeds: 1, MaxSteps: 1000, LeakEvery: 1})
	}); len(failed) > 0 {
		t.Fatalf("a lenient decoder failed without Strict: %q", failed)
	}
}

// TestSeedsDiffer: no two configurations of a game, and no two games, share a seed.
func TestSeedsDiffer(t *testing.T) {
	seen := map[uint64]string{}
	for _, game := range []string{"toy", "yot"} {
		for _, cfg := range Configs(toy{}) {
			for i := range 50 {
				seed, name := seedFor(game, cfg, i), fmt.Sprintf("%s %d %v #%d", game, cfg.Players, cfg.Options, i)
				if other, ok := seen[seed]; ok {
					t.Fatalf("%s and %s share seed %d", name, other, seed)
				}
				seen[seed] = name
			}
		}
	}
}
