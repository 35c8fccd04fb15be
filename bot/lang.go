package bot

import (
	"context"
	"errors"
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
	lang := ""
	_ = b.st.View(ctx, func(tx store.Tx) error {
		lang = b.userLangTx(tx, u)
		return nil
	})
	return lang
}

// userLangTx is userLang inside a transaction.
func (b *Bot) userLangTx(tx store.Tx, u *models.User) string {
	if rec, err := tx.User(u.ID); err == nil && rec.Lang != "" {
		return rec.Lang
	}
	return b.loc.Match(u.LanguageCode)
}

// groupLangTx is the language of a group's messages: /lang in the group wins; otherwise the first
// user the bot hears from there decides, and that choice is stored (in tx) so messages the bot
// sends on its own (timeouts, results) use it too.
func (b *Bot) groupLangTx(tx store.Tx, chat int64, u *models.User) (string, error) {
	c, err := tx.Chat(chat)
	if err == nil && c.Lang != "" {
		return c.Lang, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	lang := b.loc.Match("")
	if u != nil {
		lang = b.loc.Match(u.LanguageCode)
	}
	c.ID, c.Lang = chat, lang
	return lang, tx.PutChat(c)
}

// chatLangTx is the stored language of a group, for messages not caused by anybody's update.
func (b *Bot) chatLangTx(tx store.Tx, chat int64) string {
	if c, err := tx.Chat(chat); err == nil && c.Lang != "" {
		return c.Lang
	}
	return b.loc.Match("")
}

// seatLang is the language of a seated player's DMs: their /lang, which the bot copies into
// every seat they hold, else their client's language when they sat down.
func (b *Bot) seatLang(p store.Player) string {
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
