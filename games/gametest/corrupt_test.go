package gametest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// toyStates are states of one toy match, from its start to its end.
func toyStates(t testing.TB, r toy) []games.State {
	st, err := r.New(games.Config{Players: 3}, 11)
	if err != nil {
		t.Fatal(err)
	}
	out := []games.State{st}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(st.ToAct()) > 0 {
		if st, err = RandomSteps(st, rng, 1); err != nil {
			t.Fatal(err)
		}
		out = append(out, st)
	}
	return out
}

func TestCheckCorrupt(t *testing.T) {
	tests := []struct {
		bug  string
		want string // "" = passes
	}{
		{"", ""},
		{"lenient", "Unmarshal accepted"},
		{"noaudit", "fails the audit"},
	}
	for _, tt := range tests {
		t.Run(tt.bug, func(t *testing.T) {
			r := toy{bug: tt.bug}
			var failed []string
			for _, st := range toyStates(t, toy{}) {
				b := mustMarshal(t, st)
				back, _ := toy{}.Unmarshal(b)
				back.(*toyState).bug = r.bug
				failed = append(failed, failures(t, func(tb testing.TB) { CheckCorrupt(tb, r, back) })...)
			}
			switch {
			case tt.want == "" && len(failed) > 0:
				t.Fatalf("a strict toy failed: %q", failed[0])
			case tt.want != "" && !slices.ContainsFunc(failed, func(f string) bool { return strings.Contains(f, tt.want) }):
				t.Fatalf("bug %q: reported %q, want a failure containing %q", tt.bug, failed, tt.want)
			}
		})
	}
}

func TestCardStrings(t *testing.T) {
	b := []byte(`{"hands":["SK SA","",7,"x"],"trick":[{"c":"HQ","n":"clubs"}],"stock":"D7 D8","s10":1,"sq":"SQ"}`)
	var got []string
	for _, l := range cardStrings(b) {
		if string(b[l.start:l.end]) != `"`+l.set.String()+`"` {
			t.Errorf("%s: range %q does not hold %v", l.path, b[l.start:l.end], l.set)
		}
		got = append(got, l.path+"="+l.set.String())
	}
	want := []string{"hands[0]=SK SA", "hands[1]=", "trick[0].c=HQ", "stock=D7 D8", "sq=SQ"}
	if !slices.Equal(got, want) {
		t.Fatalf("card strings %q, want %q", got, want)
	}
	before := map[string]cards.Set{}
	for _, l := range cardStrings(b) {
		before[l.path] = l.set
	}
	for _, m := range duplicates(b) {
		grown := 0
		for _, l := range cardStrings(m.b) {
			if d := l.set.Minus(before[l.path]); d.Len() == 1 && l.set.Len() == before[l.path].Len()+1 {
				grown++
			} else if l.set != before[l.path] {
				grown = -100
			}
		}
		if grown != 1 {
			t.Errorf("mutant %s: %s does not grow exactly one card list by one card", m.name, m.b)
		}
	}
	if len(duplicates(b)) == 0 {
		t.Fatal("no duplicated-card mutants")
	}
}

func TestMutantsDiffer(t *testing.T) {
	b := mustMarshal(t, toyStates(t, toy{})[4])
	seen := map[string]string{}
	for _, m := range mutants(b) {
		if string(m.b) == string(b) {
			t.Errorf("mutant %s equals the state", m.name)
		}
		if other, ok := seen[string(m.b)]; ok {
			t.Errorf("mutants %s and %s are equal", m.name, other)
		}
		seen[string(m.b)] = m.name
	}
}

// FuzzToyUnmarshal shows the strict fuzz body on the toy: whatever its decoder accepts is
// canonical and conserves its cards.
func FuzzToyUnmarshal(f *testing.F) {
	for _, st := range toyStates(f, toy{}) {
		f.Add(mustMarshal(f, st))
	}
	f.Fuzz(func(t *testing.T, b []byte) { CheckUnmarshalStrict(t, toy{}, b) })
}

// FuzzToyActions shows the action fuzz body on the toy: every Legal action anywhere in a match
// round-trips its text and applies.
func FuzzToyActions(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(3))
	f.Add(uint64(9), uint8(7), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, steps, players uint8) {
		st, err := toy{}.New(games.Config{Players: 2 + int(players%3)}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = RandomSteps(st, rand.New(rand.NewPCG(seed, 1)), int(steps%40)); err != nil {
			t.Fatal(err)
		}
		CheckActions(t, st)
	})
}
