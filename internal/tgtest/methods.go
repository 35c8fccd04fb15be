package tgtest

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-telegram/bot/models"
)

func (s *Server) botUser() models.User {
	return models.User{ID: BotID, IsBot: true, FirstName: "Kozyr Test", Username: s.opt.BotUsername,
		CanJoinGroups: true}
}

func userModel(u User) models.User {
	return models.User{ID: u.ID, FirstName: u.FirstName, LastName: u.LastName, Username: u.Username,
		LanguageCode: u.LanguageCode}
}

func chatType(id int64) models.ChatType {
	switch {
	case id > 0:
		return models.ChatTypePrivate
	case id <= -1000000000000:
		return models.ChatTypeSupergroup
	default:
		return models.ChatTypeGroup
	}
}

func (c *chat) model() models.Chat {
	m := models.Chat{ID: c.id, Type: c.typ, Title: c.title, IsForum: c.forum}
	if c.typ == models.ChatTypePrivate {
		m.FirstName, m.LastName, m.Username = c.user.FirstName, c.user.LastName, c.user.Username
	}
	return m
}

func (c *chat) addLocked(m *message) {
	c.nextID++
	m.ID, m.Chat = c.nextID, c.id
	c.msgs = append(c.msgs, m)
	c.byID[m.ID] = m
}

func (s *Server) newChatLocked(id int64, title string) *chat {
	c := &chat{id: id, typ: chatType(id), title: title, member: id < 0,
		admins: map[int64]bool{}, members: map[int64]bool{}, byID: map[int]*message{}}
	if id > 0 {
		c.user = s.users[id]
	}
	s.chats[id] = c
	return c
}

// groupLocked returns the group with this id, creating it (with the bot as a member) if unknown.
func (s *Server) groupLocked(id int64) *chat {
	if c := s.chats[id]; c != nil {
		return c
	}
	return s.newChatLocked(id, "Group "+strconv.FormatInt(-id, 10))
}

// privateLocked returns the DM chat with u, creating it (not yet opened) if unknown.
func (s *Server) privateLocked(u User) *chat {
	s.users[u.ID] = u
	c := s.chats[u.ID]
	if c == nil {
		c = s.newChatLocked(u.ID, "")
	}
	c.user = u
	return c
}

func (s *Server) messageModelLocked(c *chat, m *message) *models.Message {
	mm := &models.Message{ID: m.ID, Date: int(m.Date), Chat: c.model(), Text: m.Plain,
		Entities: m.entities, EditDate: int(m.editDate), ReplyMarkup: m.markup}
	threadModel(mm, m)
	if m.From == BotID {
		u := s.botUser()
		mm.From = &u
	} else {
		u := userModel(m.from)
		mm.From = &u
	}
	return mm
}

// chatID reads chat_id: a missing one is "chat_id is empty", an @username is an unknown chat.
func chatID(f form) (int64, reply, bool) {
	if !f.has("chat_id") || strings.TrimSpace(f["chat_id"]) == "" {
		return 0, bad("chat_id is empty"), false
	}
	id, good := f.int64("chat_id")
	if !good {
		return 0, bad("chat not found"), false
	}
	return id, reply{}, true
}

// targetLocked returns the chat the bot may write to, or Telegram's refusal.
func (s *Server) targetLocked(id int64) (*chat, reply) {
	c := s.chats[id]
	switch {
	case c == nil && id > 0 && s.users[id].ID != 0,
		c != nil && c.typ == models.ChatTypePrivate && !c.open:
		return nil, reply{code: http.StatusForbidden, desc: "Forbidden: bot can't initiate conversation with a user"}
	case c == nil:
		return nil, bad("chat not found")
	case c.migrated != 0:
		return nil, reply{code: http.StatusBadRequest, desc: "Bad Request: group chat was upgraded to a supergroup chat",
			migrate: c.migrated}
	case c.typ == models.ChatTypeGroup && !c.member:
		return nil, reply{code: http.StatusForbidden, desc: "Forbidden: bot was kicked from the group chat"}
	case c.typ == models.ChatTypeSupergroup && !c.member:
		return nil, reply{code: http.StatusForbidden, desc: "Forbidden: bot was kicked from the supergroup chat"}
	}
	return c, reply{}
}

// faultLocked rolls the dice for an injected 429/500/502.
func (s *Server) faultLocked() (reply, bool) {
	if s.opt.Faults <= 0 || s.rng.Float64() >= s.opt.Faults {
		return reply{}, false
	}
	switch s.rng.IntN(3) {
	case 0:
		return reply{code: http.StatusTooManyRequests, desc: "Too Many Requests: retry after 1", retry: 1, injected: true}, true
	case 1:
		return reply{code: http.StatusInternalServerError, desc: "Internal Server Error", injected: true}, true
	default:
		return reply{code: http.StatusBadGateway, desc: "Bad Gateway", injected: true}, true
	}
}

// content is a parsed message text.
type content struct {
	text, plain, mode string
	entities          []models.MessageEntity
}

func parseContent(f form) (content, reply, bool) {
	ct := content{text: f["text"], mode: f["parse_mode"]}
	if !utf8.ValidString(ct.text) {
		return ct, bad("text must be encoded in UTF-8"), false
	}
	switch {
	case strings.EqualFold(ct.mode, "HTML"):
		plain, ents, err := parseHTML(ct.text)
		if err != nil {
			return ct, bad("can't parse entities: " + err.Error()), false
		}
		ct.plain, ct.entities = plain, ents
	case ct.mode != "":
		return ct, bad("unsupported parse_mode " + strconv.Quote(ct.mode) + " (the fake knows only HTML)"), false
	default:
		ct.plain = ct.text
		if raw := f["entities"]; raw != "" {
			if err := json.Unmarshal([]byte(raw), &ct.entities); err != nil {
				return ct, bad("can't parse entities JSON object"), false
			}
			sortEntities(ct.entities)
		}
	}
	if strings.TrimSpace(ct.plain) == "" {
		return ct, bad("text must be non-empty"), false
	}
	if UTF16Len(ct.plain) > MaxTextLen {
		return ct, bad("message is too long"), false
	}
	return ct, reply{}, true
}

type rawButton struct {
	Text                         string                 `json:"text"`
	URL                          *string                `json:"url"`
	CallbackData                 *string                `json:"callback_data"`
	CopyText                     *struct{ Text string } `json:"copy_text"`
	WebApp                       json.RawMessage        `json:"web_app"`
	LoginURL                     json.RawMessage        `json:"login_url"`
	SwitchInlineQuery            *string                `json:"switch_inline_query"`
	SwitchInlineQueryCurrentChat *string                `json:"switch_inline_query_current_chat"`
	SwitchInlineQueryChosenChat  json.RawMessage        `json:"switch_inline_query_chosen_chat"`
	CallbackGame                 json.RawMessage        `json:"callback_game"`
	Pay                          bool                   `json:"pay"`
}

type rawMarkup struct {
	InlineKeyboard json.RawMessage `json:"inline_keyboard"`
	Keyboard       json.RawMessage `json:"keyboard"`
	RemoveKeyboard bool            `json:"remove_keyboard"`
	ForceReply     bool            `json:"force_reply"`
}

// markup is a parsed reply_markup: an inline keyboard (nil: none), and warnings for Violations.
type markup struct {
	present  bool
	inline   *models.InlineKeyboardMarkup
	keyboard [][]Button
	warnings []string
}

// parseMarkup decodes and checks reply_markup. inlineOnly rejects reply keyboards (edits).
func parseMarkup(f form, inlineOnly bool) (markup, reply, bool) {
	raw, present := f["reply_markup"]
	var mk markup
	if !present || strings.TrimSpace(raw) == "" {
		return mk, reply{}, true
	}
	mk.present = true
	if len(raw) > 10<<10 {
		return mk, bad("REPLY_MARKUP_TOO_LONG"), false
	}
	var rm rawMarkup
	if err := json.Unmarshal([]byte(raw), &rm); err != nil {
		return mk, bad("can't parse reply keyboard markup JSON object"), false
	}
	if rm.InlineKeyboard == nil {
		if !inlineOnly && (rm.Keyboard != nil || rm.RemoveKeyboard || rm.ForceReply) {
			return mk, reply{}, true
		}
		return mk, bad("can't parse inline keyboard markup JSON object"), false
	}
	var rows [][]rawButton
	if err := json.Unmarshal(rm.InlineKeyboard, &rows); err != nil || rows == nil {
		return mk, bad("can't parse inline keyboard markup JSON object: field \"inline_keyboard\" must be an Array of Arrays"), false
	}
	mk.inline = &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{}}
	n := 0
	for _, row := range rows {
		if row == nil {
			return mk, bad("field \"inline_keyboard\" must be an Array of Arrays"), false
		}
		var mrow []models.InlineKeyboardButton
		var brow []Button
		for _, b := range row {
			n++
			if b.Text == "" {
				return mk, bad("BUTTON_TEXT_INVALID"), false
			}
			kinds := 0
			for _, set := range []bool{b.URL != nil, b.CallbackData != nil, b.WebApp != nil, b.LoginURL != nil,
				b.SwitchInlineQuery != nil, b.SwitchInlineQueryCurrentChat != nil,
				b.SwitchInlineQueryChosenChat != nil, b.CallbackGame != nil, b.Pay,
				b.CopyText != nil && b.CopyText.Text != ""} {
				if set {
					kinds++
				}
			}
			if b.CopyText != nil && b.CopyText.Text == "" {
				mk.warnings = append(mk.warnings, "button "+strconv.Quote(b.Text)+
					" carries copy_text with empty text (models.InlineKeyboardButton quirk; Telegram may answer BUTTON_COPY_TEXT_INVALID)")
			}
			if kinds == 0 {
				return mk, bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"), false
			}
			mb := models.InlineKeyboardButton{Text: b.Text}
			bb := Button{Text: b.Text}
			if b.CallbackData != nil {
				if d := *b.CallbackData; d == "" || len(d) > MaxCallbackLen {
					return mk, bad("BUTTON_DATA_INVALID"), false
				}
				mb.CallbackData, bb.Data = *b.CallbackData, *b.CallbackData
			}
			if b.URL != nil {
				if !validURL(*b.URL) {
					return mk, bad("BUTTON_URL_INVALID"), false
				}
				mb.URL, bb.URL = *b.URL, *b.URL
			}
			mrow = append(mrow, mb)
			brow = append(brow, bb)
		}
		mk.inline.InlineKeyboard = append(mk.inline.InlineKeyboard, mrow)
		mk.keyboard = append(mk.keyboard, brow)
	}
	if n > MaxButtons {
		return mk, bad("REPLY_MARKUP_TOO_LONG"), false
	}
	if n == 0 {
		mk.inline, mk.keyboard = nil, nil
	}
	return mk, reply{}, true
}

func validURL(u string) bool {
	for _, p := range []string{"https://", "http://", "tg://"} {
		if strings.HasPrefix(strings.ToLower(u), p) && len(u) > len(p) {
			return !strings.ContainsAny(u, " \n\t")
		}
	}
	return false
}

func (s *Server) warnLocked(method string, chat int64, warnings []string) {
	for _, w := range warnings {
		s.violations = append(s.violations, method+" chat="+strconv.FormatInt(chat, 10)+": "+w)
	}
}

func (s *Server) getMe(context.Context, form) reply { return ok(s.botUser()) }

func (s *Server) sendMessage(_ context.Context, f form) reply {
	id, r, good := chatID(f)
	if !good {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, faulted := s.faultLocked(); faulted {
		return r
	}
	c, r := s.targetLocked(id)
	if c == nil {
		return r
	}
	ct, r, good := parseContent(f)
	if !good {
		return r
	}
	mk, r, good := parseMarkup(f, false)
	if !good {
		return r
	}
	to, thread, r, good := replyPlace(c, f)
	if !good {
		return r
	}
	now := s.now()
	if r, good := s.floodLocked(c, now); !good {
		return r
	}
	s.warnLocked("sendMessage", id, mk.warnings)
	m := &message{Message: Message{From: BotID, Text: ct.text, Plain: ct.plain, ParseMode: ct.mode,
		Keyboard: mk.keyboard, Date: now.Unix(), Thread: thread}, entities: ct.entities, markup: mk.inline}
	if to != nil {
		m.ReplyTo = to.ID
	}
	c.addLocked(m)
	return reply{result: s.messageModelLocked(c, m), msgID: m.ID}
}

// replyPlace is where a new message goes (sendMessage, sendDocument): the message it replies to,
// if any, and its forum topic; or Telegram's refusal.
func replyPlace(c *chat, f form) (*message, int, reply, bool) {
	to, r, good := replyTarget(c, f)
	if !good {
		return nil, 0, r, false
	}
	thread, r, good := threadTarget(c, f, to)
	return to, thread, r, good
}

// replyTarget checks reply_parameters (or the older reply_to_message_id): the message replied to
// must exist unless allow_sending_without_reply is set. It returns that message, if it exists.
func replyTarget(c *chat, f form) (*message, reply, bool) {
	var rp struct {
		MessageID                int  `json:"message_id"`
		ChatID                   any  `json:"chat_id"`
		AllowSendingWithoutReply bool `json:"allow_sending_without_reply"`
	}
	if raw := f["reply_parameters"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &rp); err != nil {
			return nil, bad("can't parse reply parameters JSON object"), false
		}
	} else if id, has := f.int64("reply_to_message_id"); has {
		rp.MessageID, rp.AllowSendingWithoutReply = int(id), f.bool("allow_sending_without_reply")
	}
	if rp.MessageID == 0 || rp.ChatID != nil {
		return nil, reply{}, true
	}
	m := c.byID[rp.MessageID]
	if m != nil && !m.deleted {
		return m, reply{}, true
	}
	if rp.AllowSendingWithoutReply {
		return nil, reply{}, true
	}
	return nil, bad("message to be replied not found"), false
}

// editTarget finds the bot's message to edit, or Telegram's refusal.
func (s *Server) editTargetLocked(f form) (*chat, *message, reply) {
	if f["inline_message_id"] != "" {
		return nil, nil, bad("MESSAGE_ID_INVALID (the fake does not support inline messages)")
	}
	id, r, good := chatID(f)
	if !good {
		return nil, nil, r
	}
	mid, good := f.int64("message_id")
	if !good {
		return nil, nil, bad("message identifier is not specified")
	}
	c, r := s.targetLocked(id)
	if c == nil {
		return nil, nil, r
	}
	m := c.byID[int(mid)]
	if m == nil || m.deleted {
		return nil, nil, bad("message to edit not found")
	}
	if m.From != BotID {
		return nil, nil, bad("message can't be edited")
	}
	return c, m, reply{}
}

func (s *Server) editMessageText(_ context.Context, f form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, faulted := s.faultLocked(); faulted {
		return r
	}
	c, m, r := s.editTargetLocked(f)
	if c == nil {
		return r
	}
	ct, r, good := parseContent(f)
	if !good {
		return r
	}
	mk, r, good := parseMarkup(f, true)
	if !good {
		return r
	}
	// Telegram: editMessageText without reply_markup removes the inline keyboard.
	if ct.plain == m.Plain && entitiesEqual(ct.entities, m.entities) && keyboardsEqual(mk.keyboard, m.Keyboard) {
		return notModified()
	}
	now := s.now()
	if r, good := s.floodLocked(c, now); !good {
		return r
	}
	s.warnLocked("editMessageText", c.id, mk.warnings)
	m.Text, m.Plain, m.ParseMode, m.entities = ct.text, ct.plain, ct.mode, ct.entities
	m.Keyboard, m.markup = mk.keyboard, mk.inline
	m.Edits++
	m.editDate = now.Unix()
	return ok(s.messageModelLocked(c, m))
}

func (s *Server) editMessageReplyMarkup(_ context.Context, f form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, faulted := s.faultLocked(); faulted {
		return r
	}
	c, m, r := s.editTargetLocked(f)
	if c == nil {
		return r
	}
	mk, r, good := parseMarkup(f, true)
	if !good {
		return r
	}
	if keyboardsEqual(mk.keyboard, m.Keyboard) {
		return notModified()
	}
	now := s.now()
	if r, good := s.floodLocked(c, now); !good {
		return r
	}
	s.warnLocked("editMessageReplyMarkup", c.id, mk.warnings)
	m.Keyboard, m.markup = mk.keyboard, mk.inline
	m.Edits++
	m.editDate = now.Unix()
	return ok(s.messageModelLocked(c, m))
}

func notModified() reply {
	return reply{code: http.StatusBadRequest, desc: "Bad Request: message is not modified: specified new message " +
		"content and reply markup are exactly the same as a current content and reply markup of the message"}
}

func entitiesEqual(a, b []models.MessageEntity) bool {
	return slices.EqualFunc(a, b, func(x, y models.MessageEntity) bool {
		return x.Type == y.Type && x.Offset == y.Offset && x.Length == y.Length && x.URL == y.URL &&
			x.Language == y.Language && (x.User == nil) == (y.User == nil) && (x.User == nil || x.User.ID == y.User.ID)
	})
}

func keyboardsEqual(a, b [][]Button) bool {
	return slices.EqualFunc(a, b, func(x, y []Button) bool { return slices.Equal(x, y) })
}

func (s *Server) deleteMessage(_ context.Context, f form) reply {
	id, r, good := chatID(f)
	if !good {
		return r
	}
	mid, good := f.int64("message_id")
	if !good {
		return bad("message identifier is not specified")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, r := s.targetLocked(id)
	if c == nil {
		return r
	}
	m := c.byID[int(mid)]
	if m == nil || m.deleted {
		return bad("message to delete not found")
	}
	if m.From != BotID && c.typ != models.ChatTypePrivate && !c.admins[BotID] {
		return bad("message can't be deleted")
	}
	m.deleted = true
	return ok(true)
}

func (s *Server) answerCallbackQuery(_ context.Context, f form) reply {
	id := f["callback_query_id"]
	text := f["text"]
	s.mu.Lock()
	defer s.mu.Unlock()
	cb := s.callbacks[id]
	if cb == nil || cb.answered {
		return bad("query is too old and response timeout expired or query ID is invalid")
	}
	if UTF16Len(text) > MaxAnswerLen {
		return bad("MESSAGE_TOO_LONG")
	}
	url := f["url"]
	if url != "" && !validURL(url) && !strings.HasPrefix(url, "t.me/") {
		return bad("URL_INVALID")
	}
	cache, _ := f.int64("cache_time")
	cb.answered = true
	cb.answer = CallbackAnswer{Text: text, ShowAlert: f.bool("show_alert"), URL: url, CacheTime: int(cache)}
	return reply{result: true, chat: cb.chat, msgID: cb.msg}
}

var commandName = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// commandsKey identifies a command list by scope and language like Telegram does.
func commandsKey(f form) (string, reply, bool) {
	scope := struct {
		Type   string          `json:"type"`
		ChatID json.RawMessage `json:"chat_id"`
		UserID int64           `json:"user_id"`
	}{Type: "default"}
	if raw := f["scope"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &scope); err != nil {
			return "", bad("can't parse BotCommandScope JSON object"), false
		}
	}
	switch scope.Type {
	case "default", "all_private_chats", "all_group_chats", "all_chat_administrators", "chat",
		"chat_administrators", "chat_member":
	default:
		return "", bad("wrong bot command scope type specified"), false
	}
	lang := f["language_code"]
	if lang != "" && (len(lang) != 2 || strings.ToLower(lang) != lang) {
		return "", bad("invalid language code specified"), false
	}
	key := scope.Type
	if len(scope.ChatID) > 0 {
		key += "/" + strings.Trim(string(scope.ChatID), `"`)
	}
	if scope.UserID != 0 {
		key += "/" + strconv.FormatInt(scope.UserID, 10)
	}
	return key + "|" + lang, reply{}, true
}

func (s *Server) setMyCommands(_ context.Context, f form) reply {
	key, r, good := commandsKey(f)
	if !good {
		return r
	}
	var cmds []models.BotCommand
	if err := json.Unmarshal([]byte(f["commands"]), &cmds); err != nil || cmds == nil {
		return bad("can't parse commands JSON array")
	}
	if len(cmds) > 100 {
		return bad("BOT_COMMANDS_TOO_MUCH")
	}
	for _, c := range cmds {
		if !commandName.MatchString(c.Command) {
			return bad("BOT_COMMAND_INVALID")
		}
		if n := utf8.RuneCountInString(c.Description); n == 0 || n > 256 {
			return bad("BOT_COMMAND_DESCRIPTION_INVALID")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commands[key] = cmds
	return ok(true)
}

func (s *Server) deleteMyCommands(_ context.Context, f form) reply {
	key, r, good := commandsKey(f)
	if !good {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.commands, key)
	return ok(true)
}

func (s *Server) getMyCommands(_ context.Context, f form) reply {
	key, r, good := commandsKey(f)
	if !good {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cmds := s.commands[key]
	if cmds == nil {
		cmds = []models.BotCommand{}
	}
	return ok(cmds)
}

// knownChatLocked returns a chat for the read-only methods.
func (s *Server) knownChatLocked(f form) (*chat, reply) {
	id, r, good := chatID(f)
	if !good {
		return nil, r
	}
	c := s.chats[id]
	if c == nil {
		return nil, bad("chat not found")
	}
	return c, reply{}
}

func (s *Server) memberLocked(c *chat, uid int64) models.ChatMember {
	var u models.User
	if uid == BotID {
		u = s.botUser()
	} else if known, found := s.users[uid]; found {
		u = userModel(known)
	} else {
		u = models.User{ID: uid, FirstName: "User " + strconv.FormatInt(uid, 10)}
	}
	switch {
	case c.typ == models.ChatTypePrivate && (uid == c.id || uid == BotID):
		return models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{User: &u}}
	case c.admins[uid]:
		return models.ChatMember{Type: models.ChatMemberTypeAdministrator, Administrator: &models.ChatMemberAdministrator{
			User: u, CanManageChat: true, CanDeleteMessages: true, CanRestrictMembers: true, CanInviteUsers: true,
			CanPinMessages: true}}
	case uid == BotID && c.member, c.members[uid]:
		return models.ChatMember{Type: models.ChatMemberTypeMember, Member: &models.ChatMemberMember{User: &u}}
	default:
		return models.ChatMember{Type: models.ChatMemberTypeLeft, Left: &models.ChatMemberLeft{User: &u}}
	}
}

func (s *Server) getChatMember(_ context.Context, f form) reply {
	uid, good := f.int64("user_id")
	if !good || uid <= 0 {
		return bad("invalid user_id specified")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, r := s.knownChatLocked(f)
	if c == nil {
		return r
	}
	if _, found := s.users[uid]; !found && uid != BotID {
		return bad("PARTICIPANT_ID_INVALID")
	}
	cm := s.memberLocked(c, uid)
	return ok(&cm)
}

func (s *Server) getChatAdministrators(_ context.Context, f form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, r := s.knownChatLocked(f)
	if c == nil {
		return r
	}
	if c.typ == models.ChatTypePrivate {
		return bad("there are no administrators in the private chat")
	}
	ids := make([]int64, 0, len(c.admins))
	for id := range c.admins {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]models.ChatMember, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.memberLocked(c, id))
	}
	return ok(out)
}

func (s *Server) getChat(_ context.Context, f form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, r := s.knownChatLocked(f)
	if c == nil {
		return r
	}
	m := c.model()
	return ok(map[string]any{"id": m.ID, "type": m.Type, "title": m.Title, "first_name": m.FirstName,
		"last_name": m.LastName, "username": m.Username, "accent_color_id": 0, "max_reaction_count": 11,
		"accepted_gift_types": map[string]bool{}})
}

var chatActions = map[string]bool{"typing": true, "upload_photo": true, "record_video": true,
	"upload_video": true, "record_voice": true, "upload_voice": true, "upload_document": true,
	"choose_sticker": true, "find_location": true, "record_video_note": true, "upload_video_note": true}

func (s *Server) sendChatAction(_ context.Context, f form) reply {
	id, r, good := chatID(f)
	if !good {
		return r
	}
	if !chatActions[f["action"]] {
		return bad("wrong parameter action in request")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, r := s.targetLocked(id); c == nil {
		return r
	}
	return ok(true)
}

// updateKind names an update's type like allowed_updates does.
func updateKind(u *models.Update) string {
	switch {
	case u.Message != nil:
		return models.AllowedUpdateMessage
	case u.CallbackQuery != nil:
		return models.AllowedUpdateCallbackQuery
	case u.MyChatMember != nil:
		return models.AllowedUpdateMyChatMember
	case u.ChatMember != nil:
		return models.AllowedUpdateChatMember
	case u.EditedMessage != nil:
		return models.AllowedUpdateEditedMessage
	}
	return ""
}

// defaultExcluded are the update kinds Telegram leaves out unless allowed_updates names them.
var defaultExcluded = map[string]bool{models.AllowedUpdateChatMember: true,
	models.AllowedUpdateMessageReaction: true, models.AllowedUpdateMessageReactionCount: true}

func (s *Server) getUpdates(ctx context.Context, f form) reply {
	offset, _ := f.int64("offset")
	limit, good := f.int64("limit")
	if !good || limit <= 0 || limit > 100 {
		limit = 100
	}
	timeout, _ := f.int64("timeout")
	if timeout < 0 {
		timeout = 0
	}
	var allowed map[string]bool
	setAllowed := false
	if raw := f["allowed_updates"]; raw != "" {
		var kinds []string
		if err := json.Unmarshal([]byte(raw), &kinds); err != nil {
			return bad("can't parse allowed updates")
		}
		setAllowed = true
		if len(kinds) > 0 {
			allowed = map[string]bool{}
			for _, k := range kinds {
				allowed[k] = true
			}
		}
	}
	timer := time.NewTimer(time.Duration(timeout) * time.Second)
	defer timer.Stop()

	s.mu.Lock()
	if s.hook != nil {
		s.mu.Unlock()
		return reply{code: http.StatusConflict, desc: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", violation: true}
	}
	if setAllowed {
		s.allowed = allowed
	}
	close(s.pollKick) // a newer getUpdates terminates the waiting ones, like Telegram
	s.pollKick = make(chan struct{})
	kick := s.pollKick
	for {
		s.confirmLocked(offset)
		batch := []models.Update{}
		for _, u := range s.updates {
			if int64(len(batch)) == limit {
				break
			}
			batch = append(batch, u)
		}
		if len(batch) > 0 || timeout == 0 {
			s.mu.Unlock()
			return ok(batch)
		}
		wake := s.wake
		s.polling++
		s.mu.Unlock()
		r, done := s.pollWait(ctx, wake, kick, timer.C)
		s.mu.Lock()
		s.polling--
		if done {
			s.mu.Unlock()
			return r
		}
	}
}

// pollWait blocks a long poll until something changes; done means answer r now.
func (s *Server) pollWait(ctx context.Context, wake, kick <-chan struct{}, timeout <-chan time.Time) (reply, bool) {
	select {
	case <-wake:
		return reply{}, false
	case <-kick:
		return reply{code: http.StatusConflict,
			desc: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"}, true
	case <-timeout:
		return ok([]models.Update{}), true
	case <-ctx.Done():
		return reply{code: 499, desc: "client closed request"}, true
	case <-s.done:
		return ok([]models.Update{}), true
	}
}

// pollers is the number of getUpdates requests waiting now (for tests).
func (s *Server) pollers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.polling
}

// confirmLocked drops updates confirmed by offset and those allowed_updates filters out.
func (s *Server) confirmLocked(offset int64) {
	keep := s.updates[:0]
	n := len(s.updates)
	for i, u := range s.updates {
		switch {
		case offset > 0 && u.ID < offset:
		case offset < 0 && i < n+int(offset):
		case s.allowed != nil && !s.allowed[updateKind(&u)]:
		case s.allowed == nil && defaultExcluded[updateKind(&u)]:
		default:
			keep = append(keep, u)
		}
	}
	clear(s.updates[len(keep):])
	s.updates = keep
}
