package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kozyr-bot/kozyr/games"
)

// Buckets of schema 3. Ids are 8-byte big-endian keys (the uint64 of an int64); records are JSON,
// engine states and log entries their own bytes.
var (
	bucketMeta = []byte("meta") // "schema" -> uint64
	// tables holds each table's record under its id and its engine state under id|'s', side by
	// side, so a move rewrites one leaf page for both.
	bucketTables  = []byte("tables")  // table id -> Table; table id | "s" -> engine state
	bucketLog     = []byte("log")     // table id | seq (4) -> seat+1 (1 byte) | update id (uvarint) | action text
	bucketPlaces  = []byte("places")  // chat | topic (8) -> table id of the open table there
	bucketSeats   = []byte("seats")   // user | table id -> ""
	bucketOutbox  = []byte("outbox")  // row key -> seq (8) | body
	bucketSeen    = []byte("seen")    // hour (8) -> bucket of update id -> ""
	bucketArchive = []byte("archive") // chat | finished unix nanos | table id -> Match
	bucketUsers   = []byte("users")   // user id -> User
	bucketChats   = []byte("chats")   // chat id -> Chat
	bucketIntake  = []byte("intake")  // update id -> the update's JSON, kept until processed
	bucketPlayers = []byte("players") // chat | game | 0 | user -> "" (schema 3)
	allBuckets    = [][]byte{bucketMeta, bucketTables, bucketLog, bucketPlaces, bucketSeats,
		bucketOutbox, bucketSeen, bucketArchive, bucketUsers, bucketChats, bucketIntake, bucketPlayers}

	keySchema = []byte("schema")
)

// schemaVersion is the layout this code writes; Open migrates older files to it and refuses newer.
const schemaVersion = 3

// DefaultTimeout is how long Open waits for the file lock another process holds.
const DefaultTimeout = 5 * time.Second

// DefaultArchiveKeep is how many finished matches are kept per chat (KOZYR_ARCHIVE_KEEP).
const DefaultArchiveKeep = 100

// seenHours is how long a processed update id is remembered: Telegram keeps an update 24 hours,
// and an id older than that may come back as a new update after Telegram restarts its ids.
const seenHours = 24

// BoltStore is the bbolt implementation of Store: one file, every write transaction one fsynced
// commit. bbolt runs one write transaction at a time, so writers never interleave.
type BoltStore struct {
	db   *bolt.DB
	now  func() time.Time
	keep int

	commits atomic.Int64
	put     atomic.Int64
	group   *committer
}

var _ Store = (*BoltStore)(nil)

// Option tunes Open.
type Option func(*options)

type options struct {
	timeout time.Duration
	noSync  bool
	now     func() time.Time
	keep    int
}

// WithTimeout sets how long Open waits for the file lock (DefaultTimeout otherwise), so a second
// bot started on the same file fails clearly instead of hanging.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithNoSync skips fsync on commit: faster, but a power loss may lose recent commits. For tests
// only; the bot never sets it.
func WithNoSync() Option { return func(o *options) { o.noSync = true } }

// WithClock sets the clock that dates processed update ids (tests move it past a day).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithArchiveKeep sets how many finished matches are kept per chat; n ≤ 0 means the default.
func WithArchiveKeep(n int) Option { return func(o *options) { o.keep = n } }

// Open opens (creating if needed) the bbolt file at path, migrating a file of an older schema in
// place.
func Open(path string, opts ...Option) (*BoltStore, error) {
	o := options{timeout: DefaultTimeout, now: time.Now, keep: DefaultArchiveKeep}
	for _, f := range opts {
		f(&o)
	}
	if o.keep <= 0 {
		o.keep = DefaultArchiveKeep
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:        o.timeout,
		NoSync:         o.noSync,
		NoFreelistSync: true, // rebuilt by a scan on open; saves a page write per commit
		FreelistType:   bolt.FreelistMapType,
	})
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &BoltStore{db: db, now: o.now, keep: o.keep}
	if err := db.Update(s.prepare); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: init %s: %w", path, err)
	}
	s.group = newCommitter(s)
	return s, nil
}

// prepare brings a file to schemaVersion: a new file gets every bucket, an older one runs the
// migrations after its version in order, all in one transaction.
func (s *BoltStore) prepare(tx *bolt.Tx) error {
	version := uint64(0)
	if meta := tx.Bucket(bucketMeta); meta != nil {
		v := meta.Get(keySchema)
		if len(v) != 8 {
			return fmt.Errorf("corrupt schema version %x", v)
		}
		version = binary.BigEndian.Uint64(v)
	} else if tx.Bucket(bucketTables) != nil {
		return errors.New("file has tables but no schema version")
	}
	if version > schemaVersion {
		return fmt.Errorf("file schema %d is newer than this kozyr's %d", version, schemaVersion)
	}
	for _, m := range migrations {
		if version != 0 && version == m.from {
			if err := m.run(tx, s); err != nil {
				return fmt.Errorf("migrate schema %d to %d: %w", m.from, m.from+1, err)
			}
			version = m.from + 1
		}
	}
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, u64(schemaVersion))
}

// Close closes the file; it waits for running transactions to finish and commits the Batch calls
// already made.
func (s *BoltStore) Close() error {
	s.group.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Path is the file the store was opened on.
func (s *BoltStore) Path() string { return s.db.Path() }

// Stats returns the running totals since Open.
func (s *BoltStore) Stats() Stats {
	commits := s.commits.Load()
	tx := s.db.Stats().TxStats
	return Stats{
		Commits: commits,
		Put:     s.put.Load(),
		// A commit writes its dirty pages (all newly allocated, bbolt copies on write) and then
		// one meta page.
		Disk: tx.GetPageAlloc() + commits*int64(s.db.Info().PageSize),
	}
}

// Ping commits an empty write transaction: the floor every write pays (one fsync), which the
// benchmarks compare a move against.
func (s *BoltStore) Ping(ctx context.Context) error {
	return s.Update(ctx, func(Tx) error { return nil })
}

// Update runs fn in one write transaction.
func (s *BoltStore) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: update: %w", err)
	}
	return s.db.Update(func(tx *bolt.Tx) error { return s.run(tx, fn) })
}

// View runs fn in a read-only transaction.
func (s *BoltStore) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: view: %w", err)
	}
	return s.db.View(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx, s: s}) })
}

// run calls fn on a write transaction and counts what the commit writes.
func (s *BoltStore) run(tx *bolt.Tx, fn func(Tx) error) error {
	t := &boltTx{tx: tx, s: s}
	if err := fn(t); err != nil {
		return err
	}
	put := t.put
	tx.OnCommit(func() {
		s.commits.Add(1)
		s.put.Add(put)
	})
	return nil
}

// boltTx is a Tx over one bbolt transaction.
type boltTx struct {
	tx   *bolt.Tx
	s    *BoltStore
	read map[TableID]Table // records as read or written in this transaction, for index upkeep
	put  int64
	// wrote is set by every write: a Batch call that fails having written nothing leaves the
	// transaction it shares as it was (see committer). All writes go through the methods below.
	wrote bool
}

func (t *boltTx) bucket(name []byte) *bolt.Bucket { return t.tx.Bucket(name) }

func (t *boltTx) putRaw(b *bolt.Bucket, k, v []byte) error {
	t.wrote = true
	t.put += int64(len(k) + len(v))
	return b.Put(k, v)
}

// del deletes k from b.
func (t *boltTx) del(b *bolt.Bucket, k []byte) error {
	t.wrote = true
	return b.Delete(k)
}

// delAt deletes the cursor's current key.
func (t *boltTx) delAt(c *bolt.Cursor) error {
	t.wrote = true
	return c.Delete()
}

// nextSeq is b's next sequence number (which is a write).
func (t *boltTx) nextSeq(b *bolt.Bucket) (uint64, error) {
	t.wrote = true
	return b.NextSequence()
}

func (t *boltTx) putJSON(b *bolt.Bucket, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %x: %w", k, err)
	}
	return t.putRaw(b, k, data)
}

func (t *boltTx) hour() uint64 { return uint64(t.s.now().Unix() / 3600) }

func (t *boltTx) Seen(update int64) (bool, error) {
	seen, k := t.bucket(bucketSeen), u64(uint64(update))
	now := t.hour()
	for h := max(now, seenHours) - seenHours; h <= now; h++ {
		if b := seen.Bucket(u64(h)); b != nil && b.Get(k) != nil {
			return true, nil
		}
	}
	return false, nil
}

func (t *boltTx) MarkSeen(update int64) error {
	seen, now := t.bucket(bucketSeen), t.hour()
	b := seen.Bucket(u64(now))
	if b == nil {
		// A new hour: forget the hours Telegram can no longer redeliver from.
		var old [][]byte
		c := seen.Cursor()
		for k, _ := c.First(); k != nil && binary.BigEndian.Uint64(k)+seenHours < now; k, _ = c.Next() {
			old = append(old, bytes.Clone(k))
		}
		for _, k := range old {
			t.wrote = true
			if err := seen.DeleteBucket(k); err != nil {
				return fmt.Errorf("store: forget updates of hour %x: %w", k, err)
			}
		}
		var err error
		t.wrote = true
		if b, err = seen.CreateBucket(u64(now)); err != nil {
			return fmt.Errorf("store: updates of hour %d: %w", now, err)
		}
	}
	if err := t.putRaw(b, u64(uint64(update)), []byte{}); err != nil {
		return fmt.Errorf("store: mark update %d: %w", update, err)
	}
	return nil
}

func (t *boltTx) TableAt(p Place) (Table, error) {
	v := t.bucket(bucketPlaces).Get(placeKey(p))
	if v == nil {
		return Table{}, fmt.Errorf("store: table at %d/%d: %w", p.Chat, p.Topic, ErrNotFound)
	}
	return t.Table(TableID(binary.BigEndian.Uint64(v)))
}

func (t *boltTx) Table(id TableID) (Table, error) {
	if rec, ok := t.read[id]; ok {
		return cloneTable(rec), nil
	}
	var rec Table
	if err := get(t.bucket(bucketTables), u64(uint64(id)), &rec); err != nil {
		return Table{}, fmt.Errorf("store: table %d: %w", id, err)
	}
	t.remember(rec)
	return rec, nil
}

func (t *boltTx) remember(rec Table) {
	if t.read == nil {
		t.read = map[TableID]Table{}
	}
	t.read[rec.ID] = cloneTable(rec)
}

// cloneTable copies the parts of a record a caller may change in place.
func cloneTable(rec Table) Table {
	rec.Seats = append([]Player(nil), rec.Seats...)
	return rec
}

func (t *boltTx) PutTable(rec *Table) error {
	tables := t.bucket(bucketTables)
	var old *Table
	if rec.ID == 0 {
		id, err := t.nextSeq(tables)
		if err != nil {
			return fmt.Errorf("store: new table id: %w", err)
		}
		rec.ID = TableID(id)
	} else if prev, err := t.Table(rec.ID); err == nil {
		old = &prev
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if err := t.index(old, rec); err != nil {
		return fmt.Errorf("store: table %d: %w", rec.ID, err)
	}
	if err := t.putJSON(tables, u64(uint64(rec.ID)), rec); err != nil {
		return fmt.Errorf("store: put table %d: %w", rec.ID, err)
	}
	t.remember(*rec)
	return nil
}

// index keeps the place and seat indexes of a table that goes from old (nil: new) to rec.
func (t *boltTx) index(old, rec *Table) error {
	places := t.bucket(bucketPlaces)
	held := old != nil && !old.Ending()
	holds := !rec.Ending()
	if held && (!holds || old.Place != rec.Place) {
		if err := t.del(places, placeKey(old.Place)); err != nil {
			return err
		}
	}
	if holds && (!held || old.Place != rec.Place) {
		k := placeKey(rec.Place)
		if v := places.Get(k); v != nil && TableID(binary.BigEndian.Uint64(v)) != rec.ID {
			return fmt.Errorf("%w: chat %d topic %d has table %d", ErrConflict, rec.Place.Chat, rec.Place.Topic, binary.BigEndian.Uint64(v))
		}
		if err := t.putRaw(places, k, u64(uint64(rec.ID))); err != nil {
			return err
		}
	}
	seats := t.bucket(bucketSeats)
	was := map[int64]bool{}
	if old != nil {
		for _, p := range old.Seats {
			if p.UserID != 0 {
				was[p.UserID] = true
			}
		}
	}
	is := map[int64]bool{}
	for _, p := range rec.Seats {
		if p.UserID != 0 {
			is[p.UserID] = true
			if !was[p.UserID] {
				if err := t.putRaw(seats, seatKey(p.UserID, rec.ID), []byte{}); err != nil {
					return err
				}
			}
		}
	}
	for u := range was {
		if !is[u] {
			if err := t.del(seats, seatKey(u, rec.ID)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *boltTx) DeleteTable(id TableID) error {
	rec, err := t.Table(id)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	gone := rec
	gone.Seats, gone.Closed = nil, "deleted"
	if err := t.index(&rec, &gone); err != nil {
		return fmt.Errorf("store: unindex table %d: %w", id, err)
	}
	if err := t.deletePrefix(t.bucket(bucketLog), u64(uint64(id))); err != nil {
		return fmt.Errorf("store: delete log of %d: %w", id, err)
	}
	if err := t.del(t.bucket(bucketTables), stateKey(id)); err != nil {
		return fmt.Errorf("store: delete state of %d: %w", id, err)
	}
	if err := t.del(t.bucket(bucketTables), u64(uint64(id))); err != nil {
		return fmt.Errorf("store: delete table %d: %w", id, err)
	}
	delete(t.read, id)
	return nil
}

func (t *boltTx) Tables() ([]Table, error) {
	var out []Table
	err := t.bucket(bucketTables).ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return nil // a state
		}
		var rec Table
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("decode table %x: %w", k, err)
		}
		out = append(out, rec)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: tables: %w", err)
	}
	return out, nil
}

func (t *boltTx) UserTables(user int64) ([]TableID, error) {
	var out []TableID
	prefix := u64(uint64(user))
	c := t.bucket(bucketSeats).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, TableID(binary.BigEndian.Uint64(k[8:])))
	}
	return out, nil
}

func (t *boltTx) State(id TableID) ([]byte, error) {
	v := t.bucket(bucketTables).Get(stateKey(id))
	if v == nil {
		return nil, fmt.Errorf("store: state of %d: %w", id, ErrNotFound)
	}
	return bytes.Clone(v), nil
}

func (t *boltTx) PutState(id TableID, state []byte) error {
	if err := t.putRaw(t.bucket(bucketTables), stateKey(id), state); err != nil {
		return fmt.Errorf("store: put state of %d: %w", id, err)
	}
	return nil
}

func (t *boltTx) AppendLog(id TableID, seq int, e Entry) error {
	if seq < 0 || seq > 1<<32-1 {
		return fmt.Errorf("store: log position %d of %d out of range", seq, id)
	}
	v := binary.AppendUvarint([]byte{byte(e.Seat + 1)}, uint64(max(e.Update, 0)))
	v = append(v, e.Action.String()...)
	b := t.bucket(bucketLog)
	b.FillPercent = 0.9 // entries are appended in key order: pages split full, not half full
	if err := t.putRaw(b, logKey(id, seq), v); err != nil {
		return fmt.Errorf("store: append log of %d: %w", id, err)
	}
	return nil
}

func (t *boltTx) Log(id TableID) ([]Entry, error) { return t.LogFrom(id, 0) }

func (t *boltTx) LogFrom(id TableID, seq int) ([]Entry, error) {
	var out []Entry
	prefix := u64(uint64(id))
	c := t.bucket(bucketLog).Cursor()
	for k, v := c.Seek(logKey(id, max(seq, 0))); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		at := max(seq, 0) + len(out)
		if int(binary.BigEndian.Uint32(k[8:])) != at || len(v) < 2 {
			return nil, fmt.Errorf("store: log of %d: entry %x out of order or empty", id, k)
		}
		upd, n := binary.Uvarint(v[1:])
		if n <= 0 {
			return nil, fmt.Errorf("store: log of %d entry %d: bad update id", id, at)
		}
		a, err := games.ParseAction(string(v[1+n:]))
		if err != nil {
			return nil, fmt.Errorf("store: log of %d entry %d: %w", id, at, err)
		}
		out = append(out, Entry{Seat: games.Seat(int(v[0]) - 1), Action: a, Update: int64(upd)})
	}
	return out, nil
}

func (t *boltTx) PutRow(key string, body []byte) (uint64, error) {
	b := t.bucket(bucketOutbox)
	seq, err := t.nextSeq(b)
	if err != nil {
		return 0, fmt.Errorf("store: row %s: %w", key, err)
	}
	if err := t.putRaw(b, []byte(key), append(u64(seq), body...)); err != nil {
		return 0, fmt.Errorf("store: put row %s: %w", key, err)
	}
	return seq, nil
}

func (t *boltTx) DeleteRow(key string, seq uint64) error {
	b := t.bucket(bucketOutbox)
	v := b.Get([]byte(key))
	if len(v) < 8 || binary.BigEndian.Uint64(v) != seq {
		return nil
	}
	if err := t.del(b, []byte(key)); err != nil {
		return fmt.Errorf("store: delete row %s: %w", key, err)
	}
	return nil
}

func (t *boltTx) PutUpdate(id int64, raw []byte) error {
	if err := t.putRaw(t.bucket(bucketIntake), u64(uint64(id)), raw); err != nil {
		return fmt.Errorf("store: keep update %d: %w", id, err)
	}
	return nil
}

func (t *boltTx) DeleteUpdate(id int64) error {
	if err := t.del(t.bucket(bucketIntake), u64(uint64(id))); err != nil {
		return fmt.Errorf("store: drop update %d: %w", id, err)
	}
	return nil
}

func (t *boltTx) Updates() ([]Update, error) {
	var out []Update
	err := t.bucket(bucketIntake).ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: intake key %x", k)
		}
		out = append(out, Update{ID: int64(binary.BigEndian.Uint64(k)), Raw: bytes.Clone(v)})
		return nil
	})
	return out, err
}

func (t *boltTx) Rows() ([]Row, error) {
	var out []Row
	err := t.bucket(bucketOutbox).ForEach(func(k, v []byte) error {
		if len(v) < 8 {
			return fmt.Errorf("corrupt row %q", k)
		}
		out = append(out, Row{Key: string(k), Seq: binary.BigEndian.Uint64(v), Body: bytes.Clone(v[8:])})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: rows: %w", err)
	}
	return out, nil
}

func (t *boltTx) Archive(m Match) (MatchRef, error) {
	ref := MatchRef{Chat: m.Place.Chat, Finished: m.Finished, Table: m.Table}
	b := t.bucket(bucketArchive)
	if err := t.putJSON(b, archiveKey(ref), m); err != nil {
		return MatchRef{}, fmt.Errorf("store: archive table %d: %w", m.Table, err)
	}
	if err := t.trimPrefix(b, u64(uint64(ref.Chat)), t.s.keep); err != nil {
		return MatchRef{}, fmt.Errorf("store: trim archive of %d: %w", ref.Chat, err)
	}
	return ref, nil
}

func (t *boltTx) LastMatch(chat int64) (Match, error) {
	var m Match
	prefix := u64(uint64(chat))
	c := t.bucket(bucketArchive).Cursor()
	k, v := c.Seek(append(bytes.Clone(prefix), bytes.Repeat([]byte{0xff}, 16)...))
	if k == nil || !bytes.HasPrefix(k, prefix) {
		k, v = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return Match{}, fmt.Errorf("store: last match of %d: %w", chat, ErrNotFound)
	}
	if err := json.Unmarshal(v, &m); err != nil {
		return Match{}, fmt.Errorf("store: decode archive %x: %w", k, err)
	}
	return m, nil
}

func (t *boltTx) Match(ref MatchRef) (Match, error) {
	var m Match
	if err := get(t.bucket(bucketArchive), archiveKey(ref), &m); err != nil {
		return Match{}, fmt.Errorf("store: match %d of %d: %w", ref.Table, ref.Chat, err)
	}
	return m, nil
}

func (t *boltTx) User(id int64) (User, error) {
	u := User{ID: id}
	if err := get(t.bucket(bucketUsers), u64(uint64(id)), &u); err != nil {
		return User{ID: id}, fmt.Errorf("store: user %d: %w", id, err)
	}
	return u, nil
}

func (t *boltTx) PutUser(u User) error {
	if err := t.putJSON(t.bucket(bucketUsers), u64(uint64(u.ID)), u); err != nil {
		return fmt.Errorf("store: put user %d: %w", u.ID, err)
	}
	return nil
}

func (t *boltTx) Chat(id int64) (Chat, error) {
	c := Chat{ID: id}
	if err := get(t.bucket(bucketChats), u64(uint64(id)), &c); err != nil {
		return Chat{ID: id}, fmt.Errorf("store: chat %d: %w", id, err)
	}
	return c, nil
}

func (t *boltTx) PutChat(c Chat) error {
	if err := t.putJSON(t.bucket(bucketChats), u64(uint64(c.ID)), c); err != nil {
		return fmt.Errorf("store: put chat %d: %w", c.ID, err)
	}
	return nil
}

func (t *boltTx) MoveChat(from, to int64) error {
	if from == to {
		return nil
	}
	moved := false
	places := t.bucket(bucketPlaces)
	var ids []TableID
	prefix := u64(uint64(from))
	c := places.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		ids = append(ids, TableID(binary.BigEndian.Uint64(v)))
	}
	for _, id := range ids {
		rec, err := t.Table(id)
		if err != nil {
			return err
		}
		rec.Place.Chat = to
		if err := t.PutTable(&rec); err != nil {
			return err
		}
		moved = true
	}

	archive := t.bucket(bucketArchive)
	var keys, vals [][]byte
	c = archive.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		keys, vals = append(keys, bytes.Clone(k)), append(vals, bytes.Clone(v))
	}
	for i, k := range keys {
		var m Match
		if err := json.Unmarshal(vals[i], &m); err != nil {
			return fmt.Errorf("store: decode archive %x: %w", k, err)
		}
		m.Place.Chat = to
		if err := t.putJSON(archive, append(u64(uint64(to)), k[8:]...), m); err != nil {
			return err
		}
		if err := t.del(archive, k); err != nil {
			return err
		}
		moved = true
	}

	if ok, err := t.movePlayers(from, to); err != nil {
		return fmt.Errorf("store: move players of %d: %w", from, err)
	} else if ok {
		moved = true
	}

	chats := t.bucket(bucketChats)
	if v := chats.Get(u64(uint64(from))); v != nil {
		if chats.Get(u64(uint64(to))) == nil {
			var ch Chat
			if err := json.Unmarshal(v, &ch); err != nil {
				return fmt.Errorf("store: decode chat %d: %w", from, err)
			}
			ch.ID = to
			if err := t.PutChat(ch); err != nil {
				return err
			}
		}
		if err := t.del(chats, u64(uint64(from))); err != nil {
			return err
		}
		moved = true
	}
	if !moved {
		return fmt.Errorf("store: move chat %d: %w", from, ErrNotFound)
	}
	return nil
}

// u64 is the 8-byte big-endian key of n.
func u64(n uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 24), n) }

func stateKey(id TableID) []byte { return append(u64(uint64(id)), 's') }

func placeKey(p Place) []byte {
	return binary.BigEndian.AppendUint64(u64(uint64(p.Chat)), uint64(int64(p.Topic)))
}

func seatKey(user int64, id TableID) []byte {
	return binary.BigEndian.AppendUint64(u64(uint64(user)), uint64(id))
}

func logKey(id TableID, seq int) []byte {
	return binary.BigEndian.AppendUint32(u64(uint64(id)), uint32(seq))
}

// archiveKey orders a chat's archived matches by finish time, then by table.
func archiveKey(ref MatchRef) []byte {
	nanos := ref.Finished.UnixNano()
	if nanos < 0 || ref.Finished.IsZero() {
		nanos = 0
	}
	k := binary.BigEndian.AppendUint64(u64(uint64(ref.Chat)), uint64(nanos))
	return binary.BigEndian.AppendUint64(k, uint64(ref.Table))
}

// get decodes the value under k into v, or returns ErrNotFound. json.Unmarshal copies everything
// it keeps, so nothing in v points into bbolt's memory map after the transaction.
func get(b *bolt.Bucket, k []byte, v any) error {
	data := b.Get(k)
	if data == nil {
		return ErrNotFound
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %x: %w", k, err)
	}
	return nil
}

// deletePrefix deletes every key of b that starts with prefix.
func (t *boltTx) deletePrefix(b *bolt.Bucket, prefix []byte) error {
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
		if err := t.delAt(c); err != nil {
			return err
		}
	}
	return nil
}

// trimPrefix deletes the oldest keys of b with prefix until at most keep remain.
func (t *boltTx) trimPrefix(b *bolt.Bucket, prefix []byte, keep int) error {
	n := 0
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	for ; n > keep; n-- {
		k, _ := c.Seek(prefix)
		if k == nil || !bytes.HasPrefix(k, prefix) {
			break
		}
		if err := t.delAt(c); err != nil {
			return err
		}
	}
	return nil
}
