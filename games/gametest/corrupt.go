package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// CheckCorrupt feeds r.Unmarshal corrupted copies of st's bytes: a prepended byte, truncations,
// single bit flips, trailing data, an extra JSON field, and a card duplicated into a second card
// list. Each must obey the strict decoding contract of CheckUnmarshalStrict. Run calls it when
// Settings.Strict is set; an engine may also call it on states of its own.
func CheckCorrupt(t testing.TB, r games.Rules, st games.State) {
	t.Helper()
	for _, m := range mutants(mustMarshal(t, st)) {
		if err := unmarshalStrict(r, m.b); err != nil {
			t.Fatalf("Unmarshal of the state %s: %v", m.name, err)
		}
	}
}

// CheckUnmarshalStrict is the body of an engine's strict FuzzUnmarshal: Unmarshal never panics;
// on error it returns a nil State and an error wrapping games.ErrCorrupt; a state it accepts
// passes the card-conservation audit, marshals back to exactly b (a strict decoder accepts only
// canonical encodings), and its methods do not panic.
func CheckUnmarshalStrict(t testing.TB, r games.Rules, b []byte) {
	t.Helper()
	if err := unmarshalStrict(r, b); err != nil {
		t.Fatalf("%v", err)
	}
}

// unmarshalStrict is CheckUnmarshalStrict as an error; a panic anywhere is one too.
func unmarshalStrict(r games.Rules, b []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in Unmarshal or in a method of its state: %v", p)
		}
	}()
	st, err := r.Unmarshal(b)
	if err != nil {
		if !errors.Is(err, games.ErrCorrupt) {
			return fmt.Errorf("Unmarshal: %v does not wrap ErrCorrupt", err)
		}
		if st != nil {
			return fmt.Errorf("Unmarshal returned a state with its error %v", err)
		}
		return nil
	}
	if err := audit(st); err != nil {
		return fmt.Errorf("Unmarshal accepted a state that fails the audit: %v", err)
	}
	out, err := st.MarshalBinary()
	if err != nil {
		return fmt.Errorf("Unmarshal accepted a state that does not marshal: %v", err)
	}
	if !bytes.Equal(out, b) {
		return fmt.Errorf("Unmarshal accepted a non-canonical encoding, which marshals back differently: %s", diff(b, out))
	}
	exercise(r, st)
	return nil
}

// exercise calls every method of st for every seat, so a state Unmarshal accepts proves usable.
func exercise(r games.Rules, st games.State) {
	st.ToAct()
	st.Score()
	if au, ok := st.(games.Auditor); ok {
		au.Zones()
	}
	_, hi := r.Seats()
	for s := games.Nobody; int(s) < hi; s++ {
		st.View(s)
		for _, a := range st.Legal(s) {
			st.Apply(s, a)
		}
	}
}

// mutant is one corrupted copy of a state's bytes, named for the failure message.
type mutant struct {
	name string
	b    []byte
}

// mutants derives corrupted copies of b: the byte-level ones for every encoding, the JSON ones
// when b is a JSON object.
func mutants(b []byte) []mutant {
	var out []mutant
	add := func(name string, parts ...[]byte) {
		out = append(out, mutant{name, bytes.Join(parts, nil)})
	}
	add("with a byte prepended", []byte("\x00"), b)
	add("with garbage prepended", []byte("\x00garbage"), b)
	seen := map[int]bool{}
	for k := range 8 {
		if n := len(b) * k / 8; !seen[n] {
			seen[n] = true
			add(fmt.Sprintf("truncated to %d of %d bytes", n, len(b)), b[:n])
		}
	}
	if n := len(b) - 1; n > 0 && !seen[n] {
		add(fmt.Sprintf("truncated to %d of %d bytes", n, len(b)), b[:n])
	}
	for k := range min(24, len(b)) {
		i, bit := (2*k+1)*len(b)/48, k%8
		f := bytes.Clone(b)
		f[i] ^= 1 << bit
		add(fmt.Sprintf("with bit %d of byte %d flipped (%q to %q)", bit, i, b[i], f[i]), f)
	}
	for _, tail := range []string{"\x00", "\n", " ", "{}", "0"} {
		add(fmt.Sprintf("with %q appended", tail), b, []byte(tail))
	}
	if isObject(b) {
		add("with an unknown field first", []byte(`{"zz_unknown":0,`), b[1:])
		add("with an unknown field last", b[:len(b)-1], []byte(`,"zz_unknown":0}`))
		out = append(out, duplicates(b)...)
	}
	return out
}

// isObject reports whether b is one JSON object with at least one member.
func isObject(b []byte) bool {
	return len(b) > 2 && b[0] == '{' && b[len(b)-1] == '}' && json.Valid(b)
}

// maxDuplicates bounds the duplicated-card mutants of one state.
const maxDuplicates = 12

// duplicates are copies of the JSON object b in which one card of a card list (a string value
// that reads as a cards.Set: a hand, the stock, a trick, a single card) is added to another such
// string, in canonical notation, so only a decoder that checks where cards are can refuse it.
func duplicates(b []byte) []mutant {
	lists := cardStrings(b)
	var out []mutant
	for i := range lists {
		if len(out) == maxDuplicates {
			break
		}
		from := lists[i]
		if from.set.Empty() {
			continue
		}
		for k := 1; k < len(lists); k++ {
			to := lists[(i+k)%len(lists)]
			moved := from.set.Minus(to.set)
			if moved.Empty() {
				continue
			}
			c := moved.Cards()[0]
			text, _ := to.set.Add(c).MarshalText()
			lit, _ := json.Marshal(string(text))
			m := bytes.Join([][]byte{b[:to.start], lit, b[to.end:]}, nil)
			out = append(out, mutant{fmt.Sprintf("with %v duplicated from %s into %s", c, from.path, to.path), m})
			break
		}
	}
	return out
}

// cardString is a JSON string value of a state that reads as a canonical cards.Set.
type cardString struct {
	path       string // where it is, for messages: "hands[2]", "trick[0].c"
	set        cards.Set
	start, end int // the byte range of the literal, quotes included
}

// cardStrings finds the card-list strings of the JSON document b, with their byte ranges, by
// walking its tokens; object keys are told from values by keeping a stack of containers.
func cardStrings(b []byte) []cardString {
	type frame struct {
		object bool
		key    string
		index  int
		isKey  bool // in an object: the next string token is a key
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []frame
	var out []cardString
	path := func() string {
		var sb strings.Builder
		for i, f := range stack {
			if f.object {
				if i > 0 {
					sb.WriteByte('.')
				}
				sb.WriteString(f.key)
			} else {
				fmt.Fprintf(&sb, "[%d]", f.index)
			}
		}
		return sb.String()
	}
	// value is called after a complete value in the innermost container.
	value := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				stack[n-1].isKey = true
			} else {
				stack[n-1].index++
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return out // io.EOF after the document; mutants are made from valid JSON only
		}
		end := int(dec.InputOffset())
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, frame{object: true, isKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				value()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].isKey {
				stack[n-1].key, stack[n-1].isKey = v, false
				continue
			}
			var s cards.Set
			start := end - len(v) - 2
			if s.UnmarshalText([]byte(v)) == nil && start >= 0 && string(b[start:end]) == `"`+v+`"` {
				out = append(out, cardString{path(), s, start, end})
			}
			value()
		default:
			value()
		}
	}
}

// diff locates the first difference of two encodings, with a little context on each side.
func diff(in, out []byte) string {
	i := 0
	for i < len(in) && i < len(out) && in[i] == out[i] {
		i++
	}
	window := func(b []byte) []byte {
		return b[max(0, i-24):min(len(b), i+24)]
	}
	return fmt.Sprintf("from byte %d, in %q, out %q", i, window(in), window(out))
}
