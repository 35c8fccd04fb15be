package bot

import (
	"cmp"
	"context"
	"errors"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/games/wizard"
	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// The end-to-end tests drive the real go-telegram client against tgtest, with bbolt in a temp dir.
// Windows are scaled (rateScale) and agents wait aiDelay, so a short Wizard match takes seconds.
const (
	rateScale = 50
	aiDelay   = 5 * time.Millisecond
	group     = int64(-4001)
)

var (
	alice = tgtest.User{ID: 101, FirstName: "Alice", LanguageCode: "en"}
	bob   = tgtest.User{ID: 102, FirstName: "Bob", LanguageCode: "en-GB"}
	carol = tgtest.User{ID: 103, FirstName: "Carol", LanguageCode: "en"}
	dave  = tgtest.User{ID: 104, FirstName: "Dave", LanguageCode: "en"}
)

type setup struct {
	faults      float64
	turnTimeout time.Duration
	aiDelay     time.Duration // 0: aiDelay
	path        string        // the DB file; "" = a new one in t.TempDir()
	sync        bool          // fsync every commit, as in production (off in tests for speed)
	rateScale   float64
	fake        *tgtest.Server
	webhook     bool          // take updates by webhook instead of polling
	games       []games.Rules // nil: all.Rules()
}

// webhookSecret is the secret_token of the tests' webhooks.
const webhookSecret = "kozyr-test-secret"

// harness is one bot running against one fake.
type harness struct {
	t    testing.TB
	chat int64 // the group the test plays in
	fake *tgtest.Server
	st   *store.BoltStore
	bot  *Bot
	stop context.CancelFunc
	done chan error
	hook string // the webhook's URL in webhook mode
	// playing is the table play plays, so an earlier match in the archive is not its end.
	playing store.TableID
}

func start(t testing.TB, s setup) *harness {
	t.Helper()
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
	return startWith(t, s, st, st)
}

// startWith is start with the store the bot uses (which may wrap the file's) given.
func startWith(t testing.TB, s setup, use store.Store, st *store.BoltStore) *harness {
	t.Helper()
	fake := s.fake
	if fake == nil {
		fake = tgtest.New(tgtest.Options{RateScale: cmp.Or(s.rateScale, rateScale), Faults: s.faults, Seed: 7, WaitTimeout: 60 * time.Second})
		t.Cleanup(fake.Close)
		fake.AddGroup(group, "Card night")
	}
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	if s.games == nil {
		s.games = all.Rules()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{
		Token:       fake.Token(),
		APIURL:      fake.URL(),
		Store:       use,
		Games:       s.games,
		Locales:     loc,
		Log:         zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel),
		TurnTimeout: s.turnTimeout,
		AIDelay:     cmp.Or(s.aiDelay, aiDelay),
		RateScale:   cmp.Or(s.rateScale, rateScale),
		GroupPause:  5 * time.Millisecond,
		Level:       search.Easy, // the tests that play against agents simulate them; search needs its own tests
		HandPause:   50 * time.Millisecond,
	}
	if s.webhook {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Listen = ln.Addr().String()
		ln.Close()
		cfg.WebhookURL, cfg.WebhookSecret = "http://"+cfg.Listen+"/telegram", webhookSecret
	}
	b, err := New(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h := &harness{t: t, chat: group, fake: fake, st: st, bot: b, stop: cancel, done: make(chan error, 1), hook: cfg.WebhookURL}
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

func (h *harness) say(chat int64, from tgtest.User, text string) { h.fake.SendText(chat, from, text) }

func (h *harness) wait(what string, cond func() bool) {
	h.t.Helper()
	h.fake.WaitFor(h.t, what, cond)
}

// table is the open record of the test group, if any.
func (h *harness) table() (store.Table, bool) {
	var t store.Table
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		t, err = tx.TableAt(store.Place{Chat: h.chat})
		return err
	})
	return t, err == nil
}

// log is the action log of the open table of the test group.
func (h *harness) log() []store.Entry {
	h.t.Helper()
	t, ok := h.table()
	if !ok {
		return nil
	}
	var log []store.Entry
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		log, err = tx.Log(t.ID)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return log
}

// lastMatch is the test group's newest archived match.
func (h *harness) lastMatch() (store.Match, bool) {
	var m store.Match
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		m, err = tx.LastMatch(h.chat)
		return err
	})
	return m, err == nil
}

// user is what the store keeps of a user.
func (h *harness) user(id int64) store.User {
	var u store.User
	_ = h.st.View(context.Background(), func(tx store.Tx) error {
		u, _ = tx.User(id)
		return nil
	})
	return u
}

// lobby waits for the group's lobby message and returns it.
func (h *harness) lobby() tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
	h.wait("the lobby message", func() bool {
		t, ok := h.table()
		if !ok || t.Started {
			return false
		}
		for _, msg := range h.fake.Messages(h.chat) {
			if d, err := callback.ParseLobby(firstData(msg)); err == nil && d.Table == t.ID {
				m = msg
			}
		}
		return m.ID != 0
	})
	return m
}

// firstData is the data of a message's first button, or "".
func firstData(m tgtest.Message) string {
	if len(m.Keyboard) == 0 || len(m.Keyboard[0]) == 0 {
		return ""
	}
	return m.Keyboard[0][0].Data
}

// seats waits until the lobby has n seats.
func (h *harness) seats(n int) {
	h.t.Helper()
	h.wait("seats", func() bool { t, ok := h.table(); return ok && len(t.Seats) == n })
}

// pressButton presses the lobby button whose data ends with op and waits for the answer.
func (h *harness) pressLobby(from tgtest.User, op string) tgtest.CallbackAnswer {
	h.t.Helper()
	var m tgtest.Message
	var data string
	h.wait("lobby button "+op, func() bool {
		m = h.lobby()
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
func (h *harness) press(chat int64, msg int, from tgtest.User, data string) tgtest.CallbackAnswer {
	h.t.Helper()
	id := h.fake.Press(chat, msg, from, data)
	var a tgtest.CallbackAnswer
	h.wait("the answer to "+data, func() bool {
		var ok bool
		a, ok = h.fake.Answer(id)
		return ok
	})
	return a
}

// shortGame opens a Wizard table of three rounds: /new wizard, then the creator cycles the
// short_game option in the lobby's options keyboard to "3".
func (h *harness) shortGame(creator tgtest.User) {
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
		return strings.HasSuffix(firstData(m), "|join")
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
	user    tgtest.User
	msg     tgtest.Message
	version int
}

func (h *harness) currentTurn(players []tgtest.User) (turn, bool) {
	var best turn
	found := false
	t, ok := h.table()
	if !ok {
		return best, false
	}
	for _, p := range players {
		for _, m := range h.fake.Messages(p.ID) {
			d, err := callback.ParsePlay(firstData(m))
			if err != nil || d.Table != t.ID {
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
	m, ok := h.lastMatch()
	return ok && (h.playing == 0 || m.Table == h.playing)
}

// play presses buttons for the human players until the match ends. choose picks the button; it
// returns the number of presses.
func (h *harness) play(players []tgtest.User, choose func(n int) int) int {
	h.t.Helper()
	last, presses := -1, 0
	if t, ok := h.table(); ok {
		last = t.Version - 1 // keyboards drawn for older versions are stale
		h.playing = t.ID
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
func (h *harness) ended() tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
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
// flush waits until the outbox has sent everything, and an ended table's last messages (the
// deletion of superseded prompts among them) are out and the table dropped.
func (h *harness) flush() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		if err := h.bot.out.Flush(ctx); err != nil && !errors.Is(err, context.Canceled) {
			h.t.Fatalf("flush: %v", err)
		}
		if !h.endingHeld() && h.bot.out.Pending() == 0 {
			return
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("flush: an ended table is still held")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// endingHeld reports whether the bot still holds a table that has ended.
func (h *harness) endingHeld() bool {
	h.bot.mu.Lock()
	defer h.bot.mu.Unlock()
	for _, m := range h.bot.tables {
		if snap := m.current(); snap != nil && snap.Rec.Ending() {
			return true
		}
	}
	return false
}

// openDMs has users press START in the bot's DM and waits until the bot knows.
func (h *harness) openDMs(users ...tgtest.User) {
	h.t.Helper()
	for _, u := range users {
		h.fake.StartDM(u, "")
	}
	h.wait("DMs open", func() bool {
		for _, u := range users {
			if !h.user(u.ID).DMOpen {
				return false
			}
		}
		return true
	})
}

// replyTo waits for the bot's newest message in chat containing substr.
func (h *harness) reply(chat int64, substr string) tgtest.Message {
	h.t.Helper()
	var m tgtest.Message
	h.wait("a message containing "+substr, func() bool {
		var ok bool
		m, ok = h.fake.Find(chat, substr)
		return ok
	})
	return m
}

// begin starts the lobby's match as its creator and waits for the first turn.
func (h *harness) begin(creator tgtest.User) {
	h.t.Helper()
	if a := h.pressLobby(creator, "begin"); a.Text != "Dealing!" {
		h.t.Fatalf("begin: %q", a.Text)
	}
	h.wait("the match to start", func() bool { t, ok := h.table(); return ok && t.Started })
}

// waitTurn waits for a keyboard newer than version among the players' DMs.
func (h *harness) waitTurn(players []tgtest.User, version int) turn {
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
func (h *harness) anyKeyboard(players []tgtest.User) bool {
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

// state is the engine state of a started table record.
func (h *harness) state(rec store.Table) (games.State, error) {
	var st games.State
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		st, err = h.bot.stateOf(tx, nil, rec)
		return err
	})
	return st, err
}

// matchState replays an archived match to its end.
func (h *harness) matchState(m store.Match) (games.State, error) {
	log := make([]store.Entry, 0, len(m.Log))
	for _, s := range m.Log {
		e, err := store.ParseEntry(s)
		if err != nil {
			return nil, err
		}
		log = append(log, e)
	}
	st, _, err := replay(h.bot.rules[m.Game], m.Config, m.Seed, log)
	return st, err
}

// logText is the action log of the open table as "<seat>:<action>" entries.
func (h *harness) logText() []string {
	var out []string
	for _, e := range h.log() {
		out = append(out, store.FormatEntry(e))
	}
	return out
}

// groupMsg is the id of the group message of table rec, as the bot knows it.
func (h *harness) groupMsg(rec store.Table) int {
	if m := h.bot.mem(rec.ID); m != nil {
		id, _ := m.group()
		return id
	}
	return rec.Msg
}

// updateTable changes the open table of the test group directly in the store (a test rigging a
// lobby, say).
func (h *harness) updateTable(fn func(t *store.Table)) {
	h.t.Helper()
	err := h.st.Update(context.Background(), func(tx store.Tx) error {
		t, err := tx.TableAt(store.Place{Chat: h.chat})
		if err != nil {
			return err
		}
		fn(&t)
		return tx.PutTable(&t)
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// updateUser changes a user's record directly in the store.
func (h *harness) updateUser(id int64, fn func(u *store.User)) {
	h.t.Helper()
	err := h.st.Update(context.Background(), func(tx store.Tx) error {
		u, err := tx.User(id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		fn(&u)
		return tx.PutUser(u)
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

// lastMatchErr is lastMatch with the store's error.
func (h *harness) lastMatchErr() (store.Match, error) {
	var m store.Match
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		m, err = tx.LastMatch(h.chat)
		return err
	})
	return m, err
}

// userErr is what the store keeps of a user, with its error.
func (h *harness) userErr(id int64) (store.User, error) {
	var u store.User
	err := h.st.View(context.Background(), func(tx store.Tx) error {
		var err error
		u, err = tx.User(id)
		return err
	})
	return u, err
}

// patchState rewrites the engine state of the open table (a test fixture) in the store and in
// the bot's memory, at the same version.
func (h *harness) patchState(patch func([]byte) ([]byte, error)) {
	h.t.Helper()
	var rec store.Table
	err := h.st.Update(context.Background(), func(tx store.Tx) error {
		var err error
		if rec, err = tx.TableAt(store.Place{Chat: h.chat}); err != nil {
			return err
		}
		data, err := tx.State(rec.ID)
		if err != nil {
			return err
		}
		if data, err = patch(data); err != nil {
			return err
		}
		return tx.PutState(rec.ID, data)
	})
	if err != nil {
		h.t.Fatal(err)
	}
	st, err := h.state(rec)
	if err != nil {
		h.t.Fatal(err)
	}
	if m := h.bot.mem(rec.ID); m != nil {
		snap := *m.current()
		snap.State = st
		m.committed(0, &snap)
	}
}
