package render

import (
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// TestTop: the leaderboard's ranks follow the ratings as shown (two ratings that round alike share
// a rank, the next rank is skipped), names are escaped and cut, and twenty of the longest names
// still fit one message in every language.
func TestTop(t *testing.T) {
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := New(loc, nil, "kozyr_test_bot", zerolog.Nop())
	stat := func(rating float64) store.Stat {
		return store.Stat{Played: 7, Won: 3, Points: 10, Rating: rating, Rated: 6}
	}
	for _, tt := range []struct {
		name    string
		leaders []Leader
		want    []string // the lines after the title, as plain text
	}{
		{"ranks by the ratings shown", []Leader{
			{User: 1, Name: "Ann", Stat: stat(1530.2)},
			{User: 2, Name: "Bo", Stat: stat(1505.4)},
			{User: 3, Name: "Cy", Stat: stat(1504.6)},
			{User: 4, Name: "Di", Stat: stat(1490)},
		}, []string{
			"1. Ann — 1530 · 7 matches, 3 won, 1.4 points a match",
			"2. Bo — 1505 · 7 matches, 3 won, 1.4 points a match",
			"2. Cy — 1505 · 7 matches, 3 won, 1.4 points a match",
			"4. Di — 1490 · 7 matches, 3 won, 1.4 points a match",
		}},
		{"a name is escaped, a missing one shown as ?", []Leader{
			{User: 1, Name: "<b>&", Stat: store.Stat{Played: 1, Points: -3, Rating: 1499.5, Rated: 5}},
			{User: 2, Stat: store.Stat{Played: 2, Points: 0, Rating: 1480, Rated: 5}},
		}, []string{
			"1. <b>& — 1500 · 1 match, 0 won, -3.0 points a match",
			"2. ? — 1480 · 2 matches, 0 won, 0.0 points a match",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := r.Top("en", "wizard", tt.leaders, 5)
			lines := strings.Split(locales.Plain(out.Text), "\n")
			if len(lines) != len(tt.want)+1 || !strings.HasPrefix(lines[0], "Wizard: leaderboard") {
				t.Fatalf("Top = %q", out.Text)
			}
			for i, w := range tt.want {
				if lines[i+1] != w {
					t.Errorf("line %d: %q, want %q", i+1, lines[i+1], w)
				}
			}
		})
	}

	long := strings.Repeat("Щ&", 200)
	var leaders []Leader
	for i := range 20 {
		leaders = append(leaders, Leader{User: int64(i), Name: long, Stat: store.Stat{Played: 123456, Won: 65432, Points: -9876543, Rating: 2999.9, Rated: 123456}})
	}
	for _, lang := range loc.Langs() {
		out := r.Top(lang, "jokerbank", leaders, 5)
		if n := utf16Len(out.Text); n > maxText {
			t.Errorf("%s: twenty long names make %d characters", lang, n)
		}
		if strings.Contains(locales.Plain(out.Text), string([]rune(long)[:40])) {
			t.Errorf("%s: a long name was not cut", lang)
		}
	}
	if out := r.Top("ru", "skat", nil, 5); !strings.Contains(locales.Plain(out.Text), "никто не сыграл 5 партий") {
		t.Errorf("nobody qualifies, in Russian: %q", out.Text)
	}
}
