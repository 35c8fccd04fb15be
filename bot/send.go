package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/outbox"
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
	Text    string
	Rows    [][]button
	ReplyTo int // for a new message: the message it answers (not part of what an edit compares)
}

// key identifies the content, so an edit that would change nothing is skipped.
func (c content) key() string {
	rows, _ := json.Marshal(c.Rows)
	return c.Text + "\x00" + string(rows)
}

func (c content) markup() *markup {
	rows := c.Rows
	if rows == nil {
		rows = [][]button{}
	}
	return &markup{Rows: rows}
}

// send posts a new message and returns its id.
func (b *Bot) send(ctx context.Context, chat int64, c content) (int, error) {
	p := &tg.SendMessageParams{
		ChatID:             chat,
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
	b.memo.sent(chat, m.ID, c)
	return m.ID, nil
}

// edit replaces a message's text and keyboard; "message is not modified" counts as success.
func (b *Bot) edit(ctx context.Context, chat int64, msg int, c content) error {
	if b.memo.same(chat, msg, c) {
		return nil
	}
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
	b.memo.sent(chat, msg, c)
	return nil
}

// stripKeyboard removes the buttons of an old message and leaves its text.
func (b *Bot) stripKeyboard(ctx context.Context, chat int64, msg int) error {
	_, err := b.api.EditMessageReplyMarkup(ctx, &tg.EditMessageReplyMarkupParams{
		ChatID:      chat,
		MessageID:   msg,
		ReplyMarkup: &markup{Rows: [][]button{}},
	})
	b.memo.forget(chat, msg)
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

// post queues a new message in chat (a reply, a deal result). done, if set, gets the id.
func (b *Bot) post(chat int64, c content, done func(msgID int)) {
	b.out.Submit(outbox.Job{
		Chat: chat,
		Call: func(ctx context.Context) error {
			id, err := b.send(ctx, chat, c)
			if err == nil && done != nil {
				done(id)
			}
			return err
		},
		Done: func(err error) { b.sendFailed(chat, err) },
	})
}

// change queues an edit of a message with fixed content, coalesced with earlier pending edits of it.
func (b *Bot) change(chat int64, msg int, c content) {
	if msg == 0 {
		return
	}
	b.out.Submit(outbox.Job{
		Chat:     chat,
		Coalesce: editKey(chat, msg),
		Call:     func(ctx context.Context) error { return b.edit(ctx, chat, msg, c) },
		Done:     func(err error) { b.sendFailed(chat, err) },
	})
}

func editKey(chat int64, msg int) string { return fmt.Sprintf("edit:%d:%d", chat, msg) }

// sendFailed reacts to the final failure of a queued call: a group that became a supergroup moves
// its table; anything else is logged (the next render comes from the record anyway).
func (b *Bot) sendFailed(chat int64, err error) {
	if err == nil {
		return
	}
	var mig *tg.MigrateError
	if errors.As(err, &mig) {
		b.serial.Do(chat, func() { b.migrate(b.work, chat, int64(mig.MigrateToChatID)) })
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
