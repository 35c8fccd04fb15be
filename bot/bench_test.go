package bot

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kozyr-bot/kozyr/bot/tgfake"
)

// BenchmarkMove measures one move end to end: a button press goes in through getUpdates, the
// action is committed to bbolt on disk (fsynced), and the resulting API calls go out (the
// answer, the next player's fresh hand message, the edits). Three humans play full Wizard
// matches; rate windows are scaled out of the way so the bot's own cost is what is measured.
// For comparison it also measures bbolt's empty-commit rate on the same disk in the same run.
func BenchmarkMove(b *testing.B) {
	fake := tgfake.New(tgfake.Options{RateScale: 1e6, WaitTimeout: 60 * time.Second})
	defer fake.Close()
	fake.AddGroup(group, "Bench")
	h := start(b, setup{fake: fake, path: filepath.Join(b.TempDir(), "bench.db"), sync: true, rateScale: 1e6})
	players := []tgfake.User{alice, bob, carol}
	h.openDMs(players...)

	newMatch := func() int {
		h.say(group, alice, "/new wizard")
		h.lobby()
		h.say(group, bob, "/join")
		h.say(group, carol, "/join")
		h.seats(3)
		h.begin(alice)
		return -1
	}
	last := newMatch()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		if _, open := h.table(); !open {
			h.flush()
			last = newMatch()
		}
		cur := h.waitTurn(players, last)
		b.StartTimer()
		t0 := time.Now()
		data := cur.msg.Keyboard[0][0].Data
		h.press(cur.user.ID, cur.msg.ID, cur.user, data)
		h.wait("the move to be out", func() bool {
			if next, ok := h.currentTurn(players); ok && next.version > cur.version {
				return true
			}
			_, open := h.table()
			return !open
		})
		h.flush()
		lat = append(lat, time.Since(t0))
		last = cur.version
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(emptyCommits(b), "empty-commits/s")
	h.clean()
}

// emptyCommits is bbolt's rate of empty, fsynced write transactions on the benchmark's disk.
func emptyCommits(b *testing.B) float64 {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "empty.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const n = 200
	t0 := time.Now()
	for range n {
		if err := db.Update(func(*bolt.Tx) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	return n / time.Since(t0).Seconds()
}
