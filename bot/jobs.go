package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	tg "github.com/go-telegram/bot"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// errGone means the table a queued render was for no longer exists (cancelled, replaced).
var errGone = errors.New("table gone")

// loadTable reads the committed record of the table created at created — open, or archived once
// finished — and its state. Renders happen from it, never from memory.
func (b *Bot) loadTable(ctx context.Context, chat int64, created time.Time) (store.Table, games.State, error) {
	t, err := b.st.Table(ctx, chat)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !t.Created.Equal(created)) {
		t, err = b.st.LastFinished(ctx, chat)
		if errors.Is(err, store.ErrNotFound) {
			return store.Table{}, nil, errGone
		}
	}
	if err != nil {
		return store.Table{}, nil, fmt.Errorf("load table %d: %w", chat, err)
	}
	if !t.Created.Equal(created) {
		return store.Table{}, nil, errGone
	}
	if !t.Started {
		return t, nil, nil
	}
	st, err := b.state(t)
	return t, st, err
}

// state unmarshals a started table's game state.
func (b *Bot) state(t store.Table) (games.State, error) {
	r, ok := b.rules[t.Game]
	if !ok {
		return nil, fmt.Errorf("table %d: unknown game %q", t.Chat, t.Game)
	}
	st, err := r.Unmarshal(t.State)
	if err != nil {
		return nil, fmt.Errorf("table %d: unmarshal %s v%d: %w", t.Chat, t.Game, t.Version, err)
	}
	return st, nil
}

// renderAll queues a render of the table's group message and of every player's hand.
func (b *Bot) renderAll(t store.Table) {
	b.tableLater(t)
	if !t.Started {
		return
	}
	for i, p := range t.Seats {
		if !p.AI && p.UserID != 0 {
			b.syncHandLater(t, games.Seat(i))
		}
	}
}

// tableLater queues a render of the group message (lobby, table or result). The job renders the
// record as committed when it runs, so a coalesced burst of moves costs one edit.
func (b *Bot) tableLater(t store.Table) {
	chat, created := t.Chat, t.Created
	var more bool
	b.out.Submit(outbox.Job{
		Chat:     chat,
		Coalesce: "table:" + strconv.FormatInt(chat, 10),
		Call: func(ctx context.Context) error {
			var err error
			more, err = b.syncTable(ctx, chat, created)
			return err
		},
		Done: func(err error) {
			b.sendFailed(chat, err)
			if more && err == nil {
				if t, err := b.st.Table(b.work, chat); err == nil {
					b.tableLater(t)
				}
			}
		},
	})
}

// syncTable makes the group message show the committed record with one API call: a send when
// the message does not exist yet (its id is stored), else an edit.
func (b *Bot) syncTable(ctx context.Context, chat int64, created time.Time) (more bool, err error) {
	t, st, err := b.loadTable(ctx, chat, created)
	if errors.Is(err, errGone) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	lang := b.chatLang(ctx, chat)
	c := b.groupContent(t, st, lang)
	msg := t.LobbyMsg
	if t.Started {
		msg = t.TableMsg
	}
	if msg == 0 {
		id, err := b.send(ctx, chat, c)
		if err != nil {
			return false, err
		}
		return false, b.setGroupMsg(ctx, chat, created, 0, id)
	}
	err = b.edit(ctx, chat, msg, c)
	if messageGone(err) {
		// Someone deleted it: post a new one.
		return true, b.setGroupMsg(ctx, chat, created, msg, 0)
	}
	return false, err
}

// setGroupMsg stores the id of the table's group message (lobby and table share it), replacing
// old; a change that changes no game state and not the Version.
func (b *Bot) setGroupMsg(ctx context.Context, chat int64, created time.Time, old, id int) error {
	err := b.st.UpdateTable(ctx, chat, func(t *store.Table, ok bool) error {
		if !ok || !t.Created.Equal(created) {
			return errGone
		}
		if t.Started {
			if t.TableMsg != old {
				return errUnchanged
			}
			t.TableMsg = id
		} else {
			if t.LobbyMsg != old {
				return errUnchanged
			}
			t.LobbyMsg = id
		}
		return nil
	})
	if errors.Is(err, errGone) || errors.Is(err, errUnchanged) {
		return nil
	}
	return err
}

// syncHandLater queues a render of one player's hand message.
func (b *Bot) syncHandLater(t store.Table, seat games.Seat) {
	b.handLater(t.Chat, t.Created, t.Seats[seat].UserID)
}

func (b *Bot) handLater(chat int64, created time.Time, user int64) {
	var more bool
	b.out.Submit(outbox.Job{
		Chat:     user,
		Coalesce: handKey(chat, user),
		Call: func(ctx context.Context) error {
			var err error
			more, err = b.syncHand(ctx, chat, created, user)
			return err
		},
		Done: func(err error) {
			if err != nil {
				b.handFailed(chat, created, user, err)
				return
			}
			if more {
				b.handLater(chat, created, user)
			}
		},
	})
}

func handKey(chat, user int64) string { return fmt.Sprintf("hand:%d:%d", chat, user) }

// syncHand moves a player's DM toward the committed record with one API call per run, and says
// whether another run is needed:
//   - their turn began after their hand message was sent (or /hand asked): a fresh message, so
//     Telegram notifies them; the old one is queued for keyboard removal;
//   - an old message still has buttons: remove them;
//   - otherwise edit the hand message in place (skipped when it would not change).
func (b *Bot) syncHand(ctx context.Context, chat int64, created time.Time, user int64) (more bool, err error) {
	t, st, err := b.loadTable(ctx, chat, created)
	if errors.Is(err, errGone) {
		// The table was closed; old keyboards still go.
		if old, ok := b.memo.popStrip(user); ok {
			return b.memo.hasStrip(user), b.stripKeyboard(ctx, user, old)
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	seat := seatOf(t, user)
	if seat < 0 || !t.Started {
		return false, nil
	}
	p := t.Seats[seat]
	p.HandMsg = b.memo.hand(chat, user, p.HandMsg)
	c, toAct := b.handContent(t, st, seat, b.seatLang(ctx, p))
	turn := extraInt(t, turnKey(seat))
	fresh := b.memo.takeFresh(chat, user)
	if p.HandMsg == 0 || fresh || (toAct && extraInt(t, sentKey(seat)) < turn) {
		id, err := b.send(ctx, user, c)
		if err != nil {
			if fresh {
				b.memo.setFresh(chat, user)
			}
			return false, err
		}
		b.memo.setHand(chat, user, id)
		err = b.st.UpdateTable(ctx, chat, func(t *store.Table, ok bool) error {
			s := seatOf(*t, user)
			if !ok || !t.Created.Equal(created) || s < 0 {
				return errGone
			}
			t.Seats[s].HandMsg = id
			if t.Extra == nil {
				t.Extra = map[string]string{}
			}
			t.Extra[sentKey(s)] = strconv.Itoa(turn)
			return nil
		})
		if err != nil && !errors.Is(err, errGone) {
			return false, fmt.Errorf("store hand message: %w", err)
		}
		if p.HandMsg != 0 && !b.memo.noButtons(user, p.HandMsg) {
			b.memo.addStrip(user, p.HandMsg)
			return true, nil
		}
		return false, nil
	}
	if old, ok := b.memo.popStrip(user); ok {
		if err := b.stripKeyboard(ctx, user, old); err != nil {
			return false, err
		}
		return b.memo.hasStrip(user) || !b.memo.same(user, p.HandMsg, c), nil
	}
	err = b.edit(ctx, user, p.HandMsg, c)
	if messageGone(err) {
		// The player deleted it: forget it, so the next run sends a new one.
		uerr := b.st.UpdateTable(ctx, chat, func(t *store.Table, ok bool) error {
			s := seatOf(*t, user)
			if !ok || !t.Created.Equal(created) || s < 0 || t.Seats[s].HandMsg != p.HandMsg {
				return errUnchanged
			}
			t.Seats[s].HandMsg = 0
			return nil
		})
		if uerr != nil && !errors.Is(uerr, errUnchanged) {
			return false, fmt.Errorf("forget hand message: %w", uerr)
		}
		return true, nil
	}
	return false, err
}

// handFailed handles a DM that could not be delivered. 403 means the user never opened the bot
// or blocked it: the group gets a deep link that brings them back (once per table).
func (b *Bot) handFailed(chat int64, created time.Time, user int64, err error) {
	if !errors.Is(err, tg.ErrorForbidden) {
		b.sendFailed(user, err)
		return
	}
	ctx := b.work
	if uerr := b.st.UpdateUser(ctx, user, func(u *store.User) error { u.ID = user; u.DMOpen = false; return nil }); uerr != nil {
		b.log.Warn().Err(uerr).Msg("mark DM closed")
	}
	if !b.memo.warnOnce(chat, user) {
		return
	}
	t, _, lerr := b.loadTable(ctx, chat, created)
	if lerr != nil {
		return
	}
	s := seatOf(t, user)
	if s < 0 {
		return
	}
	lang := b.chatLang(ctx, chat)
	b.post(chat, b.deepLink(lang, "bot.dm.closed", chat, b.seatName(t, lang, s)), nil)
}

// stripLater queues the removal of an old message's keyboard.
func (b *Bot) stripLater(chat int64, msg int) {
	b.out.Submit(outbox.Job{
		Chat:     chat,
		Coalesce: editKey(chat, msg),
		Call:     func(ctx context.Context) error { return b.stripKeyboard(ctx, chat, msg) },
		Done:     func(err error) { b.sendFailed(chat, err) },
	})
}

// postEvents posts deal and match results: one new group message for the public ones of an
// action, one DM for a player's private ones.
func (b *Bot) postEvents(ctx context.Context, t store.Table, st games.State, evs []games.Event) {
	var public []games.Event
	private := map[games.Seat][]games.Event{}
	for _, e := range evs {
		if e.Kind != games.EventDealEnd && e.Kind != games.EventMatchEnd {
			continue
		}
		if e.To == games.Nobody {
			public = append(public, e)
		} else {
			private[e.To] = append(private[e.To], e)
		}
	}
	if len(public) > 0 {
		lang := b.chatLang(ctx, t.Chat)
		b.post(t.Chat, content{Text: b.eventsText(t, st, lang, public)}, nil)
	}
	for s, list := range private {
		if int(s) >= len(t.Seats) || t.Seats[s].AI {
			continue
		}
		p := t.Seats[s]
		b.post(p.UserID, content{Text: b.eventsText(t, st, b.seatLang(ctx, p), list)}, nil)
	}
}
