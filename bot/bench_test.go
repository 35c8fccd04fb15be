package bot

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// BenchmarkMove measures one move end to end: a button press goes in through getUpdates, the
// action is committed to bbolt on disk (fsynced), and the resulting API calls go out (the
// answer, the next player's fresh prompt, the edits). Three humans play full default-length
// Wizard matches (20 rounds, about 690 moves); rate windows are scaled out of the way so the
// bot's own cost is what is measured.
//
// Metrics: moves/s and p99-ms (press to the next prompt); fsyncs/move (commits per move over
// the timed moves); B/move@10 and B/move@600, the bytes of keys and values the store is given by
// move 10 and move 600 of one long match, and disk-B/move@10 and disk-B/move@600, the bytes of the
// pages those commits write (measured once, before the timed moves); empty-commits/s, bbolt's
// rate of empty fsynced commits on the same disk in the same run.
func BenchmarkMove(b *testing.B) {
	fake := tgtest.New(tgtest.Options{RateScale: 1e6, WaitTimeout: 60 * time.Second})
	defer fake.Close()
	fake.AddGroup(group, "Bench")
	h := start(b, setup{fake: fake, path: filepath.Join(b.TempDir(), "bench.db"), sync: true, rateScale: 1e6})
	players := []tgtest.User{alice, bob, carol}
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
	// move presses the current player's first button and waits until the next prompt (or the
	// end) is out; it returns the press's latency and the store's work for it.
	last := newMatch()
	move := func() (time.Duration, store.Stats) {
		if _, open := h.table(); !open {
			h.flush()
			last = newMatch()
		}
		cur := h.waitTurn(players, last)
		before := h.st.Stats()
		t0 := time.Now()
		h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data)
		h.wait("the move to be out", func() bool {
			if next, ok := h.currentTurn(players); ok && next.version > cur.version {
				return true
			}
			_, open := h.table()
			return !open
		})
		d := time.Since(t0)
		after := h.st.Stats()
		last = cur.version
		return d, store.Stats{Commits: after.Commits - before.Commits, Put: after.Put - before.Put, Disk: after.Disk - before.Disk}
	}
	// One long match first: the cost of move 10 and of move 600, which must not grow with the log.
	at := map[int]store.Stats{}
	for k := 1; k <= 600; k++ {
		_, s := move()
		if k == 10 || k == 600 {
			at[k] = s
		}
	}
	lat := make([]time.Duration, 0, b.N)
	before := h.st.Stats()
	b.ResetTimer()
	for range b.N {
		d, _ := move()
		lat = append(lat, d)
	}
	b.StopTimer()
	after := h.st.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(after.Commits-before.Commits)/float64(b.N), "fsyncs/move")
	for _, k := range []int{10, 600} {
		b.ReportMetric(float64(at[k].Put), "B/move@"+strconv.Itoa(k))
		b.ReportMetric(float64(at[k].Disk), "disk-B/move@"+strconv.Itoa(k))
	}
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
