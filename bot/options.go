package bot

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// The key=value arguments of /new and /settings. A key or a value is its stable id (what the
// lobby stores, what /rules lists), or its label as the lobby shows it in the group's language,
// compared case-insensitively, when exactly one entry has that label. A label with spaces is
// written in quotes: /new wizard "Short game"=5.

// named is an entry a typed word may mean: its id and the folded forms of its label.
type named struct {
	id    string
	names []string
}

// setting is one thing a command may set.
type setting struct {
	named
	values []named // the values, in the order the buttons cycle them
	// free reads a value that is not one of values (a duration) into its stored form; nil when
	// values are all there is. hint says what it accepts, for the error line.
	free func(string) (string, bool)
	hint string
}

// scope is what one command may set: its settings, and, for keys "<prefix>.<key>", the settings
// of a sub-scope (a game's options in /settings).
type scope struct {
	settings []setting
	sub      func(prefix string) (*scope, string, bool) // the sub-scope and the prefix's id
	// unknown is the locale id of the line for a key the scope has not, unknownKV its
	// arguments beside "Key" and "Keys".
	unknown   string
	unknownKV []any
	keys      string // the valid keys, for the error lines
}

// assigned is one argument resolved: the setting's full key and the value's id or stored form.
type assigned struct {
	key, value string
}

// badArgs is why arguments were refused: a locale id and its arguments.
type badArgs struct {
	id string
	kv []any
}

func (e *badArgs) text(r *render.Renderer, lang string) string { return r.Text(lang, e.id, e.kv...) }

// parse reads the key=value words of args. It stops at the first word it refuses.
func (sc *scope) parse(args string) ([]assigned, *badArgs) {
	var out []assigned
	for _, w := range words(args) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, &badArgs{"bot.opts.noequals", []any{"Word", w, "Keys", sc.keys}}
		}
		key, s, bad := sc.resolve(strings.TrimSpace(k))
		if bad != nil {
			return nil, bad
		}
		if slices.ContainsFunc(out, func(a assigned) bool { return a.key == key }) {
			return nil, &badArgs{"bot.opts.twice", []any{"Key", key}}
		}
		value, ok := s.value(strings.TrimSpace(v))
		if !ok {
			return nil, &badArgs{"bot.opts.value", []any{"Key", key, "Value", v, "Values", s.valuesHint()}}
		}
		out = append(out, assigned{key: key, value: value})
	}
	return out, nil
}

// resolve finds the setting a typed key means and its full key.
func (sc *scope) resolve(typed string) (string, setting, *badArgs) {
	entries := make([]named, len(sc.settings))
	for i, s := range sc.settings {
		entries[i] = s.named
	}
	if i, ok := match(entries, typed); ok {
		return sc.settings[i].id, sc.settings[i], nil
	}
	if prefix, rest, ok := strings.Cut(typed, "."); ok && sc.sub != nil {
		if inner, id, ok := sc.sub(prefix); ok {
			key, s, bad := inner.resolve(rest)
			return id + "." + key, s, bad
		}
	}
	return "", setting{}, &badArgs{sc.unknown, append(slices.Clone(sc.unknownKV), "Key", typed, "Keys", sc.keys)}
}

// value reads a typed value of s.
func (s setting) value(typed string) (string, bool) {
	if i, ok := match(s.values, typed); ok {
		return s.values[i].id, true
	}
	if s.free != nil {
		return s.free(typed)
	}
	return "", false
}

// valuesHint lists the valid values of s.
func (s setting) valuesHint() string {
	ids := make([]string, len(s.values))
	for i, v := range s.values {
		ids[i] = v.id
	}
	if s.hint != "" {
		ids = append(ids, s.hint)
	}
	return strings.Join(ids, ", ")
}

// match finds the one entry typed means: by its id, else by a label form only one entry has.
func match(entries []named, typed string) (int, bool) {
	t := fold(typed)
	if t == "" {
		return -1, false
	}
	for i, e := range entries {
		if fold(e.id) == t {
			return i, true
		}
	}
	found := -1
	for i, e := range entries {
		if slices.Contains(e.names, t) {
			if found >= 0 {
				return -1, false // ambiguous
			}
			found = i
		}
	}
	return found, found >= 0
}

// fold is how typed words are compared: lower case, single spaces, no spaces at the ends.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// labelForms are the folded forms a typed label may take: the label (HTML dropped), without a
// trailing remark in parentheses ("strong (think hard)" → "strong"), without leading signs
// ("♠️ spades" → "spades").
func labelForms(html string) []string {
	l := fold(locales.Plain(html))
	forms := []string{l}
	if i := strings.LastIndex(l, " ("); i > 0 && strings.HasSuffix(l, ")") {
		forms = append(forms, strings.TrimSpace(l[:i]))
	}
	for _, f := range slices.Clone(forms) {
		bare := strings.TrimLeftFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if bare != f && bare != "" {
			forms = append(forms, bare)
		}
	}
	return slices.Compact(forms)
}

// firstWord splits a command's arguments into the first word, lower-cased (a game id), and the
// rest.
func firstWord(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return strings.ToLower(s), ""
	}
	return strings.ToLower(s[:i]), s[i:]
}

// quotes pairs the quotation marks people type (phones turn " into « or “) with their ends.
var quotes = map[rune]rune{'"': '"', '«': '»', '“': '”', '„': '“'}

// words splits command arguments at white space; text in quotes stays one word, without the
// quotes. An unclosed quote runs to the end.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	var closing rune
	inWord := false
	for _, r := range s {
		switch {
		case closing != 0 && r == closing:
			closing = 0
		case closing != 0:
			cur.WriteRune(r)
		case quotes[r] != 0:
			closing, inWord = quotes[r], true
		case unicode.IsSpace(r):
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// optionSettings are a game's lobby options as settings, labelled in lang.
func (b *Bot) optionSettings(lang string, r games.Rules) []setting {
	var out []setting
	for _, o := range r.Options() {
		s := setting{named: named{o.Key, labelForms(b.render.Text(lang, r.Name()+".opt."+o.Key))}}
		for _, v := range o.Values {
			s.values = append(s.values, named{v, labelForms(b.render.Text(lang, r.Name()+".opt."+o.Key+"."+v))})
		}
		out = append(out, s)
	}
	return out
}

// levelSetting is the computer players' level, the lobby's option after the game's own; with
// def, "default" (the bot's level) is one of its values.
func (b *Bot) levelSetting(lang string, def bool) setting {
	s := setting{named: named{render.SetLevel, labelForms(b.render.Text(lang, "bot.opt.level"))}}
	if def {
		s.values = append(s.values, named{render.ValueDefault, labelForms(b.render.Text(lang, "bot.settings.default"))})
	}
	for _, l := range search.Levels() {
		s.values = append(s.values, named{l.String(), labelForms(b.render.Text(lang, "bot.opt.level."+l.String()))})
	}
	return s
}

// newScope is what /new <game> may set: the game's options, then the level.
func (b *Bot) newScope(lang string, r games.Rules) *scope {
	sc := &scope{settings: append(b.optionSettings(lang, r), b.levelSetting(lang, false))}
	sc.unknown, sc.unknownKV = "bot.opts.key", []any{"Game", locales.Plain(b.render.GameName(lang, r.Name()))}
	sc.keys = keyList(sc.settings, "")
	return sc
}

func keyList(ss []setting, prefix string) string {
	keys := make([]string, len(ss))
	for i, s := range ss {
		keys[i] = prefix + s.id
	}
	return strings.Join(keys, ", ")
}

// tableChoices are the options and level a new table of r starts from: the group's settings,
// then what /new says (args after the game), as the lobby stores them: an option at its default
// is left out. Stored settings the game no longer knows are skipped.
func (b *Bot) tableChoices(lang string, r games.Rules, set store.Settings, args string) (map[string]string, string, *badArgs) {
	opts := map[string]string{}
	for k, v := range set.Options[r.Name()] {
		opts[k] = v
	}
	level := set.Level
	given, bad := b.newScope(lang, r).parse(args)
	if bad != nil {
		return nil, "", bad
	}
	for _, a := range given {
		if a.key == render.SetLevel {
			level = a.value
		} else {
			opts[a.key] = a.value
		}
	}
	known := r.Options()
	for k, v := range opts {
		i := slices.IndexFunc(known, func(o games.Option) bool { return o.Key == k })
		if i < 0 || v == known[i].Default || !slices.Contains(known[i].Values, v) {
			delete(opts, k)
		}
	}
	if _, err := search.ParseLevel(level); err != nil {
		level = ""
	}
	return opts, level, nil
}

// Bounds of the timing settings: a turn timer is off (0) or between the two; the computer
// players' pause is at most maxDelay.
const (
	minTimeout = 30 * time.Second
	maxTimeout = 24 * time.Hour
	maxDelay   = 10 * time.Second
)

// readDuration reads a typed duration: a Go duration ("90s", "1m30s") or a number of seconds
// ("90", "1.5").
func readDuration(s string) (time.Duration, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if d, err := time.ParseDuration(s); err == nil {
		return d, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1e9 {
		return time.Duration(f * float64(time.Second)), true
	}
	return 0, false
}

// freeDuration is a setting's reader of durations between lo and hi (0 allowed when zero is).
func freeDuration(lo, hi time.Duration, zero bool) func(string) (string, bool) {
	return func(s string) (string, bool) {
		d, ok := readDuration(s)
		if !ok || (d == 0 && !zero) || (d != 0 && (d < lo || d > hi)) {
			return "", false
		}
		return d.String(), true
	}
}

// groupScope is what /settings may set: the group's language, timing and level, and each game's
// options as "<game>.<option>".
func (b *Bot) groupScope(lang string) *scope {
	ln := setting{named: named{render.SetLang, labelForms(b.render.Text(lang, "bot.settings.lang"))}}
	for _, code := range b.loc.Langs() {
		ln.values = append(ln.values, named{code, labelForms(b.render.Text(code, "bot.settings.langname"))})
	}
	def := named{render.ValueDefault, labelForms(b.render.Text(lang, "bot.settings.default"))}
	timeout := setting{named: named{render.SetTimeout, labelForms(b.render.Text(lang, "bot.settings.timeout"))},
		values: []named{def, {render.ValueOff, labelForms(b.render.Text(lang, "bot.settings.off"))}},
		free:   freeDuration(minTimeout, maxTimeout, true), hint: "30s–24h"}
	delay := setting{named: named{render.SetDelay, labelForms(b.render.Text(lang, "bot.settings.delay"))},
		values: []named{def}, free: freeDuration(0, maxDelay, true), hint: "0–10s"}
	sc := &scope{settings: []setting{ln, timeout, delay, b.levelSetting(lang, true)}}
	sc.unknown = "bot.settings.key"
	sc.keys = keyList(sc.settings, "") + ", " + locales.Plain(b.render.Text(lang, "bot.settings.gamekeys", "Games", b.render.GameIDs()))
	games := make([]named, len(b.cfg.Games))
	for i, r := range b.cfg.Games {
		games[i] = named{r.Name(), labelForms(b.render.GameName(lang, r.Name()))}
	}
	sc.sub = func(prefix string) (*scope, string, bool) {
		i, ok := match(games, prefix)
		if !ok {
			return nil, "", false
		}
		r := b.cfg.Games[i]
		inner := &scope{settings: b.optionSettings(lang, r)}
		inner.unknown, inner.unknownKV = "bot.opts.key", []any{"Game", locales.Plain(b.render.GameName(lang, r.Name()))}
		inner.keys = keyList(inner.settings, r.Name()+".")
		return inner, r.Name(), true
	}
	return sc
}

// setGroup applies one resolved /settings argument (or button) to the group's record.
func setGroup(c *store.Chat, a assigned, rules map[string]games.Rules) {
	s := &c.Settings
	switch a.key {
	case render.SetLang:
		c.Lang = a.value
	case render.SetLevel:
		s.Level = a.value
		if a.value == render.ValueDefault {
			s.Level = ""
		}
	case render.SetTimeout, render.SetDelay:
		var d *time.Duration
		switch a.value {
		case render.ValueDefault:
		case render.ValueOff:
			d = new(time.Duration)
		default:
			v, _ := time.ParseDuration(a.value)
			d = &v
		}
		if a.key == render.SetTimeout {
			s.TurnTimeout = d
		} else {
			s.AIDelay = d
		}
	default:
		game, key, _ := strings.Cut(a.key, ".")
		r, ok := rules[game]
		if !ok {
			return
		}
		opts := maps.Clone(s.Options[game])
		if opts == nil {
			opts = map[string]string{}
		}
		opts[key] = a.value
		if i := slices.IndexFunc(r.Options(), func(o games.Option) bool { return o.Key == key }); i < 0 || r.Options()[i].Default == a.value {
			delete(opts, key)
		}
		if s.Options == nil {
			s.Options = map[string]map[string]string{}
		}
		s.Options[game] = opts
		if len(opts) == 0 {
			delete(s.Options, game)
		}
	}
}
