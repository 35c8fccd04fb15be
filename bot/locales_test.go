package bot

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
)

// TestLocaleIDs: every bot.* message the code uses exists in every language, and every bot.*
// message of the locale files is used.
func TestLocaleIDs(t *testing.T) {
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("render/*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`"(bot\.[a-z_.]*[a-z_])"`)
	for _, f := range append(files, more...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	for _, l := range search.Levels() {
		used["bot.opt.level."+l.String()] = true // the lobby's level button, named by the level
	}
	group, private := commandMenus()
	for _, c := range slices.Concat(group, private) {
		used["bot.cmd."+c] = true
	}
	if len(used) < 50 {
		t.Fatalf("found only %d ids in the source", len(used))
	}
	for _, lang := range loc.Langs() {
		for id := range used {
			if !loc.Has(lang, id) {
				t.Errorf("%s: %s is used but missing", lang, id)
			}
		}
		for _, id := range loc.IDs(lang) {
			if strings.HasPrefix(id, "bot.") && !used[id] {
				t.Errorf("%s: %s is defined but never used", lang, id)
			}
		}
	}
}
