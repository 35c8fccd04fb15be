package nasilie_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/BurntSushi/toml"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/nasilie"
)

// TestLocales checks that every message the engine emits, every button and every option has an
// English and a Russian text whose templates use only the arguments the engine passes.
func TestLocales(t *testing.T) {
	msgs, kinds := collectMsgs(t)
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			texts := loadLocale(t, lang)
			render := func(m games.Msg) {
				t.Helper()
				forms, ok := texts[m.ID]
				if !ok {
					t.Errorf("%s: no %s", lang, m.ID)
					return
				}
				for form, text := range forms {
					tpl, err := template.New(m.ID).Option("missingkey=error").Parse(text)
					if err == nil {
						err = tpl.Execute(new(strings.Builder), templateData(m))
					}
					if err != nil {
						t.Errorf("%s %s[%s]: %v", lang, m.ID, form, err)
					}
				}
				if _, ok := m.Args["Count"]; ok && lang == "ru" && len(forms) > 1 {
					for _, f := range []string{"one", "few", "many", "other"} {
						if _, ok := forms[f]; !ok {
							t.Errorf("ru %s lacks plural form %s", m.ID, f)
						}
					}
				}
			}
			for _, m := range msgs {
				render(m)
			}
			for _, id := range []string{"nasilie.name", "nasilie.rules"} {
				render(games.M(id))
			}
			for _, o := range nasilie.Rules().Options() {
				render(games.M("nasilie.opt." + o.Key))
				for _, v := range o.Values {
					render(games.M("nasilie.opt." + o.Key + "." + v))
				}
			}
			for _, k := range kinds {
				render(games.M("nasilie.act."+k, "Card", cards.MustParse("SQ"), "N", 3, "Count", 3))
			}
			rules := texts["nasilie.rules"]["other"]
			if n := len([]rune(rules)); n > 3500 {
				t.Errorf("%s rules text has %d characters", lang, n)
			}
			for _, tag := range regexp.MustCompile(`</?([a-z]+)`).FindAllStringSubmatch(rules, -1) {
				if tag[1] != "b" && tag[1] != "i" {
					t.Errorf("%s rules use <%s>", lang, tag[1])
				}
			}
		})
	}
}

// loadLocale reads locales/<lang>/nasilie.toml: id -> plural form -> template.
func loadLocale(t *testing.T, lang string) map[string]map[string]string {
	t.Helper()
	var raw map[string]any
	b, err := os.ReadFile(filepath.Join("..", "..", "locales", lang, "nasilie.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	out := map[string]map[string]string{}
	for id, v := range raw {
		switch x := v.(type) {
		case string:
			out[id] = map[string]string{"other": x}
		case map[string]any:
			out[id] = map[string]string{}
			for f, s := range x {
				out[id][f] = fmt.Sprint(s)
			}
		}
	}
	return out
}

// templateData stands in for the rendered arguments: numbers and flags stay typed, everything
// else becomes text.
func templateData(m games.Msg) map[string]any {
	d := map[string]any{}
	for k, v := range m.Args {
		switch v.(type) {
		case int, bool:
			d[k] = v
		default:
			d[k] = "x"
		}
	}
	return d
}

// collectMsgs plays random matches of every configuration and gathers one Msg per ID and argument
// set from views, prompts, events and sheets, nested Msgs included.
func collectMsgs(t *testing.T) ([]games.Msg, []string) {
	t.Helper()
	seen := map[string]games.Msg{}
	kinds := map[string]bool{}
	var walk func(m games.Msg)
	walk = func(m games.Msg) {
		if m.ID == "" {
			return
		}
		var keys []string
		for k, v := range m.Args {
			keys = append(keys, k)
			switch x := v.(type) {
			case games.Msg:
				walk(x)
			case []games.Msg:
				for _, y := range x {
					walk(y)
				}
			}
		}
		slices.Sort(keys)
		seen[m.ID+"|"+strings.Join(keys, ",")] = m
	}
	for _, cfg := range []games.Config{{Players: 4}, {Players: 5}, {Players: 5, Options: map[string]string{nasilie.OptFive: nasilie.FiveDealer}}} {
		cfg.Options = mergeOpts(cfg.Options, map[string]string{nasilie.OptRounds: "3"})
		for seed := range uint64(3) {
			st, err := nasilie.Rules().New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 5))
			for len(st.ToAct()) > 0 {
				for s := games.Nobody; int(s) < cfg.Players; s++ {
					v := st.View(s)
					walk(v.Prompt)
					for _, m := range append(v.Table, v.Private...) {
						walk(m)
					}
				}
				s := st.ToAct()[0]
				l := st.Legal(s)
				for _, a := range l {
					kinds[a.Kind] = true
				}
				var evs []games.Event
				st, evs, err = st.Apply(s, l[rng.IntN(len(l))])
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range evs {
					walk(e.Msg)
				}
			}
			for s := games.Nobody; int(s) < cfg.Players; s++ {
				for _, m := range st.View(s).Table {
					walk(m)
				}
			}
			sh := st.Score()
			for _, r := range sh.Rows {
				walk(r.Label)
			}
			for _, m := range sh.Notes {
				walk(m)
			}
		}
	}
	out := make([]games.Msg, 0, len(seen))
	for _, m := range seen {
		out = append(out, m)
	}
	if len(out) < 40 {
		t.Fatalf("only %d messages collected", len(out))
	}
	// stoek is rare in random play; every kind needs a button label all the same.
	all := []string{"look", "blind", "pass", "bid", "playone", "decline", "take", "leave", "discard",
		"clubs", "diamonds", "hearts", "spades", "all", "meld", "done", "play", "stoek"}
	for k := range kinds {
		if !slices.Contains(all, k) {
			t.Errorf("action kind %q missing from the list", k)
		}
	}
	return out, all
}

func mergeOpts(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
