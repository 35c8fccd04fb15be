package locales

import (
	"html"
	"strings"
)

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// Escape makes s safe as text in Telegram HTML: &, <, > and " become entities (Telegram knows
// exactly &lt; &gt; &amp; &quot; and numeric ones). Names like "Tom & Jerry" go through it.
func Escape(s string) string { return escaper.Replace(s) }

// Plain turns Telegram HTML into the text a user sees: tags dropped, entities decoded. Button labels
// and callback answers are not parsed as HTML, so they take this.
func Plain(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		s = s[i+j+1:]
	}
	return html.UnescapeString(b.String())
}
