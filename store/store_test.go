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

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
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
	alice, bob := NewPlayer(101, "Eve <3", "ru"), NewPlayer(102, "Tom & Jerry", "")
	alice.HandMsg, alice.Shown, alice.Buttons, alice.TurnFrom, alice.Prompted = 55, 7, true, 3, 3
	bob.Timeouts, bob.Acted = 2, 2
	ai := NewAgent()
	ai.Away = true
	return Table{
		Place:       Place{Chat: chat, Topic: 4},
		Game:        "wizard",
		Rules:       2,
		Config:      games.Config{Players: 3, Options: map[string]string{"hidden_bids": "on"}},
		Seed:        math.MaxUint64 - 7,
		Creator:     101,
		CreatorName: "Eve <3",
		Seats:       []Player{alice, bob, ai},
		Started:     true,
		Version:     4,
		Msg:         11,
		Shown:       99,
		TimedOut:    2,
		Deadline:    t0.Add(2 * time.Minute),
		TurnTimeout: ptr(90 * time.Second),
		AIDelay:     ptr(time.Duration(0)),
		Created:     t0,
	}
}

func ptr[T any](v T) *T { return &v }

func update(t testing.TB, s Store, fn func(tx Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func view(t testing.TB, s Store, fn func(tx Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// TestTableLifecycle: a table gets an id, holds its place while open, keeps its state and log
// beside the record, lists its users, gives up its place when it ends and leaves nothing behind
// when deleted.
func TestTableLifecycle(t *testing.T) {
	s, _ := openTemp(t)
	want := sampleTable(-9)
	log := []Entry{{0, games.Num("bid", 1), 0}, {1, games.Do("pass"), 77}, {2, games.With("play", cards.MustParse("SQ")), 1 << 40}}
	update(t, s, func(tx Tx) error {
		if err := tx.PutTable(&want); err != nil {
			return err
		}
		if want.ID == 0 {
			t.Fatal("PutTable assigned no id")
		}
		if err := tx.PutState(want.ID, []byte{0, 1, 0xff}); err != nil {
			return err
		}
		for i, e := range log {
			if err := tx.AppendLog(want.ID, i, e); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx Tx) error {
		got, err := tx.TableAt(want.Place)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("TableAt = %+v, %v; want %+v", got, err, want)
		}
		if _, err := tx.TableAt(Place{Chat: -9}); !errors.Is(err, ErrNotFound) {
			t.Errorf("TableAt another topic: %v", err)
		}
		if st, err := tx.State(want.ID); err != nil || !slices.Equal(st, []byte{0, 1, 0xff}) {
			t.Errorf("State = %v, %v", st, err)
		}
		if got, err := tx.Log(want.ID); err != nil || !slices.Equal(got, log) {
			t.Errorf("Log = %v, %v", got, err)
		}
		if got, err := tx.LogFrom(want.ID, 1); err != nil || !slices.Equal(got, log[1:]) {
			t.Errorf("LogFrom(1) = %v, %v", got, err)
		}
		if got, err := tx.LogFrom(want.ID, 3); err != nil || len(got) != 0 {
			t.Errorf("LogFrom(3) = %v, %v", got, err)
		}
		for user, n := range map[int64]int{101: 1, 102: 1, 103: 0} {
			if ids, _ := tx.UserTables(user); len(ids) != n {
				t.Errorf("UserTables(%d) = %v", user, ids)
			}
		}
		return nil
	})

	// A second open table at the same place is refused; another topic is fine.
	other := sampleTable(-9)
	err := s.Update(context.Background(), func(tx Tx) error { return tx.PutTable(&other) })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("second table at one place: %v", err)
	}
	// Bob leaves; the table ends and gives up its place.
	update(t, s, func(tx Tx) error {
		rec, err := tx.Table(want.ID)
		if err != nil {
			return err
		}
		rec.Seats = rec.Seats[:1]
		rec.Finished = t0
		return tx.PutTable(&rec)
	})
	view(t, s, func(tx Tx) error {
		if _, err := tx.TableAt(want.Place); !errors.Is(err, ErrNotFound) {
			t.Errorf("an ended table still holds its place: %v", err)
		}
		if rec, err := tx.Table(want.ID); err != nil || !rec.Ending() {
			t.Errorf("ended table: %+v, %v", rec, err)
		}
		if ids, _ := tx.UserTables(102); len(ids) != 0 {
			t.Errorf("Bob still listed at %v", ids)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.PutTable(&other) })
	update(t, s, func(tx Tx) error { return tx.DeleteTable(want.ID) })
	view(t, s, func(tx Tx) error {
		if _, err := tx.Table(want.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted table: %v", err)
		}
		if _, err := tx.State(want.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("deleted table's state: %v", err)
		}
		if l, err := tx.Log(want.ID); err != nil || len(l) != 0 {
			t.Errorf("deleted table's log: %v, %v", l, err)
		}
		if got, err := tx.TableAt(want.Place); err != nil || got.ID != other.ID {
			t.Errorf("the newer table lost its place: %+v, %v", got, err)
		}
		if all, err := tx.Tables(); err != nil || len(all) != 1 {
			t.Errorf("Tables = %d, %v", len(all), err)
		}
		if ids, _ := tx.UserTables(101); !slices.Equal(ids, []TableID{other.ID}) {
			t.Errorf("UserTables(101) = %v, want [%d]", ids, other.ID)
		}
		return nil
	})
}

func TestFailedUpdateWritesNothing(t *testing.T) {
	s, _ := openTemp(t)
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx Tx) error {
		tb := sampleTable(-1)
		if err := tx.PutTable(&tb); err != nil {
			return err
		}
		if err := tx.MarkSeen(5); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v", err)
	}
	view(t, s, func(tx Tx) error {
		if all, _ := tx.Tables(); len(all) != 0 {
			t.Errorf("failed update left %d tables", len(all))
		}
		if seen, _ := tx.Seen(5); seen {
			t.Error("failed update marked an update seen")
		}
		return nil
	})
	if st := s.Stats(); st.Commits != 0 || st.Put != 0 {
		t.Errorf("stats after a failed update: %+v", st)
	}
}

// TestSeen: a processed update id is recognised for a day, then forgotten, so an id Telegram
// hands out again after restarting its ids is new.
func TestSeen(t *testing.T) {
	now := t0
	s, _ := openTemp(t, WithClock(func() time.Time { return now }))
	update(t, s, func(tx Tx) error { return tx.MarkSeen(1000) })
	check := func(id int64, want bool) {
		t.Helper()
		view(t, s, func(tx Tx) error {
			if got, err := tx.Seen(id); err != nil || got != want {
				t.Errorf("at %v Seen(%d) = %v, %v; want %v", now, id, got, err, want)
			}
			return nil
		})
	}
	check(1000, true)
	check(1001, false)
	now = now.Add(23 * time.Hour)
	update(t, s, func(tx Tx) error { return tx.MarkSeen(1001) })
	check(1000, true)
	now = now.Add(2 * time.Hour)
	check(1000, false)
	check(1001, true)
	update(t, s, func(tx Tx) error { return tx.MarkSeen(2000) })
	hours := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSeen).ForEach(func(k, v []byte) error { hours++; return nil })
	})
	if err != nil || hours != 2 {
		t.Errorf("%d hours of update ids kept (want 2: the old ones are dropped), %v", hours, err)
	}
}

func TestRows(t *testing.T) {
	s, _ := openTemp(t)
	var first, second uint64
	update(t, s, func(tx Tx) error {
		var err error
		if first, err = tx.PutRow("t1/sync", []byte("a")); err != nil {
			return err
		}
		if _, err = tx.PutRow("t2/post", []byte("b")); err != nil {
			return err
		}
		second, err = tx.PutRow("t1/sync", []byte("c"))
		return err
	})
	update(t, s, func(tx Tx) error { return tx.DeleteRow("t1/sync", first) }) // replaced: stays
	view(t, s, func(tx Tx) error {
		rows, err := tx.Rows()
		want := []Row{{Key: "t1/sync", Seq: second, Body: []byte("c")}, {Key: "t2/post", Seq: 2, Body: []byte("b")}}
		if err != nil || !reflect.DeepEqual(rows, want) {
			t.Errorf("Rows = %+v, %v; want %+v", rows, err, want)
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.DeleteRow("t1/sync", second) })
	view(t, s, func(tx Tx) error {
		if rows, _ := tx.Rows(); len(rows) != 1 || rows[0].Key != "t2/post" {
			t.Errorf("after delete: %+v", rows)
		}
		return nil
	})
}

// TestUpdates: kept updates come back in id order, as they were put, after a reopen; a deleted
// one does not.
func TestUpdates(t *testing.T) {
	s, path := openTemp(t)
	update(t, s, func(tx Tx) error {
		for _, id := range []int64{700, 5, 1 << 40} {
			if err := tx.PutUpdate(id, []byte(fmt.Sprintf(`{"update_id":%d}`, id))); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, s, func(tx Tx) error { return tx.DeleteUpdate(700) })
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	view(t, s2, func(tx Tx) error {
		got, err := tx.Updates()
		want := []Update{{ID: 5, Raw: []byte(`{"update_id":5}`)}, {ID: 1 << 40, Raw: []byte(`{"update_id":1099511627776}`)}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Updates = %+v, %v; want %+v", got, err, want)
		}
		return nil
	})
}

// TestArchive: a chat keeps its newest matches up to the limit; LastMatch and Match find them,
// and a match's sheet comes back with its typed arguments.
func TestArchive(t *testing.T) {
	s, _ := openTemp(t, WithArchiveKeep(3))
	var refs []MatchRef
	for i := range 5 {
		m := Match{Table: TableID(10 + i), Place: Place{Chat: -5}, Game: "skat", Rules: 1, Seed: uint64(i),
			Seats: []MatchSeat{{UserID: 1, Name: "A"}, {AI: true}}, Log: []string{"0:pass"},
			Created: t0, Finished: t0.Add(time.Duration(i) * time.Minute),
			Sheet: &games.Sheet{Rows: []games.SheetRow{{Label: games.M("skat.row", "Seat", games.Seat(1), "Card", cards.MustParse("SQ")), Cells: []string{"1", "2"}, Points: []int{1, 2}}},
				Totals: []int{1, 2}, Winners: []games.Seat{1}}}
		update(t, s, func(tx Tx) error {
			ref, err := tx.Archive(m)
			refs = append(refs, ref)
			return err
		})
	}
	update(t, s, func(tx Tx) error {
		_, err := tx.Archive(Match{Table: 99, Place: Place{Chat: -6}, Finished: t0})
		return err
	})
	view(t, s, func(tx Tx) error {
		last, err := tx.LastMatch(-5)
		if err != nil || last.Table != 14 || last.Seed != 4 {
			t.Errorf("LastMatch = %+v, %v", last, err)
		}
		if last.Sheet == nil || last.Sheet.Rows[0].Label.Args["Seat"] != games.Seat(1) || last.Sheet.Rows[0].Label.Args["Card"] != cards.MustParse("SQ") {
			t.Errorf("sheet came back as %+v", last.Sheet)
		}
		if _, err := tx.Match(refs[0]); !errors.Is(err, ErrNotFound) {
			t.Errorf("the oldest of five with keep 3: %v", err)
		}
		if m, err := tx.Match(refs[2]); err != nil || m.Table != 12 {
			t.Errorf("Match(refs[2]) = %+v, %v", m, err)
		}
		if _, err := tx.LastMatch(-7); !errors.Is(err, ErrNotFound) {
			t.Errorf("LastMatch of a chat without matches: %v", err)
		}
		return nil
	})
}

// TestMoveChat: a group that becomes a supergroup takes its open table, archive and settings.
func TestMoveChat(t *testing.T) {
	s, _ := openTemp(t)
	tb := sampleTable(-10)
	update(t, s, func(tx Tx) error {
		if err := tx.PutTable(&tb); err != nil {
			return err
		}
		if _, err := tx.Archive(Match{Table: 1, Place: Place{Chat: -10}, Finished: t0}); err != nil {
			return err
		}
		return tx.PutChat(Chat{ID: -10, Lang: "ru"})
	})
	update(t, s, func(tx Tx) error { return tx.MoveChat(-10, -100) })
	view(t, s, func(tx Tx) error {
		got, err := tx.TableAt(Place{Chat: -100, Topic: 4})
		if err != nil || got.ID != tb.ID || got.Place.Chat != -100 {
			t.Errorf("moved table: %+v, %v", got, err)
		}
		if _, err := tx.TableAt(tb.Place); !errors.Is(err, ErrNotFound) {
			t.Errorf("old place still held: %v", err)
		}
		if m, err := tx.LastMatch(-100); err != nil || m.Place.Chat != -100 {
			t.Errorf("moved archive: %+v, %v", m, err)
		}
		if c, err := tx.Chat(-100); err != nil || c.Lang != "ru" {
			t.Errorf("moved chat: %+v, %v", c, err)
		}
		if _, err := tx.Chat(-10); !errors.Is(err, ErrNotFound) {
			t.Errorf("old chat record stays: %v", err)
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx Tx) error { return tx.MoveChat(-10, -100) })
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("moving an empty chat: %v", err)
	}
	clash := sampleTable(-11)
	update(t, s, func(tx Tx) error { return tx.PutTable(&clash) })
	clash.Place.Chat = -100
	err = s.Update(context.Background(), func(tx Tx) error { return tx.MoveChat(-11, -100) })
	if !errors.Is(err, ErrConflict) {
		t.Errorf("moving onto a held place: %v", err)
	}
}

func TestUsersAndChats(t *testing.T) {
	s, _ := openTemp(t)
	view(t, s, func(tx Tx) error {
		if u, err := tx.User(5); !errors.Is(err, ErrNotFound) || u.ID != 5 {
			t.Errorf("missing user: %+v, %v", u, err)
		}
		return nil
	})
	u := User{ID: 5, Name: "Ann", Lang: "ru", DMOpen: true, Stats: map[string]Stat{"skat": {Played: 2, Won: 1, Points: 40}},
		LastMatch: &MatchRef{Chat: -1, Finished: t0, Table: 3}}
	update(t, s, func(tx Tx) error {
		if err := tx.PutUser(u); err != nil {
			return err
		}
		return tx.PutChat(Chat{ID: -1, Lang: "en"})
	})
	view(t, s, func(tx Tx) error {
		if got, err := tx.User(5); err != nil || !reflect.DeepEqual(got, u) {
			t.Errorf("User = %+v, %v", got, err)
		}
		if got, err := tx.Chat(-1); err != nil || got.Lang != "en" {
			t.Errorf("Chat = %+v, %v", got, err)
		}
		return nil
	})
}

func TestCancelledContext(t *testing.T) {
	s, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := func(Tx) error { t.Error("fn ran"); return nil }
	for name, err := range map[string]error{
		"Update": s.Update(ctx, ran),
		"Batch":  s.Batch(ctx, ran),
		"View":   s.View(ctx, ran),
		"Ping":   s.Ping(ctx),
	} {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v", name, err)
		}
	}
}

// TestBatchShares: concurrent Batch callers all commit, in fewer commits than callers, and the
// stats count each commit once.
func TestBatchShares(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			err := s.Batch(context.Background(), func(tx Tx) error { return tx.MarkSeen(int64(i + 1)) })
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	view(t, s, func(tx Tx) error {
		for i := range n {
			if ok, _ := tx.Seen(int64(i + 1)); !ok {
				t.Errorf("update %d not seen", i+1)
			}
		}
		return nil
	})
	st := s.Stats()
	if st.Commits < 1 || st.Commits > n {
		t.Errorf("%d commits for %d batched calls", st.Commits, n)
	}
	if st.Put != n*8 {
		t.Errorf("Put = %d bytes, want %d", st.Put, n*8)
	}
	t.Logf("%d batched calls in %d commits, %d disk bytes", n, st.Commits, st.Disk)
}

// TestReopen: everything written is there after Close and Open, and values read before Close do
// not point into the unmapped file.
func TestReopen(t *testing.T) {
	s, path := openTemp(t)
	want := sampleTable(-9)
	var before []byte
	update(t, s, func(tx Tx) error {
		if err := tx.PutTable(&want); err != nil {
			return err
		}
		return tx.PutState(want.ID, []byte("state"))
	})
	view(t, s, func(tx Tx) error {
		var err error
		before, err = tx.State(want.ID)
		return err
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if string(before) != "state" { // touches every byte read before Close
		t.Fatalf("value read before Close changed: %q", before)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	view(t, s2, func(tx Tx) error {
		if got, err := tx.TableAt(want.Place); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after reopen: %+v, %v", got, err)
		}
		return nil
	})
}

func TestOpenTimeout(t *testing.T) {
	_, path := openTemp(t)
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
		return b.Put(keySchema, u64(schemaVersion+1))
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

func TestPingAndStats(t *testing.T) {
	s, path := openTemp(t)
	if s.Path() != path {
		t.Errorf("Path() = %q, want %q", s.Path(), path)
	}
	for range 3 {
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	}
	if st := s.Stats(); st.Commits != 3 || st.Disk < 3*4096 {
		t.Errorf("stats after three empty commits: %+v", st)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(context.Background()); err == nil {
		t.Error("Ping after Close succeeded")
	}
}

func TestEntryText(t *testing.T) {
	for _, s := range []string{"0:pass", "3:play/X1/1", "12:bid/18"} {
		e, err := ParseEntry(s)
		if err != nil || FormatEntry(e) != s {
			t.Errorf("ParseEntry(%q) = %v, %v", s, e, err)
		}
	}
	for _, s := range []string{"", "x", "0", ":pass", "-1:pass", "01:pass", "0:PASS", "200:pass"} {
		if _, err := ParseEntry(s); err == nil {
			t.Errorf("ParseEntry(%q) accepted", s)
		}
	}
}

func ExampleFormatEntry() {
	fmt.Println(FormatEntry(Entry{Seat: 2, Action: games.Num("bid", 18)}))
	// Output: 2:bid/18
}
