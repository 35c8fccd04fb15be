package cards

import (
	"encoding/json"
	"testing"
)

func TestSetText(t *testing.T) {
	tests := []struct {
		set  Set
		text string
	}{
		{0, ""},
		{SetOf(MustParse("S10")), "S10"},
		{SetOf(MustParseList("X1 SQ S10")...), "S10 SQ X1"},
		{SetOf(MustParseList("C2 DA H10 SA W1 W4 N1 N4 X1 X2")...), "C2 DA H10 SA W1 W4 N1 N4 X1 X2"},
	}
	for _, tt := range tests {
		b, err := tt.set.MarshalText()
		if err != nil || string(b) != tt.text {
			t.Errorf("MarshalText(%#x) = %q, %v; want %q", uint64(tt.set), b, err, tt.text)
		}
		var back Set
		if err := back.UnmarshalText([]byte(tt.text)); err != nil || back != tt.set {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tt.text, back, err, tt.set)
		}
	}
}

func TestSetTextRejects(t *testing.T) {
	for _, bad := range []string{
		" ", "S10 ", " S10", "S10  SQ", "S10,SQ", "s10", "10S", "ST", "SQ S10", "S10 S10", "ZZ", "-",
		"S1", "X3", "S10\n",
	} {
		s := Set(5)
		if err := s.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = %v, want an error", bad, s)
		}
	}
	if b, err := (Set(1) << 62).MarshalText(); err == nil {
		t.Errorf("a non-card bit marshalled as %q", b)
	}
}

// TestSetJSON: in JSON a Set is a string, exact for the jokers' bits above 2^53.
func TestSetJSON(t *testing.T) {
	type hand struct {
		Cards Set `json:"cards"`
	}
	in := hand{SetOf(MustParseList("X1 X2 S10")...)}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"cards":"S10 X1 X2"}` {
		t.Fatalf("json.Marshal = %s, %v", b, err)
	}
	var out hand
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Fatalf("json.Unmarshal(%s) = %v, %v", b, out, err)
	}
	for _, bad := range []string{`{"cards":12}`, `{"cards":"10S"}`, `{"cards":null}`} {
		out := hand{Cards: 7}
		if err := json.Unmarshal([]byte(bad), &out); err == nil && out.Cards != 7 {
			t.Errorf("json.Unmarshal(%s) = %v", bad, out)
		}
	}
}

func TestCardTextIsCanonical(t *testing.T) {
	var c Card
	for _, bad := range []string{"10S", "sq", "ST", "QS", ""} {
		if err := c.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("Card.UnmarshalText(%q) = %v, want an error", bad, c)
		}
	}
	if err := c.UnmarshalText([]byte("S10")); err != nil || c != French(Spades, 10) {
		t.Errorf("Card.UnmarshalText(S10) = %v, %v", c, err)
	}
}

// FuzzParse: whatever Parse accepts is a card whose canonical notation parses back to it.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"S10", "10S", "hq", "ST", "W1", "N4", "X2", "S1", "", "10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) = invalid card %d", s, c)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %v, whose notation parses to %v, %v", s, c, back, err)
		}
		var strict Card
		if err := strict.UnmarshalText([]byte(c.String())); err != nil || strict != c {
			t.Fatalf("canonical %q does not decode: %v", c.String(), err)
		}
	})
}

// FuzzSetText: text a Set accepts is canonical (it marshals back to the same bytes), and every Set
// of cards round-trips through its text.
func FuzzSetText(f *testing.F) {
	f.Add([]byte("S10 SQ X1"), uint64(0))
	f.Add([]byte(""), uint64(1<<62-1))
	f.Add([]byte("SQ S10"), uint64(1<<60|1<<61))
	f.Fuzz(func(t *testing.T, b []byte, bits uint64) {
		var s Set
		if err := s.UnmarshalText(b); err == nil {
			out, err := s.MarshalText()
			if err != nil || string(out) != string(b) {
				t.Fatalf("UnmarshalText(%q) accepted a non-canonical text (canonical %q, %v)", b, out, err)
			}
		}
		in := Set(bits) & universe
		text, err := in.MarshalText()
		if err != nil {
			t.Fatalf("MarshalText(%#x): %v", bits, err)
		}
		var back Set
		if err := back.UnmarshalText(text); err != nil || back != in {
			t.Fatalf("%q decodes to %v, %v; want %v", text, back, err, in)
		}
	})
}

// TestCanonicalIsNotation: the strict reader accepts exactly the notation of the 62 cards.
func TestCanonicalIsNotation(t *testing.T) {
	names := map[string]Card{}
	for c := Card(1); c <= lastCard; c++ {
		names[c.String()] = c
	}
	for _, a := range "CDHSWNX123456789TJQKA0 -" {
		for _, b := range "CDHSWNX123456789TJQKA0 -" {
			for _, tail := range []string{"", "0", "1"} {
				s := string(a) + string(b) + tail
				c, ok := parseCanonical([]byte(s))
				if want, known := names[s]; ok != known || c != want {
					t.Errorf("parseCanonical(%q) = %v, %v; want %v, %v", s, c, ok, want, known)
				}
			}
		}
	}
}

func BenchmarkSetText(b *testing.B) {
	s := SetOf(MustParseList("C2 C10 DQ H10 HA SJ SK W1 N4 X2")...)
	for b.Loop() {
		text, _ := s.MarshalText()
		var back Set
		if back.UnmarshalText(text) != nil || back != s {
			b.Fatal("round trip")
		}
	}
}
