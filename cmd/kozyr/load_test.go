package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kozyr-bot/kozyr/bot"
	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
)

// BenchmarkLoad runs the bot as a process of its own against the fake Bot API (limits scaled
// away), with G tables of three people each playing Wizard at once, every player pressing as soon
// as their prompt arrives; bbolt is fsynced on disk. b.N is the number of moves over all tables
// (run it with e.g. -benchtime=4000x). Per G it reports:
//
//	moves/s        accepted presses per second
//	p50-answer-ms  press to its answerCallbackQuery, median and 99th percentile
//	p99-answer-ms
//	p50-prompt-ms  press to the next player's prompt, median and 99th percentile: as every
//	p99-prompt-ms  player presses at once, this is the table's whole cycle, whose mean is
//	               G / moves/s (Little's law)
//	end-vs-start-%  the move rate over the last tenth of the run against the second tenth
//	fsyncs/move    commits per move
//	B/move         bytes of keys and values put per move
//	calls/move     sends and edits per move (deletes/move: superseded prompts deleted)
//	keepalive-%    API calls made on an already open connection
//	cpu-ms/move    the bot process's CPU time per move
//	standin-cpu-ms/move  this process's (the fake Bot API's and the players'), which shares the
//	               machine's cores with the bot
//	KiB/table      the bot's live heap per idle table, once it has made no call for longer
//	               than bot.IdleConnTimeout (the connections the load opened have closed)
//	rss-KiB/table  its resident memory per idle table (with what the runtime keeps from the load)
//	empty-commits/s  bbolt's rate of empty fsynced commits on the same disk, for comparison
func BenchmarkLoad(b *testing.B) {
	for _, g := range []int{1, 10, 50, 200} {
		b.Run("tables="+strconv.Itoa(g), func(b *testing.B) { load(b, g) })
	}
}

// loadTable is one table of the load: its group, its players and what its players wait for.
type loadTable struct {
	chat    int64
	players []tgtest.User
	prompts chan tgtest.Event // hand messages with game buttons sent to its players
	ended   chan struct{}     // its match is over (its first player's hand says so)
}

// player is the table's player of a user id.
func (t *loadTable) player(id int64) tgtest.User {
	for _, u := range t.players {
		if u.ID == id {
			return u
		}
	}
	return tgtest.User{ID: id}
}

func load(b *testing.B, tables int) {
	fake := tgtest.New(tgtest.Options{RateScale: 1e6, WaitTimeout: 5 * time.Minute})
	defer fake.Close()
	dir := b.TempDir()
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": fake.Token(),
		"KOZYR_API_URL":      fake.URL(),
		"KOZYR_DB":           filepath.Join(dir, "kozyr.db"),
		"KOZYR_RATE_SCALE":   "1000000",
		"KOZYR_TURN_TIMEOUT": "0",
		"KOZYR_LOG_LEVEL":    "warn",
	}
	if p := os.Getenv(childProfileEnv); p != "" {
		env[childProfileEnv] = p // the bot process profiles itself
	}
	if p := os.Getenv(childHeapProfileEnv); p != "" {
		env[childHeapProfileEnv] = p
	}
	var ts []*loadTable
	byUser := map[int64]*loadTable{}
	for g := range tables {
		t := &loadTable{chat: int64(-7000 - g), prompts: make(chan tgtest.Event, 64), ended: make(chan struct{}, 1)}
		fake.AddGroup(t.chat, "Load "+strconv.Itoa(g))
		for i := range 3 {
			u := tgtest.User{ID: int64(7_000_000 + 10*g + i), FirstName: "P" + strconv.Itoa(10*g+i), LanguageCode: "en"}
			t.players = append(t.players, u)
			byUser[u.ID] = t
		}
		ts = append(ts, t)
	}

	var (
		mu        sync.Mutex
		pressedAt = map[string]time.Time{} // callback id -> press
		answers   []time.Duration
		welcomes  atomic.Int64
		counting  atomic.Bool
		calls     atomic.Int64 // sends and edits
		deletes   atomic.Int64
		moves     atomic.Int64
	)
	fake.Watch(func(ev tgtest.Event) {
		switch ev.Method {
		case "answerCallbackQuery":
			mu.Lock()
			if at, ok := pressedAt[ev.CallbackID]; ok {
				delete(pressedAt, ev.CallbackID)
				if counting.Load() {
					answers = append(answers, ev.Time.Sub(at))
				}
			}
			mu.Unlock()
			return
		case "sendMessage", "editMessageText", "editMessageReplyMarkup":
			if counting.Load() && ev.Status == 200 {
				calls.Add(1)
			}
		case "deleteMessage":
			if counting.Load() && ev.Status == 200 {
				deletes.Add(1)
			}
		}
		if ev.Method == "sendMessage" && ev.Chat > 0 && len(ev.Message.Keyboard) == 0 {
			welcomes.Add(1)
		}
		t := byUser[ev.Chat]
		switch {
		case t == nil:
		case len(ev.Message.Keyboard) > 0 && gameButton(ev.Message.Keyboard[0][0].Data):
			select {
			case t.prompts <- ev:
			default:
			}
		case ev.Chat == t.players[0].ID && ev.Method == "editMessageText" && strings.Contains(ev.Message.Text, matchOver):
			select {
			case t.ended <- struct{}{}:
			default:
			}
		}
	})

	logs := &syncBuffer{}
	var proc *process
	other := os.Getenv(loadBinaryEnv)
	if other != "" {
		proc = startBinary(b, other, env, logs) // another build, for comparison: no stats line
	} else {
		proc = startProcess(b, env, logs)
	}
	defer proc.kill(b)
	waitFor(b, "the bot to start", func() bool { _, req := fake.Connections(); return req > 2 })
	baseRSS, base := rss(b, proc.cmd.Process.Pid), sample(b, proc, logs, other == "")

	for _, t := range ts {
		for _, u := range t.players {
			fake.StartDM(u, "")
		}
	}
	waitFor(b, "the welcomes", func() bool { return welcomes.Load() >= int64(3*tables) })
	for _, t := range ts {
		t.open(fake)
	}

	// Each table's players press their first button as soon as a prompt for a newer version
	// arrives; the prompt latency is measured from the press it followed.
	var prompts []time.Duration
	pressTimes := make([]time.Time, b.N)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	start := make(chan struct{})
	var ready atomic.Int64
	for _, t := range ts {
		wg.Go(func() {
			last, begun := -1, false
			var table, over string // the match played, the one just over
			var pressed time.Time
			for {
				var ev tgtest.Event
				select {
				case ev = <-t.prompts:
				case <-t.ended: // a long run plays match after match
					last, pressed = -1, time.Time{}
					table, over = "", table
					t.open(fake)
					continue
				case <-stop:
					return
				}
				data := ev.Message.Keyboard[0][0].Data
				id, version, ok := buttonVersion(data)
				if ok && table == "" && id != over {
					table = id // the first prompt of a new match; a late one of the last is not
				}
				if !ok || id != table || version <= last {
					continue
				}
				if !pressed.IsZero() && counting.Load() {
					mu.Lock()
					prompts = append(prompts, ev.Time.Sub(pressed))
					mu.Unlock()
				}
				if !begun {
					begun = true
					ready.Add(1)
					<-start // every table has begun: the measured window opens at once for all
				}
				k := moves.Add(1)
				if k > int64(b.N) {
					return
				}
				mu.Lock()
				callbackID := fake.Press(ev.Chat, ev.MessageID, t.player(ev.Chat), data)
				pressed = time.Now()
				pressedAt[callbackID] = pressed
				pressTimes[k-1] = pressed
				mu.Unlock()
				last = version
			}
		})
	}
	waitFor(b, "every table's first prompt", func() bool { return ready.Load() == int64(tables) })

	before := sample(b, proc, logs, other == "")
	standin0 := cpuTime(b, os.Getpid())
	conns0, reqs0 := fake.Connections()
	counting.Store(true)
	b.ResetTimer()
	close(start)
	waitUntil(b, "the moves", 5*time.Minute+time.Duration(b.N)*10*time.Millisecond, // down to 100 moves/s
		func() bool { return moves.Load() >= int64(b.N) })
	b.StopTimer()
	counting.Store(false)
	after := sample(b, proc, logs, other == "")
	standin1 := cpuTime(b, os.Getpid())
	conns1, reqs1 := fake.Connections()
	close(stop)
	wg.Wait()
	// The tables are idle now: let the last calls finish and the connections the load opened
	// expire, as they would in a bot that goes quiet.
	waitQuiet(b, fake, bot.IdleConnTimeout+time.Second)
	idleRSS, idle := rss(b, proc.cmd.Process.Pid), sample(b, proc, logs, other == "")

	n := float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "moves/s")
	mu.Lock()
	b.ReportMetric(percentile(answers, 50), "p50-answer-ms")
	b.ReportMetric(percentile(answers, 99), "p99-answer-ms")
	b.ReportMetric(percentile(prompts, 50), "p50-prompt-ms")
	b.ReportMetric(percentile(prompts, 99), "p99-prompt-ms")
	if r := endVsStart(pressTimes); r > 0 {
		b.ReportMetric(r, "end-vs-start-%")
	}
	mu.Unlock()
	if other == "" {
		b.ReportMetric(float64(after.commits-before.commits)/n, "fsyncs/move")
		b.ReportMetric(float64(after.put-before.put)/n, "B/move")
	}
	b.ReportMetric(float64(calls.Load())/n, "calls/move")
	b.ReportMetric(float64(deletes.Load())/n, "deletes/move")
	if reqs := reqs1 - reqs0; reqs > 0 {
		b.ReportMetric(100*float64(reqs-(conns1-conns0))/float64(reqs), "keepalive-%")
	}
	b.ReportMetric(float64(after.cpu-before.cpu)/float64(time.Millisecond)/n, "cpu-ms/move")
	b.ReportMetric(float64(standin1-standin0)/float64(time.Millisecond)/n, "standin-cpu-ms/move")
	if other == "" {
		b.ReportMetric(float64(idle.heap-base.heap)/1024/float64(tables), "KiB/table")
	}
	b.ReportMetric(float64(idleRSS-baseRSS)/1024/float64(tables), "rss-KiB/table")
	b.ReportMetric(emptyCommitRate(b, dir), "empty-commits/s")
	if os.Getenv(childHeapProfileEnv) != "" {
		time.Sleep(5 * time.Second) // the last profile is written
	}
	proc.stop(b)
	for _, v := range fake.Violations() {
		b.Errorf("violation: %s", v)
		break
	}
}

// matchOver is what a player's hand message says once the match is over (bot.hand.over, in
// English).
const matchOver = "The match is over"

// open has the table's first player open a Wizard table, the others join, and the match begin.
func (t *loadTable) open(fake *tgtest.Server) {
	fake.SendText(t.chat, t.players[0], "/new wizard")
	fake.SendText(t.chat, t.players[1], "/join")
	fake.SendText(t.chat, t.players[2], "/join")
	fake.SendText(t.chat, t.players[0], "/begin")
}

// endVsStart is the move rate over the last tenth of the presses as a percentage of the rate over
// the second tenth (0 when there are too few to tell): a bot whose cost grows with the length of a
// match slows down as it goes on. The first tenth is left out: every table presses its first
// prompt the moment the window opens, a burst the bot then works off.
func endVsStart(at []time.Time) float64 {
	sorted := slices.Clone(at)
	slices.SortFunc(sorted, func(a, b time.Time) int { return a.Compare(b) })
	tenth := len(sorted) / 10
	if tenth < 20 {
		return 0
	}
	first := sorted[2*tenth].Sub(sorted[tenth])
	last := sorted[len(sorted)-1].Sub(sorted[len(sorted)-1-tenth])
	if first <= 0 || last <= 0 {
		return 0
	}
	return 100 * first.Seconds() / last.Seconds()
}

// loadBinaryEnv names another build of kozyr for the load to run instead of this one (an earlier
// main, to compare with); it need not speak SIGUSR1, so the store metrics are left out.
const loadBinaryEnv = "KOZYR_LOAD_BINARY"

// startBinary runs another kozyr binary with env.
func startBinary(b *testing.B, path string, env map[string]string, logs *syncBuffer) *process {
	cmd := exec.Command(path)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &process{cmd: cmd}
}

// gameButton reports whether callback data is a game button's, of this build ("v2|") or of an
// earlier one ("v1|").
func gameButton(data string) bool {
	return strings.HasPrefix(data, callback.PlayPrefix) || strings.HasPrefix(data, "v1|")
}

// buttonVersion is the table (its second field) and the version (its third) a game button was
// drawn at.
func buttonVersion(data string) (string, int, bool) {
	f := strings.Split(data, "|")
	if len(f) != 4 {
		return "", 0, false
	}
	v, err := strconv.Atoi(f[2])
	return f[1], v, err == nil
}

// loadSample is what the bot process reports at one moment.
type loadSample struct {
	commits, put int64
	heap         int64 // live heap after a collection
	cpu          time.Duration
}

// sample asks the bot for its store totals (SIGUSR1 makes it log a "stats" line) and reads its
// CPU time.
func sample(b *testing.B, p *process, logs *syncBuffer, stats bool) loadSample {
	b.Helper()
	if !stats {
		return loadSample{cpu: cpuTime(b, p.cmd.Process.Pid)}
	}
	seen := strings.Count(logs.String(), `"message":"stats"`)
	if err := p.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		b.Fatal(err)
	}
	waitFor(b, "the stats line", func() bool { return strings.Count(logs.String(), `"message":"stats"`) > seen })
	var line struct {
		Commits int64 `json:"commits"`
		Put     int64 `json:"put_bytes"`
		Heap    int64 `json:"heap_bytes"`
	}
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"message":"stats"`) {
			_ = json.Unmarshal(sc.Bytes(), &line)
		}
	}
	return loadSample{commits: line.Commits, put: line.Put, heap: line.Heap, cpu: cpuTime(b, p.cmd.Process.Pid)}
}

// cpuTime is a process's user and system CPU time (/proc/<pid>/stat).
func cpuTime(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // clock ticks of 10 ms
}

// rss is a process's resident memory in bytes (/proc/<pid>/status VmRSS).
func rss(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func percentile(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[min(len(s)-1, len(s)*p/100)].Microseconds()) / 1000
}

func waitFor(b *testing.B, what string, cond func() bool) {
	b.Helper()
	waitUntil(b, what, 5*time.Minute, cond)
}

// waitUntil fails b when cond has not held within d.
func waitUntil(b *testing.B, what string, d time.Duration, cond func() bool) {
	b.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			b.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitQuiet waits until the bot has made no call for d (a long poll may start meanwhile).
func waitQuiet(b *testing.B, fake *tgtest.Server, d time.Duration) {
	b.Helper()
	_, last := fake.Connections()
	since := time.Now()
	waitFor(b, "the bot to go quiet", func() bool {
		if _, n := fake.Connections(); n != last {
			last, since = n, time.Now()
		}
		return time.Since(since) >= d
	})
}

// emptyCommitRate is bbolt's rate of empty, fsynced write transactions in dir.
func emptyCommitRate(b *testing.B, dir string) float64 {
	db, err := bolt.Open(filepath.Join(dir, "empty.db"), 0o600, &bolt.Options{Timeout: time.Second})
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
