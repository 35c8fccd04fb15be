package magister

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// vectorFile is the format "magister-vectors/1" of ../shared/rules/magister-examples.json (§13).
type vectorFile struct {
	Format     string      `json:"format"`
	TrickCases []trickCase `json:"trick_cases"`
	raw        map[string]json.RawMessage
}

type trickCase struct {
	ID    string `json:"id"`
	Input struct {
		Setup struct {
			Variant      int               `json:"variant"`
			Players      int               `json:"players"`
			SeatTrumps   map[string]string `json:"seat_trumps"`
			SharedTrumps []string          `json:"shared_trumps"`
			SeniorTrump  *string           `json:"senior_trump"`
			JuniorTrump  *string           `json:"junior_trump"`
		} `json:"setup"`
		Hands map[string][]string `json:"hands"`
		Plays []string            `json:"plays"`
	} `json:"input"`
	Expect struct {
		WinnerSeat *int                `json:"winner_seat"`
		Winner     *int                `json:"winner"`
		Outcomes   []string            `json:"outcomes"`
		Legal      map[string][]string `json:"legal"`
	} `json:"expect"`
}

// vectorSections are the sections of cases the format knows: trick_cases only. Any other
// top-level list of objects is an unknown section and fails the test, so a new kind of case is
// never skipped silently; other keys (format, spec, about, conventions, ...) are metadata.
var vectorSections = map[string]bool{"trick_cases": true}

// isSection reports whether a top-level value is a list of objects, i.e. a section of cases.
func isSection(v json.RawMessage) bool {
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		return false
	}
	for _, e := range list {
		if b := bytes.TrimSpace(e); len(b) > 0 && b[0] == '{' {
			return true
		}
	}
	return false
}

// TestVectors runs every case of every file in testdata/vectors (magister.md §13).
func TestVectors(t *testing.T) {
	total := 0
	gametest.EachVectorFile(t, func(t *testing.T, data []byte) {
		vf, err := readVectors(data)
		if err != nil {
			t.Fatal(err)
		}
		for i, tc := range vf.TrickCases {
			name := tc.ID
			if name == "" {
				name = "case" + strconv.Itoa(i)
			}
			t.Run(name, func(t *testing.T) {
				if err := runTrickCase(tc); err != nil {
					t.Error(err)
				}
			})
			total++
		}
	})
	t.Logf("%d bank cases", total)
}

func readVectors(data []byte) (vectorFile, error) {
	var vf vectorFile
	if err := json.Unmarshal(data, &vf.raw); err != nil {
		return vf, err
	}
	for k, v := range vf.raw {
		if !vectorSections[k] && isSection(v) {
			return vf, fmt.Errorf("unknown section %q", k)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&vf); err != nil {
		return vf, err
	}
	if vf.Format != "magister-vectors/1" {
		return vf, fmt.Errorf("format %q, want magister-vectors/1", vf.Format)
	}
	if len(vf.TrickCases) == 0 {
		return vf, errors.New("no trick_cases")
	}
	return vf, nil
}

func parseVectorSuit(s string) (cards.Suit, error) {
	su, err := cards.ParseSuit(s)
	if err != nil || su > cards.Spades {
		return cards.NoSuit, fmt.Errorf("bad suit %q", s)
	}
	return su, nil
}

// vectorTrumps builds the configuration of a case's setup; seats are relative to the leader, who
// is seat 1 in the file and games.Seat(0) here.
func vectorTrumps(tc trickCase) (Trumps, error) {
	su := tc.Input.Setup
	switch su.Variant {
	case VariantOwn:
		own := make([]cards.Suit, su.Players)
		for i := range own {
			own[i] = cards.NoSuit
		}
		for k, v := range su.SeatTrumps {
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 || n > su.Players {
				return Trumps{}, fmt.Errorf("seat_trumps: bad seat %q", k)
			}
			s, err := parseVectorSuit(v)
			if err != nil {
				return Trumps{}, err
			}
			own[n-1] = s
		}
		return Trumps{Variant: VariantOwn, Own: own}, nil
	case VariantNone, VariantOne, VariantTwo, VariantSeniorJunior:
		var shared []cards.Suit
		for _, v := range su.SharedTrumps {
			s, err := parseVectorSuit(v)
			if err != nil {
				return Trumps{}, err
			}
			shared = append(shared, s)
		}
		if su.Variant == VariantSeniorJunior {
			if su.SeniorTrump != nil && *su.SeniorTrump != "S" || su.JuniorTrump != nil && *su.JuniorTrump != "D" {
				return Trumps{}, fmt.Errorf("variant 5 is always senior S, junior D")
			}
		}
		return SharedTrumps(su.Variant, shared...)
	}
	return Trumps{}, fmt.Errorf("unknown variant %d", su.Variant)
}

func parseVectorCards(ss []string) ([]cards.Card, error) {
	out := make([]cards.Card, 0, len(ss))
	for _, s := range ss {
		c, ok := ParseCard(s)
		if !ok {
			return nil, fmt.Errorf("bad card %q", s)
		}
		out = append(out, c)
	}
	return out, nil
}

func notations(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = Notation(c)
	}
	return out
}

// runTrickCase plays one bank of a vector file and compares taker, outcomes and legal plays.
func runTrickCase(tc trickCase) error {
	n := tc.Input.Setup.Players
	if n < 2 || n > 4 {
		return fmt.Errorf("bad player count %d", n)
	}
	tr, err := vectorTrumps(tc)
	if err != nil {
		return err
	}
	plays, err := parseVectorCards(tc.Input.Plays)
	if err != nil {
		return err
	}
	if len(plays) != n {
		return fmt.Errorf("%d plays for %d players", len(plays), n)
	}
	if cards.SetOf(plays...).Len() != n {
		return fmt.Errorf("a card is played twice in %v", tc.Input.Plays)
	}
	hands := make([]cards.Set, n)
	haveHands := tc.Input.Hands != nil
	for i := range n {
		if !haveHands {
			hands[i] = cards.SetOf(plays[i]) // E1–E25 give no hands (§13)
			continue
		}
		h, ok := tc.Input.Hands[strconv.Itoa(i+1)]
		if !ok {
			return fmt.Errorf("no hand for seat %d", i+1)
		}
		cs, err := parseVectorCards(h)
		if err != nil {
			return err
		}
		hands[i] = cards.SetOf(cs...)
		if !hands[i].Has(plays[i]) {
			return fmt.Errorf("seat %d plays %s, not in its hand %v", i+1, Notation(plays[i]), h)
		}
	}
	for k := range tc.Expect.Legal {
		if s, err := strconv.Atoi(k); err != nil || s < 1 || s > n {
			return fmt.Errorf("expect.legal: bad seat %q", k)
		}
	}
	if tc.Expect.Legal != nil && !haveHands {
		return fmt.Errorf("expect.legal without hands")
	}
	if want, ok := tc.Expect.Legal["1"]; ok {
		if got := notations(Sorted(hands[0])); !sameCards(got, want) {
			return fmt.Errorf("legal for the leader: got %v, want %v", got, want)
		}
	}
	b := Open(0, plays[0])
	var outs []string
	for i := 1; i < n; i++ {
		p := games.Seat(i)
		legal := LegalPlays(b, tr, p, hands[i])
		if want, ok := tc.Expect.Legal[strconv.Itoa(i+1)]; ok {
			if got := notations(Sorted(legal)); !sameCards(got, want) {
				return fmt.Errorf("legal for seat %d: got %v, want %v", i+1, got, want)
			}
		}
		if haveHands && !legal.Has(plays[i]) {
			return fmt.Errorf("seat %d's %s is not a legal play (legal %v)", i+1, Notation(plays[i]), notations(Sorted(legal)))
		}
		var o Outcome
		b, o = b.Play(tr, p, plays[i], hands[i])
		outs = append(outs, o.String())
	}
	for _, o := range tc.Expect.Outcomes {
		if _, ok := ParseOutcome(o); !ok || o == "lead" {
			return fmt.Errorf("unknown outcome %q", o)
		}
	}
	if tc.Expect.Outcomes != nil && !slices.Equal(outs, tc.Expect.Outcomes) {
		return fmt.Errorf("outcomes: got %v, want %v", outs, tc.Expect.Outcomes)
	}
	if tc.Expect.WinnerSeat == nil && tc.Expect.Winner == nil {
		return fmt.Errorf("no expected winner")
	}
	if w := tc.Expect.WinnerSeat; w != nil && int(b.Holder())+1 != *w {
		return fmt.Errorf("winner_seat: got %d, want %d (outcomes %v)", b.Holder()+1, *w, outs)
	}
	if w := tc.Expect.Winner; w != nil && int(b.Holder()) != *w {
		return fmt.Errorf("winner: got %d, want %d (outcomes %v)", b.Holder(), *w, outs)
	}
	return nil
}

func sameCards(got, want []string) bool {
	w := make([]string, 0, len(want))
	for _, s := range want {
		c, ok := ParseCard(s)
		if !ok {
			return false
		}
		w = append(w, Notation(c))
	}
	a, b := slices.Clone(got), w
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestVectorsCatchMismatches: a wrong expectation, an unknown outcome and an unknown section all
// fail, so TestVectors cannot pass vacuously.
func TestVectorsCatchMismatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "vectors", "magister-examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	vf, err := readVectors(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range vf.TrickCases {
		bad := tc
		w := *tc.Expect.WinnerSeat%tc.Input.Setup.Players + 1
		bad.Expect.WinnerSeat, bad.Expect.Winner = &w, nil
		if runTrickCase(bad) == nil {
			t.Errorf("%s: a wrong winner passed", tc.ID)
		}
		bad = tc
		bad.Expect.Outcomes = slices.Clone(tc.Expect.Outcomes)
		bad.Expect.Outcomes[0] = "beats"
		if runTrickCase(bad) == nil {
			t.Errorf("%s: an unknown outcome passed", tc.ID)
		}
		if tc.Expect.Legal != nil {
			bad = tc
			bad.Expect.Legal = map[string][]string{"2": {"AS", "AH", "AD", "AC"}}
			if runTrickCase(bad) == nil {
				t.Errorf("%s: wrong legal plays passed", tc.ID)
			}
		}
	}
	for extra, ok := range map[string]bool{
		`"generated_by": "x", "notes": ["a", "b"]`: true,
		`"deal_cases": [{"id": "D1"}]`:             false,
	} {
		doc := append([]byte("{"+extra+","), bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{"))...)
		if _, err := readVectors(doc); (err == nil) != ok {
			t.Errorf("file with %s: error %v", extra, err)
		}
	}
}
