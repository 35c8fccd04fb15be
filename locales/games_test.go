package locales

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// maxRulesLen is the longest /rules text, in characters Telegram counts (UTF-16 code units after
// entity parsing), leaving room under the 4096 limit for a header.
const maxRulesLen = 3500

// TestGames checks every registered game: each ID it needs or emits exists in every language, and
// every Msg and action it produces in real matches renders as valid Telegram HTML with the
// arguments it really has.
func TestGames(t *testing.T) {
	b := mustLoad(t)
	rs := all.Rules()
	if len(rs) == 0 {
		t.Log("no games registered in games/all yet")
	}
	for _, r := range rs {
		t.Run(r.Name(), func(t *testing.T) {
			t.Parallel()
			checkGame(t, b, r)
		})
	}
}

func checkGame(t *testing.T, b *Bundle, r games.Rules) {
	game := r.Name()
	labels := []string{game + ".name"} // texts without arguments
	for _, o := range r.Options() {
		labels = append(labels, game+".opt."+o.Key)
		for _, v := range o.Values {
			labels = append(labels, game+".opt."+o.Key+"."+v)
		}
	}
	p := playGame(t, r)
	ids := append(slices.Clone(labels), game+".rules")
	for _, k := range slices.Sorted(maps.Keys(p.kinds)) {
		ids = append(ids, game+".act."+k)
	}
	ids = append(ids, slices.Sorted(maps.Keys(p.ids))...)
	for _, lang := range b.Langs() {
		for _, id := range ids {
			if !b.Has(lang, id) {
				t.Errorf("%s: missing %q", lang, id)
			}
		}
	}
	if t.Failed() {
		return
	}

	for _, lang := range b.Langs() {
		for _, id := range labels {
			checkRender(t, b, lang, games.M(id))
		}
		rules := checkRender(t, b, lang, games.M(game+".rules"))
		if n := utf16Len(rules); n > maxRulesLen {
			t.Errorf("%s: %s.rules is %d characters, over %d", lang, game, n, maxRulesLen)
		}
		for _, m := range p.msgs {
			checkRender(t, b, lang, m)
		}
		for _, a := range p.actions {
			out, err := b.render(lang, actionMsg(game, a), nil, strictParser(), 0)
			if err != nil {
				t.Errorf("%s: action %v: %v", lang, a, err)
			} else if strings.TrimSpace(Plain(out)) == "" {
				t.Errorf("%s: action %v has an empty label", lang, a)
			}
		}
	}
	t.Logf("%d ids, %d sample messages, %d sample actions checked in %v", len(ids), len(p.msgs), len(p.actions), b.Langs())
}

// checkRender renders m strictly (every argument a template reads must be there) and checks the
// result is non-empty, valid Telegram HTML that fits one message.
func checkRender(t *testing.T, b *Bundle, lang string, m games.Msg) string {
	t.Helper()
	out, err := b.render(lang, m, func(s games.Seat) string { return players[int(s)%len(players)] }, strictParser(), 0)
	switch {
	case err != nil:
		t.Errorf("%s: %s %v: %v", lang, m.ID, m.Args, err)
	case strings.TrimSpace(Plain(out)) == "":
		t.Errorf("%s: %s %v renders empty", lang, m.ID, m.Args)
	case checkHTML(out) != nil:
		t.Errorf("%s: %s renders invalid Telegram HTML %q: %v", lang, m.ID, out, checkHTML(out))
	case utf16Len(out) > 4096:
		t.Errorf("%s: %s renders %d characters, over 4096", lang, m.ID, utf16Len(out))
	}
	return out
}

// samplesPerID bounds how many distinct instances of one Msg ID (or action kind) are rendered.
const samplesPerID = 6

// played is what random matches of a game showed: every Msg ID (nested ones too) and action kind,
// and a few distinct instances of each to render with their real arguments.
type played struct {
	ids, kinds map[string]bool
	msgs       []games.Msg
	actions    []games.Action
	seen       map[string]bool
	perID      map[string]int
}

func (p *played) msg(m games.Msg) {
	if m.ID == "" {
		return
	}
	p.ids[m.ID] = true
	for _, v := range m.Args {
		switch x := v.(type) {
		case games.Msg:
			p.msg(x)
		case []games.Msg:
			for _, y := range x {
				p.msg(y)
			}
		}
	}
	if p.perID[m.ID] >= samplesPerID {
		return
	}
	if key := fmt.Sprint(m); !p.seen[key] {
		p.seen[key] = true
		p.perID[m.ID]++
		p.msgs = append(p.msgs, m)
	}
}

func (p *played) action(a games.Action) {
	p.kinds[a.Kind] = true
	key := "act:" + a.Kind
	if p.perID[key] >= samplesPerID || p.seen[a.String()] {
		return
	}
	p.seen[a.String()] = true
	p.perID[key]++
	p.actions = append(p.actions, a)
}

func (p *played) sheet(st games.State) {
	sh := st.Score()
	for _, row := range sh.Rows {
		p.msg(row.Label)
	}
	for _, m := range sh.Notes {
		p.msg(m)
	}
}

// seedsPerConfig is how many random matches playGame plays per configuration.
const seedsPerConfig = 2

// playGame plays random matches for every configuration gametest covers and records what every
// seat and the group were shown, keeping the Msgs themselves. The score
// sheet is read at the start, after each deal and at the end, where its rows change.
func playGame(t *testing.T, r games.Rules) *played {
	t.Helper()
	p := &played{ids: map[string]bool{}, kinds: map[string]bool{}, seen: map[string]bool{}, perID: map[string]int{}}
	seeds := seedsPerConfig
	if testing.Short() {
		seeds = 1
	}
	for _, cfg := range gametest.Configs(r) {
		for i := range seeds {
			seed := uint64(i*7919 + cfg.Players)
			st, err := r.New(cfg, seed)
			if errors.Is(err, games.ErrBadConfig) {
				continue // Validate may refuse an option value at this player count
			}
			if err != nil {
				t.Fatalf("%v: New: %v", cfg, err)
			}
			rng := rand.New(rand.NewPCG(seed, 1))
			p.sheet(st)
			for step := 0; ; step++ {
				for s := games.Nobody; int(s) < cfg.Players; s++ {
					v := st.View(s)
					p.msg(v.Prompt)
					for _, m := range v.Table {
						p.msg(m)
					}
					for _, m := range v.Private {
						p.msg(m)
					}
				}
				toAct := st.ToAct()
				if len(toAct) == 0 {
					break
				}
				if step > gametest.Defaults.MaxSteps {
					t.Fatalf("%v seed %d: match did not end", cfg, seed)
				}
				seat := toAct[rng.IntN(len(toAct))]
				legal := st.Legal(seat)
				for _, a := range legal {
					p.action(a)
				}
				var evs []games.Event
				st, evs, err = st.Apply(seat, legal[rng.IntN(len(legal))])
				if err != nil {
					t.Fatalf("%v seed %d: Apply: %v", cfg, seed, err)
				}
				for _, e := range evs {
					p.msg(e.Msg)
					if e.Kind != games.EventInfo {
						p.sheet(st)
					}
				}
			}
			p.sheet(st)
		}
	}
	return p
}
