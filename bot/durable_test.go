package bot

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kozyr-bot/kozyr/internal/tgtest"
	"github.com/kozyr-bot/kozyr/store"
)

// TestWebhookMatch: in webhook mode a match is played through Telegram's requests to the bot. A
// request without the secret is refused with 401 and a body that is no update with 400, both
// storing nothing; an update whose content cannot be read is dropped with 200; an update is
// answered 200 once it is durable, and the same update delivered again is answered 200 and
// changes nothing.
func TestWebhookMatch(t *testing.T) {
	t.Parallel()
	h := start(t, setup{webhook: true})
	h.openDMs(alice, bob)
	h.aliceBobAndAgent()

	post := func(secret, body string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, h.hook, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	h.waitTurn([]tgtest.User{alice, bob}, -1) // the agent may move first; then the table waits for a human
	h.flush()
	before, _ := h.table()
	command := `{"update_id":999001,"message":{"message_id":900,"date":1700000000,"chat":{"id":-4001,"type":"group","title":"Card night"},"from":{"id":101,"is_bot":false,"first_name":"Alice"},"text":"/cancel","entities":[{"type":"bot_command","offset":0,"length":7}]}}`
	for _, c := range []struct {
		name, secret, body string
		want               int
	}{
		{"no secret", "", command, http.StatusUnauthorized},
		{"wrong secret", "guess", command, http.StatusUnauthorized},
		{"not json", webhookSecret, "hello", http.StatusBadRequest},
		{"no update id", webhookSecret, `{"message":{"text":"/cancel"}}`, http.StatusBadRequest},
		{"two objects", webhookSecret, command + command, http.StatusBadRequest},
		// An update with an id whose content cannot be read is dropped: a 400 would have Telegram
		// retry it forever, ahead of every later update.
		{"unreadable", webhookSecret, `{"update_id":999002,"message":{"message_id":"x"}}`, http.StatusOK},
	} {
		if got := post(c.secret, c.body); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	if after, ok := h.table(); !ok || after.Version != before.Version || after.Closed != "" {
		t.Fatalf("refused requests changed the table: %+v", after)
	}

	// Every update delivered twice: the first moved the match, the second changes nothing.
	humans := []tgtest.User{alice, bob}
	cur := h.waitTurn(humans, -1)
	h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data)
	h.waitTurn(humans, cur.version) // the agent may move first; then it waits for a human
	h.flush()
	moved, _ := h.table()
	var last tgtest.Delivery
	for _, d := range h.fake.Deliveries() {
		if d.Status == http.StatusOK {
			last = d
		}
	}
	calls := len(h.fake.Calls())
	h.fake.RedeliverAll()
	h.wait("every update delivered again", func() bool {
		n := 0
		for _, d := range h.fake.Deliveries() {
			if d.UpdateID <= last.UpdateID && d.Status == http.StatusOK {
				n++
			}
		}
		return n >= 2*int(last.UpdateID)
	})
	h.flush()
	if again, _ := h.table(); again.Version != moved.Version {
		t.Errorf("redelivered updates moved the table from version %d to %d", moved.Version, again.Version)
	}
	for _, c := range h.fake.Calls()[calls:] {
		if c.Method != "getMe" {
			t.Errorf("a redelivered update made the bot call %s", c.Method)
		}
	}

	h.play([]tgtest.User{alice, bob}, first)
	h.ended()
	h.flush()
	for _, d := range h.fake.Deliveries() {
		if d.Status != http.StatusOK {
			t.Errorf("delivery of update %d answered %d", d.UpdateID, d.Status)
		}
	}
	h.clean()
}

// TestPressSettledBeforeAnswer: an accepted press is settled (confirmable to Telegram) once its
// move is committed, not only after its answer and messages have gone out, so a busy bot's next
// getUpdates hands out new presses instead of this one again. While the fake is serving the
// press's answerCallbackQuery, the bot holds no update in flight.
func TestPressSettledBeforeAnswer(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	h.openDMs(alice, bob)
	h.aliceBobAndAgent()
	cur := h.waitTurn([]tgtest.User{alice, bob}, -1)

	var mu sync.Mutex
	busy := map[string]int{} // callback id -> updates in flight while its answer was served
	h.fake.Watch(func(ev tgtest.Event) {
		if ev.Method == "answerCallbackQuery" {
			mu.Lock()
			busy[ev.CallbackID] = h.bot.intake.busy()
			mu.Unlock()
		}
	})
	id := h.fake.Press(cur.user.ID, cur.msg.ID, cur.user, firstData(cur.msg))
	h.wait("the answer", func() bool { _, ok := h.fake.Answer(id); return ok })
	if a, _ := h.fake.Answer(id); !strings.HasPrefix(a.Text, "Played") {
		t.Fatalf("answer %q, want the move's", a.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if n, ok := busy[id]; !ok || n != 0 {
		t.Errorf("%d updates in flight while the press was answered (seen %v), want 0", n, ok)
	}
}

// TestRedeliveryChangesNothing: a bot restarted before it confirmed anything is handed every
// update again (getUpdates without an offset); it recognises each by its processed id, answers
// none of them again and changes nothing.
func TestRedeliveryChangesNothing(t *testing.T) {
	t.Parallel()
	fake := tgtest.New(tgtest.Options{RateScale: rateScale, WaitTimeout: 60e9})
	t.Cleanup(fake.Close)
	fake.AddGroup(group, "Card night")
	path := filepath.Join(t.TempDir(), "kozyr.db")
	h := start(t, setup{fake: fake, path: path})
	players := []tgtest.User{alice, bob}
	h.openDMs(players...)
	h.aliceBobAndAgent()
	last := -1
	for range 4 {
		cur := h.waitTurn(players, last)
		h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data)
		last = cur.version
	}
	h.waitTurn(players, last) // the agent may move first; then the table waits for a human
	h.flush()
	before, _ := h.table()
	beforeLog := h.log()
	h.close()

	calls := len(fake.Calls())
	fake.RedeliverAll()
	h = start(t, setup{fake: fake, path: path})
	h.wait("every update taken again", func() bool { return fake.Pending() == 0 })
	h.flush()
	after, _ := h.table()
	if after.Version != before.Version || !slices.Equal(h.log(), beforeLog) {
		t.Fatalf("redelivery changed the table: version %d -> %d", before.Version, after.Version)
	}
	for _, c := range fake.Calls()[calls:] {
		switch c.Method {
		case "getMe", "setMyCommands", "deleteWebhook", "getUpdates":
		default:
			t.Errorf("redelivered updates made the bot call %s", c.Method)
		}
	}
	h.play(players, first)
	h.ended()
	h.clean()
}

// TestForgedPressOnLiveHand: presses on the player's live hand message that name another table,
// a later or an earlier version, or an action that is not legal are answered and change
// nothing: not the state, not that message's keyboard, no message.
func TestForgedPressOnLiveHand(t *testing.T) {
	t.Parallel()
	h := start(t, setup{})
	players := []tgtest.User{alice, bob}
	h.openDMs(players...)
	h.aliceBobAndAgent()
	first := h.waitTurn(players, -1)
	h.press(first.user.ID, first.msg.ID, first.user, first.msg.Keyboard[0][0].Data)
	cur := h.waitTurn(players, first.version)
	h.flush()
	tb, _ := h.table()
	live, _ := h.fake.Message(cur.user.ID, cur.msg.ID)
	log := h.log()
	calls := len(h.fake.Calls())
	for _, data := range []string{
		fmt.Sprintf("v2|%d|%d|bid/0", tb.ID+1000, tb.Version),
		fmt.Sprintf("v2|%d|%d|bid/0", tb.ID+1, tb.Version),
		fmt.Sprintf("v2|%d|%d|bid/0", tb.ID, tb.Version+1),
		fmt.Sprintf("v2|%d|%d|bid/0", tb.ID, tb.Version-1),
		fmt.Sprintf("v2|%d|%d|bid/77", tb.ID, tb.Version),
		fmt.Sprintf("v2|%d|%d|play/X1", tb.ID, tb.Version),
		fmt.Sprintf("v2|%d|%d|garbage", tb.ID, tb.Version),
		fmt.Sprintf("v2|%d|x|bid/0", tb.ID),
		fmt.Sprintf("p2|%d|%d|7", tb.ID+1000, tb.Version),
		fmt.Sprintf("l2|%d|begin", tb.ID),
		"v1|-4001|3|bid/0",
	} {
		if a := h.press(cur.user.ID, cur.msg.ID, cur.user, data); strings.HasPrefix(a.Text, "Played") || a.Text == "" {
			t.Errorf("%s answered %q", data, a.Text)
		}
	}
	h.flush()
	if now, _ := h.fake.Message(cur.user.ID, cur.msg.ID); now.Edits != live.Edits || len(now.Keyboard) == 0 {
		t.Errorf("forged presses touched the live hand message: %d edits (was %d), %d rows", now.Edits, live.Edits, len(now.Keyboard))
	}
	if after, _ := h.table(); after.Version != tb.Version || !slices.Equal(h.log(), log) {
		t.Errorf("forged presses changed the table")
	}
	for _, c := range h.fake.Calls()[calls:] {
		if c.Method != "answerCallbackQuery" && c.Method != "getUpdates" {
			t.Errorf("a forged press made the bot call %s", c.Method)
		}
	}
	// The real button still works.
	if a := h.press(cur.user.ID, cur.msg.ID, cur.user, cur.msg.Keyboard[0][0].Data); !strings.HasPrefix(a.Text, "Played") {
		t.Errorf("the live button after the forgeries: %q", a.Text)
	}
	h.clean()
}

// schema1 starts a bot on a copy of store/testdata/schema1.db, the file the bot of schema 1 left:
// a Wizard match of Alice, Bob and Carol seven moves in at -4001 (and a finished one archived),
// a Skat lobby of Carol and Bob at -4002, a Joker match of Bob and two agents at -4003.
func schema1(t *testing.T, s setup) *harness {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "store", "testdata", "schema1.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.path = filepath.Join(t.TempDir(), "schema1.db")
	if err := os.WriteFile(s.path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	s.fake = tgtest.New(tgtest.Options{RateScale: rateScale, WaitTimeout: 60e9})
	t.Cleanup(s.fake.Close)
	for chat, title := range map[int64]string{-4001: "Card night", -4002: "Skat night", -4003: "Joker night"} {
		s.fake.AddGroup(chat, title)
	}
	h := start(t, s)
	for _, u := range []tgtest.User{alice, bob, carol} {
		h.fake.StartDM(u, "") // the users of the old file had opened their DMs with the bot
	}
	return h
}

// cleanAfterSchema1 is clean, but for the edits of messages the old bot sent: a new fake has none
// of them, so the bot posts them anew.
func (h *harness) cleanAfterSchema1() {
	h.t.Helper()
	for _, v := range h.fake.Violations() {
		if !strings.Contains(v, "message to edit not found") && !strings.Contains(v, "message to delete not found") {
			h.t.Errorf("violation: %s", v)
		}
	}
}

// TestSchema1: the bot opens a schema-1 database, migrated in place. The matches in it were begun
// under rules version 1 of their games, whose replays the running engines (version 2: the first
// dealer is drawn from a stream of its own) no longer reproduce, so they are closed with a clear
// group message at the start, never a crash loop; the Skat lobby goes on and begins.
func TestSchema1(t *testing.T) {
	t.Parallel()
	h := schema1(t, setup{})
	h.reply(-4001, "This match can't go on")
	h.reply(-4003, "Эту партию нельзя продолжить") // the Joker group chose Russian
	h.wait("the closed tables to be gone", func() bool {
		var left []store.Table
		_ = h.st.View(context.Background(), func(tx store.Tx) error {
			left, _ = tx.Tables()
			return nil
		})
		return len(left) == 1 && left[0].Game == "skat"
	})
	for u, text := range map[tgtest.User]string{alice: "Эту партию нельзя", bob: "This match can't go on", carol: "This match can't go on"} {
		h.wait(u.FirstName+"'s hand to say so", func() bool {
			_, ok := h.fake.Find(u.ID, text)
			return ok
		})
	}
	h.chat = -4002
	h.say(-4002, carol, "/addai")
	h.seats(3)
	h.say(-4002, carol, "/begin")
	h.wait("the Skat match to begin", func() bool { r, ok := h.table(); return ok && r.Started })
	h.waitTurn([]tgtest.User{bob, carol}, -1)
	h.flush()
	h.cleanAfterSchema1()
}
