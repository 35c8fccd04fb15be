package bot

import (
	"context"
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// seatMark is what a player's hand message shows: its id, the hash of its content, whether it
// has buttons, and the turn its fresh prompt was sent for.
type seatMark struct {
	hand     int
	shown    uint64
	buttons  bool
	prompted int
}

// tableMem is what the bot holds of one table between updates: its newest snapshot, and the
// marks of its messages (the group message and each hand message). Sends change the marks at
// once; the store gets them with the table's next transaction, or a flush a moment later, so a
// move in the steady state costs one commit.
type tableMem struct {
	id    store.TableID
	place store.Place

	mu     sync.Mutex
	snap   *render.Snapshot
	msg    int
	shown  uint64
	seats  []seatMark
	gen    uint64    // counts changes of the marks
	saved  uint64    // the change the store has
	since  time.Time // when the store began to lag behind the marks
	pages  map[games.Seat]pageMark
	warned map[int64]bool // users whose closed DM the group was told about
	jobs   int            // outbox jobs of this table not finished
	// changedAt is when the table last changed: agents wait AIDelay from there.
	changedAt time.Time
	// drops are superseded prompts to delete once the store has the marks that replaced them,
	// so a restarted bot never edits or deletes a message that is gone.
	drops []drop
}

// drop is a message to delete once the marks of change gen are in the store.
type drop struct {
	chat int64
	msg  int
	gen  uint64
}

// pageMark is the page a player turned their keyboard to, at one version.
type pageMark struct{ version, page int }

// mem is the table's memory, or nil when the bot holds none (an unknown or forged id).
func (b *Bot) mem(id store.TableID) *tableMem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tables[id]
}

// remember makes the bot hold a table it has just read or created: the marks come from the record.
func (b *Bot) remember(snap *render.Snapshot) *tableMem {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m, ok := b.tables[snap.Rec.ID]; ok {
		return m
	}
	m := &tableMem{id: snap.Rec.ID, place: snap.Rec.Place, snap: snap, msg: snap.Rec.Msg, shown: snap.Rec.Shown}
	for _, p := range snap.Rec.Seats {
		m.seats = append(m.seats, seatMark{hand: p.HandMsg, shown: p.Shown, buttons: p.Buttons, prompted: p.Prompted})
	}
	b.tables[snap.Rec.ID] = m
	return m
}

// forget drops a table the store no longer has.
func (b *Bot) forget(id store.TableID) {
	b.mu.Lock()
	delete(b.tables, id)
	b.mu.Unlock()
	b.sched.Set(id, time.Time{})
}

// apply writes the marks into rec (the record a transaction is about to save) and returns the
// change they are at.
func (m *tableMem) apply(rec *store.Table) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	rec.Msg, rec.Shown = m.msg, m.shown
	for len(m.seats) < len(rec.Seats) {
		m.seats = append(m.seats, seatMark{prompted: store.NoTurn})
	}
	m.seats = m.seats[:len(rec.Seats)]
	for i := range rec.Seats {
		s := m.seats[i]
		p := &rec.Seats[i]
		p.HandMsg, p.Shown, p.Buttons, p.Prompted = s.hand, s.shown, s.buttons, s.prompted
	}
	return m.gen
}

// committed records that the store has the marks of change gen, and that snap (if not nil) is the
// table's newest moment. It returns the superseded prompts that may go now.
func (m *tableMem) committed(gen uint64, snap *render.Snapshot) []drop {
	m.mu.Lock()
	defer m.mu.Unlock()
	if gen > m.saved {
		m.saved = gen
	}
	if snap != nil {
		m.snap = snap
		m.place = snap.Rec.Place
	}
	var due []drop
	keep := m.drops[:0]
	for _, d := range m.drops {
		if d.gen <= m.saved {
			due = append(due, d)
		} else {
			keep = append(keep, d)
		}
	}
	m.drops = keep
	return due
}

// dropLater queues the deletion of msg in chat until the current marks are in the store.
func (m *tableMem) dropLater(chat int64, msg int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drops = append(m.drops, drop{chat: chat, msg: msg, gen: m.gen})
	if m.gen == m.saved {
		m.changedLocked() // make the flush write the marks, so the deletion is not held for ever
	}
}

// saved applies committed and deletes the superseded prompts it frees.
func (b *Bot) saved(m *tableMem, gen uint64, snap *render.Snapshot) {
	for _, d := range m.committed(gen, snap) {
		b.removeLater(m, d.chat, d.msg)
	}
}

// current is the table's newest snapshot.
func (m *tableMem) current() *render.Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snap
}

// changed notes a change of the marks; the caller holds m.mu.
func (m *tableMem) changedLocked() {
	if m.gen == m.saved {
		m.since = time.Now()
	}
	m.gen++
}

func (m *tableMem) group() (int, uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.msg, m.shown
}

func (m *tableMem) setGroup(msg int, shown uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.msg != msg || m.shown != shown {
		m.msg, m.shown = msg, shown
		m.changedLocked()
	}
}

func (m *tableMem) seat(s games.Seat) seatMark {
	m.mu.Lock()
	defer m.mu.Unlock()
	if int(s) >= len(m.seats) {
		return seatMark{prompted: store.NoTurn}
	}
	return m.seats[s]
}

func (m *tableMem) setSeat(s games.Seat, mark seatMark) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for int(s) >= len(m.seats) {
		m.seats = append(m.seats, seatMark{prompted: store.NoTurn})
	}
	if m.seats[s] != mark {
		m.seats[s] = mark
		m.changedLocked()
	}
}

// page is the page seat's keyboard shows at version: 0 once the version moved on.
func (m *tableMem) page(s games.Seat, version int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.pages[s]; ok && p.version == version {
		return p.page
	}
	return 0
}

func (m *tableMem) setPage(s games.Seat, version, page int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pages == nil {
		m.pages = map[games.Seat]pageMark{}
	}
	m.pages[s] = pageMark{version, page}
}

// warnOnce reports whether the group is yet to be told that user's DM is closed.
func (m *tableMem) warnOnce(user int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.warned[user] {
		return false
	}
	if m.warned == nil {
		m.warned = map[int64]bool{}
	}
	m.warned[user] = true
	return true
}

func (m *tableMem) clearWarn(user int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.warned, user)
}

// lagging reports whether the store lags behind the marks since before cut.
func (m *tableMem) lagging(cut time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.gen != m.saved && !m.since.After(cut)
}

// books holds the outbox rows that were sent and are still in the store; every transaction
// deletes them, and a flush does when no transaction comes.
type books struct {
	mu    sync.Mutex
	sent  map[string]uint64
	since time.Time
}

func newBooks() *books { return &books{sent: map[string]uint64{}} }

// done notes that the row of key with seq was sent.
func (k *books) done(key string, seq uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.sent) == 0 {
		k.since = time.Now()
	}
	k.sent[key] = seq
}

// take returns the rows to delete.
func (k *books) take() map[string]uint64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	return maps.Clone(k.sent)
}

// cleared forgets the rows a committed transaction deleted.
func (k *books) cleared(rows map[string]uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key, seq := range rows {
		if k.sent[key] == seq {
			delete(k.sent, key)
		}
	}
	if len(k.sent) > 0 {
		k.since = time.Now()
	}
}

func (k *books) lagging(cut time.Time) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.sent) > 0 && !k.since.After(cut)
}

// flushDelay is how long the store may lag behind the marks and sent rows before a transaction of
// its own writes them: moves closer together than this carry them for free. A crash in between
// costs an edit that changes nothing or a prompt sent twice, never a lost message.
const flushDelay = 2 * time.Second

// flushLoop writes lagging bookkeeping until ctx is done.
func (b *Bot) flushLoop(ctx context.Context) {
	tick := time.NewTicker(flushDelay / 4)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			b.flushBooks(ctx, false)
		}
	}
}

// flushBooks writes the marks of lagging tables and deletes sent rows in one transaction; all
// of them, whatever their age, when all is set (at shutdown).
func (b *Bot) flushBooks(ctx context.Context, all bool) {
	cut := time.Now().Add(-flushDelay)
	if all {
		cut = time.Now()
	}
	b.mu.Lock()
	var lag []*tableMem
	for _, m := range b.tables {
		if m.lagging(cut) {
			lag = append(lag, m)
		}
	}
	b.mu.Unlock()
	if len(lag) == 0 && !b.books.lagging(cut) && !b.out.WindowsLag(cut) {
		return
	}
	gens := make([]uint64, len(lag))
	err := b.txn(ctx, 0, func(tx store.Tx) error {
		for i, m := range lag {
			rec, err := tx.Table(m.id)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			gens[i] = m.apply(&rec)
			if err := tx.PutTable(&rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.log.Warn().Err(err).Msg("flush message bookkeeping")
		return
	}
	for i, m := range lag {
		b.saved(m, gens[i], nil)
	}
}
