package bot

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// resume picks up every table after a start, before any update is taken: it rebuilds each
// table's moment by replaying its log (the replay also gives the last action's events, which the
// table message shows, and the results of rows still owed), brings every message up to date —
// skipping those whose kept hash says they already show it — sends the rows that are left, and
// sets the timers. A table whose game, rules version or log the running engine cannot follow is
// closed with a clear message.
func (b *Bot) resume(ctx context.Context) error {
	var recs []store.Table
	var rows []store.Row
	logs := map[store.TableID][]store.Entry{}
	states := map[store.TableID][]byte{}
	langs := map[int64]string{}
	sent := map[int64][]int64{}
	err := b.st.View(ctx, func(tx store.Tx) error {
		var err error
		if recs, err = tx.Tables(); err != nil {
			return err
		}
		if rows, err = tx.Rows(); err != nil {
			return err
		}
		for _, rec := range recs {
			langs[rec.Place.Chat] = b.chatLangTx(tx, rec.Place.Chat)
			if c, err := tx.Chat(rec.Place.Chat); err == nil {
				sent[c.ID] = c.Sent
			}
			if rec.Started {
				if logs[rec.ID], err = tx.Log(rec.ID); err != nil {
					return err
				}
				states[rec.ID], _ = tx.State(rec.ID)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	b.keepLimits(sent)
	owed := map[store.TableID][]store.Row{}
	for _, r := range rows {
		if id, ok := eventsRowTable(r.Key); ok {
			owed[id] = append(owed[id], r)
			continue
		}
		b.sendRow(nil, nil, r)
	}
	for _, rec := range recs {
		snap := &render.Snapshot{Rec: rec, Lang: langs[rec.Place.Chat]}
		var at map[int]*render.Snapshot
		if rec.Started && rec.Closed == "" {
			var why error
			snap.State, snap.Events, at, why = b.rebuild(rec, logs[rec.ID], states[rec.ID], owed[rec.ID])
			if why != nil {
				b.log.Error().Uint64("table", uint64(rec.ID)).Err(why).Msg("table cannot continue; closing it")
				if snap, err = b.closeUnreadable(ctx, rec, snap.Lang); err != nil {
					b.log.Error().Err(err).Msg("close an unreadable table")
					continue
				}
			}
		}
		m := b.remember(snap)
		b.shown(snap, nil)
		for _, r := range owed[rec.ID] {
			if s := at[rowVersion(r.Key)]; s != nil {
				s.Lang = snap.Lang
				b.sendRow(m, s, r)
			} else {
				b.books.done(r.Key, r.Seq) // its table can no longer say what it owed
			}
		}
	}
	return nil
}

// keepLimits gives the outbox what the last process sent, so a restarted bot causes no 429: each
// group's stored calls of the last minute, plus those it may have made after the last write — at
// most one per chat gap during a flush delay, counted as made now — and, for the per-chat and
// overall windows nobody stored, one pause as long as the longer of them.
func (b *Bot) keepLimits(sent map[int64][]int64) {
	lim := outbox.DefaultLimits()
	gap := time.Duration(float64(lim.PerChat) / b.cfg.RateScale)
	unstored := min(lim.GroupPerMinute, int((flushDelay+flushDelay/4)/max(gap, time.Nanosecond))+1)
	now := time.Now()
	for chat, ms := range sent {
		var ends []time.Time
		for _, t := range ms {
			ends = append(ends, time.UnixMilli(t))
		}
		if len(ends) == 0 {
			continue
		}
		for range unstored {
			ends = append(ends, now)
		}
		b.out.Restore(chat, ends)
	}
	b.out.Hold(max(lim.PerChat, time.Second))
}

// rebuild replays a table's log with its game's engine: the state now, the events of the last
// action, and the moments right after the actions whose results are still owed. The replay must
// reproduce the stored state; where it does not (an engine that is not deterministic, a bug),
// the stored state wins and the difference is logged.
func (b *Bot) rebuild(rec store.Table, log []store.Entry, stored []byte, owed []store.Row) (games.State, []games.Event, map[int]*render.Snapshot, error) {
	r, ok := b.rules[rec.Game]
	if !ok {
		return nil, nil, nil, fmt.Errorf("unknown game %q", rec.Game)
	}
	if rec.Rules != r.Version() {
		return nil, nil, nil, fmt.Errorf("%s was begun under rules version %d, the engine is at %d", rec.Game, rec.Rules, r.Version())
	}
	if len(log) != rec.Version {
		return nil, nil, nil, fmt.Errorf("log of %d actions for version %d", len(log), rec.Version)
	}
	want := map[int]bool{}
	for _, row := range owed {
		want[rowVersion(row.Key)] = true
	}
	at := map[int]*render.Snapshot{}
	st, evs, err := replayEach(r, rec.Config, rec.Seed, log, func(v int, st games.State, evs []games.Event) {
		if want[v] {
			at[v] = &render.Snapshot{Rec: rec, State: st, Events: evs, Lang: ""}
		}
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if data, err := st.MarshalBinary(); err != nil || !bytes.Equal(data, stored) {
		if kept, uerr := r.Unmarshal(stored); uerr == nil {
			b.log.Error().Uint64("table", uint64(rec.ID)).Msg("the replayed log does not reproduce the stored state; keeping the stored one")
			st = kept
		}
	}
	return st, evs, at, nil
}

// replay re-applies a match's log from its seed: the state it ends in and the last action's
// events.
func replay(r games.Rules, cfg games.Config, seed uint64, log []store.Entry) (games.State, []games.Event, error) {
	return replayEach(r, cfg, seed, log, nil)
}

// replayEach is replay calling each after every action with the version it made.
func replayEach(r games.Rules, cfg games.Config, seed uint64, log []store.Entry, each func(v int, st games.State, evs []games.Event)) (games.State, []games.Event, error) {
	st, err := r.New(cfg, seed)
	if err != nil {
		return nil, nil, fmt.Errorf("replay: new %s: %w", r.Name(), err)
	}
	var evs []games.Event
	for i, e := range log {
		if st, evs, err = st.Apply(e.Seat, e.Action); err != nil {
			return nil, nil, fmt.Errorf("replay: action %d (%d:%s): %w", i, e.Seat, e.Action, err)
		}
		if each != nil {
			each(i+1, st, evs)
		}
	}
	return st, evs, nil
}

// closeUnreadable closes a table the running engine cannot continue; its group message and hands
// say so.
func (b *Bot) closeUnreadable(ctx context.Context, rec store.Table, lang string) (*render.Snapshot, error) {
	var snap *render.Snapshot
	err := b.txn(ctx, 0, func(tx store.Tx) error {
		cur, err := tx.Table(rec.ID)
		if err != nil {
			return err
		}
		cur.Closed, cur.Deadline = closedUnreadable, time.Time{}
		snap = &render.Snapshot{Rec: cur, Lang: lang}
		return tx.PutTable(&cur)
	})
	return snap, err
}

// eventsRowTable is the table of an events row key, "e/<table>/<version>".
func eventsRowTable(key string) (store.TableID, bool) {
	parts := strings.Split(key, "/")
	if len(parts) != 3 || parts[0] != rowEvents {
		return 0, false
	}
	n, err := strconv.ParseUint(parts[1], 10, 64)
	return store.TableID(n), err == nil
}

func rowVersion(key string) int {
	parts := strings.Split(key, "/")
	n, _ := strconv.Atoi(parts[len(parts)-1])
	return n
}
