package bot

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

func TestParseCommand(t *testing.T) {
	cmd := func(off, length int) []models.MessageEntity {
		return []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Offset: off, Length: length}}
	}
	for _, c := range []struct {
		text     string
		entities []models.MessageEntity
		want     command
		ok       bool
	}{
		{"/new", cmd(0, 4), command{Name: "new"}, true},
		{"/new wizard", cmd(0, 4), command{Name: "new", Args: "wizard"}, true},
		{"/new@kozyr_bot wizard", cmd(0, 14), command{Name: "new", Args: "wizard"}, true},
		{"/NEW@Kozyr_Bot", cmd(0, 14), command{Name: "new"}, true},
		{"/new@other_bot wizard", cmd(0, 14), command{}, false},
		{"/start j-1001234567890", cmd(0, 6), command{Name: "start", Args: "j-1001234567890"}, true},
		{"/lang 🇷🇺 ru", cmd(0, 5), command{Name: "lang", Args: "🇷🇺 ru"}, true},
		// UTF-16: the emoji before the command is two code units per rune, so offset 0 is absent.
		{"🃏 /new", cmd(3, 4), command{}, false},
		{"hello /new", cmd(6, 4), command{}, false},
		{"/new", nil, command{Name: "new"}, true}, // no entities (a client that sends none)
		{"/new@kozyr_bot\twizard", nil, command{Name: "new", Args: "wizard"}, true},
		{"just text", nil, command{}, false},
		{"/", nil, command{}, false},
		{"/a-b", nil, command{}, false},
		{"/join@", cmd(0, 6), command{}, false},
	} {
		got, ok := parseCommand(c.text, c.entities, "kozyr_bot")
		if ok != c.ok || got != c.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

func TestUTF16ToByte(t *testing.T) {
	for _, c := range []struct {
		s     string
		units int
		want  int
	}{
		{"/new", 4, 4},
		{"ёж /new", 3, 5},  // ё and ж: one unit, two bytes each
		{"🃏 /new", 3, 5},   // 🃏: two units, four bytes
		{"🃏 /new", 100, 9}, // clamped
		{"🃏", 1, 4},        // inside a surrogate pair: the whole rune
	} {
		if got := utf16ToByte(c.s, c.units); got != c.want {
			t.Errorf("utf16ToByte(%q, %d) = %d, want %d", c.s, c.units, got, c.want)
		}
	}
}

func TestPlayData(t *testing.T) {
	longest := playData{Chat: -1009999999999999, Version: 999999, Action: games.WithNum("play", cards.Joker(2), 10)}
	if s := longest.String(); len(s) > maxData {
		t.Errorf("%q is %d bytes", s, len(s))
	}
	ok := playData{Chat: -4001, Version: 12, Action: games.With("play", cards.MustParse("SQ"))}
	if got, err := parsePlayData(ok.String()); err != nil || got != ok {
		t.Errorf("round trip %q: %+v, %v", ok, got, err)
	}
	for _, forged := range []string{
		"", "v1", "v2|-4001|12|play/SQ", "v1|-4001|12", "v1|-4001|12|play/SQ|x", "v1|x|12|play/SQ",
		"v1|0|12|play/SQ", "v1|-04001|12|play/SQ", "v1|-4001|-1|play/SQ", "v1|-4001|012|play/SQ",
		"v1|-4001|12|play/sq", "v1|-4001|12|PLAY/SQ", "v1|-4001|12|play/ZZ", "v1|-4001|12|",
		"v1|-4001|12|" + strings.Repeat("a", 60),
	} {
		if _, err := parsePlayData(forged); err == nil {
			t.Errorf("parsePlayData(%q) accepted forged data", forged)
		}
	}
}

func TestLobbyData(t *testing.T) {
	for op, want := range map[string]bool{
		"join": true, "leave": true, "ai": true, "rmai": true, "opts": true, "back": true, "begin": true,
		"o0": true, "o12": true, "o": false, "o01": false, "o-1": false, "o123": false, "drop": false, "": false,
	} {
		if validOp(op) != want {
			t.Errorf("validOp(%q) = %v", op, !want)
		}
	}
	for s, want := range map[string]int64{"j-4001": -4001, "j-1001234567890": -1001234567890, "j42": 42,
		"j": 0, "j-0": 0, "x-4001": 0, "j-04001": 0, "j-4001 ": 0} {
		got, ok := parsePayload(s)
		if got != want || ok != (want != 0) {
			t.Errorf("parsePayload(%q) = %d, %v", s, got, ok)
		}
		if ok && payload(got) != s {
			t.Errorf("payload(%d) = %q", got, payload(got))
		}
	}
}

func TestSheetTableFitsAPhone(t *testing.T) {
	names := []string{"Bartholomew", "Eve <3", "Tom & Jerry", "Ана", "Zoë-Mariá", "Ö"}
	for n := 3; n <= 6; n++ {
		tb := store.Table{Seats: make([]store.Player, n)}
		sh := games.Sheet{Totals: make([]int, n)}
		for r := 1; r <= 12; r++ {
			row := games.SheetRow{Label: games.M("round", "N", r), Cells: make([]string, n)}
			for s := range n {
				row.Cells[s] = fmt.Sprintf("%d/%d %+d", s%3, r%4, (s-2)*10*r)
			}
			sh.Rows = append(sh.Rows, row)
		}
		for s := range n {
			sh.Totals[s] = -1234 + 500*s
		}
		out := sheetTable(tb, sh, func(s games.Seat) string { return names[s] },
			func(m games.Msg) string { return fmt.Sprintf("R%d", m.Args["N"]) })
		lines := strings.Split(out, "\n")
		for _, l := range lines {
			if w := utf8.RuneCountInString(l); w > sheetWidth {
				t.Errorf("%d seats: line %q is %d wide", n, l, w)
			}
		}
		for s := range n {
			if !strings.Contains(out, cut(names[s], 3)[:1]) {
				t.Errorf("%d seats: seat %d's name missing", n, s)
			}
		}
		if !strings.Contains(out, "Σ") || !strings.Contains(out, "-1234") {
			t.Errorf("%d seats: totals missing:\n%s", n, out)
		}
	}
}

func TestFitLines(t *testing.T) {
	short := []string{"<b>a</b>", "b"}
	if got := fitLines(short); got != "<b>a</b>\nb" {
		t.Errorf("fitLines(short) = %q", got)
	}
	long := []string{"<b>head</b>"}
	for range 200 {
		long = append(long, "<i>"+strings.Repeat("x", 40)+"</i>")
	}
	got := fitLines(long)
	if utf16Len(got) > maxText || !strings.HasPrefix(got, "<b>head</b>") || !strings.HasSuffix(got, "…") {
		t.Errorf("fitLines(long): %d units, ends %q", utf16Len(got), got[len(got)-10:])
	}
	if strings.Count(got, "<i>") != strings.Count(got, "</i>") {
		t.Errorf("fitLines cut a tag")
	}
}

func TestGrid(t *testing.T) {
	btns := make([]button, 19)
	rows := grid(btns, 8)
	if len(rows) != 3 || len(rows[0]) != 8 || len(rows[2]) != 3 {
		t.Errorf("grid(19, 8): %d rows", len(rows))
	}
}

func TestSerializerOrderPerKey(t *testing.T) {
	s := newSerializer(testLog(t))
	var mu sync.Mutex
	got := map[int64][]int{}
	for i := range 200 {
		key := int64(i % 4)
		s.Do(key, func() {
			mu.Lock()
			got[key] = append(got[key], i)
			mu.Unlock()
		})
	}
	s.Do(9, func() { panic("an engine bug") }) // logged, not fatal
	ctx, cancel := contextWithTimeout(5 * time.Second)
	defer cancel()
	if err := s.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	for key, list := range got {
		if !slices.IsSorted(list) || len(list) != 50 {
			t.Errorf("key %d ran %v", key, list)
		}
	}
}

func TestOffsetsMark(t *testing.T) {
	o := newOffsets(10)
	for _, id := range []int64{11, 12, 15, 16} {
		o.received(id)
	}
	o.finished(12)
	o.finished(15)
	if o.Mark() != 10 {
		t.Errorf("mark %d before 11 finished", o.Mark())
	}
	o.finished(11)
	if o.Mark() != 15 {
		t.Errorf("mark %d, want 15 (16 still running)", o.Mark())
	}
	o.finished(16)
	if o.Mark() != 16 {
		t.Errorf("mark %d, want 16", o.Mark())
	}
}

// stubState is a State that only knows who is to act, for the bookkeeping tests.
type stubState struct{ toAct []games.Seat }

func (s stubState) ToAct() []games.Seat           { return s.toAct }
func (stubState) Legal(games.Seat) []games.Action { return nil }
func (stubState) View(games.Seat) games.View      { return games.View{} }
func (stubState) Score() games.Sheet              { return games.Sheet{} }
func (stubState) MarshalBinary() ([]byte, error)  { return nil, nil }
func (s stubState) Apply(games.Seat, games.Action) (games.State, []games.Event, error) {
	return s, nil, nil
}

func TestStampTurnsAndDeadline(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := now.Add(-time.Minute)
	b := &Bot{cfg: Config{TurnTimeout: 2 * time.Minute}}
	humans := []store.Player{{UserID: 1}, {UserID: 2}, {AI: true}, {UserID: 4, Away: true}}
	for _, c := range []struct {
		name         string
		before, now  []games.Seat
		deadline     time.Time // the record's deadline before
		wantDeadline time.Time
		wantTurns    map[string]string
	}{
		{"first deal", nil, []games.Seat{0}, time.Time{}, now.Add(2 * time.Minute), map[string]string{"turn.0": "7"}},
		{"next player", []games.Seat{0}, []games.Seat{1}, old, now.Add(2 * time.Minute), map[string]string{"turn.1": "7"}},
		{"same player again", []games.Seat{1}, []games.Seat{1}, old, old, map[string]string{"turn.1": "5"}},
		{"simultaneous, one done", []games.Seat{0, 1}, []games.Seat{1}, old, old, map[string]string{"turn.1": "5"}},
		{"agent's turn", []games.Seat{1}, []games.Seat{2}, old, time.Time{}, map[string]string{"turn.2": "7"}},
		{"away player's turn", []games.Seat{2}, []games.Seat{3}, time.Time{}, time.Time{}, map[string]string{"turn.3": "7"}},
		{"the end", []games.Seat{1}, nil, old, time.Time{}, map[string]string{}},
	} {
		tb := store.Table{Seats: humans, Version: 7, Deadline: c.deadline, Extra: map[string]string{}}
		for _, s := range c.before {
			tb.Extra[turnKey(s)] = "5"
		}
		b.stamp(&tb, c.before, stubState{c.now}, now)
		if !tb.Deadline.Equal(c.wantDeadline) {
			t.Errorf("%s: deadline %v, want %v", c.name, tb.Deadline, c.wantDeadline)
		}
		if fmt.Sprint(tb.Extra) != fmt.Sprint(c.wantTurns) {
			t.Errorf("%s: turns %v, want %v", c.name, tb.Extra, c.wantTurns)
		}
		if (c.now == nil) != !tb.Finished.IsZero() {
			t.Errorf("%s: finished %v", c.name, tb.Finished)
		}
	}
}

func TestPressStillValid(t *testing.T) {
	rec := store.Table{
		Seats:   []store.Player{{UserID: 1}, {UserID: 2}, {UserID: 3}},
		Log:     []string{"0:bid/1", "1:stake/2", "2:stake/3"},
		Version: 3,
	}
	tests := []struct {
		name    string
		who     actor
		version int
		want    bool
	}{
		{"others acted since: still counts", actor{user: 1}, 1, true},
		{"own action since: a double press", actor{user: 2}, 1, false},
		{"own action is the last one", actor{user: 3}, 2, false},
		{"current version", actor{user: 2}, 3, true},
		{"from the future", actor{user: 1}, 4, false},
		{"not seated", actor{user: 9}, 1, false},
		{"agents need the exact version", actor{seat: 0}, 1, false},
		{"negative", actor{user: 1}, -1, false},
	}
	for _, tt := range tests {
		if got := pressStillValid(rec, tt.who, tt.version); got != tt.want {
			t.Errorf("%s: pressStillValid(v%d) = %v, want %v", tt.name, tt.version, got, tt.want)
		}
	}
}

// TestLongSheetFitsAMessage: a match of hundreds of deals still answers /score within Telegram's
// limit, dropping the oldest rows but never the totals.
func TestLongSheetFitsAMessage(t *testing.T) {
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	b := &Bot{loc: loc}
	tb := store.Table{Game: "nasilie", Seats: []store.Player{{Name: "Ann"}, {Name: "Bo"}, {Name: "Cy"}, {Name: "Di"}}}
	sh := games.Sheet{Totals: []int{97, -40, 12, -300}}
	for r := 1; r <= 400; r++ {
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M("wizard.sheet.round", "Round", r, "Count", r),
			Cells: []string{"3/12", "-", "−10", "+4"}})
	}
	for _, lang := range loc.Langs() {
		out := b.sheetText(tb, sh, lang)
		if n := utf16Len(out); n > maxText {
			t.Errorf("%s: /score of 400 rows is %d characters", lang, n)
		}
		if !strings.Contains(out, "-300") || !strings.Contains(out, "Σ") {
			t.Errorf("%s: totals missing", lang)
		}
		if lang == "en" && !strings.Contains(out, "earlier rows not shown") {
			t.Errorf("en: no note of the dropped rows:\n%s", out[:200])
		}
	}
}
