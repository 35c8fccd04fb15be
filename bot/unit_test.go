package bot

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

func TestParseCommand(t *testing.T) {
	cmd := func(off, length int) []models.MessageEntity {
		return []models.MessageEntity{{Type: models.MessageEntityTypeBotCommand, Offset: off, Length: length}}
	}
	for _, c := range []struct {
		text     string
		entities []models.MessageEntity
		want     command
		ok       bool
	}{
		{"/new", cmd(0, 4), command{Name: "new"}, true},
		{"/new wizard", cmd(0, 4), command{Name: "new", Args: "wizard"}, true},
		{"/new@kozyr_bot wizard", cmd(0, 14), command{Name: "new", Args: "wizard"}, true},
		{"/NEW@Kozyr_Bot", cmd(0, 14), command{Name: "new"}, true},
		{"/new@other_bot wizard", cmd(0, 14), command{}, false},
		{"/start j-1001234567890", cmd(0, 6), command{Name: "start", Args: "j-1001234567890"}, true},
		{"/lang 🇷🇺 ru", cmd(0, 5), command{Name: "lang", Args: "🇷🇺 ru"}, true},
		// UTF-16: the emoji before the command is two code units per rune, so offset 0 is absent.
		{"🃏 /new", cmd(3, 4), command{}, false},
		{"hello /new", cmd(6, 4), command{}, false},
		{"/new", nil, command{Name: "new"}, true}, // no entities (a client that sends none)
		{"/new@kozyr_bot\twizard", nil, command{Name: "new", Args: "wizard"}, true},
		{"just text", nil, command{}, false},
		{"/", nil, command{}, false},
		{"/a-b", nil, command{}, false},
		{"/join@", cmd(0, 6), command{}, false},
	} {
		got, ok := parseCommand(c.text, c.entities, "kozyr_bot")
		if ok != c.ok || got != c.want {
			t.Errorf("parseCommand(%q) = %+v, %v; want %+v, %v", c.text, got, ok, c.want, c.ok)
		}
	}
}

func TestUTF16ToByte(t *testing.T) {
	for _, c := range []struct {
		s     string
		units int
		want  int
	}{
		{"/new", 4, 4},
		{"ёж /new", 3, 5},  // ё and ж: one unit, two bytes each
		{"🃏 /new", 3, 5},   // 🃏: two units, four bytes
		{"🃏 /new", 100, 9}, // clamped
		{"🃏", 1, 4},        // inside a surrogate pair: the whole rune
	} {
		if got := utf16ToByte(c.s, c.units); got != c.want {
			t.Errorf("utf16ToByte(%q, %d) = %d, want %d", c.s, c.units, got, c.want)
		}
	}
}

func TestSerializerOrderPerKey(t *testing.T) {
	s := newSerializer(testLog(t))
	var mu sync.Mutex
	got := map[int64][]int{}
	for i := range 200 {
		key := int64(i % 4)
		if !s.Do(queueKey{chat: key}, func() {
			mu.Lock()
			got[key] = append(got[key], i)
			mu.Unlock()
		}) {
			t.Fatalf("job %d refused", i)
		}
	}
	s.Do(queueKey{chat: 9}, func() { panic("an engine bug") }) // logged, not fatal
	ctx, cancel := contextWithTimeout(5 * time.Second)
	defer cancel()
	if err := s.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	for key, list := range got {
		if !slices.IsSorted(list) || len(list) != 50 {
			t.Errorf("key %d ran %v", key, list)
		}
	}
}

// TestSerializerWaitRacesDo: work queued while a Wait runs (a finishing job queues a table's
// drop) is waited for too, and the race detector finds nothing to say.
func TestSerializerWaitRacesDo(t *testing.T) {
	s := newSerializer(testLog(t))
	var ran atomic.Int32
	for i := range 50 {
		s.Do(queueKey{chat: int64(i)}, func() {
			s.Do(queueKey{chat: -int64(i) - 1}, func() { ran.Add(1) })
		})
		ctx, cancel := contextWithTimeout(5 * time.Second)
		if err := s.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		if got := ran.Load(); got != int32(i+1) {
			t.Fatalf("after Wait %d: %d follow-up jobs ran", i, got)
		}
	}
}

// TestSerializerBound: a queue holds at most maxQueue waiting jobs; the one beyond is refused.
func TestSerializerBound(t *testing.T) {
	s := newSerializer(testLog(t))
	release := make(chan struct{})
	s.Do(queueKey{chat: 1}, func() { <-release })
	accepted := 0
	for range maxQueue + 5 {
		if s.Do(queueKey{chat: 1}, func() {}) {
			accepted++
		}
	}
	if !s.Do(queueKey{chat: 2}, func() {}) {
		t.Error("another queue refused a job")
	}
	close(release)
	if accepted < maxQueue-1 || accepted > maxQueue {
		t.Errorf("%d jobs accepted behind a running one, want about %d", accepted, maxQueue)
	}
}

// TestTrackerOffset: the offset confirms exactly the settled updates: the lowest one in flight or
// held, else one past the highest seen.
func TestTrackerOffset(t *testing.T) {
	now := time.Now()
	tr := newTracker()
	if tr.offset() != 0 {
		t.Errorf("offset before any update: %d", tr.offset())
	}
	start := func(id int64, at time.Time) (*pending, bool) {
		return tr.start(&models.Update{ID: id}, []byte("{}"), false, at)
	}
	for _, id := range []int64{11, 12, 15, 16} {
		if _, fresh := start(id, now); !fresh {
			t.Fatalf("update %d not fresh", id)
		}
	}
	if _, fresh := start(12, now); fresh {
		t.Error("a redelivered update in flight counted as new")
	}
	tr.settle(12, nil, now)
	tr.settle(15, nil, now)
	if got := tr.offset(); got != 11 {
		t.Errorf("offset %d before 11 settled, want 11", got)
	}
	tr.settle(11, nil, now)
	if got := tr.offset(); got != 16 {
		t.Errorf("offset %d, want 16 (16 still running)", got)
	}
	tr.settle(16, errors.New("disk full"), now)
	if got := tr.offset(); got != 16 {
		t.Errorf("offset %d after 16 failed, want it held at 16", got)
	}
	if _, fresh := start(16, now); fresh {
		t.Error("a failed update was retried at once")
	}
	p, fresh := start(16, now.Add(retryDelay))
	if !fresh {
		t.Fatal("a failed update was not retried after the delay")
	}
	tr.settle(16, nil, now)
	<-p.done
	if got := tr.offset(); got != 17 {
		t.Errorf("offset %d, want 17", got)
	}
}

// TestTrackerKept: updates kept in the store no longer hold the offset back; one that settles
// joins the cleanup, one that fails stays kept (the bot retries it), and one that settled or
// failed before its row was committed needs no row.
func TestTrackerKept(t *testing.T) {
	now := time.Now()
	tr := newTracker()
	for _, id := range []int64{21, 22, 23, 24} {
		tr.start(&models.Update{ID: id}, []byte(`{"update_id":1}`), false, now)
	}
	tr.start(&models.Update{ID: 25}, nil, false, now) // from a webhook: never kept
	if early := tr.toKeep(now.Add(keepAfter / 2)); len(early) != 0 {
		t.Fatalf("%d updates to keep after a moment's wait", len(early))
	}
	keep := tr.toKeep(now.Add(keepAfter))
	if len(keep) != 4 {
		t.Fatalf("%d updates to keep, want 4 (not the webhook's)", len(keep))
	}
	tr.settle(23, nil, now)                // settled while its row was written
	tr.settle(24, errors.New("disk"), now) // failed meanwhile: Telegram's to redeliver
	tr.keptNow(keep)
	if got := tr.offset(); got != 24 {
		t.Errorf("offset %d, want 24: the failed one is not kept", got)
	}
	tr.settle(25, nil, now)
	if got := tr.offset(); got != 24 {
		t.Errorf("offset %d, want 24", got)
	}
	if p := tr.settle(21, errors.New("disk"), now); p == nil || !p.kept {
		t.Error("a kept update that failed is not marked kept for the bot's own retry")
	}
	if p, fresh := tr.start(&models.Update{ID: 21}, nil, false, now.Add(retryDelay)); !fresh || !p.kept {
		t.Error("the retry of a kept update is not kept")
	}
	tr.settle(21, nil, now)
	tr.settle(22, nil, now)
	got := tr.takeCleanup()
	slices.Sort(got)
	if want := []int64{21, 22, 23, 24}; !slices.Equal(got, want) {
		t.Errorf("cleanup %v, want %v", got, want)
	}
	if len(tr.takeCleanup()) != 0 {
		t.Error("cleanup not forgotten once taken")
	}
	for id := range int64(keepBacklog) {
		tr.start(&models.Update{ID: 100 + id}, []byte("{}"), false, now)
	}
	if n := len(tr.toKeep(now)); n != keepBacklog {
		t.Errorf("a backlog of %d: %d kept at once, want all", keepBacklog, n)
	}
}

// stubState is a State that only knows who is to act, for the bookkeeping tests.
type stubState struct{ toAct []games.Seat }

func (s stubState) ToAct() []games.Seat           { return s.toAct }
func (stubState) Legal(games.Seat) []games.Action { return nil }
func (stubState) View(games.Seat) games.View      { return games.View{} }
func (stubState) Score() games.Sheet              { return games.Sheet{} }
func (stubState) MarshalBinary() ([]byte, error)  { return nil, nil }
func (s stubState) Apply(games.Seat, games.Action) (games.State, []games.Event, error) {
	return s, nil, nil
}

func TestStampTurnsAndDeadline(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := now.Add(-time.Minute)
	b := &Bot{cfg: Config{TurnTimeout: 2 * time.Minute}}
	none := store.NoTurn
	for _, c := range []struct {
		name         string
		before, now  []games.Seat
		deadline     time.Time // the record's deadline before
		wantDeadline time.Time
		wantTurns    []int
	}{
		{"first deal", nil, []games.Seat{0}, time.Time{}, now.Add(2 * time.Minute), []int{7, none, none, none}},
		{"next player", []games.Seat{0}, []games.Seat{1}, old, now.Add(2 * time.Minute), []int{none, 7, none, none}},
		{"same player again", []games.Seat{1}, []games.Seat{1}, old, old, []int{none, 5, none, none}},
		{"simultaneous, one done", []games.Seat{0, 1}, []games.Seat{1}, old, old, []int{none, 5, none, none}},
		{"agent's turn", []games.Seat{1}, []games.Seat{2}, old, time.Time{}, []int{none, none, 7, none}},
		{"away player's turn", []games.Seat{2}, []games.Seat{3}, time.Time{}, time.Time{}, []int{none, none, none, 7}},
		{"the end", []games.Seat{1}, nil, old, time.Time{}, []int{none, none, none, none}},
	} {
		seats := []store.Player{store.NewPlayer(1, "", ""), store.NewPlayer(2, "", ""), store.NewAgent(), store.NewPlayer(4, "", "")}
		seats[3].Away = true
		for _, s := range c.before {
			seats[s].TurnFrom = 5
		}
		tb := store.Table{Seats: seats, Version: 7, Deadline: c.deadline}
		b.stamp(&tb, stubState{c.now}, now)
		if !tb.Deadline.Equal(c.wantDeadline) {
			t.Errorf("%s: deadline %v, want %v", c.name, tb.Deadline, c.wantDeadline)
		}
		var turns []int
		for _, p := range tb.Seats {
			turns = append(turns, p.TurnFrom)
		}
		if !slices.Equal(turns, c.wantTurns) {
			t.Errorf("%s: turns %v, want %v", c.name, turns, c.wantTurns)
		}
	}
}

// TestPressStillValid: an older button counts only while several seats act at once, and only
// when it was drawn during the presser's current turn and they have not acted since.
func TestPressStillValid(t *testing.T) {
	seats := func(turns, acted [3]int) []store.Player {
		var out []store.Player
		for i := range 3 {
			p := store.NewPlayer(int64(i+1), "", "")
			p.TurnFrom, p.Acted = turns[i], acted[i]
			out = append(out, p)
		}
		return out
	}
	none := store.NoTurn
	stakes := store.Table{Version: 5, Seats: seats([3]int{3, 3, 3}, [3]int{0, 3, 4})}
	sequential := store.Table{Version: 5, Seats: seats([3]int{5, none, none}, [3]int{2, 3, 4})}
	all3 := stubState{[]games.Seat{0, 1, 2}}
	tests := []struct {
		name    string
		rec     store.Table
		st      stubState
		who     actor
		seat    games.Seat
		version int
		want    bool
	}{
		{"others staked since: still counts", stakes, all3, actor{user: 1}, 0, 3, true},
		{"own stake since: a double press", stakes, all3, actor{user: 2}, 1, 3, false},
		{"own stake is the last one", stakes, all3, actor{user: 3}, 2, 4, false},
		{"drawn before this turn began", stakes, all3, actor{user: 1}, 0, 2, false},
		{"one seat to act: only the current version", sequential, stubState{[]games.Seat{0}}, actor{user: 1}, 0, 4, false},
		{"from the future", stakes, all3, actor{user: 1}, 0, 6, false},
		{"agents need the exact version", stakes, all3, actor{seat: 0}, 0, 3, false},
	}
	for _, tt := range tests {
		if got := pressStillValid(tt.rec, tt.st, tt.seat, tt.who, tt.version); got != tt.want {
			t.Errorf("%s: pressStillValid(v%d) = %v, want %v", tt.name, tt.version, got, tt.want)
		}
	}
}

// TestDecodeUpdate: the bot's lean decoding of an update gives the handlers what go-telegram's
// full decoding gives them — the message, the member change, and of a callback everything but
// its message's text and keyboard — and refuses what is no single update.
func TestDecodeUpdate(t *testing.T) {
	const keyboard = `"text":"Your hand","reply_markup":{"inline_keyboard":[[{"text":"7♠","callback_data":"p|1|2|x"}]]}`
	tests := []struct {
		name, raw string
	}{
		{"command", `{"update_id":7,"message":{"message_id":3,"date":1700000000,"chat":{"id":-40,"type":"supergroup","title":"G"},"from":{"id":101,"is_bot":false,"first_name":"A"},"text":"/new wizard","entities":[{"type":"bot_command","offset":0,"length":4}]}}`},
		{"press", `{"update_id":8,"callback_query":{"id":"99","from":{"id":101,"is_bot":false,"first_name":"A","language_code":"ru"},"message":{"message_id":5,"date":1700000001,"chat":{"id":101,"type":"private"},` + keyboard + `},"chat_instance":"ci","data":"p|1|2|x"}}`},
		{"press in a topic", `{"update_id":9,"callback_query":{"id":"100","from":{"id":102,"is_bot":false,"first_name":"B"},"message":{"message_id":6,"date":1700000002,"message_thread_id":12,"is_topic_message":true,"chat":{"id":-41,"type":"supergroup","is_forum":true},` + keyboard + `},"chat_instance":"cj","data":"l|3|join"}}`},
		{"press on an old message", `{"update_id":10,"callback_query":{"id":"101","from":{"id":103,"is_bot":false,"first_name":"C"},"message":{"message_id":2,"date":0,"chat":{"id":103,"type":"private"}},"chat_instance":"ck","data":"p|1|0|y"}}`},
		{"bot added", `{"update_id":11,"my_chat_member":{"chat":{"id":-42,"type":"group","title":"H"},"from":{"id":101,"is_bot":false,"first_name":"A"},"date":1700000003,"old_chat_member":{"status":"left","user":{"id":1,"is_bot":true,"first_name":"K"}},"new_chat_member":{"status":"member","user":{"id":1,"is_bot":true,"first_name":"K"}}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeUpdate([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			var want models.Update
			if err := json.Unmarshal([]byte(tc.raw), &want); err != nil {
				t.Fatal(err)
			}
			if q := want.CallbackQuery; q != nil && q.Message.Message != nil {
				m := q.Message.Message
				q.Message.Message = &models.Message{ID: m.ID, Date: m.Date, Chat: m.Chat, MessageThreadID: m.MessageThreadID, IsTopicMessage: m.IsTopicMessage}
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, &want)
			}
		})
	}
	for _, raw := range []string{`{"message":{"text":"/cancel"}}`, `{"update_id":1}{"update_id":2}`, `[]`, `hello`} {
		if _, err := decodeUpdate([]byte(raw)); err == nil || errors.Is(err, errUnreadable) {
			t.Errorf("%s: %v, want it refused as no update", raw, err)
		}
	}
	// One object with an id and content of the wrong type: an empty update of that id to settle.
	u, err := decodeUpdate([]byte(`{"update_id":12,"callback_query":{"id":7}}`))
	if !errors.Is(err, errUnreadable) || u == nil || u.ID != 12 || u.CallbackQuery != nil {
		t.Errorf("unreadable update: %+v, %v; want update 12 alone and errUnreadable", u, err)
	}
}
