package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

func TestParse(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		name    string
		args    []string
		getenv  func(string) string
		want    config
		wantErr string
	}{
		{"no token", nil, env(), config{}, "TELEGRAM_BOT_TOKEN is not set"},
		{"defaults", nil, env("TELEGRAM_BOT_TOKEN", "1:x"),
			config{token: "1:x", db: "kozyr.db", level: "info", turnTimeout: 120 * time.Second, aiDelay: 1500 * time.Millisecond, rateScale: 1,
				archiveKeep: 100, listen: ":8443"}, ""},
		{"environment", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_DB", "/data/k.db", "KOZYR_API_URL", "http://api",
			"KOZYR_LOG_LEVEL", "debug", "KOZYR_TURN_TIMEOUT", "30s", "KOZYR_AI_DELAY", "0", "KOZYR_RATE_SCALE", "50",
			"KOZYR_ARCHIVE_KEEP", "7", "KOZYR_WEBHOOK_URL", "https://bot.example/hook", "KOZYR_LISTEN", "127.0.0.1:9000",
			"KOZYR_WEBHOOK_SECRET", "s3cret_-"),
			config{token: "1:x", db: "/data/k.db", apiURL: "http://api", level: "debug", turnTimeout: 30 * time.Second, rateScale: 50,
				archiveKeep: 7, webhookURL: "https://bot.example/hook", listen: "127.0.0.1:9000", webhookSecret: "s3cret_-"}, ""},
		{"flags win", []string{"-db", "f.db", "-turn-timeout", "1m", "-rate-scale", "2", "-listen", ":80", "-archive-keep", "3"},
			env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_DB", "e.db"),
			config{token: "1:x", db: "f.db", level: "info", turnTimeout: time.Minute, aiDelay: 1500 * time.Millisecond, rateScale: 2,
				archiveKeep: 3, listen: ":80"}, ""},
		{"webhook without a secret", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_WEBHOOK_URL", "https://bot.example/hook"), config{}, "KOZYR_WEBHOOK_SECRET"},
		{"bad secret", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_WEBHOOK_URL", "https://bot.example/hook", "KOZYR_WEBHOOK_SECRET", "a b"), config{}, "KOZYR_WEBHOOK_SECRET"},
		{"webhook not http", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_WEBHOOK_URL", "ftp://x", "KOZYR_WEBHOOK_SECRET", "s"), config{}, "KOZYR_WEBHOOK_URL"},
		{"bad keep", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_ARCHIVE_KEEP", "0"), config{}, "KOZYR_ARCHIVE_KEEP"},
		{"bad duration", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_TURN_TIMEOUT", "soon"), config{}, "KOZYR_TURN_TIMEOUT"},
		{"bad scale", nil, env("TELEGRAM_BOT_TOKEN", "1:x", "KOZYR_RATE_SCALE", "-1"), config{}, "KOZYR_RATE_SCALE"},
		{"stray argument", []string{"extra"}, env("TELEGRAM_BOT_TOKEN", "1:x"), config{}, "unexpected arguments"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parse(c.args, c.getenv, &bytes.Buffer{})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestRunWithoutToken(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), nil, func(string) string { return "" }, &stderr)
	if err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("run without a token: %v", err)
	}
}

const group = int64(-5001)

// syncBuffer is a log sink shared by the bot's goroutines and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// instance is one run() of the bot.
type instance struct {
	stop func()
	done chan error
}

func launch(t *testing.T, env map[string]string, logs *syncBuffer) instance {
	ctx, cancel := context.WithCancel(context.Background())
	in := instance{stop: cancel, done: make(chan error, 1)}
	go func() { in.done <- run(ctx, nil, func(k string) string { return env[k] }, logs) }()
	return in
}

func (in instance) halt(t *testing.T) {
	t.Helper()
	in.stop()
	select {
	case err := <-in.done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context was cancelled")
	}
}

// TestRestartMidMatch stops the bot in the middle of a match (as SIGTERM does) and starts run
// again on the same database: the match goes on and finishes, and every accepted press — including
// one made while the bot was down — is in the log.
func TestRestartMidMatch(t *testing.T) {
	if !slices.ContainsFunc(all.Rules(), func(r games.Rules) bool { return r.Name() == "wizard" }) {
		t.Fatal("games/all.Rules() does not register wizard, which this test plays")
	}
	fake := tgtest.New(tgtest.Options{RateScale: 50, WaitTimeout: 60 * time.Second})
	defer fake.Close()
	fake.AddGroup(group, "Restart night")
	db := filepath.Join(t.TempDir(), "kozyr.db")
	env := map[string]string{
		"TELEGRAM_BOT_TOKEN": fake.Token(),
		"KOZYR_API_URL":      fake.URL(),
		"KOZYR_DB":           db,
		"KOZYR_RATE_SCALE":   "50",
		"KOZYR_AI_DELAY":     "5ms",
		"KOZYR_TURN_TIMEOUT": "0",
		"KOZYR_LOG_LEVEL":    "warn",
	}
	logs := &syncBuffer{}
	players := []tgtest.User{
		{ID: 11, FirstName: "Ann", LanguageCode: "en"},
		{ID: 12, FirstName: "Ben", LanguageCode: "ru"},
		{ID: 13, FirstName: "Cid", LanguageCode: "en"},
	}
	p := &player{t: t, fake: fake, last: -1}

	in := launch(t, env, logs)
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
	fake.WaitFor(t, "three seats", func() bool { return strings.Contains(p.lobby().Plain, "3. Cid") })
	p.lobbyPress(players[0], "begin")

	accepted := 0
	for accepted < 8 {
		if p.move(players) {
			accepted++
		}
	}
	in.halt(t)

	// While the bot is down a player presses; the update waits in Telegram's queue.
	cur := p.turn(players, -1)
	id := fake.Press(cur.user.ID, cur.msg.ID, cur.user, cur.data)

	in = launch(t, env, logs)
	fake.WaitFor(t, "the press made during the downtime to be answered", func() bool {
		a, ok := fake.Answer(id)
		return ok && played(a)
	})
	accepted++
	p.last = cur.version
	for !p.finished() {
		if p.move(players) {
			accepted++
		}
	}
	fake.WaitFor(t, "the final score", func() bool { _, ok := fake.Find(group, "Final score"); return ok })
	in.halt(t)

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var final store.Match
	err = st.View(context.Background(), func(tx store.Tx) error {
		var err error
		final, err = tx.LastMatch(group)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Log) != accepted {
		t.Errorf("log has %d actions, %d presses were accepted", len(final.Log), accepted)
	}
	// The rate windows live in the process: a bot restarted within a minute of a burst may meet
	// 429s that its predecessor's sends caused. The outbox waits them out (nothing above was lost);
	// every other kind of violation fails the test.
	var limited int
	for _, v := range fake.Violations() {
		if strings.Contains(v, " 429 ") {
			limited++
			continue
		}
		t.Errorf("violation: %s", v)
	}
	t.Logf("429s after the restart: %d", limited)
	if strings.Contains(logs.String(), fake.Token()) {
		t.Errorf("the token appears in the logs")
	}
}

// player drives the fake as the humans at the table.
type player struct {
	t    *testing.T
	fake *tgtest.Server
	last int // the version of the last press
}

type turn struct {
	user    tgtest.User
	msg     tgtest.Message
	data    string
	version int
}

func (p *player) lobby() tgtest.Message {
	m, _ := p.fake.Find(group, "new table")
	return m
}

// waitEdit waits until the lobby has been edited more than edits times.
func (p *player) waitEdit(edits int) {
	p.fake.WaitFor(p.t, "the lobby to change", func() bool { return p.lobby().Edits > edits })
}

func (p *player) lobbyPress(u tgtest.User, op string) {
	p.t.Helper()
	var m tgtest.Message
	var data string
	p.fake.WaitFor(p.t, "lobby button "+op, func() bool {
		m = p.lobby()
		for _, b := range slices.Concat(m.Keyboard...) {
			if strings.HasSuffix(b.Data, "|"+op) {
				data = b.Data
				return true
			}
		}
		return false
	})
	id := p.fake.Press(group, m.ID, u, data)
	p.fake.WaitFor(p.t, "the lobby answer", func() bool { _, ok := p.fake.Answer(id); return ok })
}

// turn waits for the newest game keyboard after version among the players' DMs.
func (p *player) turn(players []tgtest.User, after int) turn {
	p.t.Helper()
	var best turn
	p.fake.WaitFor(p.t, "a turn", func() bool {
		best = turn{version: -1}
		for _, u := range players {
			for _, m := range p.fake.Messages(u.ID) {
				if len(m.Keyboard) == 0 {
					continue
				}
				parts := strings.Split(m.Keyboard[0][0].Data, "|")
				if len(parts) != 4 || parts[0] != "v2" {
					continue
				}
				v, _ := strconv.Atoi(parts[2])
				if v > best.version {
					best = turn{user: u, msg: m, data: m.Keyboard[0][0].Data, version: v}
				}
			}
		}
		return best.version > after || p.finished()
	})
	return best
}

func (p *player) finished() bool {
	_, ok := p.fake.Find(group, "Final score")
	return ok
}

// move presses the current player's first button; it reports whether the press was accepted.
func (p *player) move(players []tgtest.User) bool {
	p.t.Helper()
	cur := p.turn(players, p.last)
	if p.finished() {
		return false
	}
	id := p.fake.Press(cur.user.ID, cur.msg.ID, cur.user, cur.data)
	var a tgtest.CallbackAnswer
	p.fake.WaitFor(p.t, "an answer", func() bool {
		var ok bool
		a, ok = p.fake.Answer(id)
		return ok
	})
	p.last = cur.version
	return played(a)
}

// played reports whether an answer accepted the press (Ben reads Russian).
func played(a tgtest.CallbackAnswer) bool {
	return strings.HasPrefix(a.Text, "Played") || strings.HasPrefix(a.Text, "Ход")
}
