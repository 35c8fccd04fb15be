package bot

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// userLang is the language of a user's DMs and callback answers: /lang in a DM wins, then the
// Telegram client's language_code.
func (b *Bot) userLang(ctx context.Context, u *models.User) string {
	if rec, err := b.st.User(ctx, u.ID); err == nil && rec.Lang != "" {
		return rec.Lang
	}
	return b.loc.Match(u.LanguageCode)
}

// groupLang is the language of a group's messages: /lang in the group wins; otherwise the first
// user the bot hears from there decides, and that choice is stored so messages the bot sends on
// its own (timeouts, results) use it too.
func (b *Bot) groupLang(ctx context.Context, chat int64, u *models.User) string {
	if c, err := b.st.Chat(ctx, chat); err == nil && c.Lang != "" {
		return c.Lang
	}
	lang := b.loc.Match("")
	if u != nil {
		lang = b.loc.Match(u.LanguageCode)
	}
	err := b.st.UpdateChat(ctx, chat, func(c *store.Chat) error {
		c.ID = chat
		if c.Lang == "" {
			c.Lang = lang
		}
		lang = c.Lang
		return nil
	})
	if err != nil {
		b.log.Warn().Int64("chat", chat).Err(err).Msg("store chat language")
	}
	return lang
}

// chatLang is the stored language of a group, for messages not caused by anybody's update.
func (b *Bot) chatLang(ctx context.Context, chat int64) string {
	if c, err := b.st.Chat(ctx, chat); err == nil && c.Lang != "" {
		return c.Lang
	}
	return b.loc.Match("")
}

// seatLang is the language of a seated player's DMs.
func (b *Bot) seatLang(ctx context.Context, p store.Player) string {
	if p.UserID != 0 {
		if rec, err := b.st.User(ctx, p.UserID); err == nil && rec.Lang != "" {
			return rec.Lang
		}
	}
	if p.Lang != "" {
		return p.Lang
	}
	return b.loc.Match("")
}

// text is a UI string of the bot (HTML).
func (b *Bot) text(lang, id string, kv ...any) string { return b.loc.Text(lang, id, kv...) }

// gameName is a game's display name (HTML).
func (b *Bot) gameName(lang, game string) string { return b.loc.Text(lang, game+".name") }

// namer returns the names of a table's seats as people chose them (not escaped: locales escapes
// names when it renders a Seat argument).
func (b *Bot) namer(t store.Table, lang string) func(games.Seat) string {
	return func(s games.Seat) string { return b.seatName(t, lang, s) }
}

func (b *Bot) seatName(t store.Table, lang string, s games.Seat) string {
	if s < 0 || int(s) >= len(t.Seats) {
		return "?"
	}
	p := t.Seats[s]
	if p.AI {
		n := 0
		for _, q := range t.Seats[:s+1] {
			if q.AI {
				n++
			}
		}
		return locales.Plain(b.text(lang, "bot.ai.name", "N", n))
	}
	if p.Name == "" {
		return "?"
	}
	return p.Name
}

// userName is how a Telegram user is shown: first and last name as they chose them.
func userName(u *models.User) string {
	n := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if n == "" {
		n = u.Username
	}
	if n == "" {
		n = "?"
	}
	return truncateRunes(n, 64)
}

// truncateRunes cuts s to at most n runes, marking the cut with an ellipsis.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
