package bot

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-telegram/bot/models"
)

// wireUpdate is an update as the bot decodes it: models.Update's fields the handlers read, with
// a callback's message reduced to where it is (wireCallbackMessage).
type wireUpdate struct {
	ID            int64                     `json:"update_id"`
	Message       *models.Message           `json:"message"`
	CallbackQuery *wireCallback             `json:"callback_query"`
	MyChatMember  *models.ChatMemberUpdated `json:"my_chat_member"`
}

type wireCallback struct {
	ID              string               `json:"id"`
	From            models.User          `json:"from"`
	Message         *wireCallbackMessage `json:"message"`
	InlineMessageID string               `json:"inline_message_id"`
	ChatInstance    string               `json:"chat_instance"`
	Data            string               `json:"data"`
	GameShortName   string               `json:"game_short_name"`
}

// wireCallbackMessage is what the handlers read of a pressed message: its chat, topic, id and
// date (0 for a message Telegram no longer shows the bot). Its text and keyboard are the bot's own
// drawing, which it never reads back; a hand's keyboard makes up most of a press's JSON, and
// go-telegram's MaybeInaccessibleMessage decodes the message twice over.
type wireCallbackMessage struct {
	ID              int         `json:"message_id"`
	Date            int         `json:"date"`
	Chat            models.Chat `json:"chat"`
	MessageThreadID int         `json:"message_thread_id"`
	IsTopicMessage  bool        `json:"is_topic_message"`
}

// errUnreadable marks an update that is one JSON object with an id but whose content the bot
// cannot read. decodeUpdate returns it with an empty update of that id, which the bot settles
// without effect (as it does an update whose handler panicked): Telegram would hand it back in
// every answer and at every webhook retry, and it would hold back every update after it.
var errUnreadable = errors.New("unreadable update")

// readUpdate is decodeUpdate for an update Telegram delivers: one it cannot read (errUnreadable)
// is logged and comes back empty, to be settled without effect; the error is only for a body
// that is no update.
func (b *Bot) readUpdate(raw []byte) (*models.Update, error) {
	u, err := decodeUpdate(raw)
	if errors.Is(err, errUnreadable) {
		b.log.Error().Int64("update", u.ID).Err(err).Msg("an update cannot be read; dropped")
		return u, nil
	}
	return u, err
}

// decodeUpdate reads one update (from getUpdates, a webhook or the store's kept updates) into the
// models.Update the handlers take. It rejects anything but one JSON object, and an update without
// its id; for one it cannot read otherwise, see errUnreadable.
func decodeUpdate(raw []byte) (*models.Update, error) {
	var w wireUpdate
	if err := json.Unmarshal(raw, &w); err != nil {
		var id struct {
			ID int64 `json:"update_id"`
		}
		if json.Valid(raw) && json.Unmarshal(raw, &id) == nil && id.ID > 0 {
			return &models.Update{ID: id.ID}, fmt.Errorf("decode update %d: %w: %w", id.ID, errUnreadable, err)
		}
		return nil, fmt.Errorf("decode update: %w", err)
	}
	if w.ID <= 0 {
		return nil, fmt.Errorf("decode update: no update_id")
	}
	u := &models.Update{ID: w.ID, Message: w.Message, MyChatMember: w.MyChatMember}
	if q := w.CallbackQuery; q != nil {
		u.CallbackQuery = &models.CallbackQuery{ID: q.ID, From: q.From, InlineMessageID: q.InlineMessageID,
			ChatInstance: q.ChatInstance, Data: q.Data, GameShortName: q.GameShortName}
		switch m := q.Message; {
		case m == nil:
		case m.Date == 0:
			u.CallbackQuery.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeInaccessibleMessage,
				InaccessibleMessage: &models.InaccessibleMessage{Chat: m.Chat, MessageID: m.ID}}
		default:
			u.CallbackQuery.Message = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
				Message: &models.Message{ID: m.ID, Date: m.Date, Chat: m.Chat, MessageThreadID: m.MessageThreadID, IsTopicMessage: m.IsTopicMessage}}
		}
	}
	return u, nil
}
