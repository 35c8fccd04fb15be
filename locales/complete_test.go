package locales

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/template"
	"text/template/parse"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// pluralForms are the CLDR plural forms each language's messages must give, all of them (go-i18n
// picks among exactly these for integer and decimal counts). A new language adds its line here.
var pluralForms = map[string][]string{
	"en": {"one", "other"},
	"ru": {"one", "few", "many", "other"},
}

// formCount selects each plural form: go-i18n takes PluralCount as an integer or a decimal string.
var formCount = map[string]map[string]any{
	"en": {"one": 1, "other": 2},
	"ru": {"one": 1, "few": 2, "many": 5, "other": "1.5"},
}

func forms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for form, s := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if s != "" {
			out[form] = s
		}
	}
	return out
}

func TestEveryIDInEveryLanguage(t *testing.T) {
	b := mustLoad(t)
	all := map[string]bool{}
	for _, lang := range b.Langs() {
		for _, id := range b.IDs(lang) {
			all[id] = true
		}
	}
	for _, lang := range b.Langs() {
		for id := range all {
			if !b.Has(lang, id) {
				t.Errorf("%s: missing %q", lang, id)
			}
		}
	}
}

func TestCommonIDs(t *testing.T) {
	b := mustLoad(t)
	ids := []string{"card.wizard", "card.jester", "card.joker", "card.none", "suit.none",
		"count.cards", "count.tricks", "count.points", "count.players"}
	for _, r := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"} {
		ids = append(ids, "card.rank."+r)
	}
	for _, s := range []string{"clubs", "diamonds", "hearts", "spades"} {
		ids = append(ids, "suit."+s, "suit.symbol."+s)
	}
	for _, lang := range b.Langs() {
		for _, id := range ids {
			if !b.Has(lang, id) {
				t.Errorf("%s: missing %q", lang, id)
			}
		}
	}
}

func TestPluralFormsComplete(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range b.Langs() {
		want, ok := pluralForms[lang]
		if !ok {
			t.Errorf("%s: no plural forms known; add them to pluralForms", lang)
			continue
		}
		for _, id := range b.IDs(lang) {
			m := b.msgs[lang][id]
			if !isPlural(m) {
				continue
			}
			have := forms(m)
			for _, f := range want {
				if have[f] == "" {
					t.Errorf("%s: %q lacks the plural form %q", lang, id, f)
				}
			}
			for f := range have {
				if !slices.Contains(want, f) {
					t.Errorf("%s: %q has the form %q, which %s never uses", lang, id, f, lang)
				}
			}
		}
	}
}

// sampleArgs builds template data for every field src reads: numbers where the template compares
// them with a number (and for Count and N), text with HTML-escaped specials everywhere else.
func sampleArgs(src string) (map[string]any, error) {
	tmpl, err := template.New("").Parse(src)
	if err != nil {
		return nil, err
	}
	data := map[string]any{}
	var walk func(n parse.Node, numeric bool)
	walk = func(n parse.Node, numeric bool) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c, false)
			}
		case *parse.ActionNode:
			walk(n.Pipe, false)
		case *parse.IfNode:
			walk(n.Pipe, false)
			walk(n.List, false)
			walk(n.ElseList, false)
		case *parse.RangeNode:
			walk(n.Pipe, false)
			walk(n.List, false)
			walk(n.ElseList, false)
		case *parse.WithNode:
			walk(n.Pipe, false)
			walk(n.List, false)
			walk(n.ElseList, false)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c, false)
			}
		case *parse.CommandNode:
			cmp := false
			if len(n.Args) > 0 {
				if id, ok := n.Args[0].(*parse.IdentifierNode); ok {
					cmp = slices.Contains([]string{"eq", "ne", "lt", "le", "gt", "ge"}, id.Ident)
				}
			}
			num := cmp && !slices.ContainsFunc(n.Args, func(a parse.Node) bool { _, s := a.(*parse.StringNode); return s })
			for _, a := range n.Args {
				walk(a, num)
			}
		case *parse.FieldNode:
			name := n.Ident[0]
			if numeric || name == "Count" || name == "N" {
				data[name] = 2
			} else if _, ok := data[name]; !ok {
				data[name] = "Tom &amp; Jerry &lt;3"
			}
		}
	}
	walk(tmpl.Tree.Root, false)
	return data, nil
}

func TestTemplatesRender(t *testing.T) {
	b := mustLoad(t)
	for _, lang := range b.Langs() {
		for _, id := range b.IDs(lang) {
			m := b.msgs[lang][id]
			for form, src := range forms(m) {
				data, err := sampleArgs(src)
				if err != nil {
					t.Errorf("%s: %q (%s) does not parse: %v", lang, id, form, err)
					continue
				}
				cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data, TemplateParser: strictParser()}
				if isPlural(m) {
					cfg.PluralCount = formCount[lang][form]
				}
				out, err := b.locs[lang].Localize(cfg)
				if err != nil {
					t.Errorf("%s: %q (%s) does not render with %v: %v", lang, id, form, data, err)
					continue
				}
				if isPlural(m) && out != mustExec(t, src, data) {
					t.Errorf("%s: %q: Count %v rendered %q, not its %q form", lang, id, cfg.PluralCount, out, form)
				}
				if strings.TrimSpace(Plain(out)) == "" {
					t.Errorf("%s: %q (%s) renders empty", lang, id, form)
				}
				if err := checkHTML(out); err != nil {
					t.Errorf("%s: %q (%s) renders invalid Telegram HTML %q: %v", lang, id, form, out, err)
				}
				if n := utf16Len(out); n > 4096 {
					t.Errorf("%s: %q (%s) is %d characters, over Telegram's 4096", lang, id, form, n)
				}
			}
		}
	}
}

func mustExec(t *testing.T, src string, data map[string]any) string {
	t.Helper()
	var sb strings.Builder
	if err := template.Must(template.New("").Parse(src)).Execute(&sb, data); err != nil {
		t.Fatalf("execute %q: %v", src, err)
	}
	return sb.String()
}

func TestSampleArgs(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"{{.Seat}} plays {{.Card}}", "map[Card:Tom &amp; Jerry &lt;3 Seat:Tom &amp; Jerry &lt;3]"},
		{"{{if gt .Bid 1}}{{.Bid}}{{end}}", "map[Bid:2]"},
		{`{{if eq .Kind "x"}}x{{end}}`, "map[Kind:Tom &amp; Jerry &lt;3]"},
		{"{{.Count}} {{.N}}", "map[Count:2 N:2]"},
	}
	for _, tt := range tests {
		got, err := sampleArgs(tt.src)
		if err != nil || fmt.Sprint(got) != tt.want {
			t.Errorf("sampleArgs(%q) = %v, %v; want %s", tt.src, got, err, tt.want)
		}
	}
}
