package tgtest

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

// htmlTags maps the tags Telegram accepts under parse_mode=HTML to the entity they produce.
var htmlTags = map[string]models.MessageEntityType{
	"b": models.MessageEntityTypeBold, "strong": models.MessageEntityTypeBold,
	"i": models.MessageEntityTypeItalic, "em": models.MessageEntityTypeItalic,
	"u": models.MessageEntityTypeUnderline, "ins": models.MessageEntityTypeUnderline,
	"s": models.MessageEntityTypeStrikethrough, "strike": models.MessageEntityTypeStrikethrough,
	"del":        models.MessageEntityTypeStrikethrough,
	"code":       models.MessageEntityTypeCode,
	"pre":        models.MessageEntityTypePre,
	"a":          models.MessageEntityTypeTextLink,
	"tg-spoiler": models.MessageEntityTypeSpoiler,
	"span":       models.MessageEntityTypeSpoiler,
	"blockquote": models.MessageEntityTypeBlockquote,
}

type openTag struct {
	name  string
	start int // UTF-16 offset in the plain text
	ent   int // index of its entity in the result, reserved when the tag opens
}

// parseHTML parses text like Telegram does for parse_mode=HTML: it returns the plain text and its
// entities (UTF-16 offsets), or an error worded like Telegram's "can't parse entities: ..." detail.
func parseHTML(s string) (string, []models.MessageEntity, error) {
	var (
		b     strings.Builder
		u16   int
		stack []openTag
		ents  []models.MessageEntity
	)
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '<':
			end, name, attrs, closing, err := scanTag(s, i)
			if err != nil {
				return "", nil, err
			}
			if closing {
				if len(stack) == 0 {
					return "", nil, fmt.Errorf("Unexpected end tag at byte offset %d", i)
				}
				top := stack[len(stack)-1]
				if top.name != name {
					return "", nil, fmt.Errorf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", i, top.name, name)
				}
				stack = stack[:len(stack)-1]
				ents[top.ent].Offset, ents[top.ent].Length = top.start, u16-top.start
			} else {
				ent, err := tagEntity(name, attrs, i, stack)
				if err != nil {
					return "", nil, err
				}
				stack = append(stack, openTag{name: name, start: u16, ent: len(ents)})
				ents = append(ents, ent)
			}
			i = end
		case '&':
			r, n, err := scanEntity(s, i)
			if err != nil {
				return "", nil, err
			}
			b.WriteRune(r)
			u16 += utf16Len(r)
			i += n
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			u16 += utf16Len(r)
			i += n
		}
	}
	if len(stack) > 0 {
		return "", nil, fmt.Errorf("Can't find end tag corresponding to start tag \"%s\"", stack[len(stack)-1].name)
	}
	// Telegram drops empty entities; ties keep the order the tags opened in (outer first).
	ents = slices.DeleteFunc(ents, func(e models.MessageEntity) bool { return e.Length == 0 })
	sortEntities(ents)
	return b.String(), ents, nil
}

// scanTag reads the tag starting at s[i] == '<' and returns the index after its '>'.
func scanTag(s string, i int) (end int, name string, attrs map[string]string, closing bool, err error) {
	j := i + 1
	if j < len(s) && s[j] == '/' {
		closing = true
		j++
	}
	k := j
	for k < len(s) && (isAlnum(s[k]) || s[k] == '-') {
		k++
	}
	name = strings.ToLower(s[j:k])
	if name == "" {
		return 0, "", nil, false, fmt.Errorf("Unsupported start tag at byte offset %d", i)
	}
	if closing {
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != '>' {
			return 0, "", nil, false, fmt.Errorf("Can't find end of the end tag at byte offset %d", i)
		}
		return k + 1, name, nil, true, nil
	}
	if _, ok := htmlTags[name]; !ok {
		return 0, "", nil, false, fmt.Errorf("Unsupported start tag \"%s\" at byte offset %d", name, i)
	}
	attrs = map[string]string{}
	for {
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) {
			return 0, "", nil, false, fmt.Errorf("Unclosed start tag at byte offset %d", i)
		}
		if s[k] == '>' {
			return k + 1, name, attrs, false, nil
		}
		a := k
		for k < len(s) && (isAlnum(s[k]) || s[k] == '-' || s[k] == '_') {
			k++
		}
		if a == k {
			return 0, "", nil, false, fmt.Errorf("Expected equal sign in declaration of an attribute of the tag at byte offset %d", i)
		}
		an := strings.ToLower(s[a:k])
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != '=' {
			attrs[an] = "" // boolean attribute, e.g. <blockquote expandable>
			continue
		}
		k++
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k >= len(s) {
			return 0, "", nil, false, fmt.Errorf("Unclosed start tag at byte offset %d", i)
		}
		var raw string
		if q := s[k]; q == '"' || q == '\'' {
			e := strings.IndexByte(s[k+1:], q)
			if e < 0 {
				return 0, "", nil, false, fmt.Errorf("Unclosed start tag at byte offset %d", i)
			}
			raw = s[k+1 : k+1+e]
			k += e + 2
		} else {
			v := k
			for k < len(s) && !isSpace(s[k]) && s[k] != '>' {
				k++
			}
			raw = s[v:k]
		}
		val, err := unescape(raw, k)
		if err != nil {
			return 0, "", nil, false, err
		}
		attrs[an] = val
	}
}

// tagEntity checks a start tag's attributes and returns the entity it opens.
func tagEntity(name string, attrs map[string]string, at int, stack []openTag) (models.MessageEntity, error) {
	e := models.MessageEntity{Type: htmlTags[name]}
	switch name {
	case "a":
		href, ok := attrs["href"]
		if !ok || href == "" {
			return e, fmt.Errorf("Can't find href attribute of the a tag at byte offset %d", at)
		}
		if id, ok := strings.CutPrefix(href, "tg://user?id="); ok {
			uid, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				return e, fmt.Errorf("Wrong user identifier in a tag at byte offset %d", at)
			}
			e.Type = models.MessageEntityTypeTextMention
			e.User = &models.User{ID: uid}
		} else {
			e.URL = href
		}
	case "span":
		if attrs["class"] != "tg-spoiler" {
			return e, fmt.Errorf("Tag \"span\" must have class \"tg-spoiler\" at byte offset %d", at)
		}
	case "blockquote":
		if _, ok := attrs["expandable"]; ok {
			e.Type = models.MessageEntityTypeExpandableBlockquote
		}
	case "code":
		if len(stack) > 0 && stack[len(stack)-1].name == "pre" {
			if lang, ok := strings.CutPrefix(attrs["class"], "language-"); ok {
				e.Language = lang
			}
		}
	}
	return e, nil
}

// scanEntity decodes the character reference at s[i] == '&' and returns the rune and its length.
func scanEntity(s string, i int) (rune, int, error) {
	end := strings.IndexByte(s[i:], ';')
	if end < 0 || end > 12 {
		return 0, 0, fmt.Errorf("Character entity expected at byte offset %d: unescaped \"&\"", i)
	}
	name := s[i+1 : i+end]
	switch name {
	case "lt":
		return '<', end + 1, nil
	case "gt":
		return '>', end + 1, nil
	case "amp":
		return '&', end + 1, nil
	case "quot":
		return '"', end + 1, nil
	}
	if num, ok := strings.CutPrefix(name, "#"); ok && num != "" {
		base := 10
		if h, ok := strings.CutPrefix(num, "x"); ok {
			num, base = h, 16
		} else if h, ok := strings.CutPrefix(num, "X"); ok {
			num, base = h, 16
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err == nil && v > 0 && v <= utf8.MaxRune && !(v >= 0xD800 && v <= 0xDFFF) {
			return rune(v), end + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("Unsupported HTML entity \"&%s;\" at byte offset %d", name, i)
}

// unescape decodes character references inside an attribute value.
func unescape(raw string, at int) (string, error) {
	if !strings.Contains(raw, "&") {
		return raw, nil
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		if raw[i] != '&' {
			b.WriteByte(raw[i])
			i++
			continue
		}
		r, n, err := scanEntity(raw, i)
		if err != nil {
			return "", fmt.Errorf("bad attribute value near byte offset %d: %v", at, err)
		}
		b.WriteRune(r)
		i += n
	}
	return b.String(), nil
}

// sortEntities orders entities like Telegram: by offset; ties keep their order (outer first).
func sortEntities(es []models.MessageEntity) {
	sort.SliceStable(es, func(a, b int) bool {
		return es[a].Offset < es[b].Offset
	})
}

// commandEntities marks every /command (optionally /command@bot) that starts the text or follows
// whitespace as a bot_command entity, with UTF-16 offsets like Telegram.
func commandEntities(text string) []models.MessageEntity {
	var es []models.MessageEntity
	u16 := 0
	prevSpace := true
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == '/' && prevSpace {
			k := i + 1
			for k < len(text) && isWord(text[k]) {
				k++
			}
			if k > i+1 && k-i-1 <= 64 {
				if k < len(text) && text[k] == '@' {
					m := k + 1
					for m < len(text) && isWord(text[m]) {
						m++
					}
					if m > k+1 {
						k = m
					}
				}
				if k == len(text) || !isWordRune(text[k:]) {
					es = append(es, models.MessageEntity{Type: models.MessageEntityTypeBotCommand, Offset: u16, Length: k - i})
					u16 += k - i // ASCII only: bytes == UTF-16 units
					i = k
					prevSpace = false
					continue
				}
			}
		}
		prevSpace = r == ' ' || r == '\n' || r == '\t'
		u16 += utf16Len(r)
		i += n
	}
	return es
}

// UTF16Len returns the length of s in UTF-16 code units, the unit Telegram counts text limits
// and entity offsets in.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16Len(r)
	}
	return n
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWord(c byte) bool { return isAlnum(c) || c == '_' }

func isWordRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || r == '@' || r > 0x7f && r != utf8.RuneError && !isSpaceRune(r)
}

func isSpaceRune(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == 0xa0 }

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
