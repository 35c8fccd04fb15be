package store

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// copyFixture copies a database kept in testdata to a temporary file, so a test may migrate it.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	in, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	path := filepath.Join(t.TempDir(), name)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMigrateSchema1: testdata/schema1.db was written by the bot of schema 1 (main before the
// durable path): a finished Wizard match in the archive, a Wizard match seven moves in, a Skat
// lobby, a Joker match with two agents, users with stats and a language, chats, and the update
// offset. Opened now, it is migrated in place, and everything is where the bot looks for it.
func TestMigrateSchema1(t *testing.T) {
	path := copyFixture(t, "schema1.db")
	for round := range 2 { // the second Open finds schema 3 and changes nothing
		s, err := Open(path)
		if err != nil {
			t.Fatalf("open %d: %v", round, err)
		}
		view(t, s, func(tx Tx) error {
			wiz, err := tx.TableAt(Place{Chat: -4001})
			if err != nil {
				t.Fatalf("wizard table: %v", err)
			}
			if wiz.Game != "wizard" || !wiz.Started || wiz.Rules != 1 || wiz.Version != 7 || wiz.Msg != 9 ||
				wiz.Config.Options["short_game"] != "3" || wiz.CreatorName != "Alice" || len(wiz.Seats) != 3 {
				t.Errorf("wizard record: %+v", wiz)
			}
			if p := wiz.Seats[0]; p.UserID != 101 || p.HandMsg != 15 || p.TurnFrom != 7 || p.Prompted != 7 || !p.Buttons {
				t.Errorf("wizard seat 0: %+v", p)
			}
			if p := wiz.Seats[1]; p.UserID != 102 || p.TurnFrom != NoTurn || p.Prompted != 3 || p.Acted < 0 || p.Buttons {
				t.Errorf("wizard seat 1: %+v", p)
			}
			log, err := tx.Log(wiz.ID)
			if err != nil || len(log) != 7 {
				t.Errorf("wizard log: %d entries, %v", len(log), err)
			}
			if st, err := tx.State(wiz.ID); err != nil || len(st) != 489 {
				t.Errorf("wizard state: %d bytes, %v", len(st), err)
			}

			skat, err := tx.TableAt(Place{Chat: -4002})
			if err != nil || skat.Game != "skat" || skat.Started || skat.Msg != 3 || len(skat.Seats) != 2 || skat.Rules != 0 {
				t.Errorf("skat lobby: %+v, %v", skat, err)
			}
			joker, err := tx.TableAt(Place{Chat: -4003})
			if err != nil || joker.Game != "joker" || joker.Version != 2 || !joker.Seats[1].AI || joker.Seats[0].HandMsg != 16 {
				t.Errorf("joker table: %+v, %v", joker, err)
			}
			if ids, _ := tx.UserTables(102); len(ids) != 3 {
				t.Errorf("Bob sits at %v, want three tables", ids)
			}
			if ids := map[TableID]bool{wiz.ID: true, skat.ID: true, joker.ID: true}; len(ids) != 3 {
				t.Errorf("table ids not distinct: %v", ids)
			}

			m, err := tx.LastMatch(-4001)
			if err != nil || m.Game != "wizard" || len(m.Log) != 27 || m.Rules != 1 || len(m.Seats) != 3 || m.Seats[2].AI != true {
				t.Errorf("archived match: %+v, %v", m, err)
			}
			if m.Table == wiz.ID || m.Table == 0 {
				t.Errorf("archived match has table id %d (open wizard table %d)", m.Table, wiz.ID)
			}
			if _, err := ParseEntry(m.Log[0]); err != nil {
				t.Errorf("archived log: %v", err)
			}
			alice, err := tx.User(101)
			if err != nil || alice.Lang != "ru" || !alice.DMOpen || alice.Stats["wizard"].Played != 1 || alice.Stats["wizard"].Points != -30 {
				t.Errorf("alice: %+v, %v", alice, err)
			}
			// Schema 3: the archived match lists its people in the chat's leaderboard; it has no
			// sheet to rank them by, so nobody is rated.
			var humans []int64
			for _, p := range m.Seats {
				if !p.AI {
					humans = append(humans, p.UserID)
				}
			}
			if ids, err := tx.ChatPlayers(-4001, "wizard"); err != nil || len(ids) != 2 || !slices.Equal(ids, humans) {
				t.Errorf("players of the archived match: %v, %v; its seats %+v", ids, err, m.Seats)
			}
			if st := alice.Stats["wizard"]; st.Rated != 0 || st.Current() != RatingStart {
				t.Errorf("a match without a sheet was rated: %+v", st)
			}
			if c, err := tx.Chat(-4003); err != nil || c.Lang != "ru" {
				t.Errorf("chat -4003: %+v, %v", c, err)
			}
			if rows, err := tx.Rows(); err != nil || len(rows) != 0 {
				t.Errorf("rows after migration: %v, %v", rows, err)
			}
			return nil
		})
		err = s.db.View(func(tx *bolt.Tx) error {
			if v := tx.Bucket(bucketMeta).Get([]byte("offset")); v != nil {
				t.Error("the schema-1 update offset survived the migration")
			}
			if v := tx.Bucket(bucketMeta).Get(keySchema); string(v) != string(u64(schemaVersion)) {
				t.Errorf("schema after migration: %x", v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	_ = context.Background
}

// TestMigrateSchema2: testdata/schema2.db was written by the bot of schema 2 (before ratings):
// six finished matches (four of Wizard in chat -4001, one of them in its topic 7 with a computer
// player; a Skat match there with a computer player; a Joker match in chat -4002), users with
// their stats, a Skat lobby and two chats. Opened now, it gets the players index of every chat and
// the users' ratings, replayed from the archive oldest first with computer players at
// RatingStart; stats, tables and chats stay as they were, and a second Open changes nothing.
func TestMigrateSchema2(t *testing.T) {
	path := copyFixture(t, "schema2.db")
	// The finishing orders and the ratings, computed by hand from each match's sheet (README
	// "Ratings"): e.g. the first Wizard match, totals 0, −30, −10 of Alice, Bob and Carol, moves
	// them from 1500 to 1516, 1484 and 1500. In topic 7 Alice and the computer draw for second.
	want := []struct {
		user   int64
		game   string
		rating float64
		rated  int
		played int
	}{
		{101, "wizard", 1492.088, 4, 4},
		{102, "wizard", 1470.302, 3, 3},
		{103, "wizard", 1545.267, 4, 4},
		{101, "skat", 1500, 1, 1},
		{102, "skat", 1516, 1, 1},
		{102, "joker", 1484, 1, 1},
		{104, "joker", 1516, 1, 1},
	}
	for round := range 2 {
		s, err := Open(path)
		if err != nil {
			t.Fatalf("open %d: %v", round, err)
		}
		view(t, s, func(tx Tx) error {
			for _, w := range want {
				u, err := tx.User(w.user)
				st := u.Stats[w.game]
				if err != nil || !near(st.Rating, w.rating) || st.Rated != w.rated || st.Played != w.played {
					t.Errorf("round %d: user %d in %s: %+v, %v; want rating %.3f after %d", round, w.user, w.game, st, err, w.rating, w.rated)
				}
			}
			for _, c := range []struct {
				chat int64
				game string
				want []int64
			}{
				{-4001, "wizard", []int64{101, 102, 103}},
				{-4001, "skat", []int64{101, 102}},
				{-4002, "joker", []int64{102, 104}},
				{-4002, "wizard", nil},
				{-4001, "joker", nil},
			} {
				if got, err := tx.ChatPlayers(c.chat, c.game); err != nil || !slices.Equal(got, c.want) {
					t.Errorf("players of %s in %d: %v, %v; want %v", c.game, c.chat, got, err, c.want)
				}
			}
			if lobby, err := tx.TableAt(Place{Chat: -4002}); err != nil || lobby.Game != "skat" || len(lobby.Seats) != 2 {
				t.Errorf("skat lobby: %+v, %v", lobby, err)
			}
			if m, err := tx.LastMatch(-4001); err != nil || m.Game != "wizard" || m.Sheet == nil || len(m.Log) == 0 {
				t.Errorf("last match of -4001: %+v, %v", m, err)
			}
			if c, err := tx.Chat(-4001); err != nil || c.Lang != "ru" {
				t.Errorf("chat -4001: %+v, %v", c, err)
			}
			return nil
		})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
