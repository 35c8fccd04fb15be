package locales

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"
)

// telegramTags are the tags Telegram's HTML parse mode accepts.
var telegramTags = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "ins": true, "s": true,
	"strike": true, "del": true, "code": true, "pre": true, "a": true, "tg-spoiler": true,
	"span": true, "blockquote": true, "tg-emoji": true,
}

var entityRE = regexp.MustCompile(`^&(lt|gt|amp|quot|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});`)

// checkHTML reports why Telegram would refuse s under parse_mode=HTML ("can't parse entities"), or
// nil. It is strict where Telegram is: only its tags, properly nested, no bare < or &.
func checkHTML(s string) error {
	var stack []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '&':
			m := entityRE.FindString(s[i:])
			if m == "" {
				return fmt.Errorf("bare & at byte %d", i)
			}
			i += len(m)
		case '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return fmt.Errorf("unclosed < at byte %d", i)
			}
			tag := s[i+1 : i+j]
			i += j + 1
			if strings.HasPrefix(tag, "/") {
				name := strings.TrimSpace(tag[1:])
				if len(stack) == 0 || stack[len(stack)-1] != name {
					return fmt.Errorf("unexpected end tag </%s>", name)
				}
				stack = stack[:len(stack)-1]
				continue
			}
			name, attrs, _ := strings.Cut(tag, " ")
			if !telegramTags[name] {
				return fmt.Errorf("unsupported tag <%s>", tag)
			}
			if strings.ContainsAny(attrs, "<&") {
				return fmt.Errorf("bad attribute in <%s>", tag)
			}
			switch name {
			case "span":
				if strings.TrimSpace(attrs) != `class="tg-spoiler"` {
					return fmt.Errorf("<span> needs class=\"tg-spoiler\": <%s>", tag)
				}
			case "a":
				if !strings.HasPrefix(strings.TrimSpace(attrs), "href=") {
					return fmt.Errorf("<a> needs href: <%s>", tag)
				}
			}
			stack = append(stack, name)
		default:
			i++
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed <%s>", stack[len(stack)-1])
	}
	return nil
}

// utf16Len is the length Telegram counts: UTF-16 code units of the text after entity parsing.
func utf16Len(html string) int { return len(utf16.Encode([]rune(Plain(html)))) }

func TestCheckHTML(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"plain text", true},
		{"<b>bold</b> and <i>it</i>", true},
		{"<b><i>nested</i></b>", true},
		{`<a href="https://t.me/x?start=1">link</a>`, true},
		{`<span class="tg-spoiler">s</span>`, true},
		{"Tom &amp; Jerry &lt;3 &#9829; &#x2665; &quot;q&quot;", true},
		{"a > b", true},
		{"<b>unclosed", false},
		{"<b><i>crossed</b></i>", false},
		{"</b>", false},
		{"Tom & Jerry", false},
		{"Eve <3", false},
		{"&nbsp;", false},
		{"<div>x</div>", false},
		{"<span>x</span>", false},
		{"<a>x</a>", false},
		{"<no value>", false},
	}
	for _, tt := range tests {
		err := checkHTML(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("checkHTML(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestEscapeAndPlain(t *testing.T) {
	tests := []struct{ in, escaped string }{
		{"Eve <3", "Eve &lt;3"},
		{"Tom & Jerry", "Tom &amp; Jerry"},
		{`say "hi" > me`, "say &quot;hi&quot; &gt; me"},
		{"Ёжик 🦔", "Ёжик 🦔"},
	}
	for _, tt := range tests {
		got := Escape(tt.in)
		if got != tt.escaped {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.escaped)
		}
		if err := checkHTML(got); err != nil {
			t.Errorf("Escape(%q) = %q is not valid HTML: %v", tt.in, got, err)
		}
		if p := Plain(got); p != tt.in {
			t.Errorf("Plain(Escape(%q)) = %q", tt.in, p)
		}
	}
	if got := Plain("<b>Q♠️</b> &amp; <i>x</i>"); got != "Q♠️ & x" {
		t.Errorf("Plain = %q", got)
	}
}
