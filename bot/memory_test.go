package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// coin is the shortest game there is: its one player picks heads or tails and the match is over.
// The memory test plays it ten thousand times.
type coin struct{}

type coinState struct{ picked int8 } // -1 until picked

func (coin) Name() string                                  { return "coin" }
func (coin) Version() int                                  { return 1 }
func (coin) Seats() (int, int)                             { return 1, 1 }
func (coin) Options() []games.Option                       { return nil }
func (coin) New(games.Config, uint64) (games.State, error) { return coinState{picked: -1}, nil }
func (coin) Unmarshal(b []byte) (games.State, error) {
	if len(b) != 1 || int8(b[0]) < -1 || int8(b[0]) > 1 {
		return nil, games.ErrCorrupt
	}
	return coinState{picked: int8(b[0])}, nil
}

func (s coinState) ToAct() []games.Seat {
	if s.picked >= 0 {
		return nil
	}
	return []games.Seat{0}
}

func (s coinState) Legal(games.Seat) []games.Action {
	if s.picked >= 0 {
		return nil
	}
	return []games.Action{games.Num("pick", 0), games.Num("pick", 1)}
}

func (s coinState) Apply(seat games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(s, seat, a); err != nil {
		return nil, nil, err
	}
	return coinState{picked: int8(a.N)}, []games.Event{{Kind: games.EventMatchEnd, To: games.Nobody, Msg: games.M("coin.end")}}, nil
}

func (s coinState) View(seat games.Seat) games.View {
	return games.View{Seat: seat, Players: 1, ToAct: s.ToAct(), Dealer: games.Nobody}
}

func (s coinState) Score() games.Sheet {
	sh := games.Sheet{Totals: []int{int(max(s.picked, 0))}}
	if s.picked >= 0 {
		sh.Winners = []games.Seat{0}
	}
	return sh
}

func (s coinState) MarshalBinary() ([]byte, error) { return []byte{byte(s.picked)}, nil }

// leanAPI is a Bot API that keeps nothing: it answers every call at once, in process, hands the
// bot the updates the test queues and tells the test about every game button it sends. Unlike the
// strict fake it grows with nothing, so the bot's own memory is what the test sees.
type leanAPI struct {
	updates chan *models.Update
	buttons chan leanButton

	mu      sync.Mutex
	nextMsg int
	nextUpd int64
}

// leanButton is a game button the bot sent: where, and its data.
type leanButton struct {
	chat int64
	msg  int
	data string
}

func newLeanAPI() *leanAPI {
	return &leanAPI{updates: make(chan *models.Update, 4096), buttons: make(chan leanButton, 4096)}
}

func (a *leanAPI) push(u models.Update) {
	a.mu.Lock()
	a.nextUpd++
	u.ID = a.nextUpd
	a.mu.Unlock()
	a.updates <- &u
}

func (a *leanAPI) text(chat, from int64, text string) {
	typ := models.ChatTypeGroup
	if chat > 0 {
		typ = models.ChatTypePrivate
	}
	a.push(models.Update{Message: &models.Message{ID: 1, Date: 1, Text: text, Chat: models.Chat{ID: chat, Type: typ},
		From: &models.User{ID: from, FirstName: "U" + strconv.FormatInt(from, 10), LanguageCode: "en"}}})
}

func (a *leanAPI) press(b leanButton) {
	a.push(models.Update{CallbackQuery: &models.CallbackQuery{ID: "q" + strconv.Itoa(b.msg), Data: b.data,
		From: models.User{ID: b.chat, FirstName: "U", LanguageCode: "en"},
		Message: models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
			Message: &models.Message{ID: b.msg, Date: 1, Chat: models.Chat{ID: b.chat, Type: models.ChatTypePrivate}}}}})
}

func (a *leanAPI) Do(req *http.Request) (*http.Response, error) {
	f, err := leanForm(req)
	if err != nil {
		return nil, err
	}
	var result any = true
	switch path.Base(req.URL.Path) {
	case "getMe":
		result = models.User{ID: 1, IsBot: true, Username: "lean_bot"}
	case "getUpdates":
		var batch []*models.Update
		select {
		case u := <-a.updates:
			batch = append(batch, u)
		case <-time.After(50 * time.Millisecond):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
		for len(batch) < 100 && len(a.updates) > 0 {
			batch = append(batch, <-a.updates)
		}
		result = batch
	case "sendMessage", "editMessageText":
		chat, _ := strconv.ParseInt(f.Get("chat_id"), 10, 64)
		id, _ := strconv.Atoi(f.Get("message_id"))
		if id == 0 {
			a.mu.Lock()
			a.nextMsg++
			id = a.nextMsg
			a.mu.Unlock()
		}
		var mk struct {
			Rows [][]struct {
				Data string `json:"callback_data"`
			} `json:"inline_keyboard"`
		}
		if json.Unmarshal([]byte(f.Get("reply_markup")), &mk) == nil && len(mk.Rows) > 0 && strings.HasPrefix(mk.Rows[0][0].Data, callback.PlayPrefix) {
			a.buttons <- leanButton{chat: chat, msg: id, data: mk.Rows[0][0].Data}
		}
		result = models.Message{ID: id, Date: 1, Chat: models.Chat{ID: chat}}
	case "getChatMember":
		result = map[string]any{"status": "creator", "user": map[string]any{"id": 1, "is_bot": false, "first_name": "x"}}
	}
	body, err := json.Marshal(map[string]any{"ok": true, "result": result})
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(body)), Header: http.Header{}}, nil
}

// leanForm reads a request's parameters, multipart (go-telegram/bot) or url-encoded (getUpdates).
func leanForm(req *http.Request) (url.Values, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	mt, params, _ := mime.ParseMediaType(req.Header.Get("Content-Type"))
	if len(bytes.TrimSpace(body)) == 0 {
		return url.Values{}, nil
	}
	if mt == "application/json" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, err
		}
		out := url.Values{}
		for k, raw := range m {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = string(raw)
			}
			out.Set(k, s)
		}
		return out, nil
	}
	if mt != "multipart/form-data" {
		return url.ParseQuery(string(body))
	}
	mf, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		return nil, err
	}
	return url.Values(mf.Value), nil
}

// TestMemoryStaysFlat plays and finishes ten thousand tables, each in a group of its own, and
// checks the bot's live heap comes back within 10% of where it was after the first few hundred:
// every table's memory (its snapshot, message marks, pages, timers, outbox queues) is released when
// it ends.
func TestMemoryStaysFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ten thousand tables")
	}
	// Not parallel: the heap it measures is the process's.
	st, err := store.Open(filepath.Join(t.TempDir(), "kozyr.db"), store.WithNoSync())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	loc, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	api := newLeanAPI()
	ctx, cancel := context.WithCancel(context.Background())
	b, err := New(ctx, Config{Token: "1:lean", APIURL: "http://lean.invalid", Store: st, Games: []games.Rules{coin{}},
		Locales: loc, Log: zerolog.Nop(), RateScale: 1e6, GroupPause: -1, HandPause: -1, HTTPClient: api})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	const users = 50
	for u := range users {
		api.text(int64(1000+u), int64(1000+u), "/start")
	}
	for open := 0; open < users; time.Sleep(5 * time.Millisecond) {
		open = 0
		_ = st.View(context.Background(), func(tx store.Tx) error {
			for u := range users {
				if rec, err := tx.User(int64(1000 + u)); err == nil && rec.DMOpen {
					open++
				}
			}
			return nil
		})
	}
	play := func(from, to int) {
		t.Helper()
		const parallel = 64
		next, finished := from, from
		for finished < to {
			for next < to && next-finished < parallel {
				chat, user := -int64(1_000_000+next), int64(1000+next%users)
				api.text(chat, user, "/new coin")
				api.text(chat, user, "/begin")
				next++
			}
			select {
			case btn := <-api.buttons:
				api.press(btn)
				finished++
			case <-time.After(30 * time.Second):
				t.Fatalf("no button after %d tables", finished)
			}
		}
		idle := time.Now().Add(30 * time.Second)
		for {
			b.mu.Lock()
			left := len(b.tables)
			b.mu.Unlock()
			if left == 0 && b.out.Pending() == 0 && b.intake.busy() == 0 {
				break
			}
			if time.Now().After(idle) {
				t.Fatalf("%d tables still held after %d were played", left, to)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		for range 3 {
			runtime.GC()
		}
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	play(0, 500)
	base := heap()

	play(500, 10_000)
	after := heap()
	t.Logf("live heap after 500 tables %d KiB, after 10,000 %d KiB", base/1024, after/1024)
	if float64(after) > 1.1*float64(base) {
		t.Errorf("live heap grew from %d KiB to %d KiB over 9,500 finished tables", base/1024, after/1024)
	}
	var finished int
	_ = st.View(context.Background(), func(tx store.Tx) error {
		for u := range users {
			if rec, err := tx.User(int64(1000 + u)); err == nil {
				finished += rec.Stats["coin"].Played
			}
		}
		return nil
	})
	if finished != 10_000 {
		t.Errorf("%d matches counted in the players' stats, want 10,000", finished)
	}
}
