package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

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
		out, short := sheetTable(tb, sh, names[:n],
			func(m games.Msg) string { return fmt.Sprintf("R%d", m.Args["N"]) })
		if len(short) != n {
			t.Fatalf("%d seats: %d short names", n, len(short))
		}
		lines := strings.Split(out, "\n")
		for _, l := range lines {
			if w := utf8.RuneCountInString(l); w > SheetWidth {
				t.Errorf("%d seats: line %q is %d wide", n, l, w)
			}
		}
		for s := range n {
			if !strings.Contains(out, short[s]) {
				t.Errorf("%d seats: seat %d's short name %q missing", n, s, short[s])
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
	btns := make([]Button, 19)
	rows := grid(btns, 8)
	if len(rows) != 3 || len(rows[0]) != 8 || len(rows[2]) != 3 {
		t.Errorf("grid(19, 8): %d rows", len(rows))
	}
}

// TestLongSheetFitsAMessage: a match of hundreds of deals still answers /score within Telegram's
// limit, dropping the oldest rows but never the totals.
func TestLongSheetFitsAMessage(t *testing.T) {
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := New(loc, nil, "kozyr_test_bot", zerolog.Nop())
	tb := store.Table{Game: "nasilie", Seats: []store.Player{{Name: "Ann"}, {Name: "Bo"}, {Name: "Cy"}, {Name: "Di"}}}
	sh := games.Sheet{Totals: []int{97, -40, 12, -300}}
	for r := 1; r <= 400; r++ {
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M("wizard.sheet.round", "Round", r, "Count", r),
			Cells: []string{"3/12", "-", "−10", "+4"}})
	}
	for _, lang := range loc.Langs() {
		out := r.Sheet(tb, sh, lang)
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

// TestOrdered: ladders come in ascending order in the places of their kind; the other actions
// keep theirs.
func TestOrdered(t *testing.T) {
	sq := cards.MustParse("SQ")
	in := []games.Action{games.Do("pass"), games.Num("bid", 30), games.With("play", sq), games.Num("bid", 18),
		games.Num("take", 2), games.Num("bid", 20), games.Num("take", 1), games.WithNum("play", sq, 9), games.WithNum("play", sq, 1)}
	want := []games.Action{games.Do("pass"), games.Num("bid", 18), games.With("play", sq), games.Num("bid", 20),
		games.Num("take", 1), games.Num("bid", 30), games.Num("take", 2), games.WithNum("play", sq, 9), games.WithNum("play", sq, 1)}
	if got := ordered(in); !slices.Equal(got, want) {
		t.Errorf("ordered:\n got %v\nwant %v", got, want)
	}
	if in[1] != games.Num("bid", 30) {
		t.Errorf("ordered changed its argument")
	}
}

func TestPaginate(t *testing.T) {
	ladder := func(n int) []games.Action {
		var out []games.Action
		for i := range n {
			out = append(out, games.Num("bid", 18+i))
		}
		return out
	}
	// Up to PageSize actions: one page, as they are.
	short := append(ladder(PageSize-1), games.Do("pass"))
	if got, cur, pages := paginate(short, 3); !slices.Equal(got, short) || cur != 0 || pages != 1 {
		t.Errorf("short list: %d shown, page %d of %d", len(got), cur, pages)
	}
	// Skat's first bid: 89 rungs and "pass", pass on every page in its place (last).
	long := append(ladder(89), games.Do("pass"))
	var seen []games.Action
	for p := range 4 {
		got, cur, pages := paginate(long, p)
		if cur != p || pages != 4 || len(got) > PageSize || got[len(got)-1] != games.Do("pass") {
			t.Fatalf("page %d: %d shown (%v), page %d of %d", p, len(got), got, cur, pages)
		}
		seen = append(seen, got[:len(got)-1]...)
	}
	if !slices.Equal(seen, long[:89]) {
		t.Errorf("the pages together show %v", seen)
	}
	if _, cur, _ := paginate(long, 99); cur != 3 {
		t.Errorf("a page past the end shows page %d", cur)
	}
	if _, cur, _ := paginate(long, -1); cur != 0 {
		t.Errorf("a negative page shows page %d", cur)
	}
	// Many actions that are no rungs: everything is paged alike.
	var plays []games.Action
	for c := range cards.Card(30) {
		plays = append(plays, games.With("play", c))
	}
	got0, _, pages := paginate(plays, 0)
	got1, _, _ := paginate(plays, 1)
	if pages != 2 || len(got0) != PageSize || len(got1) != 30-PageSize {
		t.Errorf("30 plays: %d + %d shown on %d pages", len(got0), len(got1), pages)
	}
}

// TestShortLabel: sheet labels that do not fit the label column keep their number in the table
// and are listed in full under it; a parenthesis alone is dropped without a listing.
func TestShortLabel(t *testing.T) {
	for _, c := range []struct {
		label, short string
		list         bool
	}{
		{"Round 3", "Round 3", false},
		{"Deal 12 (3)", "Deal 12", false},
		{"3 (3 cards)", "3", false},
		{"7. Bob: 3 (130), 14/13", "7.", true},
		{"12. Bot 1: nanny declined", "12.", true},
		{"Rounds 1–15", "Rounds", true},
	} {
		if got, list := shortLabel(c.label), mustList(c.label); got != c.short || list != c.list {
			t.Errorf("%q: short %q, listed %v; want %q, %v", c.label, got, list, c.short, c.list)
		}
	}
}

// TestAbbreviations: short names fit their columns, differ from each other, and carry no stray
// spaces or dots.
func TestAbbreviations(t *testing.T) {
	for _, c := range []struct {
		names  []string
		widths []int
		want   []string
	}{
		{[]string{"Alice", "Eve", "Bo"}, []int{3, 3, 3}, []string{"Ali", "Eve", "Bo"}},
		{[]string{"Alex", "Alexandra", "Bob"}, []int{3, 3, 3}, []string{"Al1", "Al2", "Bob"}},
		{[]string{"Eve <3", "Tom & Jerry", "Ана Мария"}, []int{4, 4, 4}, []string{"Eve3", "TomJ", "АнаМ"}},
		{[]string{"Ann", "Ann", "Ann"}, []int{3, 3, 3}, []string{"An1", "An2", "An3"}},
		{[]string{"🙂", "Zoë"}, []int{3, 5}, []string{"🙂", "Zoë"}},
		{[]string{"Bot 1", "Bot 2"}, []int{3, 3}, []string{"Bo1", "Bo2"}},
	} {
		got := abbreviations(c.names, c.widths)
		if !slices.Equal(got, c.want) {
			t.Errorf("abbreviations(%q) = %q, want %q", c.names, got, c.want)
		}
		for i, a := range got {
			if utf8.RuneCountInString(a) > max(c.widths[i], 1) || strings.ContainsAny(a, " .") {
				t.Errorf("%q: %q does not fit or has a stray sign", c.names[i], a)
			}
		}
	}
}
