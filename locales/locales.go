// Package locales turns message IDs into Telegram HTML in the reader's language. Every user-facing
// text of kozyr lives in locales/<lang>/*.toml (go-i18n v2 format, embedded in the binary); engines
// and the bot hold only IDs and arguments. English is the fallback language.
package locales

import (
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

//go:embed */*.toml
var files embed.FS

// Fallback is the language used for unknown language codes and for IDs a language lacks.
const Fallback = "en"

// tomlHint explains the usual cause of a parse error: in TOML every key after a [table] header
// belongs to that table, so a flat id written after a plural table is read as one of its forms.
const tomlHint = `keys after a ["x.y"] plural table belong to it: put the flat "id" = "text" lines before the first table, or write plurals inline: "x.y" = { one = "...", other = "..." }`

// maxDepth bounds the nesting of Msg arguments, so a Msg that contains itself cannot loop.
const maxDepth = 8

// Bundle holds every translation. It is read-only after Load and safe for concurrent use.
type Bundle struct {
	bundle *i18n.Bundle
	langs  []string
	msgs   map[string]map[string]*i18n.Message // lang -> id -> message
	locs   map[string]*i18n.Localizer
	// fixed holds, per language, the messages that are the same whatever the arguments (no
	// template, no plural forms), rendered once at Load: card ranks, suits, button labels.
	fixed map[string]map[string]string
	// simple holds the messages whose template only prints arguments ({{.Name}}, no plural
	// forms), split once at Load: they render without text/template, which costs most of a
	// hand's rendering otherwise.
	simple map[string]map[string]simpleTemplate
	// rendered remembers what the other templates (plural forms, conditions) made of the same
	// arguments: a hand shows the same few counts over and over.
	rendered renderCache
}

// Load reads the embedded locales/<lang>/*.toml files. It fails on a file that does not parse, on an
// ID defined twice in one language, and when the fallback language is missing.
func Load() (*Bundle, error) {
	return load(files)
}

func load(fsys fs.FS) (*Bundle, error) {
	b := &Bundle{
		bundle: i18n.NewBundle(language.English),
		msgs:   map[string]map[string]*i18n.Message{},
		locs:   map[string]*i18n.Localizer{},
	}
	paths, err := fs.Glob(fsys, "*/*.toml")
	if err != nil {
		return nil, fmt.Errorf("locales: list files: %w", err)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := b.loadFile(fsys, p); err != nil {
			return nil, err
		}
	}
	if _, ok := b.msgs[Fallback]; !ok {
		return nil, fmt.Errorf("locales: no %q files", Fallback)
	}
	others := slices.DeleteFunc(slices.Sorted(maps.Keys(b.msgs)), func(l string) bool { return l == Fallback })
	b.langs = append([]string{Fallback}, others...)
	b.fixed = map[string]map[string]string{}
	b.simple = map[string]map[string]simpleTemplate{}
	for _, l := range b.langs {
		b.locs[l] = i18n.NewLocalizer(b.bundle, l)
		b.fixed[l] = map[string]string{}
		b.simple[l] = map[string]simpleTemplate{}
		for id, m := range b.msgs[l] {
			if isPlural(m) {
				continue
			}
			if strings.Contains(m.Other, "{{") {
				if t, ok := parseSimple(m.Other); ok && m.LeftDelim == "" && m.RightDelim == "" {
					b.simple[l][id] = t
				}
				continue
			}
			if out, err := b.locs[l].Localize(&i18n.LocalizeConfig{MessageID: id}); err == nil {
				b.fixed[l][id] = out
			}
		}
	}
	return b, nil
}

func (b *Bundle) loadFile(fsys fs.FS, p string) error {
	lang := path.Dir(p)
	tag, err := language.Parse(lang)
	if err != nil || tag.String() != lang {
		return fmt.Errorf("locales: %s: folder %q is not a language code", p, lang)
	}
	buf, err := fs.ReadFile(fsys, p)
	if err != nil {
		return fmt.Errorf("locales: read %s: %w", p, err)
	}
	msgs, err := i18n.ParseMessageBytes(buf, toml.Unmarshal)
	if err != nil {
		return fmt.Errorf("locales: parse %s: %w (%s)", p, err, tomlHint)
	}
	have := b.msgs[lang]
	if have == nil {
		have = map[string]*i18n.Message{}
		b.msgs[lang] = have
	}
	for _, m := range msgs {
		if _, dup := have[m.ID]; dup {
			return fmt.Errorf("locales: %s: %q is defined twice for %s", p, m.ID, lang)
		}
		have[m.ID] = m
	}
	if err := b.bundle.AddMessages(tag, msgs...); err != nil {
		return fmt.Errorf("locales: add %s: %w", p, err)
	}
	return nil
}

// Langs lists the supported languages: the fallback "en" first, then the others in order.
func (b *Bundle) Langs() []string { return slices.Clone(b.langs) }

// Match maps a Telegram language_code ("ru", "ru-RU", "en-GB") to a supported language; anything
// unsupported or empty gets the fallback.
func (b *Bundle) Match(code string) string {
	code = strings.ToLower(strings.TrimSpace(code))
	if _, ok := b.msgs[code]; ok {
		return code
	}
	primary, _, _ := strings.Cut(strings.ReplaceAll(code, "_", "-"), "-")
	if _, ok := b.msgs[primary]; ok {
		return primary
	}
	return Fallback
}

// Has reports whether lang itself (without fallback) defines id.
func (b *Bundle) Has(lang, id string) bool {
	_, ok := b.msgs[lang][id]
	return ok
}

// IDs lists every ID lang defines, sorted.
func (b *Bundle) IDs(lang string) []string {
	return slices.Sorted(maps.Keys(b.msgs[lang]))
}

// Text renders one of the bot's own strings. kv are name/value pairs rendered like Msg arguments;
// a Seat among them renders as its 1-based number, since there are no names to look up.
func (b *Bundle) Text(lang, id string, kv ...any) string {
	m := games.Msg{ID: id}
	if len(kv) > 0 {
		m.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			if k, ok := kv[i].(string); ok {
				m.Args[k] = kv[i+1]
			}
		}
	}
	return b.Render(lang, m, nil)
}

// Render renders an engine's Msg as Telegram HTML. names gives each seat's player name (escaped
// here); nil renders seats as 1-based numbers. The zero Msg renders as "". An ID no language has
// renders as the ID itself, which the locale tests rule out.
func (b *Bundle) Render(lang string, m games.Msg, names func(games.Seat) string) string {
	out, _ := b.render(b.lang(lang), m, names, nil, 0)
	return out
}

// Card renders one card in lang: rank and suit symbol ("Q♠️", "Д♠️"), or the special card's name.
// Russian ranks are В Д К Т (валет, дама, король, туз), as Russian players write them.
func (b *Bundle) Card(lang string, c cards.Card) string {
	lang = b.lang(lang)
	switch {
	case c.IsFrench():
		return b.Text(lang, "card.rank."+c.Rank().String()) + b.Text(lang, "suit.symbol."+c.Suit().String())
	case c.IsWizard():
		return b.Text(lang, "card.wizard")
	case c.IsJester():
		return b.Text(lang, "card.jester")
	case c.IsJoker():
		return b.Text(lang, "card.joker")
	}
	return b.Text(lang, "card.none")
}

// Cards renders cards in the given order, separated by spaces.
func (b *Bundle) Cards(lang string, cs []cards.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = b.Card(lang, c)
	}
	return strings.Join(parts, " ")
}

// Suit renders a suit as its symbol and name ("♥️ hearts"); NoSuit renders as "no trump".
func (b *Bundle) Suit(lang string, s cards.Suit) string {
	lang = b.lang(lang)
	if s > cards.Spades {
		return b.Text(lang, "suit.none")
	}
	return b.Text(lang, "suit.symbol."+s.String()) + " " + b.Text(lang, "suit."+s.String())
}

// Action renders the button label of an action, message "<game>.act.<kind>" with the arguments
// Card (rendered), N and Count (= N). Button labels are not parsed by Telegram, so the result is
// plain text: tags removed, entities decoded.
func (b *Bundle) Action(lang, game string, a games.Action) string {
	return Plain(b.Render(lang, actionMsg(game, a), nil))
}

func actionMsg(game string, a games.Action) games.Msg {
	m := games.Msg{ID: game + ".act." + a.Kind, Args: map[string]any{}}
	if a.Card != cards.NoCard {
		m.Args["Card"] = a.Card
	}
	if a.HasN {
		m.Args["N"] = int(a.N)
		m.Args["Count"] = int(a.N)
	}
	return m
}

// lang maps any code to a supported language.
func (b *Bundle) lang(code string) string {
	if _, ok := b.msgs[code]; ok {
		return code
	}
	return b.Match(code)
}

// render is Render with an optional template parser: the tests pass a strict one that fails on a
// template that reads an argument the Msg does not have.
func (b *Bundle) render(lang string, m games.Msg, names func(games.Seat) string, parser i18ntemplate.Parser, depth int) (string, error) {
	if m.ID == "" {
		return "", nil
	}
	if depth > maxDepth {
		return "", fmt.Errorf("locales: %s: Msg arguments nested deeper than %d", m.ID, maxDepth)
	}
	if !b.Has(lang, m.ID) {
		if !b.Has(Fallback, m.ID) {
			return m.ID, fmt.Errorf("locales: no message %q", m.ID)
		}
		lang = Fallback
	}
	if out, ok := b.fixed[lang][m.ID]; ok && len(m.Args) == 0 {
		return out, nil
	}
	data := make(map[string]any, len(m.Args))
	for k, v := range m.Args {
		s, err := b.arg(lang, v, names, parser, depth)
		if err != nil {
			return m.ID, fmt.Errorf("locales: %s: argument %s: %w", m.ID, k, err)
		}
		data[k] = s
	}
	if t, ok := b.simple[lang][m.ID]; ok && parser == nil {
		return t.execute(data), nil
	}
	key, cacheable := renderKey(lang, m.ID, data)
	if cacheable && parser == nil {
		if out, ok := b.rendered.get(key); ok {
			return out, nil
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: m.ID, TemplateData: data, TemplateParser: parser}
	if n, ok := pluralCount(m.Args["Count"]); ok && isPlural(b.msgs[lang][m.ID]) {
		cfg.PluralCount = n
	}
	out, err := b.locs[lang].Localize(cfg)
	if err != nil {
		if out == "" {
			out = m.ID
		}
		return strings.ReplaceAll(out, "<no value>", ""), fmt.Errorf("locales: render %s in %s: %w", m.ID, lang, err)
	}
	// The default parser prints a missing argument as "<no value>", which is not valid Telegram
	// HTML; drop it rather than have the whole message refused.
	out = strings.ReplaceAll(out, "<no value>", "")
	if cacheable && parser == nil {
		b.rendered.put(key, out)
	}
	return out, nil
}

// arg converts one Msg argument to what the template sees: text already escaped and rendered, or a
// number or bool as is, so templates may compare them.
func (b *Bundle) arg(lang string, v any, names func(games.Seat) string, parser i18ntemplate.Parser, depth int) (any, error) {
	switch x := v.(type) {
	case games.Seat:
		return seatName(x, names), nil
	case []games.Seat:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = seatName(s, names)
		}
		return strings.Join(parts, ", "), nil
	case string:
		return Escape(x), nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, bool:
		return x, nil
	case cards.Card:
		return b.Card(lang, x), nil
	case []cards.Card:
		return b.Cards(lang, x), nil
	case cards.Set:
		return b.Cards(lang, x.Cards()), nil
	case cards.Suit:
		return b.Suit(lang, x), nil
	case games.Msg:
		return b.render(lang, x, names, parser, depth+1)
	case []games.Msg:
		parts := make([]string, 0, len(x))
		for _, m := range x {
			s, err := b.render(lang, m, names, parser, depth+1)
			if err != nil {
				return "", err
			}
			if s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", "), nil
	case nil:
		return "", nil
	}
	return Escape(fmt.Sprint(v)), fmt.Errorf("unsupported type %T", v)
}

func seatName(s games.Seat, names func(games.Seat) string) string {
	if names == nil || s < 0 {
		return fmt.Sprint(int(s) + 1)
	}
	return Escape(names(s))
}

// isPlural reports whether m has plural forms; Count selects among them. A message with only
// "other" ignores Count, so engines may pass Count everywhere.
func isPlural(m *i18n.Message) bool {
	return m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != ""
}

// pluralCount accepts the integer types go-i18n's plural rules take.
func pluralCount(v any) (any, bool) {
	switch x := v.(type) {
	case int, int8, int16, int32, int64:
		return x, true
	}
	return nil, false
}

// strictParser fails on a template that reads a missing argument. Funcs makes go-i18n skip its
// parse cache, so strict and lenient renders of one message never share a parsed template.
func strictParser() i18ntemplate.Parser {
	return &i18ntemplate.TextParser{Option: "missingkey=error", Funcs: template.FuncMap{}}
}
