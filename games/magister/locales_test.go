package magister_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/magister"
	"github.com/kozyr-bot/kozyr/locales"
)

// TestLocales: every message id the engine can emit, every option and action label, and the
// rules text exist in English and Russian.
func TestLocales(t *testing.T) {
	b, err := locales.Load()
	if err != nil {
		t.Skipf("locales do not load (another package's file?): %v", err)
	}
	ids, kinds := collect(t)
	want := []string{"magister.name", "magister.rules"}
	for id := range ids {
		want = append(want, id)
	}
	for k := range kinds {
		want = append(want, "magister.act."+k)
	}
	for _, o := range magister.Rules().Options() {
		want = append(want, "magister.opt."+o.Key)
		for _, v := range o.Values {
			want = append(want, "magister.opt."+o.Key+"."+v)
		}
	}
	for c := magister.All; c <= magister.Max; c++ {
		want = append(want, "magister.deal."+c.ID(), "magister.scores."+c.ID())
	}
	slices.Sort(want)
	want = slices.Compact(want)
	for _, lang := range []string{"en", "ru"} {
		for _, id := range want {
			if !b.Has(lang, id) {
				t.Errorf("%s: missing %q", lang, id)
			}
		}
		rules := b.Render(lang, games.M("magister.rules"), nil)
		if n := len([]rune(rules)); n > 3500 || n < 1000 {
			t.Errorf("%s: rules text is %d characters", lang, n)
		}
		if strings.Contains(rules, "<no value>") {
			t.Errorf("%s: rules text has a hole", lang)
		}
	}
	t.Logf("%d ids checked", len(want))
}

// collect plays one random game per variant (and table size, and the random-trump option) and
// returns every message id and action kind it showed: gametest.Collect over all 29
// configurations costs too much under the race detector for what it adds.
func collect(t *testing.T) (ids, kinds map[string]bool) {
	ids, kinds = map[string]bool{}, map[string]bool{}
	var walk func(m games.Msg)
	walk = func(m games.Msg) {
		if m.ID == "" {
			return
		}
		ids[m.ID] = true
		for _, v := range m.Args {
			switch x := v.(type) {
			case games.Msg:
				walk(x)
			case []games.Msg:
				for _, y := range x {
					walk(y)
				}
			}
		}
	}
	cfgs := []games.Config{
		{Players: 2}, {Players: 4, Options: map[string]string{magister.OptTrumps: "random"}},
		{Players: 3, Options: map[string]string{magister.OptVariant: "2"}},
		{Players: 4, Options: map[string]string{magister.OptVariant: "3"}},
		{Players: 3, Options: map[string]string{magister.OptVariant: "4"}},
		{Players: 4, Options: map[string]string{magister.OptVariant: "5"}},
	}
	for i, cfg := range cfgs {
		st, err := magister.Rules().New(cfg, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		for {
			for s := games.Nobody; int(s) < cfg.Players; s++ {
				v := st.View(s)
				walk(v.Prompt)
				for _, m := range append(v.Table, v.Private...) {
					walk(m)
				}
			}
			sh := st.Score()
			for _, row := range sh.Rows {
				walk(row.Label)
			}
			for _, m := range sh.Notes {
				walk(m)
			}
			if len(st.ToAct()) == 0 {
				break
			}
			s := st.ToAct()[0]
			legal := st.Legal(s)
			for _, a := range legal {
				kinds[a.Kind] = true
			}
			var evs []games.Event
			if st, evs, err = st.Apply(s, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				walk(e.Msg)
			}
		}
	}
	return ids, kinds
}
