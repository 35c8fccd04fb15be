package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/locales"
)

// send posts a new message (in a forum topic when topic is not 0) and returns its id.
func (b *Bot) send(ctx context.Context, chat int64, topic int, c render.Content) (int, error) {
	p := &tg.SendMessageParams{
		ChatID:             chat,
		MessageThreadID:    topic,
		Text:               c.Text,
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tg.True()},
		ReplyMarkup:        c.Markup(),
	}
	if c.ReplyTo != 0 {
		p.ReplyParameters = &models.ReplyParameters{MessageID: c.ReplyTo, AllowSendingWithoutReply: true}
	}
	m, err := b.api.SendMessage(ctx, p)
	if err != nil {
		return 0, fmt.Errorf("sendMessage to %d: %w", chat, err)
	}
	return m.ID, nil
}

// edit replaces a message's text and keyboard; "message is not modified" counts as success.
func (b *Bot) edit(ctx context.Context, chat int64, msg int, c render.Content) error {
	_, err := b.api.EditMessageText(ctx, &tg.EditMessageTextParams{
		ChatID:             chat,
		MessageID:          msg,
		Text:               c.Text,
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tg.True()},
		ReplyMarkup:        c.Markup(),
	})
	if err != nil && !notModified(err) {
		return fmt.Errorf("editMessageText %d in %d: %w", msg, chat, err)
	}
	return nil
}

// remove deletes an old message of the bot's (a superseded prompt); where Telegram no longer
// allows that (older than 48 hours), its keyboard is removed instead.
func (b *Bot) remove(ctx context.Context, chat int64, msg int) error {
	_, err := b.api.DeleteMessage(ctx, &tg.DeleteMessageParams{ChatID: chat, MessageID: msg})
	if err == nil || messageGone(err) {
		return nil
	}
	if errors.Is(err, tg.ErrorBadRequest) {
		return b.stripKeyboard(ctx, chat, msg)
	}
	return fmt.Errorf("deleteMessage %d in %d: %w", msg, chat, err)
}

// stripKeyboard removes the buttons of an old message and leaves its text.
func (b *Bot) stripKeyboard(ctx context.Context, chat int64, msg int) error {
	_, err := b.api.EditMessageReplyMarkup(ctx, &tg.EditMessageReplyMarkupParams{
		ChatID:      chat,
		MessageID:   msg,
		ReplyMarkup: &render.Markup{Rows: [][]render.Button{}},
	})
	if err != nil && !notModified(err) && !messageGone(err) {
		return fmt.Errorf("editMessageReplyMarkup %d in %d: %w", msg, chat, err)
	}
	return nil
}

// answer answers a callback query; every press gets one (the client spins until then). It is not
// rate limited, so it goes out directly, with one retry for a transient failure.
func (b *Bot) answer(ctx context.Context, id, text, url string, alert bool) {
	p := &tg.AnswerCallbackQueryParams{CallbackQueryID: id, Text: render.Truncate(locales.Plain(text), 200), URL: url, ShowAlert: alert}
	var err error
	for range 2 {
		if _, err = b.api.AnswerCallbackQuery(ctx, p); err == nil || errors.Is(err, tg.ErrorBadRequest) {
			break
		}
	}
	if err != nil {
		b.log.Warn().Str("err", b.clean(err)).Msg("answerCallbackQuery failed")
	}
}

// sendFailed reacts to the final failure of a queued call: a group that became a supergroup moves
// its table; anything else is logged (the next render comes from the record anyway).
func (b *Bot) sendFailed(chat int64, err error) {
	if err == nil {
		return
	}
	var mig *tg.MigrateError
	if errors.As(err, &mig) {
		b.queue.Do(queueKey{chat: chat}, func() { b.migrate(b.work, 0, chat, int64(mig.MigrateToChatID)) })
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	b.log.Warn().Int64("chat", chat).Str("err", b.clean(err)).Msg("message not delivered")
}

func notModified(err error) bool {
	return err != nil && strings.Contains(err.Error(), "message is not modified")
}

func messageGone(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "message to edit not found") ||
		strings.Contains(err.Error(), "message to delete not found") ||
		strings.Contains(err.Error(), "message can't be edited"))
}

// clean is an error's text with the token masked: the library's errors may quote a request URL.
func (b *Bot) clean(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if b.cfg.Token != "" {
		s = strings.ReplaceAll(s, b.cfg.Token, "***")
	}
	return s
}
