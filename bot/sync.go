package bot

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	tg "github.com/go-telegram/bot"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// submit queues a job of table m's, counting it so an ended table is dropped once its last
// messages are out.
func (b *Bot) submit(m *tableMem, j outbox.Job) {
	m.mu.Lock()
	m.jobs++
	m.mu.Unlock()
	done := j.Done
	j.Done = func(err error) {
		if done != nil {
			done(err)
		}
		m.mu.Lock()
		m.jobs--
		last := m.jobs == 0 && m.snap != nil && m.snap.Rec.Ending()
		m.mu.Unlock()
		if last {
			b.queue.Do(queueKey{chat: m.place.Chat, topic: m.place.Topic}, func() { b.drop(m) })
		}
	}
	b.out.Submit(j)
}

// drop deletes an ended table whose last messages are out: its record, state and log go (the
// archive keeps a finished match).
func (b *Bot) drop(m *tableMem) {
	m.mu.Lock()
	busy := m.jobs > 0
	drops := m.drops
	m.drops = nil
	m.mu.Unlock()
	if busy {
		return
	}
	if len(drops) > 0 {
		// The superseded prompts go first; the last of their jobs calls drop again.
		for _, d := range drops {
			b.removeLater(m, d.chat, d.msg)
		}
		return
	}
	err := b.txn(b.work, 0, func(tx store.Tx) error {
		rec, err := tx.Table(m.id)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !rec.Ending() {
			return nil
		}
		return tx.DeleteTable(m.id)
	})
	if err != nil {
		b.log.Warn().Uint64("table", uint64(m.id)).Err(err).Msg("drop an ended table")
		return
	}
	b.forget(m.id)
}

// syncGroup brings the table's group message to what snap shows: a new message when there is
// none yet (the lobby), else an edit, and nothing when it already shows it. During a match the
// edit waits GroupPause for more moves, which replace it (coalescing keeps the newest snapshot).
func (b *Bot) syncGroup(m *tableMem, snap *render.Snapshot) {
	if snap.Rec.Closed == closedRemoved {
		return // the bot can no longer write there
	}
	chat := snap.Rec.Place.Chat
	var notBefore time.Time
	if snap.Rec.Started && !snap.Rec.Ending() {
		notBefore = time.Now().Add(b.cfg.GroupPause)
	}
	b.submit(m, outbox.Job{
		Chat:      chat,
		Coalesce:  "g/" + strconv.FormatUint(uint64(snap.Rec.ID), 10),
		NotBefore: notBefore,
		Call: func(ctx context.Context) error {
			c := b.render.Group(snap)
			h := c.Hash()
			msg, shown := m.group()
			if msg != 0 && shown == h {
				return nil
			}
			if msg != 0 {
				err := b.edit(ctx, chat, msg, c)
				if !messageGone(err) {
					if err == nil {
						m.setGroup(msg, h)
					}
					return err
				}
				// Someone deleted it: post a new one.
			}
			if snap.Rec.Ending() && msg == 0 {
				return nil
			}
			id, err := b.send(ctx, chat, snap.Rec.Place.Topic, c)
			if err != nil {
				return err
			}
			m.setGroup(id, h)
			return nil
		},
		Done: func(err error) { b.sendFailed(chat, err) },
	})
}

// syncHand brings one player's hand message to what snap shows, with one call at most: a fresh
// message when their turn began (so Telegram notifies them; the superseded prompt is deleted),
// else an edit when what they see changed. A player who is not to act waits HandPause first.
func (b *Bot) syncHand(m *tableMem, snap *render.Snapshot, seat games.Seat) {
	p := snap.Rec.Seats[seat]
	user := p.UserID
	var notBefore time.Time
	if !snap.Rec.Ending() && !slices.Contains(snap.State.ToAct(), seat) {
		notBefore = time.Now().Add(b.cfg.HandPause)
	}
	b.submit(m, outbox.Job{
		Chat:      user,
		Coalesce:  handKey(snap.Rec.ID, seat),
		NotBefore: notBefore,
		Call:      func(ctx context.Context) error { return b.syncHandNow(ctx, m, snap, seat, false) },
		Done: func(err error) {
			if err != nil {
				b.handFailed(m, snap, seat, err)
			}
		},
	})
}

func handKey(id store.TableID, seat games.Seat) string {
	return "h/" + strconv.FormatUint(uint64(id), 10) + "/" + strconv.Itoa(int(seat))
}

// syncHandNow makes the call of syncHand; fresh sends a new message whatever the old one shows.
func (b *Bot) syncHandNow(ctx context.Context, m *tableMem, snap *render.Snapshot, seat games.Seat, fresh bool) error {
	user := snap.Rec.Seats[seat].UserID
	c, toAct := b.render.Hand(snap, seat, m.page(seat, snap.Rec.Version))
	h := c.Hash()
	mark := m.seat(seat)
	turn := snap.Rec.Seats[seat].TurnFrom
	prompt := toAct && turn != store.NoTurn && mark.prompted < turn
	switch {
	case snap.Rec.Ending() && mark.hand == 0:
		return nil
	case fresh || prompt:
	case mark.hand != 0 && mark.shown == h:
		return nil
	case mark.hand != 0:
		err := b.edit(ctx, user, mark.hand, c)
		if !messageGone(err) {
			if err == nil {
				mark.shown, mark.buttons = h, len(c.Rows) > 0
				m.setSeat(seat, mark)
			}
			return err
		}
		// The player deleted it: send it anew.
	}
	id, err := b.send(ctx, user, 0, c)
	if err != nil {
		return err
	}
	old := mark
	mark = seatMark{hand: id, shown: h, buttons: len(c.Rows) > 0, prompted: old.prompted}
	if prompt {
		mark.prompted = turn
	}
	m.setSeat(seat, mark)
	if old.hand != 0 && old.hand != id && old.buttons {
		m.dropLater(user, old.hand)
	}
	return nil
}

// resendHand sends a player's hand afresh (/hand, the way back through the deep link): a new
// message at the bottom of their chat; the old one is deleted if it still shows buttons.
func (b *Bot) resendHand(snap *render.Snapshot, seat int) {
	m := b.mem(snap.Rec.ID)
	if m == nil {
		m = b.remember(snap)
	}
	s := games.Seat(seat)
	b.submit(m, outbox.Job{
		Chat:     snap.Rec.Seats[seat].UserID,
		Coalesce: handKey(snap.Rec.ID, s),
		Call:     func(ctx context.Context) error { return b.syncHandNow(ctx, m, snap, s, true) },
		Done: func(err error) {
			if err != nil {
				b.handFailed(m, snap, s, err)
			}
		},
	})
}

// removeLater deletes a superseded prompt, which still shows the buttons of a turn that is over.
func (b *Bot) removeLater(m *tableMem, chat int64, msg int) {
	b.submit(m, outbox.Job{
		Chat:     chat,
		Coalesce: "d/" + strconv.FormatInt(chat, 10) + "/" + strconv.Itoa(msg),
		Call:     func(ctx context.Context) error { return b.remove(ctx, chat, msg) },
		Done:     func(err error) { b.sendFailed(chat, err) },
	})
}

// handFailed handles a hand message that could not be delivered. 403 means the user never opened
// the bot or blocked it: the group gets a deep link that brings them back (once per table).
func (b *Bot) handFailed(m *tableMem, snap *render.Snapshot, seat games.Seat, err error) {
	user := snap.Rec.Seats[seat].UserID
	if !errors.Is(err, tg.ErrorForbidden) {
		b.sendFailed(user, err)
		return
	}
	uerr := b.txn(b.work, 0, func(tx store.Tx) error {
		u, err := tx.User(user)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		u.DMOpen = false
		return tx.PutUser(u)
	})
	if uerr != nil {
		b.log.Warn().Err(uerr).Msg("mark DM closed")
	}
	if snap.Rec.Ending() || !m.warnOnce(user) {
		return
	}
	c := b.render.DeepLink(snap.Lang, "bot.dm.closed", snap.Rec.ID, b.render.SeatName(snap.Rec, snap.Lang, seat))
	b.postNow(m, snap.Rec.Place, c)
}

// postNow sends a message that no commit owes (a warning after a failed DM).
func (b *Bot) postNow(m *tableMem, p store.Place, c render.Content) {
	b.submit(m, outbox.Job{
		Chat: p.Chat,
		Call: func(ctx context.Context) error { _, err := b.send(ctx, p.Chat, p.Topic, c); return err },
		Done: func(err error) { b.sendFailed(p.Chat, err) },
	})
}

// Outbox rows: what a commit owes beyond the table's own messages (which the record says and a
// restart re-renders), kept until sent.
const (
	rowEvents = "e" // the deal and match results of one action: e/<table>/<version>
	rowReply  = "r" // a message with fixed content: r/<update or sequence>
)

// rowBody is a row's content.
type rowBody struct {
	Table   store.TableID   `json:"table,omitempty"`
	Version int             `json:"version,omitempty"` // rowEvents: the version the action made
	Chat    int64           `json:"chat,omitempty"`    // rowReply: where to send it
	Topic   int             `json:"topic,omitempty"`
	Edit    int             `json:"edit,omitempty"` // rowReply: the message to edit instead (a settings message)
	Content *render.Content `json:"content,omitempty"`
	Doc     *docRow         `json:"doc,omitempty"` // rowReply: a document to send instead (/record)
}

func eventsKey(id store.TableID, version int) string {
	return rowEvents + "/" + strconv.FormatUint(uint64(id), 10) + "/" + strconv.Itoa(version)
}

// postEventsRow records, in the action's transaction, that its deal and match results must be
// posted; false when it has none.
func (b *Bot) postEventsRow(tx store.Tx, rec store.Table, evs []games.Event) (store.Row, bool, error) {
	if !slices.ContainsFunc(evs, posted) {
		return store.Row{}, false, nil
	}
	key := eventsKey(rec.ID, rec.Version)
	body, err := json.Marshal(rowBody{Table: rec.ID, Version: rec.Version})
	if err != nil {
		return store.Row{}, false, err
	}
	seq, err := tx.PutRow(key, body)
	if err != nil {
		return store.Row{}, false, err
	}
	return store.Row{Key: key, Seq: seq, Body: body}, true, nil
}

// posted reports whether an event is posted as a message of its own.
func posted(e games.Event) bool { return e.Kind == games.EventDealEnd || e.Kind == games.EventMatchEnd }

// putReply records a message with fixed content owed to chat (the n-th answer to update upd).
func putReply(tx store.Tx, upd int64, n int, p store.Place, c render.Content) (store.Row, error) {
	return putRow(tx, upd, n, rowBody{Chat: p.Chat, Topic: p.Topic, Content: &c})
}

// putRow records the n-th row owed for update upd: fixed content (sent, or edited into a
// message) or a document.
func putRow(tx store.Tx, upd int64, n int, rb rowBody) (store.Row, error) {
	key := rowReply + "/" + strconv.FormatInt(upd, 10) + "/" + strconv.Itoa(n)
	body, err := json.Marshal(rb)
	if err != nil {
		return store.Row{}, err
	}
	seq, err := tx.PutRow(key, body)
	if err != nil {
		return store.Row{}, err
	}
	return store.Row{Key: key, Seq: seq, Body: body}, nil
}

// sendRow sends what a row owes; once all of it is out the row is deleted (with the next
// transaction). snap is the table's moment the row was made at (rowEvents).
func (b *Bot) sendRow(m *tableMem, snap *render.Snapshot, r store.Row) {
	var body rowBody
	if err := json.Unmarshal(r.Body, &body); err != nil {
		b.log.Error().Str("row", r.Key).Err(err).Msg("unreadable outbox row dropped")
		b.books.done(r.Key, r.Seq)
		return
	}
	if body.Doc != nil {
		b.sendDocRow(r, body)
		return
	}
	if body.Content != nil {
		b.sendReply(r, body)
		return
	}
	jobs := b.eventJobs(snap)
	if len(jobs) == 0 {
		b.books.done(r.Key, r.Seq)
		return
	}
	var left atomic.Int32
	left.Store(int32(len(jobs)))
	for _, j := range jobs {
		chat := j.Chat
		j.Done = func(err error) {
			b.sendFailed(chat, err)
			if left.Add(-1) == 0 {
				b.books.done(r.Key, r.Seq)
			}
		}
		b.submit(m, j)
	}
}

// eventJobs are the posts of an action's deal and match results: one new group message for the
// public ones, one DM for each player's private ones.
func (b *Bot) eventJobs(snap *render.Snapshot) []outbox.Job {
	var public []games.Event
	private := map[games.Seat][]games.Event{}
	for _, e := range snap.Events {
		if !posted(e) {
			continue
		}
		if e.To == games.Nobody {
			public = append(public, e)
		} else {
			private[e.To] = append(private[e.To], e)
		}
	}
	var jobs []outbox.Job
	post := func(chat int64, topic int, c render.Content) {
		jobs = append(jobs, outbox.Job{Chat: chat, Call: func(ctx context.Context) error {
			_, err := b.send(ctx, chat, topic, c)
			return err
		}})
	}
	if len(public) > 0 && snap.Rec.Closed != closedRemoved {
		post(snap.Rec.Place.Chat, snap.Rec.Place.Topic, render.Content{Text: b.render.Events(snap, snap.Lang, public)})
	}
	for _, s := range slices.Sorted(maps.Keys(private)) {
		if int(s) >= len(snap.Rec.Seats) || snap.Rec.Seats[s].AI || snap.Rec.Seats[s].UserID == 0 {
			continue
		}
		p := snap.Rec.Seats[s]
		post(p.UserID, 0, render.Content{Text: b.render.Events(snap, b.render.SeatLang(p), private[s])})
	}
	return jobs
}

// sendReply sends a message with fixed content and deletes its row once it is out (or can never
// go out).
func (b *Bot) sendReply(r store.Row, body rowBody) {
	c := *body.Content
	call := func(ctx context.Context) error { _, err := b.send(ctx, body.Chat, body.Topic, c); return err }
	coalesce := ""
	if body.Edit != 0 {
		// Only the newest of a message's pending edits goes out.
		coalesce = "r/" + strconv.FormatInt(body.Chat, 10) + "/" + strconv.Itoa(body.Edit)
		call = func(ctx context.Context) error {
			if err := b.edit(ctx, body.Chat, body.Edit, c); !messageGone(err) {
				return err
			}
			return nil
		}
	}
	b.out.Submit(outbox.Job{
		Chat:     body.Chat,
		Coalesce: coalesce,
		Call:     call,
		Done: func(err error) {
			b.sendFailed(body.Chat, err)
			b.books.done(r.Key, r.Seq)
		},
	})
}
