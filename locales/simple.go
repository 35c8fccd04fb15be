package locales

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// simpleTemplate is a message template that only prints arguments, split into its literal text
// and the argument names between them: text[0] name[0] text[1] ... text[len(names)].
type simpleTemplate struct {
	text  []string
	names []string
}

// parseSimple splits a template made of literal text and {{.Name}} actions (spaces allowed inside
// the braces); anything else (if, range, pipelines, functions) is not simple.
func parseSimple(src string) (simpleTemplate, bool) {
	var t simpleTemplate
	for {
		open := strings.Index(src, "{{")
		if open < 0 {
			if strings.Contains(src, "}}") {
				return simpleTemplate{}, false
			}
			t.text = append(t.text, src)
			return t, true
		}
		end := strings.Index(src[open:], "}}")
		if end < 0 {
			return simpleTemplate{}, false
		}
		name, ok := strings.CutPrefix(strings.TrimSpace(src[open+2:open+end]), ".")
		if !ok || !isIdent(name) || strings.Contains(src[:open], "}}") {
			return simpleTemplate{}, false
		}
		t.text = append(t.text, src[:open])
		t.names = append(t.names, name)
		src = src[open+end+2:]
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// execute prints the template with data as text/template would, with a missing argument printed
// as nothing (render drops text/template's "<no value>" the same way).
func (t simpleTemplate) execute(data map[string]any) string {
	var sb strings.Builder
	for i, name := range t.names {
		sb.WriteString(t.text[i])
		switch v := data[name].(type) {
		case nil:
		case string:
			sb.WriteString(v)
		case int:
			sb.WriteString(strconv.Itoa(v))
		case bool:
			sb.WriteString(strconv.FormatBool(v))
		default:
			fmt.Fprint(&sb, v)
		}
	}
	sb.WriteString(t.text[len(t.names)])
	return sb.String()
}

// renderCacheSize bounds the remembered renderings; a full cache starts afresh.
const renderCacheSize = 1024

// renderCache maps a message and its arguments to the text they render to. Only templates
// that text/template must run are remembered; their output depends on nothing else.
type renderCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *renderCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, ok := c.m[key]
	return out, ok
}

func (c *renderCache) put(key, out string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= renderCacheSize {
		c.m = make(map[string]string)
	}
	c.m[key] = out
}

// renderKey names a rendering: the language, the message and its arguments with their kinds
// (a template may tell the number 1 from the text "1"). Arguments of other types are not
// cacheable.
func renderKey(lang, id string, data map[string]any) (string, bool) {
	names := make([]string, 0, len(data))
	for k := range data {
		names = append(names, k)
	}
	slices.Sort(names)
	var sb strings.Builder
	sb.WriteString(lang)
	sb.WriteByte(0)
	sb.WriteString(id)
	for _, k := range names {
		sb.WriteByte(0)
		sb.WriteString(k)
		switch v := data[k].(type) {
		case string:
			sb.WriteString("\x01s")
			sb.WriteString(v)
		case int:
			sb.WriteString("\x01i")
			sb.WriteString(strconv.Itoa(v))
		case bool:
			sb.WriteString("\x01b")
			sb.WriteString(strconv.FormatBool(v))
		default:
			return "", false
		}
	}
	return sb.String(), true
}
