package magister

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// encoded is the encoding of a 3-player variant-2 game (seed 5) after steps random actions, or
// of a variant-1 game in the trump choice when choosing is set.
func encoded(t *testing.T, steps int, choosing bool) string {
	t.Helper()
	cfg := games.Config{Players: 3, Options: map[string]string{OptVariant: "2"}}
	if choosing {
		cfg.Options = nil
	}
	st, err := Rules().New(cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = gametest.RandomSteps(st, rand.New(rand.NewPCG(1, 2)), steps); err != nil {
		t.Fatal(err)
	}
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUnmarshalRefuses: the decoder accepts the canonical encoding of a reachable state and
// refuses, with nil and games.ErrCorrupt, each way of being anything else.
func TestUnmarshalRefuses(t *testing.T) {
	// At 2 steps seat 0 has led Q♥ and seat 1 played J♥ on it; at 3 the bank went to seat 1; at
	// 40 deal 2 is under way; at 1 (variant 1) seat 0 has chosen spades.
	onTable, collected, deal2, choice := encoded(t, 2, false), encoded(t, 3, false), encoded(t, 40, false), encoded(t, 1, true)
	replace := func(old, new string) func(*testing.T, string) string {
		return func(t *testing.T, s string) string {
			if strings.Count(s, old) != 1 {
				t.Fatalf("%q is not once in %s", old, s)
			}
			return strings.Replace(s, old, new, 1)
		}
	}
	indent := func(t *testing.T, s string) string {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(s), "", "  "); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// mainFormat is a state as MarshalBinary wrote it before the format had a version.
	const mainFormat = `{"n":3,"seed":5,"trumps":{"variant":1,"own":["S","C","H"]},"deal":2,"dealer":0,"leader":1,` +
		`"turn":2,"hands":["C10 D10","D7 S8","CJ SQ",""],"aside":"","stock":"","taken":["C6 C7 C8 C9 D9 H7 HJ HA S7 S9 SJ SA",` +
		`"CQ CK D6 D8 DJ DQ","CA DK DA H6 H8 H9 H10 HQ HK S6 S10 SK",""],"banks":[4,2,4,0],"last_two":[0,0,0,0],` +
		`"fours":[0,0,0,0],"played":10,"records":["1 2 0 0 2,3,4 -2,-3,-4"]}`
	tests := []struct {
		name string
		base string
		edit func(*testing.T, string) string
		want string // in the error; "" = accepted
	}{
		{"a bank on the table", onTable, nil, ""},
		{"the last bank", collected, nil, ""},
		{"a later deal", deal2, nil, ""},
		{"the trump choice", choice, nil, ""},

		{"an unknown field", onTable, replace(`"seed":5,`, `"seed":5,"turn":2,`), "unknown field"},
		{"a key in another case", onTable, replace(`"seed":`, `"Seed":`), "canonical"},
		{"indented", onTable, indent, "canonical"},
		{"a space after it", onTable + " ", nil, "trailing data"},
		{"a second object", onTable + "{}", nil, "trailing data"},
		{"truncated", onTable[:len(onTable)-1], nil, "unexpected EOF"},
		{"no object", "null", nil, "encoding version 0"},
		{"the format before versions", mainFormat, nil, "unknown field"},
		{"another version", onTable, replace(`"v":1,`, `"v":2,`), "encoding version 2"},

		{"four hands at three seats", onTable, replace(`"hands":[`, `"hands":["",`), "4 hands"},
		{"two counts at three seats", onTable, replace(`"banks":[0,0,0]`, `"banks":[0,0]`), "banks [0 0]"},
		{"a negative count", onTable, replace(`"fours":[0,0,0]`, `"fours":[0,-1,0]`), "fours [0 -1 0]"},
		{"a number with a sign", deal2, replace(`"1 2 0 0 3,3,3`, `"1 2 0 +0 3,3,3`), "canonical"},
		{"sets out of order", onTable, replace(`"aside":"C6 C10`, `"aside":"C10 C6`), "out of order"},
		{"a card rank first", onTable, replace(`"aside":"C6 `, `"aside":"6C `), "canonical notation"},
		{"a suit in lower case", choice, replace(`"own":["S"`, `"own":["s"`), `suit "s"`},

		{"a card in two places", onTable, replace(`"aside":"C6 `, `"aside":"C6 C8 `), "in two places"},
		{"a card missing", onTable, replace(`"aside":"C6 `, `"aside":"`), "not conserved"},
		{"a card its player could not play", onTable, func(t *testing.T, s string) string {
			s = replace(`"CK D8 D9 D10 H8 H9 S9 SJ"`, `"CK D8 D9 D10 H8 H9 HJ SJ"`)(t, s)
			return replace(`"cards":["HQ","HJ"]`, `"cards":["HQ","S9"]`)(t, s)
		}, "may not play S9"},
		{"a full bank on the table", collected, replace(`"last":`, `"bank":`), "not collected"},
		{"a bank not with its taker", collected, func(t *testing.T, s string) string {
			s = replace(`"taken":["","H7 HJ HQ",""]`, `"taken":["H7 HJ HQ","",""]`)(t, s)
			return replace(`"banks":[0,1,0]`, `"banks":[1,0,0]`)(t, s)
		}, "not with its taker"},
		{"a deal that does not add up", deal2, replace(`-3,-3,-3"`, `-3,-3,-2"`), "add up"},
		{"a record of two seats", deal2, replace(`"1 2 0 0 3,3,3 -3,-3,-3"`, `"1 2 0 0 3,3 -3,-3"`), "for 3 players"},
		{"deal 1 led without the lowest diamond", deal2, replace(`"1 2 0 0 `, `"1 2 1 0 `), "deal 1 led by seat 1"},
		{"another seed", onTable, replace(`"seed":5,`, `"seed":6,`), "set aside"},
		{"cards swapped between hands", onTable, func(t *testing.T, s string) string {
			s = replace(`"C8 D7 H6 HA S6 S8 S10 SK"`, `"C8 D7 H6 HA S6 S8 S9 S10"`)(t, s)
			return replace(`"CK D8 D9 D10 H8 H9 S9 SJ"`, `"CK D8 D9 D10 H8 H9 SJ SK"`)(t, s)
		}, "not dealt"},
		{"a trump chosen out of turn", choice, replace(`"own":["S","",""]`, `"own":["","S",""]`), "seat order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.base
			if tt.edit != nil {
				in = tt.edit(t, in)
			}
			st, err := Rules().Unmarshal([]byte(in))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				gametest.CheckUnmarshalStrict(t, Rules(), []byte(in))
				return
			}
			if err == nil || st != nil || !errors.Is(err, games.ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Unmarshal = %v, %v; want nil and ErrCorrupt with %q", st, err, tt.want)
			}
		})
	}
}
