package tgtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot/models"
)

// BotID is the user id of the fake bot (getMe, From of its messages, getChatMember).
const BotID int64 = 7000000001

// Options configures a Server. The zero value is a usable default.
type Options struct {
	// RateScale divides every flood-control window (1 s per chat, 60 s per group, 1 s overall),
	// so tests can run fast; default 1. retry_after stays 1 (whole seconds, as Telegram says it).
	RateScale float64
	// BotUsername is what getMe answers; default "kozyr_test_bot".
	BotUsername string
	// Faults is the probability that a sendMessage/editMessageText/editMessageReplyMarkup is
	// answered with a random 429 (retry_after 1), 500 or 502 without being performed; default 0.
	// Injected faults are not violations.
	Faults float64
	// Seed seeds the fault injection.
	Seed uint64
	// WaitTimeout bounds WaitFor; default 20 s.
	WaitTimeout time.Duration
}

// Flood-control limits of the fake, before RateScale divides the windows, and message limits.
const (
	ChatBurst      = 3           // messages (sends and edits) per chat within ChatWindow
	ChatWindow     = time.Second // the per-chat sliding window
	GroupLimit     = 20          // messages per group (chat id < 0) within GroupWindow
	GroupWindow    = time.Minute // the per-group sliding window
	GlobalLimit    = 30          // messages overall within GlobalWindow
	GlobalWindow   = time.Second // the overall sliding window
	MaxTextLen     = 4096        // message text, in UTF-16 code units after entity parsing
	MaxButtons     = 100         // inline keyboard buttons per message
	MaxAnswerLen   = 200         // answerCallbackQuery text, in UTF-16 code units
	MaxCallbackLen = 64          // callback_data, in bytes
)

// User is a scripted Telegram user.
type User struct {
	ID                                          int64
	FirstName, LastName, Username, LanguageCode string
}

// Button is one inline keyboard button as the bot sent it.
type Button struct{ Text, Data, URL string }

// Message is the current state of a message in a chat.
type Message struct {
	ID        int
	Chat      int64
	From      int64  // BotID for the bot's messages
	Text      string // as sent (HTML under parse_mode=HTML)
	Plain     string // entities parsed away, as users see it
	ParseMode string
	Keyboard  [][]Button
	Date      int64 // unix seconds, never 0
	Edits     int   // successful edits (text or keyboard)
	// Thread is the forum topic the message is in (its message_thread_id); 0 for the General
	// topic and for chats without topics.
	Thread int
	// ReplyTo is the message this one replies to, 0 for none (or one that was gone).
	ReplyTo int
}

// CallbackAnswer is what the bot said in answerCallbackQuery.
type CallbackAnswer struct {
	Text      string
	ShowAlert bool
	URL       string
	CacheTime int
}

// Call is one request the fake received.
type Call struct {
	Method      string // as in the URL, e.g. "sendMessage"
	Chat        int64  // chat_id, 0 when absent
	MessageID   int    // message_id, or the id of the message sent
	Status      int    // HTTP status / error_code answered (200 on success)
	Description string // the error description, "" on success
	Injected    bool   // the answer was an injected fault (Options.Faults)
	Time        time.Time
}

// Server is a running fake Bot API. All methods are safe for concurrent use.
type Server struct {
	opt   Options
	ts    *httptest.Server
	token string
	done  chan struct{}
	close sync.Once

	now func() time.Time // the clock of the flood windows; tests may replace it before use

	mu           sync.Mutex
	rng          *rand.Rand
	chats        map[int64]*chat
	users        map[int64]User
	updates      []models.Update // unconfirmed, ascending ids
	history      []models.Update // every update ever queued
	nextUpdate   int64
	allowed      map[string]bool // nil: Telegram's default set
	pollKick     chan struct{}   // closed when a newer getUpdates supersedes the waiting ones
	polling      int             // getUpdates requests waiting now
	wake         chan struct{}   // closed (and replaced) on every state change
	callbacks    map[string]*callback
	nextCallback int
	commands     map[string][]models.BotCommand
	calls        []Call
	violations   []string
	global       window
	hook         *hook // set by setWebhook: updates are posted there instead of polled
	deliveries   []Delivery
	watch        func(Event)
	maxDocument  int          // MaxDocumentSize; a test of the limit lowers it
	conns        atomic.Int64 // connections the bot opened
	requests     atomic.Int64
}

// Event is one call of the bot's as Watch reports it: the method, its chat and message, the
// callback query it answered, and for a sent or edited message what the message shows now.
type Event struct {
	Method     string
	Status     int
	Chat       int64
	MessageID  int
	CallbackID string
	Message    Message
	Time       time.Time
}

// Watch makes the fake call fn after every call of the bot's, outside its lock (load tests use it
// instead of polling). fn must not block for long.
func (s *Server) Watch(fn func(Event)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watch = fn
}

// Connections reports how many connections the bot opened and how many requests it made:
// requests on kept-alive connections are the difference.
func (s *Server) Connections() (conns, requests int64) {
	return s.conns.Load(), s.requests.Load()
}

type chat struct {
	id       int64
	typ      models.ChatType
	title    string
	user     User // private chats
	open     bool // private: the user pressed START
	member   bool // groups: the bot is in the chat
	admins   map[int64]bool
	members  map[int64]bool
	migrated int64          // migrate_to_chat_id once upgraded
	forum    bool           // a supergroup with topics (AddForum)
	topics   map[int]string // forum topics by message_thread_id: their names
	nextID   int
	msgs     []*message
	docs     []Document // sent with sendDocument
	byID     map[int]*message
	win      window // per-chat flood window
	group    window // per-group flood window
}

type message struct {
	Message
	entities []models.MessageEntity
	markup   *models.InlineKeyboardMarkup
	from     User
	editDate int64
	deleted  bool
	// root is the message_thread_id of a reply outside forum topics: the message the reply
	// chain starts at (Telegram sets it without is_topic_message).
	root int
}

type callback struct {
	chat     int64
	msg      int
	answered bool
	answer   CallbackAnswer
}

// New starts a fake Bot API on a local port. Close stops it.
func New(opt Options) *Server {
	if opt.RateScale <= 0 {
		opt.RateScale = 1
	}
	if opt.BotUsername == "" {
		opt.BotUsername = "kozyr_test_bot"
	}
	if opt.WaitTimeout <= 0 {
		opt.WaitTimeout = 20 * time.Second
	}
	s := &Server{
		opt:        opt,
		now:        time.Now,
		token:      strconv.FormatInt(BotID, 10) + ":AAFakeKozyrTokenForTestsOnly",
		done:       make(chan struct{}),
		rng:        rand.New(rand.NewPCG(opt.Seed, 0x6b6f7a7972)),
		chats:      map[int64]*chat{},
		users:      map[int64]User{},
		nextUpdate: 1,
		pollKick:   make(chan struct{}),
		wake:       make(chan struct{}),
		callbacks:  map[string]*callback{},
		commands:   map[string][]models.BotCommand{},

		maxDocument: MaxDocumentSize,
	}
	s.ts = httptest.NewUnstartedServer(s)
	s.ts.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.ts.Start()
	return s
}

// URL is the base URL to pass to tg.WithServerURL.
func (s *Server) URL() string { return s.ts.URL }

// Token is a well-formed bot token; the fake accepts any token.
func (s *Server) Token() string { return s.token }

// Close ends pending long polls and stops the server.
func (s *Server) Close() {
	s.close.Do(func() {
		close(s.done)
		s.ts.Close()
	})
}

// reply is a handler's answer.
type reply struct {
	code      int // 0 or 200: ok
	result    any
	desc      string
	retry     int
	migrate   int64
	violation bool   // a client bug: recorded in Violations
	note      string // extra detail for the violation
	injected  bool
	chat      int64
	msgID     int
}

func ok(v any) reply { return reply{result: v} }

// bad is a 400 that reveals a client bug.
func bad(desc string) reply {
	return reply{code: http.StatusBadRequest, desc: "Bad Request: " + desc, violation: true}
}

type apiError struct {
	OK          bool       `json:"ok"`
	ErrorCode   int        `json:"error_code"`
	Description string     `json:"description"`
	Parameters  *apiParams `json:"parameters,omitempty"`
}

type apiParams struct {
	RetryAfter      int   `json:"retry_after,omitempty"`
	MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
}

type apiOK struct {
	OK     bool `json:"ok"`
	Result any  `json:"result"`
}

type handler func(s *Server, ctx context.Context, f form) reply

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"getme":                  (*Server).getMe,
		"getupdates":             (*Server).getUpdates,
		"sendmessage":            (*Server).sendMessage,
		"senddocument":           (*Server).sendDocument,
		"editmessagetext":        (*Server).editMessageText,
		"editmessagereplymarkup": (*Server).editMessageReplyMarkup,
		"deletemessage":          (*Server).deleteMessage,
		"answercallbackquery":    (*Server).answerCallbackQuery,
		"setmycommands":          (*Server).setMyCommands,
		"deletemycommands":       (*Server).deleteMyCommands,
		"getmycommands":          (*Server).getMyCommands,
		"getchatmember":          (*Server).getChatMember,
		"getchatadministrators":  (*Server).getChatAdministrators,
		"getchat":                (*Server).getChat,
		"sendchataction":         (*Server).sendChatAction,
		"setwebhook":             (*Server).setWebhook,
		"deletewebhook":          (*Server).deleteWebhook,
		"getwebhookinfo":         (*Server).getWebhookInfo,
	}
}

// ServeHTTP implements the Bot API endpoint /bot<token>/<method>.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	s.requests.Add(1)
	path := r.URL.Path
	var rep reply
	var callbackID string
	method := path[strings.LastIndexByte(path, '/')+1:]
	if !strings.HasPrefix(path, "/bot") || strings.Count(path, "/") != 2 {
		rep = reply{code: http.StatusNotFound, desc: "Not Found", violation: true}
	} else if h, found := handlers[strings.ToLower(method)]; !found {
		rep = reply{code: http.StatusNotFound, desc: "Not Found", violation: true}
	} else if f, err := readForm(r); err != nil {
		rep = bad("can't parse request: " + err.Error())
	} else {
		rep = h(s, r.Context(), f)
		callbackID = f["callback_query_id"]
		if rep.chat == 0 {
			rep.chat, _ = f.int64("chat_id")
		}
		if rep.msgID == 0 {
			id, _ := f.int64("message_id")
			rep.msgID = int(id)
		}
	}
	code := rep.code
	if code == 0 {
		code = http.StatusOK
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: method, Chat: rep.chat, MessageID: rep.msgID, Status: code,
		Description: rep.desc, Injected: rep.injected, Time: now})
	if rep.violation {
		v := fmt.Sprintf("%s chat=%d msg=%d: %d %s", method, rep.chat, rep.msgID, code, rep.desc)
		if rep.note != "" {
			v += " (" + rep.note + ")"
		}
		s.violations = append(s.violations, v)
	}
	s.bumpLocked()
	watch := s.watch
	var ev Event
	if watch != nil {
		ev = Event{Method: method, Status: code, Chat: rep.chat, MessageID: rep.msgID, CallbackID: callbackID, Time: now}
		if c := s.chats[rep.chat]; c != nil && code == http.StatusOK {
			if m := c.byID[rep.msgID]; m != nil {
				ev.Message = m.snapshot()
			}
		}
	}
	s.mu.Unlock()
	if watch != nil {
		watch(ev)
	}

	var body []byte
	var err error
	if code == http.StatusOK {
		body, err = json.Marshal(apiOK{OK: true, Result: rep.result})
	} else {
		e := apiError{ErrorCode: code, Description: rep.desc}
		if rep.retry > 0 || rep.migrate != 0 {
			e.Parameters = &apiParams{RetryAfter: rep.retry, MigrateToChatID: rep.migrate}
		}
		body, err = json.Marshal(e)
	}
	if err != nil {
		code = http.StatusInternalServerError
		body = []byte(`{"ok":false,"error_code":500,"description":"Internal Server Error: tgtest: ` + strings.ReplaceAll(err.Error(), `"`, `'`) + `"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// bumpLocked wakes long polls and WaitFor. s.mu must be held.
func (s *Server) bumpLocked() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// form holds a request's parameters as strings (objects stay JSON).
type form map[string]string

func (f form) has(k string) bool { _, ok := f[k]; return ok }

func (f form) int64(k string) (int64, bool) {
	v, ok := f[k]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n, err == nil
}

func (f form) bool(k string) bool {
	b, _ := strconv.ParseBool(strings.TrimSpace(f[k]))
	return b
}

// maxBody bounds a request: a document of MaxDocumentSize and the form around it.
const maxBody = MaxDocumentSize + 1<<20

// readForm decodes multipart/form-data (what go-telegram sends), url-encoded and JSON bodies,
// plus query parameters.
func readForm(r *http.Request) (form, error) {
	f := form{}
	for k, v := range r.URL.Query() {
		f[k] = v[0]
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return f, nil
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "multipart/form-data":
		mf, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(maxBody)
		if err != nil {
			return nil, err
		}
		defer mf.RemoveAll()
		for k, v := range mf.Value {
			if len(v) > 0 {
				f[k] = v[0]
			}
		}
		if err := addFiles(f, mf.File); err != nil {
			return nil, err
		}
	case "application/json":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, err
		}
		for k, raw := range m {
			var str string
			if json.Unmarshal(raw, &str) == nil {
				f[k] = str
			} else {
				f[k] = string(raw)
			}
		}
	default:
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Header.Get("Content-Type") == "" {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if err := r.ParseForm(); err != nil {
			return nil, err
		}
		for k, v := range r.PostForm {
			f[k] = v[0]
		}
	}
	return f, nil
}

// window is a sliding window of event times. The outbox has its own on purpose: the fake is the
// judge of the outbox's rate limits, so it must not share the code it judges.
type window struct{ times []time.Time }

// count drops events older than span and returns how many remain.
func (w *window) count(now time.Time, span time.Duration) int {
	cut := now.Add(-span)
	i := 0
	for i < len(w.times) && !w.times[i].After(cut) {
		i++
	}
	if i > 0 {
		w.times = append(w.times[:0], w.times[i:]...)
	}
	return len(w.times)
}

func (w *window) add(now time.Time) { w.times = append(w.times, now) }

func (s *Server) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.opt.RateScale)
}

// floodLocked checks the three flood limits for one more message to c and records it if allowed.
func (s *Server) floodLocked(c *chat, now time.Time) (reply, bool) {
	var why string
	switch {
	case c.win.count(now, s.scaled(ChatWindow)) >= ChatBurst:
		why = fmt.Sprintf("more than %d messages in chat %d within %v", ChatBurst, c.id, s.scaled(ChatWindow))
	case c.id < 0 && c.group.count(now, s.scaled(GroupWindow)) >= GroupLimit:
		why = fmt.Sprintf("more than %d messages in group %d within %v", GroupLimit, c.id, s.scaled(GroupWindow))
	case s.global.count(now, s.scaled(GlobalWindow)) >= GlobalLimit:
		why = fmt.Sprintf("more than %d messages overall within %v", GlobalLimit, s.scaled(GlobalWindow))
	}
	if why != "" {
		return reply{code: http.StatusTooManyRequests, desc: "Too Many Requests: retry after 1", retry: 1,
			violation: true, chat: c.id, note: why}, false
	}
	c.win.add(now)
	c.group.add(now)
	s.global.add(now)
	return reply{}, true
}
