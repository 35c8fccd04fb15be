package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// errDuplicate means the update was processed before (a redelivery): it changes nothing, and is
// answered no more.
var errDuplicate = errors.New("update already processed")

// maxTimeouts is how many turn timeouts in a row make a seat away (issue 3).
const maxTimeouts = 3

// actor is who acts: a user pressing a button, or the agent for a seat (an AI seat, an away
// player, or a player whose turn timer ran out).
type actor struct {
	user    int64 // 0: the agent
	seat    games.Seat
	timeout bool // the agent acts because the turn timer expired
}

// txn is the one way the bot writes: fn runs in one store transaction together with the mark of
// update upd as processed (0 for the bot's own work, such as an agent's move) and the deletion of
// outbox rows already sent. A redelivered update changes nothing: errDuplicate. Concurrent
// transactions (other tables') share commits (store.Batch), so fn may run more than once and must
// leave its results only in what it returns or sets afresh on each run.
func (b *Bot) txn(ctx context.Context, upd int64, fn func(tx store.Tx) error) error {
	sent := b.books.take()
	windows, since := b.out.TakeWindows()
	err := b.st.Batch(ctx, func(tx store.Tx) error {
		if upd != 0 {
			seen, err := tx.Seen(upd)
			if err != nil {
				return err
			}
			if seen {
				return errDuplicate
			}
		}
		if err := fn(tx); err != nil {
			return err
		}
		for key, seq := range sent {
			if err := tx.DeleteRow(key, seq); err != nil {
				return err
			}
		}
		if err := storeWindows(tx, windows); err != nil {
			return err
		}
		if upd != 0 {
			return tx.MarkSeen(upd)
		}
		return nil
	})
	if err != nil {
		b.out.Untaken(windows, since)
		return err
	}
	b.books.cleared(sent)
	return nil
}

// storeWindows keeps the groups' recent call times with their chat records.
func storeWindows(tx store.Tx, windows map[int64][]time.Time) error {
	for chat, ends := range windows {
		c, err := tx.Chat(chat)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		c.Sent = c.Sent[:0]
		for _, t := range ends {
			c.Sent = append(c.Sent, t.UnixMilli())
		}
		if err := tx.PutChat(c); err != nil {
			return err
		}
	}
	return nil
}

// tableTx runs fn on table id in one transaction (see txn): fn gets the record with the marks of
// the bot's own messages applied and changes it in place; the record is saved unless fn fails,
// and the table's newest snapshot is what fn returns. ErrNotFound when there is no such table.
func (b *Bot) tableTx(ctx context.Context, upd int64, id store.TableID, fn func(tx store.Tx, rec *store.Table) (*render.Snapshot, error)) (*render.Snapshot, error) {
	var snap *render.Snapshot
	var gen uint64
	m := b.mem(id)
	err := b.txn(ctx, upd, func(tx store.Tx) error {
		rec, err := tx.Table(id)
		if err != nil {
			return err
		}
		if m != nil {
			gen = m.apply(&rec)
		}
		if snap, err = fn(tx, &rec); err != nil {
			return err
		}
		return tx.PutTable(&rec)
	})
	if err != nil {
		return nil, err
	}
	if m == nil {
		m = b.remember(snap)
	}
	b.saved(m, gen, snap)
	return snap, nil
}

// act is the one path every action takes, human or agent: one store transaction that checks the
// press (table, seat, version), lets the engine judge the action (its sentinel errors become the
// answers), appends it to the log, saves the new state and the record with the turn bookkeeping,
// archives a finished match, and records the deal and match results it owes the chats (rows).
// Nothing is sent before it returns. The press's update id goes into its log entry: that is how
// a press delivered again is recognised (errDuplicate), with no index of its own to write.
func (b *Bot) act(ctx context.Context, upd int64, id store.TableID, version int, who actor, a games.Action) (*render.Snapshot, []store.Row, error) {
	var rows []store.Row
	now := b.now()
	m := b.mem(id)
	snap, err := b.tableTx(ctx, 0, id, func(tx store.Tx, rec *store.Table) (*render.Snapshot, error) {
		rows = nil
		if upd != 0 && version < rec.Version {
			since, err := tx.LogFrom(rec.ID, version)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(since, func(e store.Entry) bool { return e.Update == upd }) {
				return nil, errDuplicate
			}
		}
		if !rec.Started || rec.Ending() {
			return nil, errNoTable
		}
		seat := who.seat
		if who.user != 0 {
			if seat = rec.SeatOf(who.user); seat < 0 {
				return nil, errNotPlayer
			}
		}
		st, err := b.stateOf(tx, m, *rec)
		if err != nil {
			return nil, err
		}
		if version != rec.Version && !pressStillValid(*rec, st, seat, who, version) {
			return nil, errStale
		}
		ns, evs, err := st.Apply(seat, a)
		if err != nil {
			return nil, err
		}
		data, err := ns.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("marshal %s state: %w", rec.Game, err)
		}
		if err := tx.PutState(rec.ID, data); err != nil {
			return nil, err
		}
		if err := tx.AppendLog(rec.ID, rec.Version, store.Entry{Seat: seat, Action: a, Update: upd}); err != nil {
			return nil, err
		}
		p := &rec.Seats[seat]
		p.Acted = rec.Version
		rec.Version++
		rec.TimedOut = 0
		switch {
		case who.user != 0:
			p.Timeouts, p.Away = 0, false
		case who.timeout:
			rec.TimedOut = int(seat) + 1
			if p.Timeouts++; p.Timeouts >= maxTimeouts {
				p.Away = true
			}
		}
		b.stamp(rec, ns, now)
		if r, ok, err := b.postEventsRow(tx, *rec, evs); err != nil {
			return nil, err
		} else if ok {
			rows = append(rows, r)
		}
		if len(ns.ToAct()) == 0 {
			rec.Finished = now
			if err := b.archive(tx, *rec, ns); err != nil {
				return nil, err
			}
		}
		return &render.Snapshot{Rec: *rec, State: ns, Events: evs, Lang: b.chatLangTx(tx, rec.Place.Chat)}, nil
	})
	if errors.Is(err, store.ErrNotFound) {
		err = errNoTable
	}
	return snap, rows, err
}

// stateOf is the engine state of a started table: the one the bot holds when it is of the same
// version, else read from the store.
func (b *Bot) stateOf(tx store.Tx, m *tableMem, rec store.Table) (games.State, error) {
	if m != nil {
		if snap := m.current(); snap != nil && snap.State != nil && snap.Rec.Version == rec.Version && snap.Rec.Started {
			return snap.State, nil
		}
	}
	r, ok := b.rules[rec.Game]
	if !ok {
		return nil, fmt.Errorf("table %d of unknown game %q", rec.ID, rec.Game)
	}
	data, err := tx.State(rec.ID)
	if err != nil {
		return nil, err
	}
	st, err := r.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("unmarshal %s state of table %d v%d: %w", rec.Game, rec.ID, rec.Version, err)
	}
	return st, nil
}

// pressStillValid reports whether a person's button drawn at an older version may still count:
// only while several seats act at once (stakes placed together), where the others' moves raise
// the Version under a player who has not moved yet. It counts when it was drawn during the seat's
// current turn and the seat has not acted since — the Version can have moved on during one
// seat's turn only through other seats acting at the same time; whether the action is still legal
// is the engine's to say, as for any press. A double press is stale because the first one acted.
func pressStillValid(rec store.Table, st games.State, seat games.Seat, who actor, version int) bool {
	if who.user == 0 || version > rec.Version || int(seat) >= len(rec.Seats) {
		return false
	}
	p := rec.Seats[seat]
	return slices.Contains(st.ToAct(), seat) && p.TurnFrom != store.NoTurn && version >= p.TurnFrom && p.Acted < version
}

// stamp keeps the turn bookkeeping of a record that now holds st: when each seat's turn began
// (its fresh prompt is sent once per turn), and the turn deadline, which restarts when a seat
// starts to act and stands while the same seats (or some of them) are still deciding.
func (b *Bot) stamp(rec *store.Table, st games.State, now time.Time) {
	toAct := st.ToAct()
	began := false
	for s := range rec.Seats {
		p := &rec.Seats[s]
		switch {
		case !slices.Contains(toAct, games.Seat(s)):
			p.TurnFrom = store.NoTurn
		case p.TurnFrom == store.NoTurn:
			p.TurnFrom, began = rec.Version, true
		}
	}
	if began || rec.Deadline.IsZero() || len(toAct) == 0 {
		rec.Deadline = time.Time{}
		if limit := b.turnTimeout(*rec); limit > 0 {
			for _, s := range toAct {
				if p := rec.Seats[s]; !p.AI && !p.Away {
					rec.Deadline = now.Add(limit)
					break
				}
			}
		}
	}
}

// archive keeps a finished match in the archive, rates its people (rating.go) and adds it to every
// seated user's stats (matches, wins, the sum of the sheet's Totals, which a games.Rater turns into
// an overall rating), in the transaction of the action that finished it.
func (b *Bot) archive(tx store.Tx, rec store.Table, st games.State) error {
	log, err := tx.Log(rec.ID)
	if err != nil {
		return err
	}
	sh := st.Score()
	m := store.Match{Table: rec.ID, Place: rec.Place, Game: rec.Game, Rules: rec.Rules, Config: rec.Config,
		Seed: rec.Seed, Sheet: &sh, Created: rec.Created, Finished: rec.Finished}
	for _, e := range log {
		m.Log = append(m.Log, store.FormatEntry(e))
	}
	for _, p := range rec.Seats {
		m.Seats = append(m.Seats, store.MatchSeat{UserID: p.UserID, Name: p.Name, AI: p.AI})
	}
	ref, err := tx.Archive(m)
	if err != nil {
		return err
	}
	if err := b.rate(tx, rec, m); err != nil {
		return err
	}
	done := map[int64]bool{}
	for i, p := range rec.Seats {
		if p.AI || p.UserID == 0 || done[p.UserID] {
			continue
		}
		done[p.UserID] = true
		u, err := tx.User(p.UserID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if u.Stats == nil {
			u.Stats = map[string]store.Stat{}
		}
		s := u.Stats[rec.Game]
		s.Played++
		if slices.Contains(sh.Winners, games.Seat(i)) {
			s.Won++
		}
		if i < len(sh.Totals) {
			s.Points += sh.Totals[i]
		}
		u.Stats[rec.Game] = s
		u.LastMatch = &ref
		if err := tx.PutUser(u); err != nil {
			return err
		}
	}
	return nil
}

// shown sends what a committed snapshot changed: the group message, the players' hands and the
// rows it owes (deal and match results), and sets the table's next timer.
func (b *Bot) shown(snap *render.Snapshot, rows []store.Row) {
	m := b.mem(snap.Rec.ID)
	if m == nil {
		m = b.remember(snap)
	}
	m.touch()
	b.syncGroup(m, snap)
	if snap.Rec.Started {
		for i, p := range snap.Rec.Seats {
			if !p.AI && p.UserID != 0 {
				b.syncHand(m, snap, games.Seat(i))
			}
		}
	}
	for _, r := range rows {
		b.sendRow(m, snap, r)
	}
	b.reschedule(m, snap)
}
