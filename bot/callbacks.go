package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// onCallback routes a button press; every press is answered exactly once. A press that is
// forged, stale or not the presser's to make is answered and changes nothing: no state, no
// keyboard, no message.
func (b *Bot) onCallback(ctx context.Context, upd int64, q *models.CallbackQuery) error {
	switch {
	case strings.HasPrefix(q.Data, callback.PlayPrefix):
		return b.onPlay(ctx, upd, q)
	case strings.HasPrefix(q.Data, callback.PagePrefix):
		b.onPage(ctx, upd, q)
		return nil
	case strings.HasPrefix(q.Data, callback.LobbyPrefix):
		return b.onLobby(ctx, upd, q)
	case strings.HasPrefix(q.Data, callback.PickPrefix):
		return b.onPick(ctx, upd, q)
	case strings.HasPrefix(q.Data, callback.SettingsPrefix):
		return b.onSettings(ctx, upd, q)
	}
	b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "")
	return nil
}

// refuse answers a press that changes nothing. The update is first marked processed (in a
// batched commit), so its redelivery after a crash is not answered twice: Telegram refuses a
// second answer.
func (b *Bot) refuse(ctx context.Context, upd int64, q *models.CallbackQuery, text, url string) {
	first := false
	err := b.st.Batch(ctx, func(tx store.Tx) error {
		seen, err := tx.Seen(upd)
		if first = !seen && err == nil; !first {
			return err
		}
		return tx.MarkSeen(upd)
	})
	if err != nil {
		b.log.Warn().Int64("update", upd).Err(err).Msg("mark a refused press processed")
	} else {
		durable(ctx)
	}
	if first || err != nil {
		b.answer(ctx, q.ID, text, url, false)
	}
}

// pressLang is the language of the answer to a press on table id: the presser's seat's, else
// their own.
func (b *Bot) pressLang(ctx context.Context, id store.TableID, u *models.User) string {
	if m := b.mem(id); m != nil {
		if snap := m.current(); snap != nil {
			if s := snap.Rec.SeatOf(u.ID); s >= 0 {
				return b.render.SeatLang(snap.Rec.Seats[s])
			}
		}
	}
	return b.userLang(ctx, u)
}

// onPlay handles a game button. The order of design §5 — parse, table, seat, version — is checked
// in the move's transaction, and the engine's own sentinel errors say whether it is the seat's
// turn and the action legal; each failure has its own answer.
func (b *Bot) onPlay(ctx context.Context, upd int64, q *models.CallbackQuery) error {
	d, err := callback.ParsePlay(q.Data)
	if err != nil {
		b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "")
		return nil
	}
	lang := b.pressLang(ctx, d.Table, &q.From)
	snap, rows, err := b.act(ctx, upd, d.Table, d.Version, actor{user: q.From.ID}, d.Action)
	if err == nil {
		durable(ctx)
		b.answer(ctx, q.ID, b.render.Text(lang, "bot.cb.played", "Action", locales.Plain(b.loc.Action(lang, snap.Rec.Game, d.Action))), "", false)
		b.shown(snap, rows)
		return nil
	}
	if errors.Is(err, errDuplicate) {
		return nil // answered when it was first processed
	}
	r, known := refusalOf(err)
	if !known {
		b.answer(ctx, q.ID, b.render.Text(lang, string(r)), "", false)
		return err
	}
	if r != errNoTable && r != errNotPlayer {
		if back, err := b.comeBack(ctx, upd, d.Table, q.From.ID); err != nil || back {
			b.answer(ctx, q.ID, b.render.Text(lang, string(r)), "", false)
			return err
		}
	}
	b.refuse(ctx, upd, q, b.render.Text(lang, string(r)), "")
	return nil
}

// comeBack ends an away spell: "the agent plays until the player presses a button again". It
// changes no game state and not the Version, and reports whether it changed anything.
func (b *Bot) comeBack(ctx context.Context, upd int64, id store.TableID, user int64) (bool, error) {
	m := b.mem(id)
	if m == nil {
		return false, nil
	}
	if snap := m.current(); snap == nil || snap.Rec.SeatOf(user) < 0 || !snap.Rec.Seats[snap.Rec.SeatOf(user)].Away {
		return false, nil
	}
	snap, err := b.tableTx(ctx, upd, id, func(tx store.Tx, rec *store.Table) (*render.Snapshot, error) {
		s := rec.SeatOf(user)
		if s < 0 || !rec.Seats[s].Away || rec.Ending() {
			return nil, errUnchanged
		}
		rec.Seats[s].Away, rec.Seats[s].Timeouts = false, 0
		if limit := b.turnTimeout(*rec); rec.Deadline.IsZero() && limit > 0 {
			rec.Deadline = b.now().Add(limit) // their turn timer runs again
		}
		cur := m.current()
		return &render.Snapshot{Rec: *rec, State: cur.State, Events: cur.Events, Lang: cur.Lang}, nil
	})
	switch {
	case errors.Is(err, errUnchanged):
		return false, nil
	case errors.Is(err, errDuplicate):
		return true, nil
	case err != nil:
		return false, err
	}
	b.shown(snap, nil)
	return true, nil
}

// errUnchanged aborts a transaction that would write nothing.
var errUnchanged = errors.New("nothing to change")

// onPage turns the pages of a hand keyboard. It changes no game state and nothing in the store:
// after the checks of a game button (parse, table, player, version) it remembers the page and
// redraws the player's hand message.
func (b *Bot) onPage(ctx context.Context, upd int64, q *models.CallbackQuery) {
	d, err := callback.ParsePage(q.Data)
	if err != nil || q.Message.Message == nil || q.Message.Message.Chat.ID != q.From.ID {
		b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "") // hand keyboards live in DMs
		return
	}
	lang := b.pressLang(ctx, d.Table, &q.From)
	m := b.mem(d.Table)
	var snap *render.Snapshot
	if m != nil {
		snap = m.current()
	}
	if snap == nil || !snap.Rec.Started || snap.Rec.Ending() {
		b.refuse(ctx, upd, q, b.render.Text(lang, "bot.cb.notable"), "")
		return
	}
	s := snap.Rec.SeatOf(q.From.ID)
	switch {
	case s < 0:
		b.refuse(ctx, upd, q, b.render.Text(lang, "bot.cb.notplayer"), "")
	case snap.Rec.Version != d.Version:
		b.refuse(ctx, upd, q, b.render.Text(lang, "bot.cb.stale"), "")
	default:
		m.setPage(s, d.Version, d.Page)
		b.refuse(ctx, upd, q, "", "")
		b.syncHand(m, snap, s)
	}
}
