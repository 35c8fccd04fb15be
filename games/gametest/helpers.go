package gametest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// RandomSteps plays up to n random legal actions from st (n < 0: to the end of the match), choosing
// the acting seat and the action with rng. Fuzz targets use it to reach arbitrary moments.
func RandomSteps(st games.State, rng *rand.Rand, n int) (games.State, error) {
	for i := 0; n < 0 || i < n; i++ {
		toAct := st.ToAct()
		if len(toAct) == 0 {
			break
		}
		s := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(s)
		next, _, err := st.Apply(s, legal[rng.IntN(len(legal))])
		if err != nil {
			return st, fmt.Errorf("random step %d: %w", i, err)
		}
		st = next
	}
	return st, nil
}

// BenchPlayout is the body of every engine's BenchmarkPlayout: whole random matches of cfg (with a
// games.PlayoutCapper's options), reported as matches/s, the number the AI's simulations live on.
func BenchPlayout(b *testing.B, r games.Rules, cfg games.Config) {
	cfg = withPlayoutOptions(r, cfg)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, err := r.New(cfg, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := RandomSteps(st, rng, -1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}

// CheckApply is the body of every engine's FuzzApply: seat applies the action text to st. Nothing
// may panic; a refusal must wrap a contract sentinel and leave st byte for byte as it was; an
// accepted action must give a state that marshals.
func CheckApply(t testing.TB, st games.State, seat games.Seat, text string) {
	t.Helper()
	a, err := games.ParseAction(text)
	if err != nil {
		if !errors.Is(err, games.ErrBadAction) {
			t.Fatalf("ParseAction(%q): %v does not wrap ErrBadAction", text, err)
		}
		return
	}
	before := mustMarshal(t, st)
	next, _, err := st.Apply(seat, a)
	if !bytes.Equal(before, mustMarshal(t, st)) {
		t.Fatalf("Apply(%d, %v) changed its receiver (err %v)", seat, a, err)
	}
	if err != nil {
		if !errors.Is(err, games.ErrNotYourTurn) && !errors.Is(err, games.ErrIllegal) && !errors.Is(err, games.ErrOver) {
			t.Fatalf("Apply(%d, %v): %v wraps no contract sentinel", seat, a, err)
		}
		return
	}
	mustMarshal(t, next)
}

// CheckUnmarshal is the body of every engine's FuzzUnmarshal: arbitrary bytes are refused with
// ErrCorrupt, or give a state that marshals back to a stable form and whose methods do not panic.
// CheckUnmarshalStrict is the stricter body for an engine that decodes strictly.
func CheckUnmarshal(t testing.TB, r games.Rules, b []byte) {
	t.Helper()
	st, err := r.Unmarshal(b)
	if err != nil {
		if !errors.Is(err, games.ErrCorrupt) {
			t.Fatalf("Unmarshal: %v does not wrap ErrCorrupt", err)
		}
		return
	}
	out := mustMarshal(t, st)
	back, err := r.Unmarshal(out)
	if err != nil {
		t.Fatalf("a state Unmarshal accepted does not load again: %v", err)
	}
	if !bytes.Equal(out, mustMarshal(t, back)) {
		t.Fatalf("a state Unmarshal accepted does not round-trip")
	}
	exercise(r, st)
}

// CheckActions is the body of every engine's FuzzActions, on a state reached by random play: every
// Legal action of every seat round-trips its canonical text through games.ParseAction, and Apply
// accepts the parsed action without changing st.
func CheckActions(t testing.TB, st games.State) {
	t.Helper()
	before := mustMarshal(t, st)
	for _, s := range st.ToAct() {
		for _, a := range st.Legal(s) {
			p, err := games.ParseAction(a.String())
			if err != nil || p != a {
				t.Fatalf("seat %d: action %#v does not round-trip its text %q: %#v, %v", s, a, a.String(), p, err)
			}
			if _, _, err := st.Apply(s, p); err != nil {
				t.Fatalf("seat %d: Legal action %q refused: %v", s, a, err)
			}
		}
	}
	if !bytes.Equal(before, mustMarshal(t, st)) {
		t.Fatalf("applying the Legal actions changed the state")
	}
}

// PlayAgents plays one match of r with an agent per seat, the first seat to act acting first,
// and fails the test when an agent chooses an action that is not legal or the match does not end.
// The agents draw from one stream seeded by seed, so a match replays exactly. It returns the final
// state and every event of the match.
func PlayAgents(t testing.TB, r games.Rules, cfg games.Config, seed uint64, agents []games.Agent) (games.State, []games.Event) {
	t.Helper()
	st, err := r.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 77))
	var all []games.Event
	for steps := 0; len(st.ToAct()) > 0; steps++ {
		if steps > 200_000 {
			t.Fatalf("seed %d: match did not end", seed)
		}
		s := st.ToAct()[0]
		legal := st.Legal(s)
		a := agents[s].Choose(st.View(s), legal, rng)
		if !slices.Contains(legal, a) {
			t.Fatalf("seed %d seat %d chose %v, not in %v", seed, s, a, legal)
		}
		var evs []games.Event
		if st, evs, err = st.Apply(s, a); err != nil {
			t.Fatalf("seed %d seat %d %v: %v", seed, s, a, err)
		}
		all = append(all, evs...)
	}
	return st, all
}
