package wizard

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestLocales checks that locales/en and locales/ru name every message the engine can emit,
// every option and value, and every action kind (the locales package renders them).
func TestLocales(t *testing.T) {
	ids, kinds, err := gametest.Collect(Rules(), 1)
	if err != nil {
		t.Fatal(err)
	}
	need := []string{"wizard.name", "wizard.rules"}
	need = append(need, slices.Collect(maps.Keys(ids))...)
	for k := range kinds {
		need = append(need, "wizard.act."+k)
	}
	for _, o := range Rules().Options() {
		need = append(need, "wizard.opt."+o.Key)
		for _, v := range o.Values {
			need = append(need, "wizard.opt."+o.Key+"."+v)
		}
	}
	key := regexp.MustCompile(`(?m)^(?:"(wizard\.[^"]+)" =|\["(wizard\.[^"]+)"\])`)
	for _, lang := range []string{"en", "ru"} {
		b, err := os.ReadFile("../../locales/" + lang + "/wizard.toml")
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, m := range key.FindAllStringSubmatch(string(b), -1) {
			have[m[1]+m[2]] = true
		}
		for _, id := range need {
			if !have[id] {
				t.Errorf("locales/%s/wizard.toml has no %q", lang, id)
			}
		}
	}
}
