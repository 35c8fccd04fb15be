package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// The keys of a group's general settings; a game's options are "<game>.<option>".
const (
	SetLang    = "lang"
	SetTimeout = "timeout"
	SetDelay   = "delay"
	SetLevel   = "level"
)

// Values a general setting may take besides its own: the bot's default, and no turn timer.
const (
	ValueDefault = "default"
	ValueOff     = "off"
)

// Defaults are the bot's own choices, which whatever a group leaves unset falls to.
type Defaults struct {
	TurnTimeout, AIDelay time.Duration
	Level                search.Level
}

// Settings is the settings message of a group: its language, timing and level on the main page
// (page ""), or the options of one game (page = its name), with one button per setting that
// moves it to its next value. The buttons carry the settings' version.
func (r *Renderer) Settings(lang string, c store.Chat, def Defaults, page string) Content {
	v := c.Settings.Version
	btn := func(label, op, arg string) Button {
		return Button{Text: Truncate(locales.Plain(label), 60), Data: callback.Settings{Version: v, Op: op, Arg: arg}.String()}
	}
	lines := []string{r.Text(lang, "bot.settings.title")}
	var rows [][]Button
	if g, ok := r.Rules[page]; ok {
		lines[0] += " — " + r.GameName(lang, page)
		lines = append(lines, r.Text(lang, "bot.settings.gamehint", "Game", locales.Plain(r.GameName(lang, page))))
		set := c.Settings.Options[page]
		for _, o := range g.Options() {
			val := o.Default
			if v, ok := set[o.Key]; ok {
				val = v
			}
			line := r.optLabel(lang, page, o.Key) + ": " + r.optValue(lang, page, o.Key, val)
			lines = append(lines, "• "+line)
			rows = append(rows, []Button{btn(line, callback.SetCycle, page+"."+o.Key)})
		}
		rows = append(rows, []Button{btn(r.Text(lang, "bot.btn.back"), callback.SetPage, "")})
		return Content{Text: fitLines(lines), Rows: rows}
	}
	lines = append(lines, r.Text(lang, "bot.settings.hint"), "")
	for _, key := range []string{SetLang, SetTimeout, SetDelay, SetLevel} {
		line := r.SettingName(lang, key) + ": " + r.settingValue(lang, c, def, key)
		lines = append(lines, line)
		rows = append(rows, []Button{btn(line, callback.SetCycle, key)})
	}
	lines = append(lines, "", r.Text(lang, "bot.settings.games"))
	changed := false
	var games []Button
	for _, g := range r.Games {
		games = append(games, btn(r.GameName(lang, g.Name())+" ›", callback.SetPage, g.Name()))
		set := c.Settings.Options[g.Name()]
		for _, o := range g.Options() {
			if val, ok := set[o.Key]; ok {
				lines = append(lines, "• "+r.GameName(lang, g.Name())+": "+r.optLabel(lang, g.Name(), o.Key)+" — "+r.optValue(lang, g.Name(), o.Key, val))
				changed = true
			}
		}
	}
	if !changed {
		lines = append(lines, r.Text(lang, "bot.settings.nogames"))
	}
	lines = append(lines, "", r.Text(lang, "bot.settings.usage"))
	rows = append(rows, grid(games, 3)...)
	return Content{Text: fitLines(lines), Rows: rows}
}

// SettingName is the label of a general setting.
func (r *Renderer) SettingName(lang, key string) string {
	if key == SetLevel {
		return r.Text(lang, "bot.opt.level")
	}
	return r.Text(lang, "bot.settings."+key)
}

// settingValue is how a general setting of c reads, marked when it is the bot's default.
func (r *Renderer) settingValue(lang string, c store.Chat, def Defaults, key string) string {
	s := c.Settings
	bySelf := func(v string) string { return v + " " + r.Text(lang, "bot.settings.bydefault") }
	switch key {
	case SetLang:
		return r.Text(r.Loc.Match(c.Lang), "bot.settings.langname")
	case SetTimeout:
		switch {
		case s.TurnTimeout == nil && def.TurnTimeout == 0:
			return bySelf(r.Text(lang, "bot.settings.off"))
		case s.TurnTimeout == nil:
			return bySelf(r.Duration(lang, def.TurnTimeout))
		case *s.TurnTimeout == 0:
			return r.Text(lang, "bot.settings.off")
		}
		return r.Duration(lang, *s.TurnTimeout)
	case SetDelay:
		if s.AIDelay == nil {
			return bySelf(r.Duration(lang, def.AIDelay))
		}
		return r.Duration(lang, *s.AIDelay)
	}
	if l, err := search.ParseLevel(s.Level); err == nil {
		return r.Text(lang, "bot.opt.level."+l.String())
	}
	return bySelf(r.Text(lang, "bot.opt.level."+def.Level.String()))
}

// Duration writes d the way people read it: "90 s" as "1 min 30 s", "1.5 s", "2 h".
func (r *Renderer) Duration(lang string, d time.Duration) string {
	if d <= 0 {
		return "0 " + r.Text(lang, "bot.unit.s")
	}
	var parts []string
	if h := d / time.Hour; h > 0 {
		parts = append(parts, strconv.Itoa(int(h))+" "+r.Text(lang, "bot.unit.h"))
	}
	if m := d % time.Hour / time.Minute; m > 0 {
		parts = append(parts, strconv.Itoa(int(m))+" "+r.Text(lang, "bot.unit.min"))
	}
	if s := d % time.Minute; s > 0 {
		n := strconv.FormatFloat(s.Seconds(), 'f', -1, 64)
		parts = append(parts, strings.Replace(n, ".", r.Text(lang, "bot.unit.point"), 1)+" "+r.Text(lang, "bot.unit.s"))
	}
	return strings.Join(parts, " ")
}

// Timing is the lobby's line for a table whose group chose its timing (nothing otherwise).
func (r *Renderer) Timing(lang string, t store.Table) []string {
	var lines []string
	if d := t.TurnTimeout; d != nil {
		v := r.Text(lang, "bot.settings.off")
		if *d > 0 {
			v = r.Duration(lang, *d)
		}
		lines = append(lines, "• "+r.SettingName(lang, SetTimeout)+": "+v)
	}
	if d := t.AIDelay; d != nil {
		lines = append(lines, "• "+r.SettingName(lang, SetDelay)+": "+r.Duration(lang, *d))
	}
	return lines
}

// OptionsHelp lists a game's options for /rules: each key and its values by the ids /new and
// /settings take, with their labels in lang and the default underlined; the computer players'
// level comes last, as in the lobby. Empty for a game without options.
func (r *Renderer) OptionsHelp(lang, game string) string {
	g, ok := r.Rules[game]
	if !ok {
		return ""
	}
	lines := []string{r.Text(lang, "bot.rules.options", "Game", game)}
	entry := func(key, label string, values []string, def string, name func(string) string) {
		var vs []string
		for _, v := range values {
			s := "<code>" + locales.Escape(v) + "</code>"
			if n := name(v); locales.Plain(n) != v {
				s += " " + n
			}
			if v == def {
				s = "<u>" + s + "</u>"
			}
			vs = append(vs, s)
		}
		lines = append(lines, "• <code>"+locales.Escape(key)+"</code> "+label+": "+strings.Join(vs, ", "))
	}
	for _, o := range g.Options() {
		entry(o.Key, r.optLabel(lang, game, o.Key), o.Values, o.Default, func(v string) string { return r.optValue(lang, game, o.Key, v) })
	}
	var levels []string
	for _, l := range search.Levels() {
		levels = append(levels, l.String())
	}
	entry(SetLevel, r.Text(lang, "bot.opt.level"), levels, r.Level.String(), func(v string) string { return r.Text(lang, "bot.opt.level."+v) })
	return fitLines(lines)
}
