package locales

import (
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// testFiles are messages of a made-up game "tg", loaded beside the real common.toml files, so these
// unit tests do not depend on the games' and the bot's files (the completeness tests cover those).
var testFiles = map[string]string{
	"en/tg.toml": `
"tg.plain" = "Hello"
"tg.seat" = "<b>{{.Seat}}</b> plays {{.Card}}"
"tg.all" = "{{.Seats}} | {{.Cards}} | {{.Set}} | {{.Suit}} | {{.Word}} | {{.Msg}} | {{.Msgs}}"
"tg.if" = "{{if .Flag}}yes{{else}}no{{end}} {{if gt .N 2}}big{{end}}"
"tg.act.play" = "{{.Card}}"
"tg.act.bid" = "<b>bid</b> {{.N}}"
"tg.act.pass" = "Pass & wait"
"tg.only.en" = "English only"
"tg.missing" = "[{{.Nope}}]"
["tg.tricks"]
one = "{{.Count}} trick"
other = "{{.Count}} tricks"
`,
	"ru/tg.toml": `
"tg.plain" = "Привет"
"tg.seat" = "<b>{{.Seat}}</b> ходит {{.Card}}"
"tg.all" = "{{.Seats}} | {{.Cards}} | {{.Set}} | {{.Suit}} | {{.Word}} | {{.Msg}} | {{.Msgs}}"
"tg.if" = "{{if .Flag}}да{{else}}нет{{end}} {{if gt .N 2}}много{{end}}"
"tg.act.play" = "{{.Card}}"
"tg.act.bid" = "<b>заказ</b> {{.N}}"
"tg.act.pass" = "Пас"
"tg.missing" = "[{{.Nope}}]"
["tg.tricks"]
one = "{{.Count}} взятка"
few = "{{.Count}} взятки"
many = "{{.Count}} взяток"
other = "{{.Count}} взятки"
`,
}

func testBundle(t *testing.T) *Bundle {
	t.Helper()
	fsys := fstest.MapFS{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) != "common.toml" {
			return err
		}
		data, err := fs.ReadFile(files, p)
		fsys[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range testFiles {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	b, err := load(fsys)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return b
}

func mustLoad(t *testing.T) *Bundle {
	t.Helper()
	b, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return b
}

var players = []string{"Eve <3", "Tom & Jerry", `Ann "Q"`, "Боб"}

func names(s games.Seat) string { return players[s] }

func TestLoad(t *testing.T) {
	mustLoad(t)
}

func TestLangs(t *testing.T) {
	b := testBundle(t)
	if got := b.Langs(); !slices.Equal(got, []string{"en", "ru"}) {
		t.Fatalf("Langs() = %v, want [en ru]", got)
	}
	if ids := b.IDs("en"); !slices.Contains(ids, "card.joker") || !slices.IsSorted(ids) {
		t.Errorf("IDs(en) lacks card.joker or is unsorted: %v", ids)
	}
	if !b.Has("ru", "suit.hearts") || b.Has("ru", "no.such.id") || b.Has("de", "suit.hearts") {
		t.Error("Has answers wrong")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
	}{
		{"no fallback", map[string]string{"ru/a.toml": `"x" = "y"`}},
		{"bad toml", map[string]string{"en/a.toml": `"x" = `}},
		{"duplicate id", map[string]string{"en/a.toml": `"x" = "y"`, "en/b.toml": `"x" = "z"`}},
		{"bad folder", map[string]string{"en/a.toml": `"x" = "y"`, "english/a.toml": `"x" = "y"`}},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{}
		for p, s := range tt.files {
			fsys[p] = &fstest.MapFile{Data: []byte(s)}
		}
		if _, err := load(fsys); err == nil {
			t.Errorf("%s: load succeeded", tt.name)
		}
	}
}

func TestMatch(t *testing.T) {
	b := testBundle(t)
	tests := []struct{ code, want string }{
		{"ru", "ru"}, {"ru-RU", "ru"}, {"RU", "ru"}, {"ru_UA", "ru"},
		{"en", "en"}, {"en-GB", "en"}, {"", "en"}, {"de", "en"}, {"uk", "en"}, {"zh-hans", "en"},
	}
	for _, tt := range tests {
		if got := b.Match(tt.code); got != tt.want {
			t.Errorf("Match(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

func TestCard(t *testing.T) {
	b := testBundle(t)
	tests := []struct{ card, en, ru string }{
		{"SQ", "Q♠️", "Д♠️"},
		{"H10", "10♥️", "10♥️"},
		{"CJ", "J♣️", "В♣️"},
		{"DA", "A♦️", "Т♦️"},
		{"SK", "K♠️", "К♠️"},
		{"C2", "2♣️", "2♣️"},
		{"W1", "🧙", "🧙"},
		{"N4", "🤡", "🤡"},
		{"X2", "🃏", "🃏"},
	}
	for _, tt := range tests {
		c := cards.MustParse(tt.card)
		if got := b.Card("en", c); got != tt.en {
			t.Errorf("Card(en, %s) = %q, want %q", tt.card, got, tt.en)
		}
		if got := b.Card("ru", c); got != tt.ru {
			t.Errorf("Card(ru, %s) = %q, want %q", tt.card, got, tt.ru)
		}
	}
	if got := b.Card("en", cards.NoCard); got != "—" {
		t.Errorf("Card(NoCard) = %q", got)
	}
	if got := b.Cards("ru", cards.MustParseList("SA S10 W2")); got != "Т♠️ 10♠️ 🧙" {
		t.Errorf("Cards = %q", got)
	}
	if got := b.Cards("en", nil); got != "" {
		t.Errorf("Cards(nil) = %q", got)
	}
}

func TestSuit(t *testing.T) {
	b := testBundle(t)
	tests := []struct {
		suit   cards.Suit
		en, ru string
	}{
		{cards.Clubs, "♣️ clubs", "♣️ трефы"},
		{cards.Diamonds, "♦️ diamonds", "♦️ бубны"},
		{cards.Hearts, "♥️ hearts", "♥️ черви"},
		{cards.Spades, "♠️ spades", "♠️ пики"},
		{cards.NoSuit, "no trump", "без козыря"},
	}
	for _, tt := range tests {
		if got := b.Suit("en", tt.suit); got != tt.en {
			t.Errorf("Suit(en, %v) = %q, want %q", tt.suit, got, tt.en)
		}
		if got := b.Suit("ru", tt.suit); got != tt.ru {
			t.Errorf("Suit(ru, %v) = %q, want %q", tt.suit, got, tt.ru)
		}
	}
}

func TestRender(t *testing.T) {
	b := testBundle(t)
	tests := []struct {
		name string
		lang string
		msg  games.Msg
		want string
	}{
		{"zero msg", "en", games.Msg{}, ""},
		{"no args", "ru", games.M("tg.plain"), "Привет"},
		{"seat escaped", "en", games.M("tg.seat", "Seat", games.Seat(0), "Card", cards.MustParse("SQ")), "<b>Eve &lt;3</b> plays Q♠️"},
		{"seat ru", "ru", games.M("tg.seat", "Seat", games.Seat(1), "Card", cards.MustParse("SQ")), "<b>Tom &amp; Jerry</b> ходит Д♠️"},
		{"every kind", "en", games.M("tg.all",
			"Seats", []games.Seat{2, 3},
			"Cards", cards.MustParseList("SA HK"),
			"Set", cards.SetOf(cards.MustParseList("HK SA")...),
			"Suit", cards.Hearts,
			"Word", "a<b",
			"Msg", games.M("tg.tricks", "Count", 1),
			"Msgs", []games.Msg{games.M("tg.plain"), {}, games.M("tg.tricks", "Count", 3)},
		), "Ann &quot;Q&quot;, Боб | A♠️ K♥️ | K♥️ A♠️ | ♥️ hearts | a&lt;b | 1 trick | Hello, 3 tricks"},
		{"bool and int compare", "en", games.M("tg.if", "Flag", true, "N", 3), "yes big"},
		{"bool false", "ru", games.M("tg.if", "Flag", false, "N", 1), "нет "},
		{"unknown lang falls back", "de", games.M("tg.plain"), "Hello"},
		{"missing in ru falls back", "ru", games.M("tg.only.en"), "English only"},
		{"unknown id is the id", "ru", games.M("tg.nothing"), "tg.nothing"},
		{"missing argument dropped", "en", games.M("tg.missing"), "[]"},
	}
	for _, tt := range tests {
		got := b.Render(tt.lang, tt.msg, names)
		if got != tt.want {
			t.Errorf("%s: Render = %q, want %q", tt.name, got, tt.want)
		}
		if err := checkHTML(got); err != nil {
			t.Errorf("%s: %q is not valid Telegram HTML: %v", tt.name, got, err)
		}
	}
}

func TestRenderStrict(t *testing.T) {
	b := testBundle(t)
	if _, err := b.render("en", games.M("tg.missing"), names, strictParser(), 0); err == nil {
		t.Error("strict render of a missing argument succeeded")
	}
	if _, err := b.render("en", games.M("tg.nothing"), names, strictParser(), 0); err == nil {
		t.Error("strict render of an unknown id succeeded")
	}
	if _, err := b.render("en", games.M("tg.plain", "X", struct{}{}), names, strictParser(), 0); err == nil {
		t.Error("an argument of an unsupported type was accepted")
	}
	if out, err := b.render("ru", games.M("tg.act.bid", "N", 2, "Count", 2), names, strictParser(), 0); err != nil || out != "<b>заказ</b> 2" {
		t.Errorf("Count on a message without plural forms: %q, %v", out, err)
	}
	self := games.M("tg.seat", "Seat", games.Seat(0))
	self.Args["Card"] = self
	if _, err := b.render("en", self, names, strictParser(), 0); err == nil {
		t.Error("a Msg nested in itself rendered")
	}
	// The lenient render of the same messages must still work after strict ones.
	if got := b.Render("en", games.M("tg.missing"), names); got != "[]" {
		t.Errorf("lenient after strict = %q", got)
	}
}

func TestPlural(t *testing.T) {
	b := testBundle(t)
	tests := []struct {
		count    int
		en, ru   string
		ruCommon string
	}{
		{0, "0 tricks", "0 взяток", "0 карт"},
		{1, "1 trick", "1 взятка", "1 карта"},
		{2, "2 tricks", "2 взятки", "2 карты"},
		{4, "4 tricks", "4 взятки", "4 карты"},
		{5, "5 tricks", "5 взяток", "5 карт"},
		{11, "11 tricks", "11 взяток", "11 карт"},
		{12, "12 tricks", "12 взяток", "12 карт"},
		{21, "21 tricks", "21 взятка", "21 карта"},
		{22, "22 tricks", "22 взятки", "22 карты"},
		{25, "25 tricks", "25 взяток", "25 карт"},
		{101, "101 tricks", "101 взятка", "101 карта"},
		{111, "111 tricks", "111 взяток", "111 карт"},
		{-1, "-1 trick", "-1 взятка", "-1 карта"},
	}
	for pass, tt := range slices.Concat(tests, tests) { // the second time from the render cache
		if pass == len(tests) && len(b.rendered.m) == 0 {
			t.Fatal("nothing in the render cache")
		}
		if got := b.Text("en", "tg.tricks", "Count", tt.count); got != tt.en {
			t.Errorf("en %d: %q, want %q", tt.count, got, tt.en)
		}
		if got := b.Text("ru", "tg.tricks", "Count", tt.count); got != tt.ru {
			t.Errorf("ru %d: %q, want %q", tt.count, got, tt.ru)
		}
		if got := b.Text("ru", "count.cards", "Count", tt.count); got != tt.ruCommon {
			t.Errorf("ru count.cards %d: %q, want %q", tt.count, got, tt.ruCommon)
		}
	}
}

func TestText(t *testing.T) {
	b := testBundle(t)
	tests := []struct {
		lang, id string
		kv       []any
		want     string
	}{
		{"en", "tg.seat", []any{"Seat", games.Seat(2), "Card", cards.MustParse("X1")}, "<b>3</b> plays 🃏"},
		{"ru", "count.players", []any{"Count", 3}, "3 игрока"},
		{"en", "count.players", []any{"Count", 1}, "1 player"},
		{"fr", "count.players", []any{"Count", 2}, "2 players"},
		{"en", "tg.seat", []any{"Seat", games.Seat(0), 42, "ignored", "Card"}, "<b>1</b> plays "},
	}
	for _, tt := range tests {
		if got := b.Text(tt.lang, tt.id, tt.kv...); got != tt.want {
			t.Errorf("Text(%s, %s, %v) = %q, want %q", tt.lang, tt.id, tt.kv, got, tt.want)
		}
	}
}

func TestAction(t *testing.T) {
	b := testBundle(t)
	tests := []struct {
		lang   string
		action games.Action
		want   string
	}{
		{"en", games.With("play", cards.MustParse("HQ")), "Q♥️"},
		{"ru", games.With("play", cards.MustParse("HQ")), "Д♥️"},
		{"en", games.Num("bid", 0), "bid 0"},
		{"ru", games.Num("bid", 3), "заказ 3"},
		{"en", games.Do("pass"), "Pass & wait"},
		{"en", games.Do("fold"), "tg.act.fold"},
	}
	for _, tt := range tests {
		got := b.Action(tt.lang, "tg", tt.action)
		if got != tt.want {
			t.Errorf("Action(%s, %v) = %q, want %q", tt.lang, tt.action, got, tt.want)
		}
		if strings.ContainsAny(got, "<") {
			t.Errorf("Action(%s, %v) = %q still has tags", tt.lang, tt.action, got)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	b := testBundle(t)
	done := make(chan string)
	for i := range 8 {
		go func() {
			lang := b.Langs()[i%2]
			var s string
			for n := range 200 {
				s = b.Render(lang, games.M("tg.seat", "Seat", games.Seat(n%4), "Card", cards.MustParse("SQ")), names)
				s += b.Text(lang, "count.cards", "Count", n)
			}
			done <- s
		}()
	}
	for range 8 {
		if s := <-done; s == "" {
			t.Error("empty render")
		}
	}
}

func BenchmarkRender(b *testing.B) {
	bd, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	m := games.M("count.cards", "Count", 7)
	for b.Loop() {
		_ = bd.Render("ru", m, names)
	}
}

// TestSimpleTemplates: every message rendered without text/template comes out exactly as go-i18n
// renders it, with text, number and boolean arguments and with one argument missing.
func TestSimpleTemplates(t *testing.T) {
	b := mustLoad(t)
	n := 0
	for lang, msgs := range b.simple {
		for id, tmpl := range msgs {
			n++
			for _, drop := range []int{-1, 0} {
				data := map[string]any{}
				for i, name := range tmpl.names {
					switch {
					case i == drop:
					case i%3 == 0:
						data[name] = "<b>" + name + "</b>"
					case i%3 == 1:
						data[name] = i * 7
					default:
						data[name] = i%2 == 0
					}
				}
				want, err := b.locs[lang].Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
				if err != nil {
					t.Fatalf("%s %s: %v", lang, id, err)
				}
				want = strings.ReplaceAll(want, "<no value>", "")
				if got := tmpl.execute(data); got != want {
					t.Errorf("%s %s = %q, go-i18n renders %q", lang, id, got, want)
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d simple templates: the fast path is not taken", n)
	}
}

func TestParseSimple(t *testing.T) {
	for _, c := range []struct {
		src  string
		ok   bool
		want simpleTemplate
	}{
		{"a {{.X}} b {{ .Y_2 }}", true, simpleTemplate{text: []string{"a ", " b ", ""}, names: []string{"X", "Y_2"}}},
		{"{{.X}}{{.X}}", true, simpleTemplate{text: []string{"", "", ""}, names: []string{"X", "X"}}},
		{"{{if .X}}a{{end}}", false, simpleTemplate{}},
		{"{{- .X}}", false, simpleTemplate{}},
		{"{{.X.Y}}", false, simpleTemplate{}},
		{"{{.X | print}}", false, simpleTemplate{}},
		{"{{.X", false, simpleTemplate{}},
		{"a }} {{.X}}", false, simpleTemplate{}},
		{"{{.X}} }}", false, simpleTemplate{}},
	} {
		got, ok := parseSimple(c.src)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseSimple(%q) = %+v, %v; want %+v, %v", c.src, got, ok, c.want, c.ok)
		}
	}
}

// TestRenderKey: a number and the text of the same digits are different renderings (a template
// may compare them); an argument of another type is not cached.
func TestRenderKey(t *testing.T) {
	num, ok1 := renderKey("en", "x", map[string]any{"N": 1})
	text, ok2 := renderKey("en", "x", map[string]any{"N": "1"})
	if !ok1 || !ok2 || num == text {
		t.Errorf("renderKey: %q %v, %q %v", num, ok1, text, ok2)
	}
	if a, _ := renderKey("en", "x", map[string]any{"A": "1", "B": "2"}); a == num {
		t.Error("different arguments, same key")
	}
	if _, ok := renderKey("en", "x", map[string]any{"N": int8(1)}); ok {
		t.Error("an int8 argument is cached")
	}
}
