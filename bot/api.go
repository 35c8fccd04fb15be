package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/locales"
)

// The hot calls — send, edit, delete, answer, a few for every move — go through call: one JSON
// body written at once and only the message id decoded. go-telegram/bot would build a multipart
// body through a pipe for each and decode a whole Message; its error values are kept, so the rest
// of the bot (the outbox's retries, a closed DM, a migrated group) treats both paths alike.

// sendParams is sendMessage's body.
type sendParams struct {
	ChatID      int64            `json:"chat_id"`
	Thread      int              `json:"message_thread_id,omitempty"`
	MessageID   int              `json:"message_id,omitempty"` // editMessageText
	Text        string           `json:"text"`
	ParseMode   models.ParseMode `json:"parse_mode"`
	Preview     previewOff       `json:"link_preview_options"`
	ReplyMarkup *render.Markup   `json:"reply_markup,omitempty"`
	Reply       *replyParameters `json:"reply_parameters,omitempty"`
}

type previewOff struct {
	IsDisabled bool `json:"is_disabled"`
}

type replyParameters struct {
	MessageID                int  `json:"message_id"`
	AllowSendingWithoutReply bool `json:"allow_sending_without_reply"`
}

// send posts a new message (in a forum topic when topic is not 0) and returns its id.
func (b *Bot) send(ctx context.Context, chat int64, topic int, c render.Content) (int, error) {
	p := sendParams{ChatID: chat, Thread: topic, Text: c.Text, ParseMode: models.ParseModeHTML,
		Preview: previewOff{true}, ReplyMarkup: c.Markup()}
	if c.ReplyTo != 0 {
		p.Reply = &replyParameters{MessageID: c.ReplyTo, AllowSendingWithoutReply: true}
	}
	var m struct {
		ID int `json:"message_id"`
	}
	if err := b.call(ctx, "sendMessage", p, &m); err != nil {
		return 0, fmt.Errorf("sendMessage to %d: %w", chat, err)
	}
	return m.ID, nil
}

// edit replaces a message's text and keyboard; "message is not modified" counts as success.
func (b *Bot) edit(ctx context.Context, chat int64, msg int, c render.Content) error {
	p := sendParams{ChatID: chat, MessageID: msg, Text: c.Text, ParseMode: models.ParseModeHTML,
		Preview: previewOff{true}, ReplyMarkup: c.Markup()}
	if err := b.call(ctx, "editMessageText", p, nil); err != nil && !notModified(err) {
		return fmt.Errorf("editMessageText %d in %d: %w", msg, chat, err)
	}
	return nil
}

// messageRef names one message: deleteMessage's body, and editMessageReplyMarkup's with a
// keyboard.
type messageRef struct {
	ChatID      int64          `json:"chat_id"`
	MessageID   int            `json:"message_id"`
	ReplyMarkup *render.Markup `json:"reply_markup,omitempty"`
}

// remove deletes an old message of the bot's (a superseded prompt); where Telegram no longer
// allows that (older than 48 hours), its keyboard is removed instead.
func (b *Bot) remove(ctx context.Context, chat int64, msg int) error {
	err := b.call(ctx, "deleteMessage", messageRef{ChatID: chat, MessageID: msg}, nil)
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
	err := b.call(ctx, "editMessageReplyMarkup", messageRef{ChatID: chat, MessageID: msg, ReplyMarkup: &render.Markup{Rows: [][]render.Button{}}}, nil)
	if err != nil && !notModified(err) && !messageGone(err) {
		return fmt.Errorf("editMessageReplyMarkup %d in %d: %w", msg, chat, err)
	}
	return nil
}

// answerParams is answerCallbackQuery's body.
type answerParams struct {
	ID        string `json:"callback_query_id"`
	Text      string `json:"text,omitempty"`
	URL       string `json:"url,omitempty"`
	ShowAlert bool   `json:"show_alert,omitempty"`
}

// answer answers a callback query; every press gets one (the client spins until then). It is not
// rate limited, so it goes out directly, with one retry for a transient failure.
func (b *Bot) answer(ctx context.Context, id, text, url string, alert bool) {
	p := answerParams{ID: id, Text: render.Truncate(locales.Plain(text), 200), URL: url, ShowAlert: alert}
	var err error
	for range 2 {
		if err = b.call(ctx, "answerCallbackQuery", p, nil); err == nil || errors.Is(err, tg.ErrorBadRequest) {
			break
		}
	}
	if err != nil {
		b.log.Warn().Str("err", b.clean(err)).Msg("answerCallbackQuery failed")
	}
}

var okPrefix = []byte(`{"ok":true,`)

// call makes one Bot API call with params as its JSON body and decodes the result into dest
// (nil: only success matters).
func (b *Bot) call(ctx context.Context, method string, params, dest any) error {
	buf, _ := b.bodies.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer b.bodies.Put(buf)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(params); err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	return b.post(ctx, method, "application/json", buf.Bytes(), dest)
}

// post makes one Bot API call with body (of the content type) and decodes the result into dest
// (nil: only success matters).
func (b *Bot) post(ctx context.Context, method, contentType string, body []byte, dest any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/bot"+b.cfg.Token+"/"+method, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %s", method, b.clean(err))
	}
	req.Header.Set("Content-Type", contentType)
	buf, _ := b.bodies.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer b.bodies.Put(buf)
	resp, err := b.httpc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %s", method, b.clean(err))
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, 16<<20)); err != nil {
		return fmt.Errorf("%s: read answer: %w", method, err)
	}
	// Telegram writes "ok" first: the usual success needs no decoding when its result is not
	// wanted (most calls are edits and answers, whose result is a whole message or a bool).
	if dest == nil && resp.StatusCode == http.StatusOK && bytes.HasPrefix(buf.Bytes(), okPrefix) {
		return nil
	}
	var r struct {
		OK          bool            `json:"ok"`
		Result      json.RawMessage `json:"result"`
		ErrorCode   int             `json:"error_code"`
		Description string          `json:"description"`
		Parameters  struct {
			RetryAfter      int   `json:"retry_after"`
			MigrateToChatID int64 `json:"migrate_to_chat_id"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		return fmt.Errorf("%s: decode answer (HTTP %d): %w", method, resp.StatusCode, err)
	}
	if !r.OK {
		return apiError(method, r.ErrorCode, r.Description, r.Parameters.RetryAfter, r.Parameters.MigrateToChatID)
	}
	if dest != nil {
		if err := json.Unmarshal(r.Result, dest); err != nil {
			return fmt.Errorf("%s: decode result: %w", method, err)
		}
	}
	return nil
}

// apiError is the error go-telegram/bot returns for the same answer.
func apiError(method string, code int, desc string, retryAfter int, migrateTo int64) error {
	switch code {
	case http.StatusForbidden:
		return fmt.Errorf("%w, %s", tg.ErrorForbidden, desc)
	case http.StatusBadRequest:
		if migrateTo != 0 {
			return &tg.MigrateError{Message: tg.ErrorBadRequest.Error() + ": " + desc, MigrateToChatID: int(migrateTo)}
		}
		return fmt.Errorf("%w, %s", tg.ErrorBadRequest, desc)
	case http.StatusUnauthorized:
		return fmt.Errorf("%w, %s", tg.ErrorUnauthorized, desc)
	case http.StatusNotFound:
		return fmt.Errorf("%w, %s", tg.ErrorNotFound, desc)
	case http.StatusConflict:
		return fmt.Errorf("%w, %s", tg.ErrorConflict, desc)
	case http.StatusTooManyRequests:
		return &tg.TooManyRequestsError{Message: tg.ErrorTooManyRequests.Error() + ", " + desc, RetryAfter: retryAfter}
	}
	return fmt.Errorf("error response from telegram for method %s, %d %s", method, code, desc)
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
