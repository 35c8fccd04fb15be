package gametest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// updatePins makes CheckReplayPin write its pin files instead of comparing against them. It is a
// flag of the test binary of every package that imports gametest:
// go test ./games/skat -run ReplayPin -update-pins
var updatePins = flag.Bool("update-pins", false, "gametest: rewrite the replay pins (after bumping the rules version)")

// PinSteps is the most actions a pinned playout records; shorter matches are pinned whole.
const PinSteps = 600

// pin is the file CheckReplayPin keeps: a fixed action log of one match and the fingerprint of
// what replaying it showed, at the rules version it was made with.
type pin struct {
	Game    string            `json:"game"`
	Version int               `json:"version"`
	Players int               `json:"players"`
	Options map[string]string `json:"options,omitempty"`
	Seed    uint64            `json:"seed"`
	// Start is the fingerprint of the new match, before any action.
	Start string `json:"start"`
	// Log is the pinned actions, each with the running fingerprint after it, so a changed replay
	// reports the first step that differs.
	Log []pinStep `json:"log"`
	// Fingerprint covers the whole replay: every step and the final score sheet.
	Fingerprint string `json:"fingerprint"`
}

type pinStep struct {
	Seat   games.Seat `json:"seat"`
	Action string     `json:"action"`
	After  string     `json:"after"`
}

// CheckReplayPin guards the rules version. The pin file at path holds a fixed action log of the
// match (r, cfg, seed) and a fingerprint of replaying it: every step's ToAct, the Legal actions of
// the seats to act, every seat's View and the public one (without View.Game, the engine's own
// structure, which may be reshaped freely) and the events, then the final Score. Replaying the
// pinned log (not a fresh random one, so an action that became illegal counts as a change) must
// give the pinned fingerprint while r.Version() equals the pinned version; a changed replay needs a
// version bump, and a bumped version needs a new pin: go test -update-pins writes the file.
func CheckReplayPin(t testing.TB, r games.Rules, cfg games.Config, seed uint64, path string) {
	t.Helper()
	checkReplayPin(t, r, cfg, seed, path, *updatePins)
}

func checkReplayPin(t testing.TB, r games.Rules, cfg games.Config, seed uint64, path string, update bool) {
	t.Helper()
	if update {
		p, err := makePin(r, cfg, seed)
		if err != nil {
			t.Fatalf("pin %s: %v", path, err)
		}
		b, err := p.encode()
		if err == nil {
			err = os.MkdirAll(filepath.Dir(path), 0o755)
		}
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			t.Fatalf("write pin %s: %v", path, err)
		}
		t.Logf("pinned %d actions of %s version %d in %s", len(p.Log), r.Name(), p.Version, path)
		return
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no replay pin %s: make it with go test -update-pins", path)
	}
	if err != nil {
		t.Fatalf("read pin: %v", err)
	}
	var p pin
	if err := DecodeStrict(b, &p); err != nil {
		t.Fatalf("pin %s is unreadable (%v): re-pin with go test -update-pins", path, err)
	}
	if p.Game != r.Name() || p.Players != cfg.Players || !maps.Equal(p.Options, cfg.Options) || p.Seed != seed {
		t.Fatalf("pin %s is of %s %d players %v seed %d, not of this test's %s %d players %v seed %d: "+
			"re-pin with go test -update-pins", path, p.Game, p.Players, p.Options, p.Seed,
			r.Name(), cfg.Players, cfg.Options, seed)
	}
	if v := r.Version(); v != p.Version {
		t.Fatalf("%s rules version is %d, pin %s was made at version %d: re-pin with go test -update-pins",
			r.Name(), v, path, p.Version)
	}
	if changed := replayPin(r, cfg, p); changed != "" {
		t.Fatalf("%s: replay changed but rules version was not bumped (still %d): %s", path, p.Version, changed)
	}
}

// encode writes p as indented JSON with one line per log step, so a pin diffs and reads well.
func (p pin) encode() ([]byte, error) {
	var b bytes.Buffer
	var err error
	field := func(name string, v any, end string) {
		j, e := json.Marshal(v)
		err = cmp.Or(err, e)
		fmt.Fprintf(&b, "\t%q: %s%s\n", name, j, end)
	}
	b.WriteString("{\n")
	field("game", p.Game, ",")
	field("version", p.Version, ",")
	field("players", p.Players, ",")
	if len(p.Options) > 0 {
		field("options", p.Options, ",")
	}
	field("seed", p.Seed, ",")
	field("start", p.Start, ",")
	b.WriteString("\t\"log\": [\n")
	for i, s := range p.Log {
		j, e := json.Marshal(s)
		err = cmp.Or(err, e)
		b.WriteString("\t\t")
		b.Write(j)
		if i < len(p.Log)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("\t],\n")
	field("fingerprint", p.Fingerprint, "")
	b.WriteString("}\n")
	return b.Bytes(), err
}

// makePin plays the pinned match: seeded random legal actions, at most PinSteps of them.
func makePin(r games.Rules, cfg games.Config, seed uint64) (pin, error) {
	p := pin{Game: r.Name(), Version: r.Version(), Players: cfg.Players, Options: cfg.Options, Seed: seed}
	st, err := r.New(cfg, seed)
	if err != nil {
		return p, fmt.Errorf("New: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x70696e)) // "pin"
	fp := newFingerprint(cfg.Players)
	p.Start = fp.step(st, nil)
	for len(p.Log) < PinSteps && len(st.ToAct()) > 0 {
		toAct := st.ToAct()
		s := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(s)
		a := legal[rng.IntN(len(legal))]
		next, evs, err := st.Apply(s, a)
		if err != nil {
			return p, fmt.Errorf("step %d: seat %d %v is in Legal but Apply failed: %w", len(p.Log), s, a, err)
		}
		st = next
		p.Log = append(p.Log, pinStep{Seat: s, Action: a.String(), After: fp.step(st, evs)})
	}
	p.Fingerprint = fp.end(st)
	return p, nil
}

// replayPin replays p's log and says where it first differs from the pin, or "" when it does not.
func replayPin(r games.Rules, cfg games.Config, p pin) string {
	st, err := r.New(cfg, p.Seed)
	if err != nil {
		return fmt.Sprintf("New: %v", err)
	}
	fp := newFingerprint(cfg.Players)
	first := ""
	if fp.step(st, nil) != p.Start {
		first = "the new match differs"
	}
	for i, ps := range p.Log {
		a, err := games.ParseAction(ps.Action)
		if err != nil {
			return fmt.Sprintf("step %d: pinned action %q: %v", i, ps.Action, err)
		}
		next, evs, err := st.Apply(ps.Seat, a)
		if err != nil {
			return fmt.Sprintf("step %d: seat %d %v is refused now: %v", i, ps.Seat, a, err)
		}
		st = next
		if fp.step(st, evs) != ps.After && first == "" {
			first = fmt.Sprintf("step %d (seat %d %v) differs", i, ps.Seat, a)
		}
	}
	if fp.end(st) != p.Fingerprint && first == "" {
		first = "the final score sheet differs"
	}
	return first
}

// fingerprint hashes what a replay shows, step after step.
type fingerprint struct {
	players int
	h       hash.Hash
	buf     bytes.Buffer
}

func newFingerprint(players int) *fingerprint {
	return &fingerprint{players: players, h: sha256.New()}
}

// step adds the state reached and the events that led to it, and returns the running hash, short.
func (f *fingerprint) step(st games.State, evs []games.Event) string {
	f.buf.Reset()
	toAct := st.ToAct()
	f.write("to act", toAct)
	for _, s := range toAct {
		f.write("legal "+strconv.Itoa(int(s)), st.Legal(s))
	}
	for s := games.Nobody; int(s) < f.players; s++ {
		v := st.View(s)
		v.Game = nil // the engine's own structure: reshaped freely, its knowledge is in the rest
		f.write("view "+strconv.Itoa(int(s)), v)
	}
	f.write("events", evs)
	f.h.Write(f.buf.Bytes())
	return hex.EncodeToString(f.h.Sum(nil)[:8])
}

// end adds the final score sheet and returns the full hash.
func (f *fingerprint) end(st games.State) string {
	f.buf.Reset()
	f.write("score", st.Score())
	f.h.Write(f.buf.Bytes())
	return hex.EncodeToString(f.h.Sum(nil))
}

func (f *fingerprint) write(label string, v any) {
	f.buf.WriteString(label)
	f.buf.WriteString(": ")
	renderValue(&f.buf, v)
	f.buf.WriteByte('\n')
}

// renderValue writes v as render does.
func renderValue(b *bytes.Buffer, v any) { render(b, reflect.ValueOf(v), 0) }

// maxDepth bounds render's recursion, so a cyclic value cannot hang it.
const maxDepth = 32

// render writes v deterministically and independently of Go type names and field names: values
// with a String method (cards, sets, suits) as that text, maps in sorted key order, nil and empty
// slices alike. A rename or a type change that shows the same values keeps the fingerprint.
func render(b *bytes.Buffer, v reflect.Value, depth int) {
	if depth > maxDepth {
		b.WriteString("…")
		return
	}
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	if v.CanInterface() {
		if s, ok := v.Interface().(fmt.Stringer); ok && v.Kind() != reflect.Interface && v.Kind() != reflect.Pointer {
			b.WriteString(strconv.Quote(s.String()))
			return
		}
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		render(b, v.Elem(), depth+1)
	case reflect.Struct:
		b.WriteByte('{')
		for i := range v.NumField() {
			if i > 0 {
				b.WriteByte(' ')
			}
			render(b, v.Field(i), depth+1)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			render(b, v.Index(i), depth+1)
		}
		b.WriteByte(']')
	case reflect.Map:
		type entry struct{ k, v string }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			var kb, vb bytes.Buffer
			render(&kb, it.Key(), depth+1)
			render(&vb, it.Value(), depth+1)
			entries = append(entries, entry{kb.String(), vb.String()})
		}
		slices.SortFunc(entries, func(x, y entry) int { return cmp.Compare(x.k, y.k) })
		b.WriteByte('{')
		for i, e := range entries {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(e.k + ":" + e.v)
		}
		b.WriteByte('}')
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		b.WriteString(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	default:
		fmt.Fprintf(b, "<%s>", v.Kind())
	}
}
