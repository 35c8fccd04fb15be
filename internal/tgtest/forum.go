package tgtest

import (
	"fmt"
	"strconv"

	"github.com/go-telegram/bot/models"
)

// Forum supergroups. A forum's topics are threads named by the id of the service message that
// opened them (message_thread_id); its General topic has no thread id in messages and cannot be
// named in sendMessage (Telegram answers "message thread not found" for message_thread_id 1). A
// message in a topic carries is_topic_message and message_thread_id; a reply outside topics
// carries the thread of the message replied to, without is_topic_message. The fake is strict: a
// sendMessage whose message_thread_id is not an open topic of a forum is a 400 and a violation,
// and so is a reply in one topic to a message of another.

// GroupAnonymousBot is the user Telegram gives as the sender (from) of a message an anonymous
// administrator posts as the group (sender_chat is the group itself).
var GroupAnonymousBot = User{ID: 1087968824, FirstName: "Group", Username: "GroupAnonymousBot"}

// generalTopic is the General topic's thread id, which only Telegram's clients use.
const generalTopic = 1

// AddForum registers a forum supergroup (topics on) with the bot as a member. The id must be a
// supergroup's (at or below -1000000000000).
func (s *Server) AddForum(chat int64, title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if chatType(chat) != models.ChatTypeSupergroup {
		s.scriptErrorLocked("AddForum with a non-supergroup id " + strconv.FormatInt(chat, 10))
		return
	}
	c := s.groupLocked(chat)
	c.title, c.member, c.forum = title, true, true
	if c.topics == nil {
		c.topics = map[int]string{}
	}
	// Message 1 is the group's creation, where the General topic begins: no topic is ever 1.
	c.nextID = max(c.nextID, generalTopic)
}

// CreateTopic opens a topic called name in forum chat as user by: the bot receives the
// service message (forum_topic_created) in the new topic. It returns the topic's message_thread_id.
func (s *Server) CreateTopic(chat int64, by User, name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat]
	if c == nil || !c.forum {
		s.scriptErrorLocked(fmt.Sprintf("CreateTopic in %d, which is not a forum (AddForum)", chat))
		return 0
	}
	c = s.userChatLocked(chat, by)
	m := &message{Message: Message{From: by.ID, Date: s.now().Unix()}, from: by}
	c.addLocked(m)
	m.Thread = m.ID
	c.topics[m.ID] = name
	mm := s.messageModelLocked(c, m)
	mm.ForumTopicCreated = &models.ForumTopicCreated{Name: name}
	s.pushLocked(models.Update{Message: mm})
	return m.ID
}

// SendTopicText is SendText in a topic of a forum (0: its General topic).
func (s *Server) SendTopicText(chat int64, topic int, from User, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownTopicLocked(chat, topic) {
		return 0
	}
	return s.sendInLocked(chat, from, text, func(m *message) { m.Thread = topic })
}

// SendReply is SendText as a reply to message replyTo of chat: in a forum topic the reply is in
// the topic of that message; anywhere else it carries the chain's thread id without
// is_topic_message, as Telegram sends it.
func (s *Server) SendReply(chat int64, from User, replyTo int, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat]
	if c == nil || c.byID[replyTo] == nil {
		s.scriptErrorLocked(fmt.Sprintf("SendReply to message %d of chat %d, which does not exist", replyTo, chat))
		return 0
	}
	to := c.byID[replyTo]
	return s.sendInLocked(chat, from, text, func(m *message) {
		if m.Thread = to.Thread; m.Thread == 0 {
			if m.root = to.root; m.root == 0 {
				m.root = to.ID
			}
		}
	})
}

// SendAsGroup is an anonymous administrator of chat posting text as the group itself, in forum
// topic topic (0: the General topic or a chat without topics). It returns the message id.
func (s *Server) SendAsGroup(chat int64, topic int, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownTopicLocked(chat, topic) {
		return 0
	}
	c := s.groupLocked(chat)
	m := &message{Message: Message{From: GroupAnonymousBot.ID, Text: text, Plain: text, Date: s.now().Unix(), Thread: topic},
		entities: commandEntities(text), from: GroupAnonymousBot}
	c.addLocked(m)
	mm := s.messageModelLocked(c, m)
	mm.From.IsBot = true
	sender := c.model()
	mm.SenderChat = &sender
	s.pushLocked(models.Update{Message: mm})
	return m.ID
}

// Topic lists the bot's messages in forum topic topic of chat (0: the General topic), as
// Messages does.
func (s *Server) Topic(chat int64, topic int) []Message {
	var out []Message
	for _, m := range s.Messages(chat) {
		if m.Thread == topic {
			out = append(out, m)
		}
	}
	return out
}

// knownTopicLocked reports whether a script may write in topic of chat: 0 anywhere, another one
// only in an open topic of a forum.
func (s *Server) knownTopicLocked(chat int64, topic int) bool {
	if topic == 0 {
		return true
	}
	if c := s.chats[chat]; c == nil || !c.forum || !hasTopic(c, topic) {
		s.scriptErrorLocked(fmt.Sprintf("topic %d of chat %d was never created (CreateTopic)", topic, chat))
		return false
	}
	return true
}

// sendInLocked is sendTextLocked with the message placed by place before it is sent.
func (s *Server) sendInLocked(chat int64, from User, text string, place func(*message)) int {
	c := s.userChatLocked(chat, from)
	if c == nil {
		return 0
	}
	m := &message{Message: Message{From: from.ID, Text: text, Plain: text, Date: s.now().Unix()},
		entities: commandEntities(text), from: from}
	place(m)
	c.addLocked(m)
	s.pushLocked(models.Update{Message: s.messageModelLocked(c, m)})
	return m.ID
}

func hasTopic(c *chat, topic int) bool {
	_, ok := c.topics[topic]
	return ok
}

// threadModel gives a message model its thread, as Telegram does.
func threadModel(mm *models.Message, m *message) {
	switch {
	case m.Thread != 0:
		mm.MessageThreadID, mm.IsTopicMessage = m.Thread, true
	case m.root != 0:
		mm.MessageThreadID = m.root
	}
}

// threadTarget is the topic a sendMessage goes to: message_thread_id, which must name an open
// topic of a forum (not the General topic, 1, and nothing in other chats), else the topic of the
// message it replies to; a reply to a message of another topic is refused.
func threadTarget(c *chat, f form, to *message) (int, reply, bool) {
	id, given := f.int64("message_thread_id")
	if !given || id == 0 {
		if to != nil {
			return to.Thread, reply{}, true
		}
		return 0, reply{}, true
	}
	if !c.forum || !hasTopic(c, int(id)) || id == generalTopic {
		r := bad("message thread not found")
		r.note = fmt.Sprintf("message_thread_id %d is no topic of chat %d", id, c.id)
		return 0, r, false
	}
	if to != nil && to.Thread != int(id) {
		r := bad("message to be replied not found")
		r.note = fmt.Sprintf("a reply in topic %d to message %d of topic %d", id, to.ID, to.Thread)
		return 0, r, false
	}
	return int(id), reply{}, true
}
