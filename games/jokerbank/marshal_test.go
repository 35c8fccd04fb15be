package jokerbank

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDecodeRestores: decoding a state's bytes gives back the very state, everything replayed
// from the stakes (banker, money, the cards turned) included.
func TestDecodeRestores(t *testing.T) {
	for _, cfg := range gametest.Configs(Rules()) {
		st, err := Rules().New(cfg, uint64(cfg.Players))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(cfg.Players), 6))
		for len(st.ToAct()) > 0 {
			b, err := st.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Rules().Unmarshal(b)
			if err != nil {
				t.Fatalf("%v: %v\n%s", cfg, err, b)
			}
			if !reflect.DeepEqual(back, st) {
				t.Fatalf("%v: decoded state differs:\n%+v\n%+v", cfg, back, st)
			}
			if st, err = gametest.RandomSteps(st, rng, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// played is a session of cfg after steps random actions.
func played(t *testing.T, cfg games.Config, seed uint64, steps int) *state {
	t.Helper()
	st, err := Rules().New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(seed, 8)), steps); err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

// TestUnmarshalRefuses: encodings of states the engine cannot reach, and encodings that are not
// canonical, are refused with ErrCorrupt, each for its own reason.
func TestUnmarshalRefuses(t *testing.T) {
	open := games.Config{Players: 4, Options: map[string]string{OptRounds: "open"}}
	running := played(t, games.Config{Players: 4}, 1, 10) // in round 4, some stakes in
	if len(running.history) == 0 || len(running.ToAct()) == 3 {
		t.Fatalf("the fixture is in round %d with %d to stake", running.round(), len(running.ToAct()))
	}
	ended := played(t, games.Config{Players: 3, Options: map[string]string{OptRounds: "10"}}, 2, -1)
	openRunning := played(t, open, 3, 4)
	for _, tc := range []struct {
		name   string
		st     *state
		change func(w *wire)
		want   string
	}{
		{"another encoding version", running, func(w *wire) { w.V = 0 }, "encoding version"},
		{"eleven players", running, func(w *wire) { w.Players = 11 }, "11 players"},
		{"a ceiling the lobby does not offer", running, func(w *wire) { w.Ceiling = 7 }, "ceiling 7"},
		{"a length the lobby does not offer", running, func(w *wire) { w.Rounds = 15 }, "15 rounds"},
		{"stakes too few", running, func(w *wire) { w.Stakes = w.Stakes[1:] }, "3 stakes for 4 seats"},
		{"a round of stakes too few", running, func(w *wire) { w.History[0] = w.History[0][1:] }, "round 1: 3 stakes"},
		{"a stake above the ceiling", running, func(w *wire) {
			w.Stakes[running.punters()[0]] = 11
		}, "stakes 11"},
		{"a negative stake", running, func(w *wire) { w.Stakes[running.punters()[0]] = -1 }, "stakes -1"},
		{"the banker staking", running, func(w *wire) { w.Stakes[running.banker] = 1 }, "with banker"},
		{"a settled round without a stake", running, func(w *wire) {
			for s, v := range w.History[0] {
				if v != 0 {
					w.History[0][s] = 0
					break
				}
			}
		}, "a stake missing"},
		{"every stake in, the round not played", running, func(w *wire) {
			for _, p := range running.punters() {
				w.Stakes[p] = 1
			}
		}, "not played"},
		{"a round after the end", ended, func(w *wire) { w.History = append(w.History, w.History[0]) }, "after the end"},
		{"stakes after the end", ended, func(w *wire) { w.Stakes[(ended.banker+1)%3] = 1 }, "after the end"},
		{"a fixed-length session stopped", running, func(w *wire) { w.Stopper = running.punters()[0] }, "stopped by"},
		{"an open session stopped by its banker", openRunning, func(w *wire) {
			w.Stopper, w.Stakes = openRunning.banker, make([]int, 4)
		}, "stopped by"},
		{"an open session stopped by nobody's seat", openRunning, func(w *wire) { w.Stopper = 4 }, "stopped by"},
		{"stakes in a stopped session", openRunning, func(w *wire) {
			w.Stopper, w.Stakes = openRunning.punters()[0], make([]int, 4)
			w.Stakes[openRunning.punters()[1]] = 1
		}, "after the end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w wire
			b, err := tc.st.MarshalBinary()
			if err == nil {
				err = json.Unmarshal(b, &w)
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.change(&w)
			if b, err = json.Marshal(w); err != nil {
				t.Fatal(err)
			}
			st, err := Rules().Unmarshal(b)
			if !errors.Is(err, games.ErrCorrupt) || st != nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Unmarshal = %v, %v; want ErrCorrupt for %q\n%s", st, err, tc.want, b)
			}
		})
	}
}

// TestUnmarshalCanonical: only the canonical bytes of a state decode; the same state written in
// any other way is refused.
func TestUnmarshalCanonical(t *testing.T) {
	st := played(t, games.Config{Players: 3}, 4, 5)
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Rules().Unmarshal(b); err != nil {
		t.Fatalf("canonical bytes refused: %v", err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, b, "", " "); err != nil {
		t.Fatal(err)
	}
	for name, alt := range map[string]string{
		"indented":                indented.String(),
		"a newline after it":      string(b) + "\n",
		"a second value":          string(b) + "{}",
		"an unknown field":        `{"zz":1,` + string(b[1:]),
		"the seed as a number":    strings.Replace(string(b), `"seed":"4"`, `"seed":4`, 1),
		"fields in another order": `{"players":3,"v":1,` + strings.Replace(string(b[1:]), `"v":1,"players":3,`, "", 1),
		"a number written as 1.0": strings.Replace(string(b), `"ceiling":10`, `"ceiling":10.0`, 1),
		"a field twice":           strings.Replace(string(b), `"ceiling":10`, `"ceiling":10,"ceiling":10`, 1),
	} {
		if alt == string(b) {
			t.Fatalf("%s: the test did not change the bytes", name)
		}
		if st, err := Rules().Unmarshal([]byte(alt)); !errors.Is(err, games.ErrCorrupt) || st != nil {
			t.Errorf("%s: Unmarshal = %v, %v; want ErrCorrupt", name, st, err)
		}
	}
}
