package nasilie

import (
	"os"
	"strings"
	"testing"
)

// TestNoTrickTexts checks the help and event texts for a declarer without a trick against
// nasilie.md §Scoring, N-ZERO: the result is −50 or the ordinary result with 0 reached,
// whichever is LOWER (bid 14 without melds loses 58), so "at least −50" (≥ −50) is wrong.
func TestNoTrickTexts(t *testing.T) {
	for _, tt := range []struct {
		file, key, bad, want string
	}{
		{"../../locales/en/nasilie.toml", `"nasilie.e.notrick"`, "at least", "−50 or worse"},
		{"../../locales/en/nasilie.toml", `"nasilie.rules"`, "at least −50", "No trick at all: −50 or worse"},
		{"../../locales/ru/nasilie.toml", `"nasilie.e.notrick"`, "не меньше", "−50 или хуже"},
		{"../../locales/ru/nasilie.toml", `"nasilie.rules"`, "не меньше −50", "Ни одной взятки — −50 или хуже"},
	} {
		b, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		i := strings.Index(text, tt.key+" = ")
		if i < 0 {
			t.Fatalf("%s: no %s", tt.file, tt.key)
		}
		val := text[i:]
		if j := strings.Index(val[len(tt.key):], "\n\"nasilie."); j >= 0 {
			val = val[:len(tt.key)+j]
		}
		if strings.Contains(val, tt.bad) || !strings.Contains(val, tt.want) {
			t.Errorf("%s %s: want %q, not %q, in %q", tt.file, tt.key, tt.want, tt.bad, val)
		}
	}
	// The rule itself (N-ZERO): −50 is a ceiling, not a floor.
	if o := ScoreHand(Hand{Bid: 14, StockUsed: true}); o.Result != -58 {
		t.Fatalf("bid 14, no trick: %d, want −58", o.Result)
	}
}
