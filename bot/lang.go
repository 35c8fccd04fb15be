package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/render"
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

// userName is how a Telegram user is shown: first and last name as they chose them.
func userName(u *models.User) string {
	n := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if n == "" {
		n = u.Username
	}
	if n == "" {
		n = "?"
	}
	return render.Truncate(n, 64)
}
