package tgtest

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/go-telegram/bot/models"
)

// pushLocked queues an update with the next update id and wakes long polls.
func (s *Server) pushLocked(u models.Update) {
	u.ID = s.nextUpdate
	s.nextUpdate++
	s.updates = append(s.updates, u)
	s.history = append(s.history, u)
	s.bumpLocked()
}

// RedeliverAll queues every update ever sent once more, with its own id: what Telegram does for
// the updates a bot never confirmed (it restarted before a getUpdates with a higher offset, or
// its webhook did not answer 200). A bot must recognise them and change nothing.
func (s *Server) RedeliverAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	queued := map[int64]bool{}
	for _, u := range s.updates {
		queued[u.ID] = true
	}
	for _, u := range s.history {
		if !queued[u.ID] {
			s.updates = append(s.updates, u)
		}
	}
	slices.SortFunc(s.updates, func(a, b models.Update) int { return cmp.Compare(a.ID, b.ID) })
	s.bumpLocked()
}

// scriptErrorLocked records a mistake in the test's script as a violation, so it is not missed.
func (s *Server) scriptErrorLocked(msg string) {
	s.violations = append(s.violations, "tgtest script error: "+msg)
	s.bumpLocked()
}

// AddGroup registers a group with the bot as a member (no update is sent). Ids must be negative;
// ids at or below -1000000000000 are supergroups, the others basic groups.
func (s *Server) AddGroup(chat int64, title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if chat >= 0 {
		s.scriptErrorLocked("AddGroup with a non-negative id " + strconv.FormatInt(chat, 10))
		return
	}
	c := s.groupLocked(chat)
	c.title, c.member = title, true
}

// SetAdmin makes user an administrator of chat (BotID makes the bot one). getChatMember and
// getChatAdministrators answer accordingly.
func (s *Server) SetAdmin(chat, user int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.groupLocked(chat)
	c.admins[user] = true
	if user != BotID {
		c.members[user] = true
		if _, found := s.users[user]; !found {
			s.users[user] = User{ID: user, FirstName: "User " + strconv.FormatInt(user, 10)}
		}
	}
}

// userChatLocked returns the chat a scripted user acts in: their DM (chat == from.ID, marked
// open, since Telegram users can only write to a bot after START) or a group (created if unknown).
func (s *Server) userChatLocked(chat int64, from User) *chat {
	if chat > 0 {
		if chat != from.ID {
			s.scriptErrorLocked("user " + strconv.FormatInt(from.ID, 10) + " acts in the private chat of " +
				strconv.FormatInt(chat, 10))
			return nil
		}
		c := s.privateLocked(from)
		c.open = true
		return c
	}
	s.users[from.ID] = from
	c := s.groupLocked(chat)
	c.members[from.ID] = true
	return c
}

// SendText sends a text message from a user in a group or in their DM (chat == from.ID) and
// returns its message id. Every /command at the start or after a space gets a bot_command entity
// with UTF-16 offsets, like Telegram.
func (s *Server) SendText(chat int64, from User, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sendTextLocked(chat, from, text)
}

func (s *Server) sendTextLocked(chat int64, from User, text string) int {
	c := s.userChatLocked(chat, from)
	if c == nil {
		return 0
	}
	m := &message{Message: Message{From: from.ID, Text: text, Plain: text, Date: s.now().Unix()},
		entities: commandEntities(text), from: from}
	c.addLocked(m)
	s.pushLocked(models.Update{Message: s.messageModelLocked(c, m)})
	return m.ID
}

// StartDM is the user pressing START in the bot's DM (after a t.me/<bot>?start=<payload> link
// when payload is not empty): the DM opens and the bot receives "/start" or "/start <payload>".
func (s *Server) StartDM(from User, payload string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	text := "/start"
	if payload != "" {
		text += " " + payload
	}
	s.sendTextLocked(from.ID, from, text)
}

// Press is the user pressing an inline button with this callback data on message msgID of chat
// (the data is not checked against the keyboard, so tests can forge it). The update carries the
// message as it is now (with its date), or an inaccessible message (date 0) if it was deleted or
// never existed. Press returns the callback query id; see Answer.
func (s *Server) Press(chat int64, msgID int, from User, data string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.userChatLocked(chat, from)
	if c == nil {
		return ""
	}
	s.nextCallback++
	id := strconv.FormatInt(4200000000000000000+int64(s.nextCallback), 10)
	var mim models.MaybeInaccessibleMessage
	if m := c.byID[msgID]; m != nil && m.From != BotID {
		s.scriptErrorLocked(fmt.Sprintf("Press on message %d in chat %d, which the bot did not send (only the bot's messages have buttons)", msgID, chat))
	}
	if m := c.byID[msgID]; m != nil && !m.deleted {
		mim = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeMessage,
			Message: s.messageModelLocked(c, m)}
	} else {
		mim = models.MaybeInaccessibleMessage{Type: models.MaybeInaccessibleMessageTypeInaccessibleMessage,
			InaccessibleMessage: &models.InaccessibleMessage{Chat: c.model(), MessageID: msgID}}
	}
	s.callbacks[id] = &callback{chat: chat, msg: msgID}
	s.pushLocked(models.Update{CallbackQuery: &models.CallbackQuery{ID: id, From: userModel(from),
		Message: mim, ChatInstance: strconv.FormatInt(chat*-7919, 10), Data: data}})
	return id
}

// Migrate upgrades group from to supergroup to: the new chat inherits title, members and admins;
// the bot gets the two service messages (migrate_to_chat_id in from, migrate_from_chat_id in to);
// later writes to from get 400 with parameters.migrate_to_chat_id.
func (s *Server) Migrate(from, to int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.chats[from]
	if old == nil || from >= 0 || to >= 0 {
		s.scriptErrorLocked("Migrate from an unknown chat or with non-negative ids")
		return
	}
	nc := s.newChatLocked(to, old.title)
	nc.typ = models.ChatTypeSupergroup
	nc.member = old.member
	for id := range old.admins {
		nc.admins[id] = true
	}
	for id := range old.members {
		nc.members[id] = true
	}
	old.migrated = to
	actor := User{ID: 777000, FirstName: "Telegram"}
	for id := range old.admins {
		if u, found := s.users[id]; found && id != BotID {
			actor = u
			break
		}
	}
	now := s.now().Unix()
	am := models.Message{Date: int(now), Chat: old.model(), From: ptr(userModel(actor)), MigrateToChatID: to}
	old.nextID++
	am.ID = old.nextID
	s.pushLocked(models.Update{Message: &am})
	bm := models.Message{Date: int(now), Chat: nc.model(), From: ptr(userModel(actor)), MigrateFromChatID: from}
	nc.nextID++
	bm.ID = nc.nextID
	s.pushLocked(models.Update{Message: &bm})
}

func ptr[T any](v T) *T { return &v }

// BotAdded is user "by" adding the bot to group chat (created if unknown): a my_chat_member update
// (left -> member) and the service message with new_chat_members.
func (s *Server) BotAdded(chat int64, by User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.userChatLocked(chat, by)
	if c == nil {
		return
	}
	c.member = true
	s.pushMemberLocked(c, by, models.ChatMemberTypeLeft, models.ChatMemberTypeMember)
	bot := s.botUser()
	c.nextID++
	s.pushLocked(models.Update{Message: &models.Message{ID: c.nextID, Date: int(s.now().Unix()),
		Chat: c.model(), From: ptr(userModel(by)), NewChatMembers: []models.User{bot}}})
}

// BotRemoved is user "by" removing the bot from group chat: a my_chat_member update (member ->
// left in a group, kicked in a supergroup); later writes to the chat get 403.
func (s *Server) BotRemoved(chat int64, by User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.userChatLocked(chat, by)
	if c == nil {
		return
	}
	c.member = false
	delete(c.admins, BotID)
	to := models.ChatMemberTypeLeft
	if c.typ == models.ChatTypeSupergroup {
		to = models.ChatMemberTypeBanned
	}
	s.pushMemberLocked(c, by, models.ChatMemberTypeMember, to)
}

func (s *Server) pushMemberLocked(c *chat, by User, from, to models.ChatMemberType) {
	bot := s.botUser()
	member := func(t models.ChatMemberType) models.ChatMember {
		switch t {
		case models.ChatMemberTypeMember:
			return models.ChatMember{Type: t, Member: &models.ChatMemberMember{User: &bot}}
		case models.ChatMemberTypeBanned:
			return models.ChatMember{Type: t, Banned: &models.ChatMemberBanned{User: &bot}}
		default:
			return models.ChatMember{Type: t, Left: &models.ChatMemberLeft{User: &bot}}
		}
	}
	s.pushLocked(models.Update{MyChatMember: &models.ChatMemberUpdated{Chat: c.model(), From: userModel(by),
		Date: int(s.now().Unix()), OldChatMember: member(from), NewChatMember: member(to)}})
}
