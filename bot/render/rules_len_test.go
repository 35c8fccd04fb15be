package render

import (
	"testing"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/locales"
)

// TestRulesTextFits: every game's /rules text, the shared lines on checking the deals included,
// fits one Telegram message in every language.
func TestRulesTextFits(t *testing.T) {
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := New(loc, all.Rules(), "kozyr_bot", zerolog.Nop())
	for _, lang := range loc.Langs() {
		for _, g := range all.Rules() {
			c := r.RulesText(lang, g.Name())
			if n := utf16Len(locales.Plain(c.Text)); n > maxText {
				t.Errorf("%s rules in %s: %d UTF-16 units, more than %d", g.Name(), lang, n, maxText)
			}
		}
	}
}
