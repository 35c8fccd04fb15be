package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// maxData is Telegram's limit on callback_data, in bytes.
const maxData = 64

// playData is the callback data of a game button, "v1|<chat>|<version>|<action>" (design §5): the
// table, the record version the button was drawn for, and the action.
type playData struct {
	Chat    int64
	Version int
	Action  games.Action
}

func (d playData) String() string {
	return fmt.Sprintf("v1|%d|%d|%s", d.Chat, d.Version, d.Action)
}

// errForged is returned for callback data the bot could not have written.
var errForged = errors.New("forged callback data")

// parsePlayData accepts exactly what playData.String writes.
func parsePlayData(s string) (playData, error) {
	parts := strings.Split(s, "|")
	if len(s) > maxData || len(parts) != 4 || parts[0] != "v1" {
		return playData{}, errForged
	}
	chat, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || chat == 0 || strconv.FormatInt(chat, 10) != parts[1] {
		return playData{}, errForged
	}
	v, err := strconv.Atoi(parts[2])
	if err != nil || v < 0 || strconv.Itoa(v) != parts[2] {
		return playData{}, errForged
	}
	a, err := games.ParseAction(parts[3])
	if err != nil {
		return playData{}, errForged
	}
	return playData{Chat: chat, Version: v, Action: a}, nil
}

// onCallback routes a button press; every press is answered exactly once.
func (b *Bot) onCallback(ctx context.Context, q *models.CallbackQuery) {
	switch {
	case strings.HasPrefix(q.Data, "v1|"):
		b.onPlay(ctx, q)
	case strings.HasPrefix(q.Data, pagePrefix):
		b.onPage(ctx, q)
	case strings.HasPrefix(q.Data, lobbyPrefix):
		b.onLobby(ctx, q)
	case strings.HasPrefix(q.Data, pickPrefix):
		b.onPick(ctx, q)
	default:
		b.answer(ctx, q.ID, b.text(b.userLang(ctx, &q.From), "bot.cb.forged"), "", false)
	}
}

// onPlay checks a game button in the order of design §5 — parse, table, version, seat, turn,
// legality — each failure with its own answer and no change, then applies the action.
func (b *Bot) onPlay(ctx context.Context, q *models.CallbackQuery) {
	lang := b.userLang(ctx, &q.From)
	d, err := parsePlayData(q.Data)
	if err != nil {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.forged"), "", false)
		return
	}
	res, err := b.act(ctx, d.Chat, d.Version, actor{user: q.From.ID}, d.Action)
	if err == nil {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.played", "Action", locales.Plain(b.loc.Action(lang, res.t.Game, d.Action))), "", false)
		b.afterAct(ctx, res)
		return
	}
	id := "bot.cb.error"
	switch {
	case errors.Is(err, errNoTable):
		id = "bot.cb.notable"
		b.stripPressed(q)
	case errors.Is(err, store.ErrConflict):
		id = "bot.cb.stale"
		b.refreshPressed(ctx, q, d.Chat)
	case errors.Is(err, errNotPlayer):
		id = "bot.cb.notplayer"
	case errors.Is(err, games.ErrNotYourTurn):
		id = "bot.cb.notturn"
	case errors.Is(err, games.ErrIllegal):
		id = "bot.cb.illegal"
	default:
		b.log.Error().Int64("chat", d.Chat).Err(err).Msg("apply a pressed action")
	}
	b.answer(ctx, q.ID, b.text(lang, id), "", false)
	if !errors.Is(err, errNotPlayer) && !errors.Is(err, errNoTable) {
		b.comeBack(ctx, d.Chat, q.From.ID)
	}
}

// comeBack ends an away spell: "the agent plays until the player presses a button again". It
// changes no game state and not the Version.
func (b *Bot) comeBack(ctx context.Context, chat, user int64) {
	changed := false
	err := b.st.UpdateTable(ctx, chat, func(t *store.Table, ok bool) error {
		if !ok {
			return errNoTable
		}
		s := seatOf(*t, user)
		if s < 0 || !t.Seats[s].Away {
			return errUnchanged
		}
		t.Seats[s].Away, t.Seats[s].Timeouts = false, 0
		if t.Deadline.IsZero() && b.cfg.TurnTimeout > 0 {
			t.Deadline = b.now().Add(b.cfg.TurnTimeout) // their turn timer runs again
		}
		changed = true
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) && !errors.Is(err, errNoTable) {
		b.log.Warn().Int64("chat", chat).Err(err).Msg("clear away")
	}
	if changed {
		if t, err := b.st.Table(ctx, chat); err == nil {
			b.renderAll(t)
			b.reschedule(t)
		}
	}
}

// refreshPressed brings an outdated message up to date: the player's current hand message is
// re-rendered, any older one loses its keyboard.
func (b *Bot) refreshPressed(ctx context.Context, q *models.CallbackQuery, chat int64) {
	m := q.Message.Message
	if m == nil {
		return
	}
	t, err := b.st.Table(ctx, chat)
	if err != nil {
		return
	}
	if s := seatOf(t, q.From.ID); s >= 0 && b.memo.hand(chat, q.From.ID, t.Seats[s].HandMsg) == m.ID && m.Chat.ID == q.From.ID {
		b.memo.forget(m.Chat.ID, m.ID)
		b.syncHandLater(t, s)
		return
	}
	b.stripPressed(q)
}

// stripPressed removes the keyboard of a pressed message that should have none any more (its
// table is gone, or it is an older hand message).
func (b *Bot) stripPressed(q *models.CallbackQuery) {
	if m := q.Message.Message; hasKeyboard(m) {
		b.stripLater(m.Chat.ID, m.ID)
	}
}

// hasKeyboard reports whether a message carries inline buttons (so it is one of ours to edit).
func hasKeyboard(m *models.Message) bool {
	return m != nil && m.ReplyMarkup != nil && len(m.ReplyMarkup.InlineKeyboard) > 0
}
