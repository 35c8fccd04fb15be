package record

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/skat"
	"github.com/kozyr-bot/kozyr/games/wizard"
)

// TestCommitVector: the commitment is the first 16 hex digits of the SHA-256 of the documented
// line, every option at its value or default, sorted by key. The expected digits were computed
// outside Go: printf '%s' LINE | sha256sum | cut -c1-16.
func TestCommitVector(t *testing.T) {
	for _, c := range []struct {
		r      games.Rules
		cfg    games.Config
		seed   uint64
		line   string
		commit string
	}{
		{wizard.Rules(), games.Config{Players: 3, Options: map[string]string{wizard.OptShortGame: "3"}}, 1234,
			"kozyr-deal/1 game=wizard rules=2 players=3 seed=00000000000004d2 bids_cannot_match=off hidden_bids=off short_game=3",
			"7f4c4b27964aee36"},
		{skat.Rules(), games.Config{Players: 4, Options: map[string]string{skat.OptPreset: skat.PresetISkO}}, 1<<64 - 1,
			"kozyr-deal/1 game=skat rules=2 players=4 seed=ffffffffffffffff announce_levels=preset announce_requires_hand=preset " +
				"grand_base=preset loss_scoring=preset match_deals=12 null_ouvert_value=preset open_mode=preset preset=isko " +
				"ramsch_mandatory=preset schneider_min_points=preset",
			"70f5b733e1fc924c"},
	} {
		line := CommitLine(c.r.Name(), c.r.Version(), c.cfg, c.r.Options(), c.seed)
		if line != c.line {
			t.Errorf("CommitLine:\n got %s\nwant %s", line, c.line)
		}
		if got := Commit(c.r.Name(), c.r.Version(), c.cfg, c.r.Options(), c.seed); got != c.commit {
			t.Errorf("%s: Commit = %s, want %s", c.r.Name(), got, c.commit)
		}
	}
	// A default set explicitly commits to the same deals as one left out.
	r := wizard.Rules()
	left := Commit("wizard", 2, games.Config{Players: 3}, r.Options(), 9)
	set := Commit("wizard", 2, games.Config{Players: 3, Options: map[string]string{wizard.OptHiddenBids: "off"}}, r.Options(), 9)
	other := Commit("wizard", 2, games.Config{Players: 3}, r.Options(), 10)
	if left != set || left == other {
		t.Errorf("commitments: default left out %s, set %s, another seed %s", left, set, other)
	}
}

// playMatch plays a random match of r to its end and returns its archive entry.
func playMatch(t testing.TB, r games.Rules, cfg games.Config, seed uint64) Match {
	t.Helper()
	if pc, ok := r.(games.PlayoutCapper); ok {
		cfg.Options = map[string]string{}
		for k, v := range pc.PlayoutOptions() {
			cfg.Options[k] = v
		}
	}
	st, err := r.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	m := Match{Rules: r, Version: r.Version(), Config: cfg, Seed: seed, Finished: "2026-01-02T03:04:05Z"}
	for s := range cfg.Players {
		m.Seats = append(m.Seats, Seat{Name: "P<" + string(rune('A'+s)) + ">", AI: s%2 == 1})
	}
	for len(st.ToAct()) > 0 {
		toAct := st.ToAct()
		s := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(s)
		a := legal[rng.IntN(len(legal))]
		if st, _, err = st.Apply(s, a); err != nil {
			t.Fatal(err)
		}
		m.Log = append(m.Log, games.Move{Seat: s, Action: a})
	}
	sh := st.Score()
	m.Sheet = &sh
	return m
}

// TestRoundTrip: for every game a record made from a finished match marshals, reads back equal,
// replays exactly, and re-deals as many deals as it has.
func TestRoundTrip(t *testing.T) {
	for _, r := range all.Rules() {
		t.Run(r.Name(), func(t *testing.T) {
			lo, _ := r.Seats()
			m := playMatch(t, r, games.Config{Players: max(lo, 3)}, 42)
			rec, err := New(m)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Actions) != len(m.Log) || rec.Seats[1].Seat != 1 || len(rec.Options) != len(r.Options()) {
				t.Fatalf("record: %d actions of %d, seats %+v, options %v", len(rec.Actions), len(m.Log), rec.Seats, rec.Options)
			}
			data, err := Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("Unmarshal: %v\n%s", err, data)
			}
			again, _ := Marshal(back)
			if !bytes.Equal(data, again) {
				t.Fatalf("the record does not round-trip:\n%s\n%s", data, again)
			}
			sum, err := Replay(r, back)
			if err != nil {
				t.Fatalf("Replay: %v", err)
			}
			if sum.Actions != len(m.Log) || sum.Deals != len(rec.Deals) || len(sum.Winners) == 0 {
				t.Errorf("summary %+v", sum)
			}
			deals, err := back.Redeal(r)
			if err != nil || len(deals) != len(rec.Deals) {
				t.Errorf("Redeal: %d deals of %d, %v", len(deals), len(rec.Deals), err)
			}
			t.Logf("%s: %d bytes, %d actions, %d deals; %s", r.Name(), len(data), len(rec.Actions), len(rec.Deals), sum)
		})
	}
}

// wizardRecord is the marshalled record of a short random Wizard match.
func wizardRecord(t *testing.T) (Record, []byte) {
	t.Helper()
	m := playMatch(t, wizard.Rules(), games.Config{Players: 3, Options: map[string]string{wizard.OptShortGame: "3"}}, 0xc0ffee7)
	rec, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec, data
}

// TestStrictDecoding: anything but a record in Marshal's form is refused with ErrFormat.
func TestStrictDecoding(t *testing.T) {
	_, data := wizardRecord(t)
	good := string(data)
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("the record has no %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	for name, bad := range map[string]string{
		"empty":                "",
		"not JSON":             "kozyr",
		"an array":             "[]",
		"truncated":            good[:len(good)/2],
		"trailing data":        good + "{}",
		"unknown field":        edit(`"format": 1,`, `"format": 1, "color": "red",`),
		"unknown msg field":    edit(`{"id":"wizard.`, `{"x":1,"id":"wizard.`),
		"future format":        edit(`"format": 1,`, `"format": 2,`),
		"missing field":        edit(`"rules": 2,`, ``),
		"seed not hex":         edit(`"seed": "`, `"seed": "zz`),
		"seed upper case":      upperSeed(good),
		"short commitment":     edit(`"commitment": "`, `"commitment": "0`),
		"seat out of order":    edit(`{"seat":1,"name"`, `{"seat":2,"name"`),
		"action of no seat":    edit(`{"seat":0,"action"`, `{"seat":9,"action"`),
		"action not canonical": edit(`"action":"bid/`, `"action":"bid/0`),
		"deal numbered 2":      edit(`{"deal":1,`, `{"deal":2,`),
		"ai false written":     edit(`"name":"P<A>"`, `"name":"P<A>","ai":false`),
		"msg arg untagged":     edit(`"args":{`, `"args":{"X":{},`),
		"points null":          edit(`"totals":`, `"totals":null,"t":`),
	} {
		if _, err := Unmarshal([]byte(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Unmarshal = %v, want ErrFormat", name, err)
		}
	}
	if _, err := Unmarshal([]byte(good)); err != nil {
		t.Fatalf("the good record: %v", err)
	}
	// Whitespace and key order do not matter.
	if _, err := Unmarshal([]byte(edit(`"format": 1,`, `"format":1 ,`))); err != nil {
		t.Errorf("whitespace: %v", err)
	}
}

// upperSeed is the record with its seed's hex digits in upper case.
func upperSeed(rec string) string {
	i := strings.Index(rec, `"seed": "`) + len(`"seed": "`)
	return rec[:i] + strings.ToUpper(rec[i:i+16]) + rec[i+16:]
}

// TestReplayFindsTheFirstDifference: a record changed anywhere replays to a Mismatch at the
// first place the change shows, and says what differs.
func TestReplayFindsTheFirstDifference(t *testing.T) {
	rec, _ := wizardRecord(t)
	r := wizard.Rules()
	first := rec.Deals[0].Last
	for _, c := range []struct {
		name   string
		change func(rec *Record)
		action int
		what   string
	}{
		{"another seed", func(rec *Record) { rec.Seed++ }, -1, "commitment"},
		{"another commitment", func(rec *Record) { rec.Commitment = "0123456789abcdef" }, -1, "commitment 0123456789abcdef"},
		{"another option", func(rec *Record) { rec.Options[wizard.OptHiddenBids] = "on" }, -1, "commitment"},
		{"an option left out", func(rec *Record) { delete(rec.Options, wizard.OptHiddenBids) }, -1, "options"},
		{"another version", func(rec *Record) { rec.Rules = 1 }, -1, "rules version 1"},
		{"another seat", func(rec *Record) { rec.Actions[1].Seat = (rec.Actions[1].Seat + 1) % 3 }, 1, "refused"},
		{"an illegal card", func(rec *Record) { rec.Actions[first].Action = "play/W1" }, first, "refused"},
		{"an action left out", func(rec *Record) { rec.Actions = rec.Actions[:len(rec.Actions)-1] }, len(rec.Actions) - 1, "not over after the last action"},
		{"a deal's result", func(rec *Record) { rec.Deals[1].Result[0].Args["Round"] = 9 }, rec.Deals[1].Last, "deal 2's result"},
		{"a deal ending later", func(rec *Record) { rec.Deals[0].Last++ }, first, "engine ends deal 1 here"},
		{"the end", func(rec *Record) { rec.End = nil }, len(rec.Actions), "match's end"},
		{"a total", func(rec *Record) { rec.Sheet.Totals[0] += 10 }, len(rec.Actions), "sheet.totals[0]"},
		{"a winner", func(rec *Record) { rec.Sheet.Winners = []int{(rec.Sheet.Winners[0] + 1) % 3} }, len(rec.Actions), "sheet.winners"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, _ := Marshal(rec)
			cp, err := Unmarshal(data) // a deep copy
			if err != nil {
				t.Fatal(err)
			}
			c.change(&cp)
			_, err = Replay(r, cp)
			var m *Mismatch
			if !errors.As(err, &m) {
				t.Fatalf("Replay = %v, want a Mismatch", err)
			}
			if m.Action != c.action || !strings.Contains(m.What, c.what) {
				t.Errorf("Mismatch at %d: %s; want at %d, mentioning %q", m.Action, m.What, c.action, c.what)
			}
		})
	}
	if _, err := Replay(skat.Rules(), rec); err == nil || !strings.Contains(err.Error(), `"wizard"`) {
		t.Errorf("a Wizard record replayed as Skat: %v", err)
	}
}

// TestNewRefuses: a record is made only of a finished match under the engine's rules version.
func TestNewRefuses(t *testing.T) {
	m := playMatch(t, wizard.Rules(), games.Config{Players: 3, Options: map[string]string{wizard.OptShortGame: "3"}}, 3)
	old := m
	old.Version = 1
	short := m
	short.Log = m.Log[:len(m.Log)-1]
	bad := m
	bad.Log = append([]games.Move{{Seat: 0, Action: games.Do("pass")}}, m.Log...)
	for name, m := range map[string]Match{"old rules": old, "unfinished": short, "refused action": bad} {
		if _, err := New(m); err == nil {
			t.Errorf("%s: a record was made", name)
		}
	}
}

// TestSeed: seeds read back exactly as written, and only in that form.
func TestSeed(t *testing.T) {
	for _, s := range []uint64{0, 1, 1<<64 - 1, 0x0123456789abcdef} {
		back, err := ParseSeed(Seed(s).String())
		if err != nil || uint64(back) != s {
			t.Errorf("seed %x: %x, %v", s, back, err)
		}
	}
	for _, bad := range []string{"", "12", "0123456789ABCDEF", "0x23456789abcdef", "0123456789abcdefg"} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) read", bad)
		}
	}
}
