package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/locales"
)

// button is an inline keyboard button. We pass our own markup type because the library's
// InlineKeyboardButton always serializes an empty copy_text object.
type button struct {
	Text string `json:"text"`
	Data string `json:"callback_data,omitempty"`
	URL  string `json:"url,omitempty"`
}

// markup is an inline keyboard; an empty one ({"inline_keyboard":[]}) removes the keyboard.
type markup struct {
	Rows [][]button `json:"inline_keyboard"`
}

// content is one message as the bot wants it to look: HTML text and its keyboard.
type content struct {
	Text    string     `json:"text"`
	Rows    [][]button `json:"rows,omitempty"`
	ReplyTo int        `json:"reply_to,omitempty"` // for a new message: the message it answers (not part of its hash)
}

// hash identifies what the message shows, so an edit that would change nothing is skipped, also
// after a restart (the hashes are kept with the table).
func (c content) hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(c.Text))
	for _, row := range c.Rows {
		h.Write([]byte{0})
		for _, b := range row {
			h.Write([]byte{1})
			h.Write([]byte(b.Text))
			h.Write([]byte{2})
			h.Write([]byte(b.Data))
			h.Write([]byte{3})
			h.Write([]byte(b.URL))
		}
	}
	return max(h.Sum64(), 1) // 0 means "unknown"
}

func (c content) markup() *markup {
	rows := c.Rows
	if rows == nil {
		rows = [][]button{}
	}
	return &markup{Rows: rows}
}

// send posts a new message (in a forum topic when topic is not 0) and returns its id.
func (b *Bot) send(ctx context.Context, chat int64, topic int, c content) (int, error) {
	p := &tg.SendMessageParams{
		ChatID:             chat,
		MessageThreadID:    topic,
		Text:               c.Text,
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tg.True()},
		ReplyMarkup:        c.markup(),
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
func (b *Bot) edit(ctx context.Context, chat int64, msg int, c content) error {
	_, err := b.api.EditMessageText(ctx, &tg.EditMessageTextParams{
		ChatID:             chat,
		MessageID:          msg,
		Text:               c.Text,
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tg.True()},
		ReplyMarkup:        c.markup(),
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
		ReplyMarkup: &markup{Rows: [][]button{}},
	})
	if err != nil && !notModified(err) && !messageGone(err) {
		return fmt.Errorf("editMessageReplyMarkup %d in %d: %w", msg, chat, err)
	}
	return nil
}

// answer answers a callback query; every press gets one (the client spins until then). It is not
// rate limited, so it goes out directly, with one retry for a transient failure.
func (b *Bot) answer(ctx context.Context, id, text, url string, alert bool) {
	p := &tg.AnswerCallbackQueryParams{CallbackQueryID: id, Text: truncateRunes(locales.Plain(text), 200), URL: url, ShowAlert: alert}
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
