package bot

import (
	"strings"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"
)

// command is a parsed "/name@bot args" message.
type command struct {
	Name string // lower case, without the slash and the bot's username
	Args string // the rest of the text, trimmed
}

// parseCommand reads the bot command a message starts with. go-telegram/bot's MatchTypeCommand
// misses "/cmd@BotName" and slices UTF-16 entity offsets as bytes, hence this parser: it takes the
// bot_command entity at offset 0 (or, without entities, the leading "/word"), converts its UTF-16
// length to bytes, strips "@me" case-insensitively, and rejects a command addressed to another bot.
func parseCommand(text string, entities []models.MessageEntity, me string) (command, bool) {
	end := -1
	for _, e := range entities {
		if e.Type == models.MessageEntityTypeBotCommand && e.Offset == 0 {
			end = utf16ToByte(text, e.Length)
			break
		}
	}
	if end < 0 {
		if len(entities) > 0 || !strings.HasPrefix(text, "/") {
			return command{}, false
		}
		end = strings.IndexAny(text, " \t\n")
		if end < 0 {
			end = len(text)
		}
	}
	if end < 2 || text[0] != '/' {
		return command{}, false
	}
	name, to, addressed := strings.Cut(text[1:end], "@")
	if addressed && !strings.EqualFold(to, me) {
		return command{}, false
	}
	if name == "" || len(name) > 32 {
		return command{}, false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return command{}, false
		}
	}
	return command{Name: strings.ToLower(name), Args: strings.TrimSpace(text[end:])}, true
}

// utf16ToByte converts a count of UTF-16 code units from the start of s (how Telegram measures
// entities) into a byte index of s, clamped to len(s).
func utf16ToByte(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(s)
}
