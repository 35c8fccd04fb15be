// Package record is kozyr's match record: a finished match as one JSON file — game, rules
// version, options, seed and the commitment shown before the first deal, the seats, every action
// with its seat, every deal's result, the match's end and the final sheet — from which anyone can
// deal the match again (Redeal) and replay it with the engine (Replay).
//
// The format is versioned (Format) and read strictly: Unmarshal accepts exactly what Marshal
// writes, whitespace and the order of keys aside, so a record that reads is complete and
// unambiguous. The package is pure like the engines: the bot builds records from its archive
// (New), kozyr verify and kozyr replay read them.
package record

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
)

// Format is the version of the record format Marshal writes and Unmarshal reads. A change that an
// older reader would misread bumps it.
const Format = 1

// ErrFormat is wrapped by every error of Unmarshal: the bytes are not a record of this format.
var ErrFormat = errors.New("not a kozyr match record")

// Record is one finished match.
type Record struct {
	Format     int               `json:"format"`
	Game       string            `json:"game"`
	Rules      int               `json:"rules"`   // the game's rules version the match was played by
	Players    int               `json:"players"` // the number of seats
	Options    map[string]string `json:"options"` // every option of the game at its value
	Seed       Seed              `json:"seed"`
	Commitment string            `json:"commitment"` // Commit of the above, shown when the match began
	Finished   string            `json:"finished,omitempty"`
	Seats      []Seat            `json:"seats"`
	Actions    []Action          `json:"actions"`
	Deals      []Deal            `json:"deals"`
	End        []games.Msg       `json:"end"` // the match-end events
	Sheet      Sheet             `json:"sheet"`
}

// Seat is one seat of the match, in play order.
type Seat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	AI   bool   `json:"ai,omitempty"`
}

// Action is one entry of the match's log: the seat and the action's canonical text ("bid/18").
type Action struct {
	Seat   int    `json:"seat"`
	Action string `json:"action"`
}

// Deal is one finished deal: its number, the index in Actions of the action that ended it, and
// the result the engine announced then (its deal-end events).
type Deal struct {
	Deal   int         `json:"deal"`
	Last   int         `json:"last"`
	Result []games.Msg `json:"result"`
}

// Sheet is the final score sheet (games.Sheet): a row per deal or sub-total, totals per seat,
// the winning seats and the notes under it.
type Sheet struct {
	Rows    []Row       `json:"rows"`
	Totals  []int       `json:"totals"`
	Winners []int       `json:"winners"`
	Notes   []games.Msg `json:"notes,omitempty"`
}

// Row is one line of the sheet.
type Row struct {
	Label  games.Msg `json:"label"`
	Cells  []string  `json:"cells"`
	Points []int     `json:"points,omitempty"`
}

// Seed is a table's seed, written as 16 lower-case hex digits: the way the match-end post and
// kozyr verify spell it.
type Seed uint64

// String is the seed's 16 hex digits.
func (s Seed) String() string { return fmt.Sprintf("%016x", uint64(s)) }

// MarshalText writes the 16 hex digits.
func (s Seed) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads exactly 16 lower-case hex digits.
func (s *Seed) UnmarshalText(b []byte) error {
	v, err := ParseSeed(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSeed reads a seed written as 16 lower-case hex digits.
func ParseSeed(s string) (Seed, error) {
	if len(s) != 16 || strings.ToLower(s) != s {
		return 0, fmt.Errorf("seed %q: want 16 lower-case hex digits", s)
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %q: want 16 lower-case hex digits", s)
	}
	return Seed(v), nil
}

// Config is the table configuration the record was played with.
func (rec Record) Config() games.Config {
	return games.Config{Players: rec.Players, Options: maps.Clone(rec.Options)}
}

// Moves is the log as the engines take it.
func (rec Record) Moves() ([]games.Move, error) {
	out := make([]games.Move, len(rec.Actions))
	for i, a := range rec.Actions {
		act, err := games.ParseAction(a.Action)
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", i, err)
		}
		out[i] = games.Move{Seat: games.Seat(a.Seat), Action: act}
	}
	return out, nil
}

// DealMoves splits the log by deal: element k-1 holds the moves of deal k, from the one after
// the previous deal's last to its own last (the moves before deal 1's first card, such as a
// trump choice, count to deal 1).
func (rec Record) DealMoves() ([][]games.Move, error) {
	moves, err := rec.Moves()
	if err != nil {
		return nil, err
	}
	out := make([][]games.Move, len(rec.Deals))
	from := 0
	for i, d := range rec.Deals {
		out[i] = moves[from : d.Last+1]
		from = d.Last + 1
	}
	return out, nil
}

// Marshal writes rec as indented JSON with one action, deal or sheet row per line, so a long
// match stays readable and a difference shows as one changed line.
func Marshal(rec Record) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	fields := []struct {
		key   string
		value any
		list  bool
	}{
		{"format", rec.Format, false}, {"game", rec.Game, false}, {"rules", rec.Rules, false},
		{"players", rec.Players, false}, {"options", rec.Options, false}, {"seed", rec.Seed, false},
		{"commitment", rec.Commitment, false}, {"finished", rec.Finished, false},
		{"seats", rec.Seats, true}, {"actions", rec.Actions, true}, {"deals", rec.Deals, true},
		{"end", rec.End, true}, {"sheet", nil, false},
	}
	for i, f := range fields {
		if f.key == "finished" && rec.Finished == "" {
			continue
		}
		fmt.Fprintf(&b, "  %q: ", f.key)
		var err error
		switch {
		case f.key == "sheet":
			err = writeSheet(&b, rec.Sheet)
		case f.list:
			err = writeList(&b, f.value, "  ")
		default:
			err = writeValue(&b, f.value)
		}
		if err != nil {
			return nil, fmt.Errorf("record %s: %w", f.key, err)
		}
		if i < len(fields)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// writeSheet writes the sheet as an object whose lists have one element per line.
func writeSheet(b *bytes.Buffer, sh Sheet) error {
	b.WriteString("{\n")
	if err := writeKeyList(b, "rows", sh.Rows, true); err != nil {
		return err
	}
	for _, f := range []struct {
		key   string
		value any
	}{{"totals", sh.Totals}, {"winners", sh.Winners}} {
		fmt.Fprintf(b, "    %q: ", f.key)
		if err := writeValue(b, f.value); err != nil {
			return err
		}
		if f.key == "winners" && len(sh.Notes) == 0 {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(",\n")
	}
	if len(sh.Notes) > 0 {
		if err := writeKeyList(b, "notes", sh.Notes, false); err != nil {
			return err
		}
	}
	b.WriteString("  }")
	return nil
}

func writeKeyList(b *bytes.Buffer, key string, v any, comma bool) error {
	fmt.Fprintf(b, "    %q: ", key)
	if err := writeList(b, v, "    "); err != nil {
		return err
	}
	if comma {
		b.WriteByte(',')
	}
	b.WriteByte('\n')
	return nil
}

// writeList writes a slice with one compact element per line, indented one level under indent.
func writeList(b *bytes.Buffer, v any, indent string) error {
	rv := reflect.ValueOf(v)
	if rv.Len() == 0 {
		b.WriteString("[]")
		return nil
	}
	b.WriteString("[\n")
	for i := range rv.Len() {
		b.WriteString(indent + "  ")
		if err := writeValue(b, rv.Index(i).Interface()); err != nil {
			return err
		}
		if i < rv.Len()-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + "]")
	return nil
}

// writeValue writes v as compact JSON, without HTML escaping (names and messages stay legible).
func writeValue(b *bytes.Buffer, v any) error {
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Write(bytes.TrimRight(one.Bytes(), "\n"))
	return nil
}

// Unmarshal reads a record strictly: one JSON object of this Format, no unknown or missing
// field, nothing after it, every value in the form Marshal writes it (Equal to the record
// written back), seats numbered in order, every action a seat's canonical action, deals numbered
// from 1 and ending in order. Anything else is refused with an error wrapping ErrFormat.
func Unmarshal(data []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return Record{}, fmt.Errorf("%w: data after the record", ErrFormat)
	}
	if rec.Format != Format {
		return Record{}, fmt.Errorf("%w: format %d, this reader reads format %d", ErrFormat, rec.Format, Format)
	}
	if err := rec.check(); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	back, err := Marshal(rec)
	if err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if path := differs(data, back); path != "" {
		return Record{}, fmt.Errorf("%w: %s is not in the record's form (missing, unknown or malformed)", ErrFormat, path)
	}
	return rec, nil
}

// check is the structural part of Unmarshal's strictness.
func (rec Record) check() error {
	switch {
	case rec.Game == "":
		return errors.New("no game")
	case rec.Rules < 1:
		return fmt.Errorf("rules version %d", rec.Rules)
	case rec.Players < 1 || rec.Players != len(rec.Seats):
		return fmt.Errorf("%d players, %d seats", rec.Players, len(rec.Seats))
	case rec.Options == nil:
		return errors.New("no options")
	case !isCommitment(rec.Commitment):
		return fmt.Errorf("commitment %q: want %d lower-case hex digits", rec.Commitment, CommitLen)
	}
	for i, s := range rec.Seats {
		if s.Seat != i {
			return fmt.Errorf("seat %d listed as seat %d", i, s.Seat)
		}
	}
	for i, a := range rec.Actions {
		act, err := games.ParseAction(a.Action)
		switch {
		case a.Seat < 0 || a.Seat >= rec.Players:
			return fmt.Errorf("action %d: no seat %d", i, a.Seat)
		case err != nil:
			return fmt.Errorf("action %d: %v", i, err)
		case act.String() != a.Action:
			return fmt.Errorf("action %d: %q is not canonical", i, a.Action)
		}
	}
	last := -1
	for i, d := range rec.Deals {
		if d.Deal != i+1 || d.Last <= last || d.Last >= len(rec.Actions) {
			return fmt.Errorf("deal %d (listed as deal %d) ends at action %d, after action %d of %d", i+1, d.Deal, d.Last, last, len(rec.Actions))
		}
		last = d.Last
	}
	for _, w := range rec.Sheet.Winners {
		if w < 0 || w >= rec.Players {
			return fmt.Errorf("winner %d: no such seat", w)
		}
	}
	return nil
}

// differs compares two JSON documents as values (key order and whitespace aside) and names the
// first place where they differ, or "" when they are equal.
func differs(a, b []byte) string {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "the record"
	}
	return diffValue(x, y, "record")
}

func diffValue(x, y any, path string) string {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			return path
		}
		keys := slices.Sorted(maps.Keys(xv))
		for _, k := range slices.Sorted(maps.Keys(yv)) {
			if _, ok := xv[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			xe, okx := xv[k]
			ye, oky := yv[k]
			if !okx || !oky {
				return path + "." + k
			}
			if p := diffValue(xe, ye, path+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return path
		}
		for i := range xv {
			if p := diffValue(xv[i], yv[i], path+"["+strconv.Itoa(i)+"]"); p != "" {
				return p
			}
		}
		return ""
	}
	if !reflect.DeepEqual(x, y) {
		return path
	}
	return ""
}

// isCommitment reports whether s has the form of a commitment.
func isCommitment(s string) bool {
	if len(s) != CommitLen || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
