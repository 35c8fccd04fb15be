package bot

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// optionsBot is a bot with its games, translations and renderer, and nothing else: enough for
// the arguments of /new and /settings.
func optionsBot(t *testing.T) *Bot {
	t.Helper()
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	gs := all.Rules()
	b := &Bot{cfg: Config{Games: gs, TurnTimeout: 2 * time.Minute, AIDelay: 1500 * time.Millisecond, Level: search.Normal},
		loc: loc, rules: map[string]games.Rules{}, render: render.New(loc, gs, "kozyr_test_bot", testLog(t))}
	for _, r := range gs {
		b.rules[r.Name()] = r
	}
	return b
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"":                                 {},
		"  short_game=5\thidden_bids=on\n": {"short_game=5", "hidden_bids=on"},
		`"Short game"=5`:                   {"Short game=5"},
		`short_game="5 rounds" level=easy`: {"short_game=5 rounds", "level=easy"},
		`«Короткая игра»=5 “x y”=z`: {"Короткая игра=5", "x y=z"},
		`wizard."Short game"=5`:     {"wizard.Short game=5"},
		`"unclosed = on`:            {"unclosed = on"},
		`""`:                        {""},
	} {
		if got := words(in); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLabelForms(t *testing.T) {
	for in, want := range map[string][]string{
		"Short game":              {"short game"},
		"strong (think hard)":     {"strong (think hard)", "strong"},
		"♠️ spades":               {"♠️ spades", "spades"},
		"<b>Time</b>  per   move": {"time per move"},
		"1 — each player his own": {"1 — each player his own"},
		"сильный (подумать как следует)": {"сильный (подумать как следует)", "сильный"},
	} {
		if got := labelForms(in); !slices.Equal(got, want) {
			t.Errorf("labelForms(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatchNeedsOneEntry(t *testing.T) {
	entries := []named{{"a", []string{"same", "one"}}, {"b", []string{"same", "two"}}, {"same", nil}}
	for typed, want := range map[string]int{"A": 0, "two": 1, " ONE ": 0, "same": 2, "nothing": -1, "": -1} {
		if got, ok := match(entries, typed); got != want || ok != (want >= 0) {
			t.Errorf("match(%q) = %d, %v; want %d", typed, got, ok, want)
		}
	}
	if got, ok := match(entries[:2], "same"); ok {
		t.Errorf("a label two entries have matched %d", got)
	}
}

// TestNewArguments: the key=value arguments of /new set the lobby's options and level by id or
// by label, over the group's settings; every kind of wrong one is refused with one line naming
// what is valid.
func TestNewArguments(t *testing.T) {
	b := optionsBot(t)
	set := store.Settings{Options: map[string]map[string]string{"wizard": {"hidden_bids": "on", "gone": "x"}}, Level: "easy"}
	for _, c := range []struct {
		lang, game, args string
		set              store.Settings
		opts             map[string]string
		level            string
		bad              string // the refusal's text contains it
	}{
		{lang: "en", game: "wizard", opts: map[string]string{}},
		{lang: "en", game: "wizard", args: "short_game=5 hidden_bids=on level=strong",
			opts: map[string]string{"short_game": "5", "hidden_bids": "on"}, level: "strong"},
		{lang: "en", game: "wizard", args: `"Hidden bids"=YES Length="first 5 rounds" "Computer players"=strong`,
			opts: map[string]string{"short_game": "5", "hidden_bids": "on"}, level: "strong"},
		{lang: "ru", game: "wizard", args: `«Длина игры»=«первые 3 раунда» Компьютер=сильный`,
			opts: map[string]string{"short_game": "3"}, level: "strong"},
		{lang: "en", game: "wizard", args: "short_game=off", opts: map[string]string{}},
		{lang: "en", game: "wizard", set: set, opts: map[string]string{"hidden_bids": "on"}, level: "easy"},
		{lang: "en", game: "wizard", set: set, args: "hidden_bids=off level=normal", opts: map[string]string{}, level: "normal"},
		{lang: "en", game: "magister", args: "trump3=spades variant=3", opts: map[string]string{"trump3": "spades", "variant": "3"}},
		{lang: "en", game: "wizard", args: "colour=red",
			bad: "Wizard has no option “colour”. Options: bids_cannot_match, hidden_bids, short_game, level."},
		{lang: "en", game: "wizard", args: "short_game=9",
			bad: "short_game can't be “9”. Values: off, 3, 5, 7, 10, odd, even."},
		{lang: "en", game: "wizard", args: "level=default", bad: "Values: easy, normal, strong."},
		{lang: "en", game: "wizard", args: "short_game", bad: "“short_game” is not key=value. Options: bids_cannot_match"},
		{lang: "en", game: "wizard", args: "short_game=3 Length=5", bad: "short_game is set twice."},
		{lang: "en", game: "wizard", args: "short_game=", bad: "short_game can't be “”."},
		{lang: "ru", game: "wizard", args: "цвет=красный", bad: "нет настройки «цвет». Настройки: bids_cannot_match"},
	} {
		opts, level, bad := b.tableChoices(c.lang, b.rules[c.game], c.set, c.args)
		if c.bad != "" {
			if bad == nil || !strings.Contains(bad.text(b.render, c.lang), c.bad) {
				t.Errorf("%s %q: refusal %+v, want %q", c.game, c.args, bad, c.bad)
			} else if strings.Contains(bad.text(b.render, c.lang), "\n") {
				t.Errorf("%s %q: refusal of more than one line: %q", c.game, c.args, bad.text(b.render, c.lang))
			}
			continue
		}
		if bad != nil || !maps.Equal(opts, c.opts) || level != c.level {
			t.Errorf("%s %q: %v level %q, %+v; want %v level %q", c.game, c.args, opts, level, bad, c.opts, c.level)
		}
	}
}

// TestSettingsArguments: /settings sets the language, the timing within its bounds, the level and
// any game's options by "<game>.<option>", by id or label; wrong ones are refused like /new's.
func TestSettingsArguments(t *testing.T) {
	b := optionsBot(t)
	d := func(v time.Duration) *time.Duration { return &v }
	for _, c := range []struct {
		lang, args string
		want       store.Chat // ID -1 and the version are not compared
		bad        string
	}{
		{lang: "en", args: "lang=ru timeout=90s delay=1s level=strong wizard.short_game=5",
			want: store.Chat{Lang: "ru", Settings: store.Settings{TurnTimeout: d(90 * time.Second), AIDelay: d(time.Second), Level: "strong",
				Options: map[string]map[string]string{"wizard": {"short_game": "5"}}}}},
		{lang: "en", args: `Language=Русский "Time per move"=off "Computer players' pause"=0 "Wizard.Hidden bids"=yes`,
			want: store.Chat{Lang: "ru", Settings: store.Settings{TurnTimeout: d(0), AIDelay: d(0),
				Options: map[string]map[string]string{"wizard": {"hidden_bids": "on"}}}}},
		{lang: "ru", args: "Язык=English timeout=1.5 delay=500ms", bad: "timeout"},
		{lang: "ru", args: "Язык=English timeout=2m delay=500ms",
			want: store.Chat{Lang: "en", Settings: store.Settings{TurnTimeout: d(2 * time.Minute), AIDelay: d(500 * time.Millisecond)}}},
		{lang: "en", args: "timeout=default delay=default level=default wizard.short_game=off", want: store.Chat{Lang: "en"}},
		{lang: "en", args: "timeout=24h", want: store.Chat{Lang: "en", Settings: store.Settings{TurnTimeout: d(24 * time.Hour)}}},
		{lang: "en", args: "timeout=29s", bad: "timeout can't be “29s”. Values: default, off, 30s–24h."},
		{lang: "en", args: "timeout=25h", bad: "Values: default, off, 30s–24h."},
		{lang: "en", args: "delay=11s", bad: "delay can't be “11s”. Values: default, 0–10s."},
		{lang: "en", args: "delay=-1s", bad: "Values: default, 0–10s."},
		{lang: "en", args: "lang=de", bad: "lang can't be “de”. Values: en, ru."},
		{lang: "en", args: "speed=3", bad: "There is no setting “speed”. Settings: lang, timeout, delay, level, and &lt;game&gt;.&lt;option&gt; for the games wizard, skat"},
		{lang: "en", args: "chess.speed=3", bad: "There is no setting “chess.speed”."},
		{lang: "en", args: "wizard.speed=3", bad: "Wizard has no option “speed”. Options: wizard.bids_cannot_match, wizard.hidden_bids, wizard.short_game."},
		{lang: "en", args: "wizard.short_game=2", bad: "wizard.short_game can't be “2”."},
		{lang: "en", args: "timeout", bad: "“timeout” is not key=value."},
		{lang: "en", args: "delay=1s delay=2s", bad: "delay is set twice."},
	} {
		got, bad := b.groupScope(c.lang).parse(c.args)
		if c.bad != "" {
			if bad == nil || !strings.Contains(bad.text(b.render, c.lang), c.bad) {
				var text string
				if bad != nil {
					text = bad.text(b.render, c.lang)
				}
				t.Errorf("%q: refusal %q, want %q", c.args, text, c.bad)
			}
			continue
		}
		if bad != nil {
			t.Errorf("%q: refused: %s", c.args, bad.text(b.render, c.lang))
			continue
		}
		ch := store.Chat{ID: -1, Lang: c.lang}
		for _, a := range got {
			setGroup(&ch, a, b.rules)
		}
		c.want.ID = -1
		if !sameChat(ch, c.want) {
			t.Errorf("%q: %+v, want %+v", c.args, ch, c.want)
		}
	}
}

// sameChat compares what a settings change decides: the language and the settings but their
// version.
func sameChat(a, b store.Chat) bool {
	same := func(x, y *time.Duration) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Lang == b.Lang && a.Settings.Level == b.Settings.Level && same(a.Settings.TurnTimeout, b.Settings.TurnTimeout) &&
		same(a.Settings.AIDelay, b.Settings.AIDelay) &&
		maps.EqualFunc(a.Settings.Options, b.Settings.Options, func(x, y map[string]string) bool { return maps.Equal(x, y) })
}

// TestSettingsCycle: a settings button moves its setting to the next value, the timing through
// its steps and back to the bot's default, a game's option through its values.
func TestSettingsCycle(t *testing.T) {
	b := optionsBot(t)
	ch := store.Chat{ID: -1, Lang: "en"}
	var seen []string
	for range 10 {
		a, ok := b.nextSetting(ch, render.SetTimeout)
		if !ok {
			t.Fatal("timeout is not a setting")
		}
		setGroup(&ch, a, b.rules)
		seen = append(seen, a.value)
	}
	want := []string{"0s", "30s", "1m0s", "1m30s", "2m0s", "5m0s", "10m0s", "1h0m0s", "default", "0s"}
	if !slices.Equal(seen, want) {
		t.Errorf("timeout steps %q, want %q", seen, want)
	}
	ch.Settings.AIDelay = new(time.Duration)
	*ch.Settings.AIDelay = 1200 * time.Millisecond // typed in /settings: the next step above it
	if a, _ := b.nextSetting(ch, render.SetDelay); a.value != "1.5s" {
		t.Errorf("delay after 1.2s: %q", a.value)
	}
	for _, c := range []struct{ key, want string }{
		{render.SetLang, "ru"}, {render.SetLevel, "easy"}, {"wizard.short_game", "3"}, {"skat.preset", "isko"},
	} {
		if a, ok := b.nextSetting(ch, c.key); !ok || a.value != c.want {
			t.Errorf("next %s: %q, %v; want %q", c.key, a.value, ok, c.want)
		}
	}
	for _, forged := range []string{"speed", "wizard.speed", "chess.short_game", ""} {
		if _, ok := b.nextSetting(ch, forged); ok {
			t.Errorf("next %q accepted", forged)
		}
	}
}
