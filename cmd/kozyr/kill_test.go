package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// childProfileEnv names a file the bot process writes its CPU profile to (for the load benchmark).
const childProfileEnv = "KOZYR_TEST_CPU_PROFILE"

// childHeapProfileEnv names a file the bot process writes its heap profile to (see
// profileHeapOnSignal).
const childHeapProfileEnv = "KOZYR_TEST_HEAP_PROFILE"

// childEnv makes the test binary run the bot (run with the environment) instead of the tests:
// the kill -9 test needs the bot as a process of its own.
const childEnv = "KOZYR_TEST_RUN_BOT"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		if path := os.Getenv(childProfileEnv); path != "" {
			f, err := os.Create(path)
			if err == nil && pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
		if path := os.Getenv(childHeapProfileEnv); path != "" {
			profileHeapOnSignal(path)
		}
		err := run(ctx, nil, os.Getenv, os.Stderr)
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "kozyr:", err)
			pprof.StopCPUProfile()
			os.Exit(1)
		}
		pprof.StopCPUProfile()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// profileHeapOnSignal has the bot process write its heap profile, every allocation sampled, to
// path.1, path.2, … whenever it gets SIGUSR1 (the load benchmark's samples: the last shows what
// its idle tables hold).
func profileHeapOnSignal(path string) {
	runtime.MemProfileRate = 1
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for n := 1; ; n++ {
			<-sig
			runtime.GC()
			runtime.GC()
			if f, err := os.Create(fmt.Sprintf("%s.%d", path, n)); err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}()
}

// process is the bot running as a child process.
type process struct {
	cmd *exec.Cmd
}

func startProcess(t testing.TB, env map[string]string, logs *syncBuffer) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &process{cmd: cmd}
}

// kill sends SIGKILL: the bot gets no chance to finish anything.
func (p *process) kill(t testing.TB) {
	t.Helper()
	if p.cmd.ProcessState != nil {
		return // it has been waited for: stopped already
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		if p.cmd.ProcessState.Exited() {
			return // it had ended already
		}
		t.Fatalf("the bot was not killed but ended: %v", p.cmd.ProcessState)
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *process) stop(t testing.TB) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the bot did not stop cleanly: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatal("the bot did not stop after SIGTERM")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestKillNine plays full Wizard matches between three people while the bot, a process of its
// own, is killed with SIGKILL again and again at random moments — right after a press, while
// presses are in flight, while the answers and messages go out — and restarted on the same
// database. Every press a player made must be applied exactly once (after the restart if need
// be), every round's result and the match end posted, and the match must end. Once with long
// polling and once with a webhook.
func TestKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the bot as a process many times")
	}
	for _, mode := range []string{"polling", "webhook"} {
		t.Run(mode, func(t *testing.T) { killNine(t, mode == "webhook") })
	}
}

func killNine(t *testing.T, webhook bool) {
	const scale = 100
	fake := tgtest.New(tgtest.Options{RateScale: scale, WaitTimeout: 60 * time.Second})
	defer fake.Close()
	fake.AddGroup(group, "Kill night")
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": fake.Token(),
		"KOZYR_API_URL":      fake.URL(),
		"KOZYR_DB":           filepath.Join(t.TempDir(), "kozyr.db"),
		"KOZYR_RATE_SCALE":   strconv.Itoa(scale),
		"KOZYR_TURN_TIMEOUT": "0",
		"KOZYR_LOG_LEVEL":    "warn",
	}
	if webhook {
		port := freePort(t)
		env["KOZYR_WEBHOOK_URL"] = fmt.Sprintf("http://127.0.0.1:%d/telegram", port)
		env["KOZYR_LISTEN"] = fmt.Sprintf("127.0.0.1:%d", port)
		env["KOZYR_WEBHOOK_SECRET"] = "kill-nine-secret"
	}
	logs := &syncBuffer{}
	players := []tgtest.User{
		{ID: 21, FirstName: "Ann", LanguageCode: "en"},
		{ID: 22, FirstName: "Ben", LanguageCode: "en"},
		{ID: 23, FirstName: "Cid", LanguageCode: "en"},
	}
	p := &player{t: t, fake: fake, last: -1}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the bot's logs:\n%s", logs.String())
		}
	})
	bot := startProcess(t, env, logs)
	defer func() { _ = bot.cmd.Process.Kill() }()
	rng := rand.New(rand.NewPCG(uint64(len(env)), 9))
	kills := 0
	restart := func() {
		bot.kill(t)
		kills++
		bot = startProcess(t, env, logs)
	}

	for _, u := range players {
		fake.StartDM(u, "")
	}
	fake.WaitFor(t, "the welcome DMs", func() bool {
		for _, u := range players {
			if len(fake.Messages(u.ID)) == 0 {
				return false
			}
		}
		return true
	})
	restart() // between the welcomes and the first command
	fake.SendText(group, players[0], "/new wizard")
	p.lobbyPress(players[0], "opts")
	for !strings.Contains(p.lobby().Plain, "first 3 rounds") {
		edits := p.lobby().Edits
		p.lobbyPress(players[0], "o2")
		p.waitEdit(edits)
	}
	p.lobbyPress(players[0], "back")
	fake.SendText(group, players[1], "/join")
	fake.SendText(group, players[2], "/join")
	restart() // with the joins in flight
	fake.WaitFor(t, "three seats", func() bool { return strings.Contains(p.lobby().Plain, "3. Cid") })
	p.lobbyPress(players[0], "begin")

	var pressed []string // the actions pressed, one per version
	for !p.finished() {
		cur := p.turn(players, p.last)
		if p.finished() {
			break
		}
		btns := slices.DeleteFunc(slices.Concat(cur.msg.Keyboard...), func(b tgtest.Button) bool { return !strings.HasPrefix(b.Data, "v2|") })
		data := btns[rng.IntN(len(btns))].Data
		fake.Press(cur.user.ID, cur.msg.ID, cur.user, data)
		d, err := callback.ParsePlay(data)
		if err != nil {
			t.Fatal(err)
		}
		pressed = append(pressed, d.Action.String())
		p.last = cur.version
		switch r := rng.IntN(10); {
		case r < 4:
			restart() // the press still in the queue or in flight
		case r < 8:
			time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
			restart() // while it commits, answers and sends
		}
	}
	fake.WaitFor(t, "the final score", func() bool { _, ok := fake.Find(group, "Final score"); return ok })
	bot.stop(t)

	st, err := store.Open(env["KOZYR_DB"])
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var final store.Match
	if err := st.View(context.Background(), func(tx store.Tx) error {
		var err error
		final, err = tx.LastMatch(group)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var logged []string
	for _, e := range final.Log {
		logged = append(logged, e[strings.IndexByte(e, ':')+1:])
	}
	// Every press was on the keyboard of the version it was made for, by the one player to act:
	// each must be in the log exactly once, in order.
	if !slices.Equal(logged, pressed) {
		t.Errorf("the log has %d actions for %d presses:\nlog     %v\npressed %v", len(logged), len(pressed), logged, pressed)
	}
	for r := 1; r <= 3; r++ {
		if _, ok := fake.Find(group, "Round "+strconv.Itoa(r)+" ("); !ok {
			t.Errorf("round %d's result was never posted", r)
		}
	}
	if kills < 20 {
		t.Errorf("only %d kills", kills)
	}
	for _, v := range fake.Violations() {
		switch {
		case strings.Contains(v, "can't parse request: unexpected EOF"):
			// A request the kill cut off in the middle of its body.
		case strings.Contains(v, "message to delete not found"):
			// A superseded prompt deleted again: the kill came before its deletion was recorded.
		default:
			t.Errorf("violation: %s", v)
		}
	}
	if strings.Contains(logs.String(), fake.Token()) {
		t.Errorf("the token appears in the logs")
	}
	t.Logf("%d presses, %d kills, %d calls", len(pressed), kills, len(fake.Calls()))
}
