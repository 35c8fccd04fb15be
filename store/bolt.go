package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Bucket names. Keys are 8-byte big-endian ids (uint64 of the int64), values JSON.
var (
	bucketTables  = []byte("tables")  // chat -> Table, the open tables
	bucketArchive = []byte("archive") // chat | finished unix nanos | sequence -> Table
	bucketUsers   = []byte("users")   // user id -> User
	bucketChats   = []byte("chats")   // chat -> Chat
	bucketMeta    = []byte("meta")    // "offset" -> int64, "schema" -> int64
	allBuckets    = [][]byte{bucketTables, bucketArchive, bucketUsers, bucketChats, bucketMeta}

	keyOffset = []byte("offset")
	keySchema = []byte("schema")
)

// schemaVersion is written into a new file; Open refuses a file written by a newer kozyr.
const schemaVersion = 1

// DefaultTimeout is how long Open waits for the file lock another process holds.
const DefaultTimeout = 5 * time.Second

// BoltStore is the bbolt implementation of Store: one file, every update one fsynced
// transaction. bbolt runs one write transaction at a time, so updates never interleave.
type BoltStore struct {
	db  *bolt.DB
	now func() time.Time
}

var _ Store = (*BoltStore)(nil)

// Option tunes Open.
type Option func(*options)

type options struct {
	timeout time.Duration
	noSync  bool
	now     func() time.Time
}

// WithTimeout sets how long Open waits for the file lock (DefaultTimeout otherwise), so a second
// bot started on the same file fails clearly instead of hanging.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithNoSync skips fsync on commit: faster, but a power loss may lose recent commits. For tests
// and benchmarks only; the bot never sets it.
func WithNoSync() Option { return func(o *options) { o.noSync = true } }

// WithClock sets the clock Finish uses to stamp a table's Finished time when the bot left it zero.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// Open opens (creating if needed) the bbolt file at path and its buckets.
func Open(path string, opts ...Option) (*BoltStore, error) {
	o := options{timeout: DefaultTimeout, now: time.Now}
	for _, f := range opts {
		f(&o)
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
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket(bucketMeta)
		if v := meta.Get(keySchema); v != nil {
			if len(v) != 8 || int64(binary.BigEndian.Uint64(v)) > schemaVersion {
				return fmt.Errorf("file schema %x is newer than this kozyr's %d", v, schemaVersion)
			}
			return nil
		}
		return meta.Put(keySchema, idKey(schemaVersion))
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("store: init %s: %w", path, err)
	}
	return &BoltStore{db: db, now: o.now}, nil
}

// Close closes the file; it waits for running transactions to finish.
func (s *BoltStore) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// Path is the file the store was opened on.
func (s *BoltStore) Path() string { return s.db.Path() }

// Ping commits an empty write transaction. It checks the file is writable, and it is the floor
// every write pays (the fsync of a commit), which the benchmarks compare UpdateTable against.
func (s *BoltStore) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	if err := s.db.Update(func(*bolt.Tx) error { return nil }); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Table returns the open table of chat, or ErrNotFound.
func (s *BoltStore) Table(ctx context.Context, chat int64) (Table, error) {
	var t Table
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return get(tx.Bucket(bucketTables), idKey(chat), &t)
	})
	if err != nil {
		return Table{}, fmt.Errorf("store: table %d: %w", chat, err)
	}
	return t, nil
}

// UpdateTable runs fn on the table of chat in one write transaction and saves what fn leaves
// (t.Chat is always chat). When fn returns an error nothing is written and the error is returned
// wrapped, so errors.Is(err, ErrConflict) works.
func (s *BoltStore) UpdateTable(ctx context.Context, chat int64, fn func(t *Table, ok bool) error) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTables)
		var t Table
		err := get(b, idKey(chat), &t)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := fn(&t, err == nil); err != nil {
			return err
		}
		t.Chat = chat
		return put(b, idKey(chat), t)
	})
	if err != nil {
		return fmt.Errorf("store: update table %d: %w", chat, err)
	}
	return nil
}

// DeleteTable removes the open table of chat; deleting a missing table is not an error.
func (s *BoltStore) DeleteTable(ctx context.Context, chat int64) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTables).Delete(idKey(chat))
	})
	if err != nil {
		return fmt.Errorf("store: delete table %d: %w", chat, err)
	}
	return nil
}

// Tables lists every open table in key order.
func (s *BoltStore) Tables(ctx context.Context) ([]Table, error) {
	var out []Table
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketTables).ForEach(func(k, v []byte) error {
			var t Table
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("decode table %x: %w", k, err)
			}
			out = append(out, t)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: tables: %w", err)
	}
	return out, nil
}

// MoveTable moves everything kept under chat from to chat to, in one transaction: the open table,
// the archived matches and the chat's settings (a group that became a supergroup keeps them all).
// It fails with ErrConflict if to already has an open table, and with ErrNotFound if from had
// nothing to move; either way nothing changes. Settings already kept for to win over from's.
func (s *BoltStore) MoveTable(ctx context.Context, from, to int64) error {
	if from == to {
		return nil
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		moved := false
		tables := tx.Bucket(bucketTables)
		var t Table
		switch err := get(tables, idKey(from), &t); {
		case err == nil:
			if tables.Get(idKey(to)) != nil {
				return fmt.Errorf("%w: chat %d already has a table", ErrConflict, to)
			}
			t.Chat = to
			if err := put(tables, idKey(to), t); err != nil {
				return err
			}
			if err := tables.Delete(idKey(from)); err != nil {
				return err
			}
			moved = true
		case !errors.Is(err, ErrNotFound):
			return err
		}

		archive := tx.Bucket(bucketArchive)
		var keys [][]byte
		c := archive.Cursor()
		for k, _ := c.Seek(idKey(from)); k != nil && bytes.HasPrefix(k, idKey(from)); k, _ = c.Next() {
			keys = append(keys, bytes.Clone(k))
		}
		for _, k := range keys {
			var a Table
			if err := get(archive, k, &a); err != nil {
				return err
			}
			a.Chat = to
			nk := append(idKey(to), k[8:]...)
			if err := put(archive, nk, a); err != nil {
				return err
			}
			if err := archive.Delete(k); err != nil {
				return err
			}
			moved = true
		}

		chats := tx.Bucket(bucketChats)
		var ch Chat
		switch err := get(chats, idKey(from), &ch); {
		case err == nil:
			if chats.Get(idKey(to)) == nil {
				ch.ID = to
				if err := put(chats, idKey(to), ch); err != nil {
					return err
				}
			}
			if err := chats.Delete(idKey(from)); err != nil {
				return err
			}
			moved = true
		case !errors.Is(err, ErrNotFound):
			return err
		}
		if !moved {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: move table %d to %d: %w", from, to, err)
	}
	return nil
}

// Finish archives the open table of chat and deletes it, and calls fn once for each distinct
// seated user (not agents) on their record, all in one transaction. A zero t.Finished is set to
// the store's clock. ErrNotFound if chat has no open table.
func (s *BoltStore) Finish(ctx context.Context, chat int64, fn func(t Table, u *User)) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		tables := tx.Bucket(bucketTables)
		var t Table
		if err := get(tables, idKey(chat), &t); err != nil {
			return err
		}
		if t.Finished.IsZero() {
			t.Finished = s.now()
		}
		archive := tx.Bucket(bucketArchive)
		seq, err := archive.NextSequence()
		if err != nil {
			return err
		}
		if err := put(archive, archiveKey(chat, t.Finished, seq), t); err != nil {
			return err
		}
		if err := tables.Delete(idKey(chat)); err != nil {
			return err
		}
		if fn == nil {
			return nil
		}
		users := tx.Bucket(bucketUsers)
		done := map[int64]bool{}
		for _, p := range t.Seats {
			if p.AI || p.UserID == 0 || done[p.UserID] {
				continue
			}
			done[p.UserID] = true
			u := User{ID: p.UserID}
			if err := get(users, idKey(p.UserID), &u); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			fn(t, &u)
			u.ID = p.UserID
			if err := put(users, idKey(p.UserID), u); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: finish table %d: %w", chat, err)
	}
	return nil
}

// LastFinished returns the newest archived match of chat (by Finished time), or ErrNotFound.
func (s *BoltStore) LastFinished(ctx context.Context, chat int64) (Table, error) {
	var t Table
	err := s.view(ctx, func(tx *bolt.Tx) error {
		prefix := idKey(chat)
		c := tx.Bucket(bucketArchive).Cursor()
		// Seek past the last possible key of chat, then step back onto its newest entry.
		last := append(bytes.Clone(prefix), bytes.Repeat([]byte{0xff}, 16)...)
		k, v := c.Seek(last)
		if k == nil || !bytes.HasPrefix(k, prefix) {
			k, v = c.Prev()
		}
		if k == nil || !bytes.HasPrefix(k, prefix) {
			return ErrNotFound
		}
		if err := json.Unmarshal(v, &t); err != nil {
			return fmt.Errorf("decode archive %x: %w", k, err)
		}
		return nil
	})
	if err != nil {
		return Table{}, fmt.Errorf("store: last finished of %d: %w", chat, err)
	}
	return t, nil
}

// User returns the record of user id, or ErrNotFound.
func (s *BoltStore) User(ctx context.Context, id int64) (User, error) {
	var u User
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return get(tx.Bucket(bucketUsers), idKey(id), &u)
	})
	if err != nil {
		return User{}, fmt.Errorf("store: user %d: %w", id, err)
	}
	return u, nil
}

// UpdateUser runs fn on the record of user id (a zero User with ID set when there is none) in one
// transaction, and saves it unless fn fails.
func (s *BoltStore) UpdateUser(ctx context.Context, id int64, fn func(u *User) error) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketUsers)
		u := User{ID: id}
		if err := get(b, idKey(id), &u); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := fn(&u); err != nil {
			return err
		}
		u.ID = id
		return put(b, idKey(id), u)
	})
	if err != nil {
		return fmt.Errorf("store: update user %d: %w", id, err)
	}
	return nil
}

// Chat returns the record of chat id, or ErrNotFound.
func (s *BoltStore) Chat(ctx context.Context, id int64) (Chat, error) {
	var c Chat
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return get(tx.Bucket(bucketChats), idKey(id), &c)
	})
	if err != nil {
		return Chat{}, fmt.Errorf("store: chat %d: %w", id, err)
	}
	return c, nil
}

// UpdateChat runs fn on the record of chat id (a zero Chat with ID set when there is none) in one
// transaction, and saves it unless fn fails.
func (s *BoltStore) UpdateChat(ctx context.Context, id int64, fn func(c *Chat) error) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChats)
		c := Chat{ID: id}
		if err := get(b, idKey(id), &c); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err := fn(&c); err != nil {
			return err
		}
		c.ID = id
		return put(b, idKey(id), c)
	})
	if err != nil {
		return fmt.Errorf("store: update chat %d: %w", id, err)
	}
	return nil
}

// Offset returns the last update_id saved by SetOffset, 0 if none.
func (s *BoltStore) Offset(ctx context.Context) (int64, error) {
	var n int64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketMeta).Get(keyOffset)
		if v == nil {
			return nil
		}
		if len(v) != 8 {
			return fmt.Errorf("corrupt offset %x", v)
		}
		n = int64(binary.BigEndian.Uint64(v))
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: offset: %w", err)
	}
	return n, nil
}

// SetOffset saves updateID as given, even if lower than before: Telegram may restart update ids
// after a quiet week, so the caller decides what is newest.
func (s *BoltStore) SetOffset(ctx context.Context, updateID int64) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyOffset, idKey(updateID))
	})
	if err != nil {
		return fmt.Errorf("store: set offset %d: %w", updateID, err)
	}
	return nil
}

// view and update refuse to start once ctx is done. bbolt itself takes no context: a started
// transaction runs to its end.
func (s *BoltStore) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}

func (s *BoltStore) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

// idKey is the 8-byte big-endian key of an int64 id.
func idKey(id int64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 24), uint64(id))
}

// archiveKey orders a chat's archived matches by finish time, then by insertion.
func archiveKey(chat int64, finished time.Time, seq uint64) []byte {
	k := idKey(chat)
	nanos := finished.UnixNano()
	if nanos < 0 {
		nanos = 0
	}
	k = binary.BigEndian.AppendUint64(k, uint64(nanos))
	return binary.BigEndian.AppendUint64(k, seq)
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

func put(b *bolt.Bucket, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %x: %w", k, err)
	}
	return b.Put(k, data)
}
