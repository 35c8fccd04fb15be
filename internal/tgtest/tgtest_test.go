package tgtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

const group int64 = -4001

var (
	alice = User{ID: 101, FirstName: "Alice", Username: "alice", LanguageCode: "en"}
	boris = User{ID: 102, FirstName: "Борис", LanguageCode: "ru"}
	eve   = User{ID: 103, FirstName: "Eve <3"}
)

// clock is a manual clock for the flood windows.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// start returns a fake with a manual clock and a real go-telegram client pointed at it.
func start(t *testing.T, opt Options) (*Server, *tg.Bot, *clock) {
	t.Helper()
	s := New(opt)
	t.Cleanup(s.Close)
	clk := &clock{t: time.Unix(1_700_000_000, 0)}
	s.now = clk.now
	b, err := tg.New(s.Token(), tg.WithServerURL(s.URL()), tg.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	return s, b, clk
}

// raw posts a multipart form like go-telegram does and returns the status and decoded body.
func raw(t *testing.T, s *Server, method string, fields map[string]string) (int, map[string]any) {
	t.Helper()
	return postForm(t, s, method, fields, nil)
}

func send(b *tg.Bot, chat int64, text string, kb models.ReplyMarkup) (*models.Message, error) {
	return b.SendMessage(context.Background(), &tg.SendMessageParams{ChatID: chat, Text: text,
		ParseMode: models.ParseModeHTML, ReplyMarkup: kb})
}

func keyboard(data ...string) *models.InlineKeyboardMarkup {
	row := []models.InlineKeyboardButton{}
	for _, d := range data {
		row = append(row, models.InlineKeyboardButton{Text: "b " + d, CallbackData: d})
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row}}
}

// errText is err's text or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" && err != nil || want != "" && !strings.Contains(errText(err), want) {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestGetMeThroughClient(t *testing.T) {
	s := New(Options{BotUsername: "my_bot"})
	defer s.Close()
	b, err := tg.New(s.Token(), tg.WithServerURL(s.URL()))
	if err != nil {
		t.Fatal(err)
	}
	me, err := b.GetMe(context.Background())
	if err != nil || me.ID != BotID || !me.IsBot || me.Username != "my_bot" {
		t.Fatalf("getMe = %+v, %v", me, err)
	}
}

func TestSendMessageResult(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "Cards")
	m, err := send(b, group, "<b>Eve &lt;3</b> plays <i>Q♠</i>", keyboard("v1|x"))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != 1 || m.Date == 0 || m.Chat.ID != group || m.Chat.Type != models.ChatTypeGroup ||
		m.Chat.Title != "Cards" || m.From == nil || m.From.ID != BotID || m.Text != "Eve <3 plays Q♠" {
		t.Fatalf("result = %+v", m)
	}
	want := []models.MessageEntity{{Type: "bold", Offset: 0, Length: 6}, {Type: "italic", Offset: 13, Length: 2}}
	if fmt.Sprint(m.Entities) != fmt.Sprint(want) {
		t.Fatalf("entities = %+v, want %+v", m.Entities, want)
	}
	if m.ReplyMarkup == nil || m.ReplyMarkup.InlineKeyboard[0][0].CallbackData != "v1|x" {
		t.Fatalf("reply markup = %+v", m.ReplyMarkup)
	}
	got, found := s.Message(group, m.ID)
	if !found || got.Text != "<b>Eve &lt;3</b> plays <i>Q♠</i>" || got.Plain != m.Text ||
		len(got.Keyboard) != 1 || got.Keyboard[0][0] != (Button{Text: "b v1|x", Data: "v1|x"}) {
		t.Fatalf("stored = %+v", got)
	}
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "copy_text") {
		t.Fatalf("violations = %q, want the copy_text warning only", v)
	}
}

func TestPrivateChatNeedsStart(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.SendText(group, alice, "hi") // Alice is known but never pressed START
	_, err := send(b, alice.ID, "your hand", nil)
	if !errors.Is(err, tg.ErrorForbidden) || !strings.Contains(err.Error(), "Forbidden: bot can't initiate conversation with a user") {
		t.Fatalf("DM before START: %v", err)
	}
	_, err = send(b, 999, "who?", nil)
	if !errors.Is(err, tg.ErrorBadRequest) || !strings.Contains(err.Error(), "Bad Request: chat not found") {
		t.Fatalf("unknown chat: %v", err)
	}
	_, err = send(b, -999, "who?", nil)
	wantErr(t, err, "chat not found")
	s.StartDM(alice, "join_g1")
	if !s.DMOpen(alice.ID) {
		t.Fatal("DM not open after StartDM")
	}
	if _, err := send(b, alice.ID, "your hand", nil); err != nil {
		t.Fatalf("DM after START: %v", err)
	}
	if v := s.Violations(); len(v) != 2 { // the two unknown chats; the 403 is not a client bug
		t.Fatalf("violations = %q", v)
	}
}

func TestFloodLimits(t *testing.T) {
	tests := []struct {
		name  string
		scale float64
		chats []int64 // messages go round-robin to these chats
		step  time.Duration
		ok    int // messages accepted before the first 429
	}{
		{"chat burst of 3 per second", 1, []int64{group}, 0, ChatBurst},
		{"chat window slides", 1, []int64{alice.ID}, 400 * time.Millisecond, 40},
		{"chat window too short", 1, []int64{alice.ID}, 300 * time.Millisecond, ChatBurst},
		{"chat window scaled", 100, []int64{alice.ID}, 4 * time.Millisecond, 40},
		{"scaled chat window still limits", 100, []int64{alice.ID}, 3 * time.Millisecond, ChatBurst},
		{"DM burst", 1, []int64{alice.ID}, 0, ChatBurst},
		{"group 20 per minute", 1, []int64{group}, 500 * time.Millisecond, GroupLimit},
		{"group limit scaled", 60, []int64{group}, 500 * time.Millisecond / 60, GroupLimit},
		{"DM has no group limit", 1, []int64{alice.ID}, 500 * time.Millisecond, 40},
		{"global 30 per second", 1, []int64{-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11}, 0, GlobalLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, b, clk := start(t, Options{RateScale: tt.scale})
			s.StartDM(alice, "")
			for _, c := range tt.chats {
				if c < 0 {
					s.AddGroup(c, "g")
				}
			}
			n, first := 0, 0
			var err error
			for ; n < 40; n++ {
				chat := tt.chats[n%len(tt.chats)]
				if n%2 == 1 && len(tt.chats) == 1 {
					_, err = b.EditMessageText(context.Background(), &tg.EditMessageTextParams{ChatID: chat,
						MessageID: first, Text: fmt.Sprintf("edit %d", n)}) // edits count like sends
				} else {
					var m *models.Message
					m, err = send(b, chat, fmt.Sprintf("msg %d", n), nil)
					if first == 0 && err == nil {
						first = m.ID
					}
				}
				if err != nil {
					break
				}
				clk.add(tt.step)
			}
			if n != tt.ok && !(tt.ok == 40 && n == 40) {
				t.Fatalf("accepted %d messages, want %d (err %v)", n, tt.ok, err)
			}
			if tt.ok == 40 {
				return
			}
			var tooMany *tg.TooManyRequestsError
			if !errors.As(err, &tooMany) || tooMany.RetryAfter != 1 || !strings.Contains(tooMany.Message, "Too Many Requests: retry after 1") {
				t.Fatalf("err = %v, want 429 retry_after 1", err)
			}
			if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "429") {
				t.Fatalf("violations = %q", v)
			}
		})
	}
}

func TestRetryAfterBody(t *testing.T) {
	s, _, _ := start(t, Options{})
	s.AddGroup(group, "g")
	for range ChatBurst {
		raw(t, s, "sendMessage", map[string]string{"chat_id": "-4001", "text": "x"})
	}
	code, body := raw(t, s, "sendMessage", map[string]string{"chat_id": "-4001", "text": "x"})
	got, _ := json.Marshal(body)
	want := `{"description":"Too Many Requests: retry after 1","error_code":429,"ok":false,"parameters":{"retry_after":1}}`
	if code != 429 || string(got) != want {
		t.Fatalf("%d %s, want 429 %s", code, got, want)
	}
}

func TestAnswerCallbackQueryIsNotLimited(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "g")
	m, _ := send(b, group, "table", keyboard("a"))
	for i := range 50 {
		id := s.Press(group, m.ID, alice, "a")
		if _, err := b.AnswerCallbackQuery(context.Background(), &tg.AnswerCallbackQueryParams{CallbackQueryID: id}); err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
	}
}

func TestEditNotModified(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "g")
	m, _ := send(b, group, "<b>table</b>", keyboard("a", "b"))
	ctx := context.Background()
	const notModified = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"
	tests := []struct {
		name string
		edit func() error
		want string
	}{
		{"same text and keyboard", func() error {
			_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: group, MessageID: m.ID, Text: "<b>table</b>",
				ParseMode: models.ParseModeHTML, ReplyMarkup: keyboard("a", "b")})
			return err
		}, notModified},
		{"same entities written differently", func() error {
			_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: group, MessageID: m.ID, Text: "<strong>table</strong>",
				ParseMode: models.ParseModeHTML, ReplyMarkup: keyboard("a", "b")})
			return err
		}, notModified},
		{"same keyboard", func() error {
			_, err := b.EditMessageReplyMarkup(ctx, &tg.EditMessageReplyMarkupParams{ChatID: group, MessageID: m.ID,
				ReplyMarkup: keyboard("a", "b")})
			return err
		}, notModified},
		{"other keyboard", func() error {
			_, err := b.EditMessageReplyMarkup(ctx, &tg.EditMessageReplyMarkupParams{ChatID: group, MessageID: m.ID,
				ReplyMarkup: keyboard("a")})
			return err
		}, ""},
		{"same text without reply_markup drops the keyboard", func() error {
			_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: group, MessageID: m.ID, Text: "<b>table</b>",
				ParseMode: models.ParseModeHTML})
			return err
		}, ""},
		{"again: nothing left to change", func() error {
			_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: group, MessageID: m.ID, Text: "<b>table</b>",
				ParseMode: models.ParseModeHTML})
			return err
		}, notModified},
	}
	for _, tt := range tests {
		err := tt.edit()
		if tt.want != "" && !errors.Is(err, tg.ErrorBadRequest) {
			t.Fatalf("%s: %v, want bad request", tt.name, err)
		}
		wantErr(t, err, tt.want)
	}
	got, _ := s.Message(group, m.ID)
	if got.Edits != 2 || got.Keyboard != nil {
		t.Fatalf("message = %+v, want 2 edits and no keyboard", got)
	}
	for _, v := range s.Violations() {
		if !strings.Contains(v, "copy_text") {
			t.Fatalf("not-modified must not be a violation: %q", v)
		}
	}
}

func TestEditUnknownMessage(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "g")
	m, _ := send(b, group, "x", nil)
	user := s.SendText(group, alice, "hello")
	ctx := context.Background()
	if ok, err := b.DeleteMessage(ctx, &tg.DeleteMessageParams{ChatID: group, MessageID: m.ID}); !ok || err != nil {
		t.Fatalf("delete: %v %v", ok, err)
	}
	tests := []struct {
		id   int
		want string
	}{
		{m.ID, "Bad Request: message to edit not found"},
		{99, "Bad Request: message to edit not found"},
		{user, "Bad Request: message can't be edited"},
	}
	for _, tt := range tests {
		_, err := b.EditMessageText(ctx, &tg.EditMessageTextParams{ChatID: group, MessageID: tt.id, Text: "y"})
		wantErr(t, err, tt.want)
	}
	_, err := b.DeleteMessage(ctx, &tg.DeleteMessageParams{ChatID: group, MessageID: m.ID})
	wantErr(t, err, "Bad Request: message to delete not found")
	if v := s.Violations(); len(v) != 4 {
		t.Fatalf("violations = %q", v)
	}
	if ms := s.Messages(group); len(ms) != 0 {
		t.Fatalf("messages = %+v, want none (deleted)", ms)
	}
}

func TestTextLength(t *testing.T) {
	s, b, clk := start(t, Options{})
	s.AddGroup(group, "g")
	tests := []struct {
		name, text string
		want       string
	}{
		{"4096 ASCII", strings.Repeat("a", 4096), ""},
		{"4097 ASCII", strings.Repeat("a", 4097), "Bad Request: message is too long"},
		{"4096 Cyrillic (8192 bytes)", strings.Repeat("ж", 4096), ""},
		{"2048 emoji = 4096 UTF-16 units", strings.Repeat("🃏", 2048), ""},
		{"2049 emoji", strings.Repeat("🃏", 2049), "Bad Request: message is too long"},
		{"tags do not count", "<b>" + strings.Repeat("a", 4096) + "</b>", ""},
		{"entities count once", strings.Repeat("&amp;", 4096), ""},
		{"empty", "", "Bad Request: text must be non-empty"},
		{"only spaces", "  \n ", "Bad Request: text must be non-empty"},
		{"only tags", "<b></b>", "Bad Request: text must be non-empty"},
	}
	for _, tt := range tests {
		clk.add(time.Minute)
		_, err := send(b, group, tt.text, nil)
		if tt.want != "" && !errors.Is(err, tg.ErrorBadRequest) {
			t.Errorf("%s: %v, want bad request", tt.name, err)
		}
		if tt.want == "" && err != nil || tt.want != "" && !strings.Contains(errText(err), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestParseHTML(t *testing.T) {
	tests := []struct {
		in, plain string
		ents      string // fmt of the entities
		err       string
	}{
		{in: "plain > text", plain: "plain > text", ents: "[]"},
		{in: "<b>a</b><i>b</i>", plain: "ab", ents: "[{bold 0 1} {italic 1 1}]"},
		{in: "<b>x<i>y</i></b>", plain: "xy", ents: "[{bold 0 2} {italic 1 1}]"},
		{in: "<u>a</u><ins>b</ins><s>c</s><strike>d</strike><del>e</del>", plain: "abcde",
			ents: "[{underline 0 1} {underline 1 1} {strikethrough 2 1} {strikethrough 3 1} {strikethrough 4 1}]"},
		{in: `<a href="https://t.me/x?start=a&amp;b">go</a>`, plain: "go", ents: "[{text_link 0 2 https://t.me/x?start=a&b}]"},
		{in: `<a href='tg://user?id=5'>me</a>`, plain: "me", ents: "[{text_mention 0 2}]"},
		{in: `<tg-spoiler>s</tg-spoiler><span class="tg-spoiler">t</span>`, plain: "st", ents: "[{spoiler 0 1} {spoiler 1 1}]"},
		{in: "<pre><code class=\"language-go\">x</code></pre>", plain: "x", ents: "[{pre 0 1} {code 0 1 go}]"},
		{in: "<blockquote expandable>q</blockquote><blockquote>r</blockquote>", plain: "qr", ents: "[{expandable_blockquote 0 1} {blockquote 1 1}]"},
		{in: "&lt;&gt;&amp;&quot;&#65;&#x42;&#X1F0CF;", plain: `<>&"AB🃏`, ents: "[]"},
		{in: "🃏<b>x</b>", plain: "🃏x", ents: "[{bold 2 1}]"},
		{in: "<B>x</B>", plain: "x", ents: "[{bold 0 1}]"},
		{in: "a < b", err: "Unsupported start tag"},
		{in: "a <3", err: "Unsupported start tag"},
		{in: "Tom & Jerry", err: `unescaped "&"`},
		{in: "&nbsp;", err: "Unsupported HTML entity"},
		{in: "&#xD800;", err: "Unsupported HTML entity"},
		{in: "<br>", err: `Unsupported start tag "br"`},
		{in: "<b>x", err: `Can't find end tag corresponding to start tag "b"`},
		{in: "x</b>", err: "Unexpected end tag"},
		{in: "<b><i>x</b></i>", err: "Unmatched end tag"},
		{in: "<a>x</a>", err: "href"},
		{in: "<span>x</span>", err: "tg-spoiler"},
		{in: `<a href="x>y</a>`, err: "Unclosed start tag"},
		{in: "<b", err: "Unclosed start tag"},
	}
	for _, tt := range tests {
		plain, ents, err := parseHTML(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseHTML(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseHTML(%q): %v", tt.in, err)
			continue
		}
		var parts []string
		for _, e := range ents {
			p := fmt.Sprintf("%s %d %d", e.Type, e.Offset, e.Length)
			if e.URL != "" {
				p += " " + e.URL
			}
			if e.Language != "" {
				p += " " + e.Language
			}
			parts = append(parts, "{"+p+"}")
		}
		if got := "[" + strings.Join(parts, " ") + "]"; plain != tt.plain || got != tt.ents {
			t.Errorf("parseHTML(%q) = %q %s, want %q %s", tt.in, plain, got, tt.plain, tt.ents)
		}
	}
}

func TestMalformedHTMLIsRejected(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "g")
	_, err := send(b, group, "Tom & Jerry", nil)
	wantErr(t, err, "Bad Request: can't parse entities: ")
	_, err = b.SendMessage(context.Background(), &tg.SendMessageParams{ChatID: group, Text: "Tom & Jerry <3"})
	wantErr(t, err, "") // no parse_mode: plain text
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "can't parse entities") {
		t.Fatalf("violations = %q", v)
	}
}

// markup is our own keyboard type, as the bot is advised to use (no copy_text).
type markupJSON struct {
	InlineKeyboard [][]buttonJSON `json:"inline_keyboard"`
}

type buttonJSON struct {
	Text         string  `json:"text"`
	CallbackData *string `json:"callback_data,omitempty"`
	URL          string  `json:"url,omitempty"`
}

func TestButtons(t *testing.T) {
	str := func(s string) *string { return &s }
	many := markupJSON{}
	for range 11 {
		var row []buttonJSON
		for range 10 {
			row = append(row, buttonJSON{Text: "x", CallbackData: str("d")})
		}
		many.InlineKeyboard = append(many.InlineKeyboard, row)
	}
	tests := []struct {
		name   string
		markup any
		want   string
	}{
		{"64 bytes of data", markupJSON{[][]buttonJSON{{{Text: "ok", CallbackData: str(strings.Repeat("d", 64))}}}}, ""},
		{"32 Cyrillic letters = 64 bytes", markupJSON{[][]buttonJSON{{{Text: "ok", CallbackData: str(strings.Repeat("ж", 32))}}}}, ""},
		{"65 bytes", markupJSON{[][]buttonJSON{{{Text: "x", CallbackData: str(strings.Repeat("d", 65))}}}}, "BUTTON_DATA_INVALID"},
		{"empty data", markupJSON{[][]buttonJSON{{{Text: "x", CallbackData: str("")}}}}, "BUTTON_DATA_INVALID"},
		{"text button", markupJSON{[][]buttonJSON{{{Text: "x"}}}}, "Text buttons are unallowed"},
		{"empty label", markupJSON{[][]buttonJSON{{{Text: "", CallbackData: str("d")}}}}, "BUTTON_TEXT_INVALID"},
		{"url button", markupJSON{[][]buttonJSON{{{Text: "Join", URL: "https://t.me/kozyr_test_bot?start=g1"}}}}, ""},
		{"bad url", markupJSON{[][]buttonJSON{{{Text: "Join", URL: "t me"}}}}, "BUTTON_URL_INVALID"},
		{"101 buttons", many, "REPLY_MARKUP_TOO_LONG"},
		{"null keyboard", map[string]any{"inline_keyboard": nil}, "can't parse"},
		{"empty keyboard", map[string]any{"inline_keyboard": [][]any{}}, ""},
	}
	s, b, clk := start(t, Options{})
	s.AddGroup(group, "g")
	for _, tt := range tests {
		clk.add(time.Minute)
		_, err := send(b, group, "x", tt.markup)
		if tt.want == "" && err != nil || tt.want != "" && !strings.Contains(errText(err), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	if v := s.Violations(); len(v) != 7 {
		t.Errorf("violations = %d, want 7: %q", len(v), v)
	}
	ms := s.Messages(group)
	if len(ms) != 4 || ms[2].Keyboard[0][0].URL == "" || ms[3].Keyboard != nil {
		t.Errorf("messages = %+v", ms)
	}
}

func TestAnswerCallbackQuery(t *testing.T) {
	s, b, _ := start(t, Options{})
	s.AddGroup(group, "g")
	m, _ := send(b, group, "table", keyboard("a"))
	ctx := context.Background()
	id := s.Press(group, m.ID, alice, "a")
	if _, found := s.Answer(id); found {
		t.Fatal("answered before the bot did")
	}
	long := s.Press(group, m.ID, alice, "a")
	tests := []struct {
		p    tg.AnswerCallbackQueryParams
		want string
	}{
		{tg.AnswerCallbackQueryParams{CallbackQueryID: id, Text: "Not your turn", ShowAlert: true}, ""},
		{tg.AnswerCallbackQueryParams{CallbackQueryID: id, Text: "again"}, "Bad Request: query is too old and response timeout expired or query ID is invalid"},
		{tg.AnswerCallbackQueryParams{CallbackQueryID: "123"}, "query is too old"},
		{tg.AnswerCallbackQueryParams{CallbackQueryID: long, Text: strings.Repeat("я", 201)}, "Bad Request: MESSAGE_TOO_LONG"},
		{tg.AnswerCallbackQueryParams{CallbackQueryID: long, Text: strings.Repeat("я", 200), URL: "t.me/kozyr_test_bot?start=x"}, ""},
	}
	for _, tt := range tests {
		_, err := b.AnswerCallbackQuery(ctx, &tt.p)
		wantErr(t, err, tt.want)
	}
	if a, found := s.Answer(id); !found || a != (CallbackAnswer{Text: "Not your turn", ShowAlert: true}) {
		t.Fatalf("answer = %+v %v", a, found)
	}
	if a, _ := s.Answer(long); a.URL != "t.me/kozyr_test_bot?start=x" {
		t.Fatalf("answer = %+v", a)
	}
	if v := s.Violations(); len(v) != 3+1 { // +1: copy_text warning of keyboard()
		t.Fatalf("violations = %q", v)
	}
}

func TestUnknownMethod(t *testing.T) {
	s, b, _ := start(t, Options{})
	code, body := raw(t, s, "sendPigeon", map[string]string{"chat_id": "1"})
	if code != 404 || body["description"] != "Not Found" || body["error_code"] != float64(404) {
		t.Fatalf("%d %v", code, body)
	}
	_, err := b.SendDice(context.Background(), &tg.SendDiceParams{ChatID: group})
	if !errors.Is(err, tg.ErrorNotFound) {
		t.Fatalf("sendDice: %v", err)
	}
	if len(s.Violations()) != 2 {
		t.Fatalf("violations = %q", s.Violations())
	}
}

func TestFaults(t *testing.T) {
	s, b, _ := start(t, Options{Faults: 1, Seed: 7})
	s.AddGroup(group, "g")
	seen := map[int]bool{}
	for range 30 {
		_, err := send(b, group, "x", nil)
		var tooMany *tg.TooManyRequestsError
		switch {
		case errors.As(err, &tooMany) && tooMany.RetryAfter == 1:
			seen[429] = true
		case strings.Contains(errText(err), "500 Internal Server Error"):
			seen[500] = true
		case strings.Contains(errText(err), "502 Bad Gateway"):
			seen[502] = true
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("faults seen %v, want 429, 500 and 502", seen)
	}
	if len(s.Messages(group)) != 0 || len(s.Violations()) != 0 {
		t.Fatalf("faults must not act or count as violations: %v %q", s.Messages(group), s.Violations())
	}
	for _, c := range s.Calls() {
		if !c.Injected {
			t.Fatalf("call %+v not marked injected", c)
		}
	}
	// A fault rate of 0.3 lets most calls through.
	s2, b2, clk := start(t, Options{Faults: 0.3, Seed: 1})
	s2.AddGroup(group, "g")
	okCount := 0
	for range 100 {
		clk.add(time.Minute)
		if _, err := send(b2, group, "x", nil); err == nil {
			okCount++
		}
	}
	if okCount < 50 || okCount > 90 || len(s2.Messages(group)) != okCount {
		t.Fatalf("%d of 100 succeeded, %d messages", okCount, len(s2.Messages(group)))
	}
}

func TestCommandEntities(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"/new", "[{0 4}]"},
		{"/new@kozyr_test_bot wizard", "[{0 19}]"},
		{"ёж /new", "[{3 4}]"},
		{"🃏 /join", "[{3 5}]"},
		{"/start join_g42", "[{0 6}]"},
		{"hello", "[]"},
		{"a/b", "[]"},
		{"/", "[]"},
		{"/new, /join", "[{0 4} {6 5}]"},
	}
	for _, tt := range tests {
		var parts []string
		for _, e := range commandEntities(tt.text) {
			if e.Type != models.MessageEntityTypeBotCommand {
				t.Fatalf("type %s", e.Type)
			}
			parts = append(parts, fmt.Sprintf("{%d %d}", e.Offset, e.Length))
		}
		if got := "[" + strings.Join(parts, " ") + "]"; got != tt.want {
			t.Errorf("commandEntities(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

// poller runs the real client's long polling and collects the updates it decodes.
func poller(t *testing.T, s *Server, opts ...tg.Option) (<-chan *models.Update, *tg.Bot) {
	t.Helper()
	ch := make(chan *models.Update, 100)
	opts = append([]tg.Option{tg.WithServerURL(s.URL()), tg.WithSkipGetMe(), tg.WithNotAsyncHandlers(),
		tg.WithDefaultHandler(func(_ context.Context, _ *tg.Bot, u *models.Update) { ch <- u })}, opts...)
	b, err := tg.New(s.Token(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Start(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ch, b
}

func next(t *testing.T, ch <-chan *models.Update) *models.Update {
	t.Helper()
	select {
	case u := <-ch:
		return u
	case <-time.After(10 * time.Second):
		t.Fatal("no update within 10 s")
		return nil
	}
}

func TestUpdatesThroughClient(t *testing.T) {
	s := New(Options{})
	t.Cleanup(s.Close) // after the poller stops
	ch, b := poller(t, s)
	s.AddGroup(group, "Cards")
	s.SetAdmin(group, alice.ID)

	id := s.SendText(group, boris, "/new@kozyr_test_bot wizard")
	u := next(t, ch)
	if m := u.Message; m == nil || m.ID != id || m.Date == 0 || m.Chat.ID != group || m.Chat.Type != "group" ||
		m.From.ID != boris.ID || m.From.LanguageCode != "ru" || m.Text != "/new@kozyr_test_bot wizard" ||
		len(m.Entities) != 1 || m.Entities[0].Type != "bot_command" || m.Entities[0].Length != 19 {
		t.Fatalf("message update = %+v", u.Message)
	}
	if u.ID != 1 {
		t.Fatalf("first update id = %d", u.ID)
	}

	s.StartDM(eve, "join_g4001")
	u = next(t, ch)
	if m := u.Message; m == nil || m.Chat.ID != eve.ID || m.Chat.Type != "private" || m.Chat.FirstName != "Eve <3" ||
		m.Text != "/start join_g4001" || m.Entities[0].Length != 6 {
		t.Fatalf("DM update = %+v", u.Message)
	}

	sent, err := send(b, group, "<b>Lobby</b>", keyboard("v1|-4001|0|join"))
	if err != nil {
		t.Fatal(err)
	}
	cb := s.Press(group, sent.ID, alice, "v1|-4001|0|join")
	u = next(t, ch)
	q := u.CallbackQuery
	if q == nil || q.ID != cb || q.Data != "v1|-4001|0|join" || q.From.ID != alice.ID ||
		q.Message.Type != models.MaybeInaccessibleMessageTypeMessage || q.Message.Message.ID != sent.ID ||
		q.Message.Message.Text != "Lobby" || q.Message.Message.ReplyMarkup == nil {
		t.Fatalf("callback update = %+v", q)
	}
	if _, err := b.DeleteMessage(context.Background(), &tg.DeleteMessageParams{ChatID: group, MessageID: sent.ID}); err != nil {
		t.Fatal(err)
	}
	s.Press(group, sent.ID, alice, "v1|-4001|0|join")
	if q := next(t, ch).CallbackQuery; q.Message.Type != models.MaybeInaccessibleMessageTypeInaccessibleMessage ||
		q.Message.InaccessibleMessage.MessageID != sent.ID {
		t.Fatalf("press on a deleted message = %+v", q.Message)
	}

	s.BotRemoved(group, alice)
	if mc := next(t, ch).MyChatMember; mc == nil || mc.OldChatMember.Type != models.ChatMemberTypeMember ||
		mc.NewChatMember.Type != models.ChatMemberTypeLeft || mc.NewChatMember.Left.User.ID != BotID || mc.From.ID != alice.ID {
		t.Fatalf("my_chat_member = %+v", mc)
	}
	_, err = send(b, group, "still here?", nil)
	if !errors.Is(err, tg.ErrorForbidden) || !strings.Contains(err.Error(), "kicked") {
		t.Fatalf("send after removal: %v", err)
	}
	s.BotAdded(group, alice)
	if mc := next(t, ch).MyChatMember; mc == nil || mc.NewChatMember.Type != models.ChatMemberTypeMember {
		t.Fatalf("my_chat_member = %+v", mc)
	}
	if m := next(t, ch).Message; m == nil || len(m.NewChatMembers) != 1 || m.NewChatMembers[0].ID != BotID {
		t.Fatalf("new_chat_members message = %+v", m)
	}
	if _, err := send(b, group, "back", nil); err != nil {
		t.Fatal(err)
	}

	const super int64 = -1001234567890
	s.Migrate(group, super)
	if m := next(t, ch).Message; m == nil || m.MigrateToChatID != super || m.Chat.ID != group {
		t.Fatalf("migrate_to message = %+v", m)
	}
	if m := next(t, ch).Message; m == nil || m.MigrateFromChatID != group || m.Chat.ID != super || m.Chat.Type != "supergroup" {
		t.Fatalf("migrate_from message = %+v", m)
	}
	_, err = send(b, group, "old", nil)
	var mig *tg.MigrateError
	if !errors.As(err, &mig) || mig.MigrateToChatID != int(super) {
		t.Fatalf("send to the old group: %v", err)
	}
	if _, err := send(b, super, "new", nil); err != nil {
		t.Fatal(err)
	}
	s.WaitFor(t, "all updates confirmed", func() bool { return s.Pending() == 0 })
	if v := s.Violations(); len(v) != 1 { // the copy_text warning of keyboard()
		t.Fatalf("violations = %q", v)
	}
}

func TestGetUpdatesSemantics(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	for i := range 5 {
		s.SendText(group, alice, fmt.Sprint("m", i))
	}
	ids := func(body map[string]any) []int {
		var out []int
		for _, u := range body["result"].([]any) {
			out = append(out, int(u.(map[string]any)["update_id"].(float64)))
		}
		return out
	}
	tests := []struct {
		fields map[string]string
		want   string
	}{
		{map[string]string{"limit": "2"}, "[1 2]"},
		{map[string]string{"offset": "2", "limit": "2"}, "[2 3]"},
		{map[string]string{}, "[2 3 4 5]"}, // 1 was confirmed by offset 2
		{map[string]string{"offset": "-1"}, "[5]"},
		{map[string]string{"offset": "6"}, "[]"},
		{map[string]string{"allowed_updates": `["callback_query"]`}, "[]"},
	}
	for _, tt := range tests {
		_, body := raw(t, s, "getUpdates", tt.fields)
		if got := fmt.Sprint(ids(body)); got != tt.want {
			t.Errorf("getUpdates(%v) = %s, want %s", tt.fields, got, tt.want)
		}
	}
	s.SendText(group, alice, "filtered") // not in allowed_updates
	s.Press(group, 1, alice, "d")
	_, body := raw(t, s, "getUpdates", map[string]string{"offset": "6"})
	if got := fmt.Sprint(ids(body)); got != "[7]" {
		t.Fatalf("with allowed_updates = %s, want [7]", got)
	}

	// Long poll: a waiting request returns as soon as an update arrives.
	done := make(chan []int)
	go func() {
		_, body := raw(t, s, "getUpdates", map[string]string{"offset": "8", "timeout": "30"})
		done <- ids(body)
	}()
	s.WaitFor(t, "the poll to wait", func() bool { return s.pollers() == 1 })
	s.Press(group, 1, alice, "e")
	select {
	case got := <-done:
		if fmt.Sprint(got) != "[8]" {
			t.Fatalf("long poll = %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("long poll did not return")
	}

	// A newer poll terminates an older one with 409, like Telegram.
	conflict := make(chan int)
	go func() {
		code, _ := raw(t, s, "getUpdates", map[string]string{"offset": "9", "timeout": "30"})
		conflict <- code
	}()
	s.WaitFor(t, "the first poll to wait", func() bool { return s.pollers() == 1 })
	second := make(chan int)
	go func() {
		code, _ := raw(t, s, "getUpdates", map[string]string{"offset": "9", "timeout": "30"})
		second <- code
	}()
	if code := <-conflict; code != http.StatusConflict {
		t.Fatalf("older poll = %d, want 409", code)
	}
	s.Close() // ends the second poll with an empty result
	if code := <-second; code != http.StatusOK {
		t.Fatalf("second poll after Close = %d", code)
	}
}

func TestChatInfo(t *testing.T) {
	s, b, _ := start(t, Options{})
	ctx := context.Background()
	s.AddGroup(group, "Cards")
	s.SetAdmin(group, alice.ID)
	s.SendText(group, boris, "hi")
	s.SendText(-77, eve, "elsewhere")
	tests := []struct {
		user int64
		want models.ChatMemberType
	}{
		{alice.ID, models.ChatMemberTypeAdministrator},
		{boris.ID, models.ChatMemberTypeMember},
		{eve.ID, models.ChatMemberTypeLeft},
		{BotID, models.ChatMemberTypeMember},
	}
	for _, tt := range tests {
		cm, err := b.GetChatMember(ctx, &tg.GetChatMemberParams{ChatID: group, UserID: tt.user})
		if err != nil || cm.Type != tt.want {
			t.Errorf("getChatMember(%d) = %+v %v, want %s", tt.user, cm, err, tt.want)
		}
	}
	if cm, _ := b.GetChatMember(ctx, &tg.GetChatMemberParams{ChatID: group, UserID: alice.ID}); cm.Administrator.User.ID != alice.ID {
		t.Errorf("admin user = %+v", cm.Administrator)
	}
	_, err := b.GetChatMember(ctx, &tg.GetChatMemberParams{ChatID: -5, UserID: alice.ID})
	wantErr(t, err, "chat not found")
	admins, err := b.GetChatAdministrators(ctx, &tg.GetChatAdministratorsParams{ChatID: group})
	if err != nil || len(admins) != 1 || admins[0].Administrator.User.ID != alice.ID {
		t.Fatalf("admins = %+v %v", admins, err)
	}
	info, err := b.GetChat(ctx, &tg.GetChatParams{ChatID: group})
	if err != nil || info.Title != "Cards" || info.Type != models.ChatTypeGroup {
		t.Fatalf("getChat = %+v %v", info, err)
	}
	if ok, err := b.SendChatAction(ctx, &tg.SendChatActionParams{ChatID: group, Action: models.ChatActionTyping}); !ok || err != nil {
		t.Fatalf("sendChatAction = %v %v", ok, err)
	}
	_, err = b.SendChatAction(ctx, &tg.SendChatActionParams{ChatID: eve.ID, Action: models.ChatActionTyping})
	if !errors.Is(err, tg.ErrorForbidden) {
		t.Fatalf("sendChatAction to a closed DM: %v", err)
	}
}

func TestMyCommands(t *testing.T) {
	s, b, _ := start(t, Options{})
	ctx := context.Background()
	tests := []struct {
		p    tg.SetMyCommandsParams
		want string
	}{
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "new", Description: "Open a table"}}}, ""},
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "new", Description: "Открыть стол"}}, LanguageCode: "ru"}, ""},
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "join", Description: "Join"}},
			Scope: &models.BotCommandScopeAllGroupChats{}}, ""},
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "New", Description: "x"}}}, "BOT_COMMAND_INVALID"},
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "new", Description: ""}}}, "BOT_COMMAND_DESCRIPTION_INVALID"},
		{tg.SetMyCommandsParams{Commands: []models.BotCommand{{Command: "new", Description: "x"}}, LanguageCode: "russian"}, "language"},
	}
	for _, tt := range tests {
		_, err := b.SetMyCommands(ctx, &tt.p)
		wantErr(t, err, tt.want)
	}
	if c := s.Commands("", "ru"); len(c) != 1 || c[0].Description != "Открыть стол" {
		t.Fatalf("ru commands = %+v", c)
	}
	if c := s.Commands("all_group_chats", ""); len(c) != 1 || c[0].Command != "join" {
		t.Fatalf("group commands = %+v", c)
	}
	if _, err := b.DeleteMyCommands(ctx, &tg.DeleteMyCommandsParams{LanguageCode: "ru"}); err != nil {
		t.Fatal(err)
	}
	if c := s.Commands("", "ru"); c != nil {
		t.Fatalf("after delete = %+v", c)
	}
}

func TestConcurrentUse(t *testing.T) {
	s := New(Options{RateScale: 1e6})
	t.Cleanup(s.Close)
	ch, b := poller(t, s)
	const workers, each = 4, 20
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			chat := int64(-100 - w)
			u := User{ID: int64(1000 + w), FirstName: "U"}
			s.StartDM(u, "")
			s.AddGroup(chat, "g")
			for i := range each {
				m, err := send(b, chat, fmt.Sprint("m", i), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := send(b, u.ID, "dm", nil); err != nil {
					t.Error(err)
					return
				}
				s.Press(chat, m.ID, u, "x")
				_ = s.Messages(chat)
				_ = s.Calls()
			}
		}()
	}
	got := 0
	for got < workers*(each+1) {
		next(t, ch)
		got++
	}
	wg.Wait()
	for w := range workers {
		if n := len(s.Messages(int64(-100 - w))); n != each {
			t.Fatalf("chat %d has %d messages", -100-w, n)
		}
	}
	if v := s.Violations(); len(v) != 0 {
		t.Fatalf("violations = %q", v)
	}
}

func TestWaitForFailsAfterDeadline(t *testing.T) {
	s := New(Options{WaitTimeout: 50 * time.Millisecond})
	defer s.Close()
	ft := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WaitFor(ft, "never", func() bool { return false })
	}()
	<-done
	if !ft.failed || !strings.Contains(ft.msg, "never") {
		t.Fatalf("WaitFor did not fail: %+v", ft)
	}
}

type fakeTB struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func BenchmarkSendMessage(b *testing.B) {
	s := New(Options{RateScale: 1e9})
	defer s.Close()
	s.AddGroup(group, "g")
	c, err := tg.New(s.Token(), tg.WithServerURL(s.URL()), tg.WithSkipGetMe())
	if err != nil {
		b.Fatal(err)
	}
	kb := keyboard("a", "b", "c")
	for i := 0; b.Loop(); i++ {
		if _, err := send(c, group, fmt.Sprintf("<b>trick %d</b>", i), kb); err != nil {
			b.Fatal(err)
		}
	}
}

func TestReplyParameters(t *testing.T) {
	s, b, clk := start(t, Options{})
	user := s.SendText(group, alice, "/score")
	tests := []struct {
		name string
		rp   *models.ReplyParameters
		want string
	}{
		{"reply to a user's message", &models.ReplyParameters{MessageID: user}, ""},
		{"reply to a missing message", &models.ReplyParameters{MessageID: 77}, "Bad Request: message to be replied not found"},
		{"allowed without the message", &models.ReplyParameters{MessageID: 77, AllowSendingWithoutReply: true}, ""},
	}
	for _, tt := range tests {
		clk.add(time.Minute)
		_, err := b.SendMessage(context.Background(), &tg.SendMessageParams{ChatID: group, Text: "x", ReplyParameters: tt.rp})
		if tt.want == "" && err != nil || tt.want != "" && !strings.Contains(errText(err), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestPressOnUserMessageIsAScriptError(t *testing.T) {
	s, _, _ := start(t, Options{})
	s.StartDM(alice, "")
	s.Press(alice.ID, 1, alice, "v1|x") // message 1 is Alice's "/start": it has no buttons
	if v := s.Violations(); len(v) != 1 || !strings.Contains(v[0], "tgtest script error: Press on message 1") {
		t.Fatalf("violations = %q", v)
	}
	if s.Pending() != 2 {
		t.Fatalf("pending = %d, want the /start and the press", s.Pending())
	}
}
