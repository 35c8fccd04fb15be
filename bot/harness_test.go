package bot

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/tgfake"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/wizard"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// The end-to-end tests drive the real go-telegram client against tgfake, with bbolt in a temp dir.
// Windows are scaled (rateScale) and agents wait aiDelay, so a short Wizard match takes seconds.
const (
	rateScale = 50
	aiDelay   = 5 * time.Millisecond
	group     = int64(-4001)
)

var (
	alice = tgfake.User{ID: 101, FirstName: "Alice", LanguageCode: "en"}
	bob   = tgfake.User{ID: 102, FirstName: "Bob", LanguageCode: "en-GB"}
	carol = tgfake.User{ID: 103, FirstName: "Carol", LanguageCode: "en"}
	dave  = tgfake.User{ID: 104, FirstName: "Dave", LanguageCode: "en"}
)

type setup struct {
	faults      float64
	turnTimeout time.Duration
	aiDelay     time.Duration // 0: aiDelay
	path        string        // the DB file; "" = a new one in t.TempDir()
	sync        bool          // fsync every commit, as in production (off in tests for speed)
	rateScale   float64
	fake        *tgfake.Server
}

// harness is one bot running against one fake.
type harness struct {
	t    testing.TB
	chat int64 // the group the test plays in
	fake *tgfake.Server
	st   *store.BoltStore
	bot  *Bot
	stop context.CancelFunc
	done chan error
}

func start(t testing.TB, s setup) *harness {
	t.Helper()
	fake := s.fake
	if fake == nil {
		fake = tgfake.New(tgfake.Options{RateScale: cmp.Or(s.rateScale, rateScale), Faults: s.faults, Seed: 7, WaitTimeout: 60 * time.Second})
		t.Cleanup(fake.Close)
		fake.AddGroup(group, "Card night")
	}
	path := s.path
	if path == "" {
		path = filepath.Join(t.TempDir(), "kozyr.db")
	}
	var opts []store.Option
	if !s.sync {
		opts = append(opts, store.WithNoSync())
	}
	st, err := store.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b, err := New(ctx, Config{
		Token:       fake.Token(),
		APIURL:      fake.URL(),
		Store:       st,
		Games:       all.Rules(),
		Locales:     loc,
		Log:         zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		TurnTimeout: s.turnTimeout,
		AIDelay:     cmp.Or(s.aiDelay, aiDelay),
		RateScale:   cmp.Or(s.rateScale, rateScale),
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h := &harness{t: t, chat: group, fake: fake, st: st, bot: b, stop: cancel, done: make(chan error, 1)}
	go func() { h.done <- b.Run(ctx) }()
	t.Cleanup(h.close)
	return h
}

// close stops the bot (as SIGTERM would) and closes the store; it may be called twice.
func (h *harness) close() {
	if h.stop == nil {
		return
	}
	h.stop()
	h.stop = nil
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		h.t.Errorf("Run did not return after cancel")
	}
	if err := h.st.Close(); err != nil {
		h.t.Errorf("close store: %v", err)
	}
}

func (h *harness) say(chat int64, from tgfake.User, text string) { h.fake.SendText(chat, from, text) }

func (h *harness) wait(what string, cond func() bool) {
	h.t.Helper()
	h.fake.WaitFor(h.t, what, cond)
}

// table is the open record of the test group, if any.
func (h *harness) table() (store.Table, bool) {
	t, err := h.st.Table(context.Background(), h.chat)
	return t, err == nil
}

// lobby waits for the group's lobby message and returns it.
func (h *harness) lobby() tgfake.Message {
	h.t.Helper()
	var m tgfake.Message
	h.wait("the lobby message", func() bool {
		t, ok := h.table()
		if !ok || t.LobbyMsg == 0 {
			return false
		}
		m, ok = h.fake.Message(h.chat, t.LobbyMsg)
		return ok && len(m.Keyboard) > 0
	})
	return m
}

// seats waits until the lobby has n seats.
func (h *harness) seats(n int) {
	h.t.Helper()
	h.wait("seats", func() bool { t, ok := h.table(); return ok && len(t.Seats) == n })
}

// pressButton presses the lobby button whose data ends with op and waits for the answer.
func (h *harness) pressLobby(from tgfake.User, op string) tgfake.CallbackAnswer {
	h.t.Helper()
	var m tgfake.Message
	var data string
	h.wait("lobby button "+op, func() bool {
		t, ok := h.table()
		if !ok || t.LobbyMsg == 0 {
			return false
		}
		m, _ = h.fake.Message(h.chat, t.LobbyMsg)
		for _, row := range m.Keyboard {
			for _, btn := range row {
				if strings.HasSuffix(btn.Data, "|"+op) {
					data = btn.Data
					return true
				}
			}
		}
		return false
	})
	return h.press(h.chat, m.ID, from, data)
}

// press presses a button and waits for the bot's answer.
func (h *harness) press(chat int64, msg int, from tgfake.User, data string) tgfake.CallbackAnswer {
	h.t.Helper()
	id := h.fake.Press(chat, msg, from, data)
	var a tgfake.CallbackAnswer
	h.wait("the answer to "+data, func() bool {
		var ok bool
		a, ok = h.fake.Answer(id)
		return ok
	})
	return a
}

// shortGame opens a Wizard table of three rounds: /new wizard, then the creator cycles the
// short_game option in the lobby's options keyboard to "3".
func (h *harness) shortGame(creator tgfake.User) {
	h.t.Helper()
	h.say(h.chat, creator, "/new wizard")
	h.lobby()
	h.pressLobby(creator, "opts")
	for {
		t, _ := h.table()
		if t.Config.Options["short_game"] == "3" {
			break
		}
		h.pressLobby(creator, "o"+optionIndex(h.t, "short_game"))
		h.wait("the option to change", func() bool {
			u, _ := h.table()
			return u.Config.Options["short_game"] != t.Config.Options["short_game"]
		})
	}
	h.pressLobby(creator, "back")
	h.wait("the main lobby keyboard", func() bool {
		m := h.lobby()
		return strings.HasSuffix(m.Keyboard[0][0].Data, "|join")
	})
}

func optionIndex(t testing.TB, key string) string {
	for i, o := range wizard.Rules().Options() {
		if o.Key == key {
			return string(rune('0' + i))
		}
	}
	t.Fatalf("wizard has no option %q", key)
	return ""
}

// turn is a keyboard a player may press now: the newest game keyboard among the players' DMs.
type turn struct {
	user    tgfake.User
	msg     tgfake.Message
	version int
}

func (h *harness) currentTurn(players []tgfake.User) (turn, bool) {
	var best turn
	found := false
	for _, p := range players {
		for _, m := range h.fake.Messages(p.ID) {
			if len(m.Keyboard) == 0 || len(m.Keyboard[0]) == 0 {
				continue
			}
			d, err := parsePlayData(m.Keyboard[0][0].Data)
			if err != nil || d.Chat != h.chat {
				continue
			}
			if !found || d.Version > best.version {
				best, found = turn{user: p, msg: m, version: d.Version}, true
			}
		}
	}
	return best, found
}

// finished reports whether the group's match is archived.
func (h *harness) finished() bool {
	_, err := h.st.LastFinished(context.Background(), h.chat)
	return err == nil
}

// play presses buttons for the human players until the match ends. choose picks the button; it
// returns the number of presses.
func (h *harness) play(players []tgfake.User, choose func(n int) int) int {
	h.t.Helper()
	last, presses := -1, 0
	if t, ok := h.table(); ok {
		last = t.Version - 1 // keyboards drawn for older versions are stale
	}
	for {
		var cur turn
		h.wait("a player's turn or the end", func() bool {
			if h.finished() {
				return true
			}
			var ok bool
			cur, ok = h.currentTurn(players)
			return ok && cur.version > last
		})
		if h.finished() {
			return presses
		}
		btns := slices.Concat(cur.msg.Keyboard...)
		btn := btns[choose(len(btns))]
		a := h.press(cur.user.ID, cur.msg.ID, cur.user, btn.Data)
		if !strings.HasPrefix(a.Text, "Played") {
			h.t.Fatalf("press %s by %s: answer %q", btn.Data, cur.user.FirstName, a.Text)
		}
		last = cur.version
		presses++
	}
}

// first always picks the first button.
func first(int) int { return 0 }

// ended waits for the match end message in the group and checks the run was clean.
func (h *harness) ended() tgfake.Message {
	h.t.Helper()
	var m tgfake.Message
	h.wait("the final score in the group", func() bool {
		var ok bool
		m, ok = h.fake.Find(h.chat, "Final score")
		return ok
	})
	return m
}

// clean checks that the bot broke no rule of the Bot API.
func (h *harness) clean() {
	h.t.Helper()
	if v := h.fake.Violations(); len(v) > 0 {
		h.t.Errorf("%d violations, first: %s", len(v), strings.Join(v[:min(5, len(v))], "\n"))
	}
}

// flush waits until the outbox has sent everything.
func (h *harness) flush() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.bot.out.Flush(ctx); err != nil && !errors.Is(err, context.Canceled) {
		h.t.Fatalf("flush: %v", err)
	}
}

// openDMs has users press START in the bot's DM and waits until the bot knows.
func (h *harness) openDMs(users ...tgfake.User) {
	h.t.Helper()
	for _, u := range users {
		h.fake.StartDM(u, "")
	}
	h.wait("DMs open", func() bool {
		for _, u := range users {
			if !h.bot.dmOpen(context.Background(), u.ID) {
				return false
			}
		}
		return true
	})
}

// replyTo waits for the bot's newest message in chat containing substr.
func (h *harness) reply(chat int64, substr string) tgfake.Message {
	h.t.Helper()
	var m tgfake.Message
	h.wait("a message containing "+substr, func() bool {
		var ok bool
		m, ok = h.fake.Find(chat, substr)
		return ok
	})
	return m
}

// begin starts the lobby's match as its creator and waits for the first turn.
func (h *harness) begin(creator tgfake.User) {
	h.t.Helper()
	if a := h.pressLobby(creator, "begin"); a.Text != "Dealing!" {
		h.t.Fatalf("begin: %q", a.Text)
	}
	h.wait("the match to start", func() bool { t, ok := h.table(); return ok && t.Started })
}

// waitTurn waits for a keyboard newer than version among the players' DMs.
func (h *harness) waitTurn(players []tgfake.User, version int) turn {
	h.t.Helper()
	var cur turn
	h.wait("a turn after version "+strconv.Itoa(version), func() bool {
		var ok bool
		cur, ok = h.currentTurn(players)
		return ok && cur.version > version
	})
	return cur
}

func testLog(t testing.TB) zerolog.Logger { return zerolog.New(zerolog.NewTestWriter(t)) }

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// anyKeyboard reports whether a player still has a message with buttons.
func (h *harness) anyKeyboard(players []tgfake.User) bool {
	for _, u := range players {
		for _, m := range h.fake.Messages(u.ID) {
			if len(m.Keyboard) > 0 {
				return true
			}
		}
	}
	return false
}

// aliceBobAndAgent opens a three-round Wizard table of Alice (the creator), Bob and one agent and
// begins the match: the common start of the tests that exercise something other than the lobby.
func (h *harness) aliceBobAndAgent() {
	h.t.Helper()
	h.shortGame(alice)
	h.say(group, bob, "/join")
	h.say(group, alice, "/addai")
	h.seats(3)
	h.begin(alice)
}
