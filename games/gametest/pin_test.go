package gametest

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// TestToyReplayPin is how an engine pins its replay: a pin file in testdata, rewritten with
// go test -update-pins when the rules version is bumped.
func TestToyReplayPin(t *testing.T) {
	CheckReplayPin(t, toy{}, games.Config{Players: 3}, 7, filepath.Join("testdata", "pins", "toy-p3.json"))
}

func TestReplayPin(t *testing.T) {
	cfg := games.Config{Players: 3, Options: map[string]string{"deals": "3"}}
	dir := t.TempDir()
	pinned := filepath.Join(dir, "toy.json")
	if failed := failures(t, func(tb testing.TB) { checkReplayPin(tb, toy{}, cfg, 7, pinned, true) }); len(failed) > 0 {
		t.Fatalf("pinning failed: %q", failed)
	}
	tests := []struct {
		name string
		r    toy
		cfg  games.Config
		seed uint64
		path string
		want string // "" = passes
	}{
		{"the same rules replay the same", toy{}, cfg, 7, pinned, ""},
		{"an encoding change needs no bump", toy{bug: "indent"}, cfg, 7, pinned, ""},
		{"a rules change needs a bump", toy{bug: "lowest"}, cfg, 7, pinned,
			"replay changed but rules version was not bumped"},
		{"a bump needs a new pin", toy{version: 2}, cfg, 7, pinned, "re-pin with go test -update-pins"},
		{"a bumped rules change needs a new pin too", toy{bug: "lowest", version: 2}, cfg, 7, pinned,
			"rules version is 2, pin"},
		{"another seed is another pin", toy{}, cfg, 8, pinned, "not of this test's"},
		{"other options are another pin", toy{}, games.Config{Players: 3}, 7, pinned, "not of this test's"},
		{"a missing pin", toy{}, cfg, 7, filepath.Join(dir, "none.json"), "no replay pin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failed := failures(t, func(tb testing.TB) { checkReplayPin(tb, tt.r, tt.cfg, tt.seed, tt.path, false) })
			switch {
			case tt.want == "" && len(failed) > 0:
				t.Fatalf("failed: %q", failed)
			case tt.want != "" && (len(failed) == 0 || !strings.Contains(failed[0], tt.want)):
				t.Fatalf("reported %q, want a failure containing %q", failed, tt.want)
			}
		})
	}
}

// TestReplayPinReplaysTheLog: the pinned log is replayed as it is, so an action the new rules
// refuse is a change even when a fresh random playout would pass.
func TestReplayPinReplaysTheLog(t *testing.T) {
	cfg := games.Config{Players: 2, Options: map[string]string{"deals": "1"}}
	path := filepath.Join(t.TempDir(), "toy.json")
	failures(t, func(tb testing.TB) { checkReplayPin(tb, toy{}, cfg, 3, path, true) })
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite the pin's first action into one the toy refuses: a card from nobody's hand.
	st, _ := toy{}.New(cfg, 3)
	first := st.Legal(st.ToAct()[0])[0].String()
	foreign := cards.Joker(1).String()
	b = bytes.Replace(b, []byte(`"action":"`+first+`"`), []byte(`"action":"play/`+foreign+`"`), 1)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	failed := failures(t, func(tb testing.TB) { checkReplayPin(tb, toy{}, cfg, 3, path, false) })
	if len(failed) == 0 || !strings.Contains(failed[0], "is refused now") {
		t.Fatalf("reported %q, want the refused step", failed)
	}
}

func TestRender(t *testing.T) {
	render := func(v any) string {
		var b bytes.Buffer
		renderValue(&b, v)
		return b.String()
	}
	type seat int8
	a := games.M("x.y", "Seat", games.Seat(2), "Cards", cards.SetOf(cards.MustParseList("SQ S10")...), "N", 3)
	b := games.Msg{ID: "x.y", Args: map[string]any{"N": 3, "Cards": cards.SetOf(cards.MustParseList("S10 SQ")...), "Seat": seat(2)}}
	if render(a) != render(b) {
		t.Errorf("equal messages render differently:\n%s\n%s", render(a), render(b))
	}
	if got := render(a); !strings.Contains(got, `"S10 SQ"`) {
		t.Errorf("a Set renders as %s, want its cards", got)
	}
	if render([]games.Event(nil)) != render([]games.Event{}) {
		t.Error("nil and empty slices render differently")
	}
	type cyclic struct{ Next *cyclic }
	c := &cyclic{}
	c.Next = c
	if got := render(c); !strings.Contains(got, "…") {
		t.Errorf("a cycle renders as %s", got)
	}
	if render(games.Do("pass")) != `"pass"` {
		t.Errorf("an action renders as %s, want its text", render(games.Do("pass")))
	}
	if !reflect.DeepEqual(render(games.View{}), render(games.View{})) {
		t.Error("render is not deterministic")
	}
}
