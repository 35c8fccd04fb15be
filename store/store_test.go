package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

func openTemp(t testing.TB, opts ...Option) (*BoltStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kozyr.db")
	s, err := Open(path, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// sampleTable is a table in the middle of a match, with every field set.
func sampleTable(chat int64) Table {
	return Table{
		Chat:    chat,
		Game:    "wizard",
		Config:  games.Config{Players: 3, Options: map[string]string{"hidden_bids": "on"}},
		Seed:    math.MaxUint64 - 7,
		Creator: 101,
		Seats: []Player{
			{UserID: 101, Name: "Eve <3", HandMsg: 55, Lang: "ru"},
			{UserID: 102, Name: "Tom & Jerry", Timeouts: 2},
			{Name: "AI 1", AI: true, Away: true},
		},
		Started:  true,
		Log:      []string{"0:bid/1", "1:bid/0", "2:bid/1", "0:play/SQ"},
		State:    []byte{0, 1, 2, 0xff, '"'},
		Version:  4,
		LobbyMsg: 10,
		TableMsg: 11,
		Deadline: t0.Add(2 * time.Minute),
		Created:  t0,
		Extra:    map[string]string{"k": "v"},
	}
}

func put1(t *testing.T, s *BoltStore, tb Table) {
	t.Helper()
	err := s.UpdateTable(context.Background(), tb.Chat, func(cur *Table, ok bool) error {
		*cur = tb
		return nil
	})
	if err != nil {
		t.Fatalf("UpdateTable(%d): %v", tb.Chat, err)
	}
}

func TestTableRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.Table(ctx, -100); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Table of an empty store: %v, want ErrNotFound", err)
	}
	want := sampleTable(-100)
	err := s.UpdateTable(ctx, -100, func(tb *Table, ok bool) error {
		if ok || !reflect.DeepEqual(*tb, Table{}) {
			t.Errorf("first update sees ok=%v %+v, want a zero table", ok, *tb)
		}
		*tb = want
		tb.Chat = 999 // the key wins
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Table(ctx, -100)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, want)
	}
	err = s.UpdateTable(ctx, -100, func(tb *Table, ok bool) error {
		if !ok || !reflect.DeepEqual(*tb, want) {
			t.Errorf("second update sees ok=%v %+v", ok, *tb)
		}
		tb.Log = append(tb.Log, "1:play/S2")
		tb.Version++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Table(ctx, -100); got.Version != 5 || len(got.Log) != 5 {
		t.Fatalf("after update: version %d, log %v", got.Version, got.Log)
	}
}

func TestUpdateTableErrorWritesNothing(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	put1(t, s, sampleTable(7))
	tests := []struct {
		name string
		err  error
	}{
		{"conflict", fmt.Errorf("version 3 != 4: %w", ErrConflict)},
		{"other", errors.New("boom")},
	}
	for _, tt := range tests {
		err := s.UpdateTable(ctx, 7, func(tb *Table, ok bool) error {
			tb.Version = 1000
			tb.Log = nil
			return tt.err
		})
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: got %v, want it to wrap %v", tt.name, err, tt.err)
		}
		if got, _ := s.Table(ctx, 7); got.Version != 4 || len(got.Log) != 4 {
			t.Errorf("%s: the failed update was written: %+v", tt.name, got)
		}
	}
	// A failed first update creates nothing.
	_ = s.UpdateTable(ctx, 8, func(*Table, bool) error { return ErrConflict })
	if _, err := s.Table(ctx, 8); !errors.Is(err, ErrNotFound) {
		t.Errorf("a failed create left a record: %v", err)
	}
}

func TestDeleteAndListTables(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	chats := []int64{math.MinInt64, -1001234567890, -5, 0, 3, math.MaxInt64}
	for _, c := range chats {
		put1(t, s, sampleTable(c))
	}
	list, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, tb := range list {
		got = append(got, tb.Chat)
	}
	slices.Sort(got)
	if !slices.Equal(got, chats) {
		t.Fatalf("Tables = %v, want %v", got, chats)
	}
	if err := s.DeleteTable(ctx, -5); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTable(ctx, -5); err != nil {
		t.Fatalf("deleting a missing table: %v", err)
	}
	if _, err := s.Table(ctx, -5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted table still there: %v", err)
	}
	if list, _ := s.Tables(ctx); len(list) != len(chats)-1 {
		t.Fatalf("Tables after delete: %d", len(list))
	}
}

func TestFinishAndLastFinished(t *testing.T) {
	now := t0.Add(time.Hour)
	s, _ := openTemp(t, WithClock(func() time.Time { return now }))
	ctx := context.Background()
	if _, err := s.LastFinished(ctx, -5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("LastFinished of nothing: %v", err)
	}
	if err := s.Finish(ctx, -5, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Finish without a table: %v", err)
	}
	// Neighbouring chats, so a wrong prefix scan would pick up the wrong archive.
	for _, c := range []int64{-6, -4} {
		tb := sampleTable(c)
		tb.Finished = t0.Add(48 * time.Hour)
		put1(t, s, tb)
		if err := s.Finish(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.UpdateUser(ctx, 101, func(u *User) error { u.Lang = "ru"; return nil }); err != nil {
		t.Fatal(err)
	}
	for i, finished := range []time.Time{t0.Add(3 * time.Minute), {}, t0.Add(time.Minute)} {
		tb := sampleTable(-5)
		tb.Seed = uint64(i)
		tb.Finished = finished
		tb.Seats = append(tb.Seats, Player{UserID: 101, Name: "Eve again"}) // counted once
		put1(t, s, tb)
		var seen []int64
		err := s.Finish(ctx, -5, func(ft Table, u *User) {
			seen = append(seen, u.ID)
			st := u.Stats[ft.Game]
			st.Played++
			st.Points += 10
			if u.Stats == nil {
				u.Stats = map[string]Stat{}
			}
			u.Stats[ft.Game] = st
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(seen, []int64{101, 102}) {
			t.Fatalf("fn called for %v, want [101 102] (agents skipped, each user once)", seen)
		}
		if _, err := s.Table(ctx, -5); !errors.Is(err, ErrNotFound) {
			t.Fatalf("finished table still open: %v", err)
		}
	}
	last, err := s.LastFinished(ctx, -5)
	if err != nil {
		t.Fatal(err)
	}
	if last.Seed != 1 || !last.Finished.Equal(now) {
		t.Fatalf("LastFinished = seed %d finished %v, want the one stamped now (seed 1)", last.Seed, last.Finished)
	}
	u, err := s.User(ctx, 101)
	if err != nil {
		t.Fatal(err)
	}
	if u.Lang != "ru" || u.Stats["wizard"] != (Stat{Played: 3, Points: 30}) {
		t.Fatalf("user 101 = %+v", u)
	}
	if u, _ := s.User(ctx, 102); u.ID != 102 || u.Stats["wizard"].Played != 3 {
		t.Fatalf("user 102 = %+v", u)
	}
	for _, c := range []int64{-6, -4} {
		if got, err := s.LastFinished(ctx, c); err != nil || got.Chat != c {
			t.Fatalf("LastFinished(%d) = %d, %v", c, got.Chat, err)
		}
	}
}

func TestLastFinishedExtremeIDs(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, c := range []int64{math.MinInt64, -1, 0, math.MaxInt64} {
		tb := sampleTable(c)
		tb.Finished = t0
		put1(t, s, tb)
		if err := s.Finish(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		if got, err := s.LastFinished(ctx, c); err != nil || got.Chat != c {
			t.Errorf("LastFinished(%d) = %d, %v", c, got.Chat, err)
		}
	}
	if _, err := s.LastFinished(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("LastFinished(1) = %v, want ErrNotFound", err)
	}
}

func TestMoveTable(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const from, to = int64(-42), int64(-1000000000042)
	old := sampleTable(from)
	old.Finished = t0
	put1(t, s, old)
	if err := s.Finish(ctx, from, nil); err != nil {
		t.Fatal(err)
	}
	put1(t, s, sampleTable(from))
	if err := s.UpdateChat(ctx, from, func(c *Chat) error { c.Lang = "ru"; return nil }); err != nil {
		t.Fatal(err)
	}
	put1(t, s, sampleTable(-7))
	if err := s.MoveTable(ctx, from, -7); !errors.Is(err, ErrConflict) {
		t.Fatalf("move onto an open table: %v, want ErrConflict", err)
	}
	if err := s.MoveTable(ctx, from, to); err != nil {
		t.Fatal(err)
	}
	if tb, err := s.Table(ctx, to); err != nil || tb.Chat != to || tb.Version != 4 {
		t.Fatalf("moved table: %+v, %v", tb, err)
	}
	if _, err := s.Table(ctx, from); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old table still there: %v", err)
	}
	if a, err := s.LastFinished(ctx, to); err != nil || a.Chat != to {
		t.Fatalf("moved archive: %+v, %v", a.Chat, err)
	}
	if _, err := s.LastFinished(ctx, from); !errors.Is(err, ErrNotFound) {
		t.Fatalf("old archive still there: %v", err)
	}
	if c, err := s.Chat(ctx, to); err != nil || c != (Chat{ID: to, Lang: "ru"}) {
		t.Fatalf("moved chat: %+v, %v", c, err)
	}
	if err := s.MoveTable(ctx, from, to); !errors.Is(err, ErrNotFound) {
		t.Fatalf("moving nothing: %v, want ErrNotFound", err)
	}
}

func TestUsersAndChats(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.User(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("User of nothing: %v", err)
	}
	if _, err := s.Chat(ctx, -1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Chat of nothing: %v", err)
	}
	err := s.UpdateUser(ctx, 1, func(u *User) error {
		if u.ID != 1 || u.Name != "" {
			t.Errorf("new user = %+v", *u)
		}
		*u = User{ID: 5, Name: "Eve <3", Lang: "ru", DMOpen: true, Stats: map[string]Stat{"skat": {Played: 2, Won: 1, Points: 48}}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := User{ID: 1, Name: "Eve <3", Lang: "ru", DMOpen: true, Stats: map[string]Stat{"skat": {Played: 2, Won: 1, Points: 48}}}
	if u, err := s.User(ctx, 1); err != nil || !reflect.DeepEqual(u, want) {
		t.Fatalf("User = %+v, %v", u, err)
	}
	boom := errors.New("boom")
	if err := s.UpdateUser(ctx, 1, func(u *User) error { u.Lang = "en"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("UpdateUser error: %v", err)
	}
	if u, _ := s.User(ctx, 1); u.Lang != "ru" {
		t.Fatalf("failed update written: %+v", u)
	}
	if err := s.UpdateChat(ctx, -1, func(c *Chat) error { c.Lang = "en"; c.ID = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateChat(ctx, -1, func(c *Chat) error { c.Lang = "ru"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("UpdateChat error: %v", err)
	}
	if c, err := s.Chat(ctx, -1); err != nil || c != (Chat{ID: -1, Lang: "en"}) {
		t.Fatalf("Chat = %+v, %v", c, err)
	}
}

func TestOffset(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, tt := range []struct{ set, want int64 }{{0, 0}, {700000001, 700000001}, {12, 12}} {
		if tt.set != 0 {
			if err := s.SetOffset(ctx, tt.set); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.Offset(ctx); err != nil || got != tt.want {
			t.Fatalf("Offset = %d, %v; want %d", got, err, tt.want)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]error{
		"Table":        func() error { _, err := s.Table(ctx, 1); return err }(),
		"UpdateTable":  s.UpdateTable(ctx, 1, func(*Table, bool) error { t.Error("fn ran"); return nil }),
		"DeleteTable":  s.DeleteTable(ctx, 1),
		"Tables":       func() error { _, err := s.Tables(ctx); return err }(),
		"MoveTable":    s.MoveTable(ctx, 1, 2),
		"Finish":       s.Finish(ctx, 1, nil),
		"LastFinished": func() error { _, err := s.LastFinished(ctx, 1); return err }(),
		"User":         func() error { _, err := s.User(ctx, 1); return err }(),
		"UpdateUser":   s.UpdateUser(ctx, 1, func(*User) error { return nil }),
		"Chat":         func() error { _, err := s.Chat(ctx, 1); return err }(),
		"UpdateChat":   s.UpdateChat(ctx, 1, func(*Chat) error { return nil }),
		"Offset":       func() error { _, err := s.Offset(ctx); return err }(),
		"SetOffset":    s.SetOffset(ctx, 1),
		"Ping":         s.Ping(ctx),
	}
	for name, err := range calls {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", name, err)
		}
	}
}

// TestConcurrentUpdates: many goroutines bump the same tables; bbolt's single writer means no
// update is lost.
func TestConcurrentUpdates(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	ctx := context.Background()
	const workers, each = 16, 40
	chats := []int64{-1, -2, -3}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				chat := chats[(w+i)%len(chats)]
				err := s.UpdateTable(ctx, chat, func(tb *Table, ok bool) error {
					tb.Log = append(tb.Log, fmt.Sprintf("%d:n/%d", w, i))
					tb.Version = len(tb.Log)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for _, c := range chats {
		tb, err := s.Table(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Version != len(tb.Log) {
			t.Errorf("chat %d: version %d, log %d", c, tb.Version, len(tb.Log))
		}
		total += len(tb.Log)
	}
	if total != workers*each {
		t.Fatalf("%d updates survived, want %d", total, workers*each)
	}
}

// TestReopen: everything written is there after Close and Open, and values read before Close do
// not point into the unmapped file.
func TestReopen(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	want := sampleTable(-9)
	put1(t, s, want)
	if err := s.UpdateUser(ctx, 101, func(u *User) error { u.DMOpen = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateChat(ctx, -9, func(c *Chat) error { c.Lang = "ru"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOffset(ctx, 77); err != nil {
		t.Fatal(err)
	}
	before, err := s.Table(ctx, -9)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, want) { // touches every byte read before Close
		t.Fatalf("value read before Close changed: %+v", before)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got, err := s2.Table(ctx, -9); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	if u, err := s2.User(ctx, 101); err != nil || !u.DMOpen {
		t.Fatalf("user after reopen: %+v, %v", u, err)
	}
	if c, err := s2.Chat(ctx, -9); err != nil || c.Lang != "ru" {
		t.Fatalf("chat after reopen: %+v, %v", c, err)
	}
	if n, err := s2.Offset(ctx); err != nil || n != 77 {
		t.Fatalf("offset after reopen: %d, %v", n, err)
	}
}

func TestOpenTimeout(t *testing.T) {
	s, path := openTemp(t)
	_ = s
	start := time.Now()
	_, err := Open(path, WithTimeout(100*time.Millisecond))
	if !errors.Is(err, berrors.ErrTimeout) {
		t.Fatalf("second Open of a locked file: %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Open took %v despite the timeout", d)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing", "x.db")); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
	// A file written by a newer kozyr is refused rather than misread.
	path := filepath.Join(dir, "new.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(keySchema, idKey(schemaVersion+1))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if s, err := Open(path); err == nil {
		s.Close()
		t.Error("Open of a newer schema succeeded")
	}
}

func TestPingAndPath(t *testing.T) {
	s, path := openTemp(t)
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err == nil {
		t.Error("Ping after Close succeeded")
	}
}
