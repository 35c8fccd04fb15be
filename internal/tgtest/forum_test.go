package tgtest

import (
	"context"
	"strings"
	"testing"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

const forum int64 = -1009876543210

// TestForumUpdates: a topic's creation, a message in it, a message in General, a reply in General
// and an anonymous admin's post reach the bot as Telegram sends them; a press on the bot's message
// in a topic carries the topic.
func TestForumUpdates(t *testing.T) {
	s := New(Options{})
	t.Cleanup(s.Close)
	ch, b := poller(t, s)
	s.AddForum(forum, "Club")

	topic := s.CreateTopic(forum, alice, "Skat night")
	u := next(t, ch)
	if m := u.Message; m == nil || m.ID != topic || m.MessageThreadID != topic || !m.IsTopicMessage ||
		m.ForumTopicCreated == nil || m.ForumTopicCreated.Name != "Skat night" || !m.Chat.IsForum || m.Chat.Type != models.ChatTypeSupergroup {
		t.Fatalf("topic created = %+v", u.Message)
	}
	in := s.SendTopicText(forum, topic, boris, "/new skat")
	if m := next(t, ch).Message; m == nil || m.ID != in || m.MessageThreadID != topic || !m.IsTopicMessage || m.Text != "/new skat" {
		t.Fatalf("message in the topic = %+v", m)
	}
	general := s.SendTopicText(forum, 0, alice, "/new wizard")
	if m := next(t, ch).Message; m == nil || m.MessageThreadID != 0 || m.IsTopicMessage {
		t.Fatalf("message in General = %+v", m)
	}
	s.SendReply(forum, boris, general, "/join")
	if m := next(t, ch).Message; m == nil || m.MessageThreadID != general || m.IsTopicMessage {
		t.Fatalf("reply in General = %+v (want the chain's thread without is_topic_message)", m)
	}
	s.SendReply(forum, alice, in, "/join")
	if m := next(t, ch).Message; m == nil || m.MessageThreadID != topic || !m.IsTopicMessage {
		t.Fatalf("reply in the topic = %+v", m)
	}
	s.SendAsGroup(forum, topic, "/settings")
	if m := next(t, ch).Message; m == nil || m.SenderChat == nil || m.SenderChat.ID != forum || m.From == nil ||
		!m.From.IsBot || m.From.Username != "GroupAnonymousBot" || m.MessageThreadID != topic {
		t.Fatalf("anonymous admin's post = %+v", m)
	}

	sent, err := b.SendMessage(context.Background(), &tg.SendMessageParams{ChatID: forum, MessageThreadID: topic,
		Text: "lobby", ReplyMarkup: keyboard("l2|1|join")})
	if err != nil || sent.MessageThreadID != topic || !sent.IsTopicMessage {
		t.Fatalf("send into the topic = %+v, %v", sent, err)
	}
	s.Press(forum, sent.ID, alice, "l2|1|join")
	if q := next(t, ch).CallbackQuery; q == nil || q.Message.Message == nil || q.Message.Message.MessageThreadID != topic ||
		!q.Message.Message.IsTopicMessage {
		t.Fatalf("press in the topic = %+v", q)
	}
}

// TestForumSends: sendMessage goes to the topic it names, or to the topic of the message it
// replies to; a thread that is no open topic of a forum (General's 1 among them, any thread in a
// chat without topics) and a reply across topics are refused and recorded as violations.
func TestForumSends(t *testing.T) {
	s, b, clk := start(t, Options{})
	s.AddForum(forum, "Club")
	s.AddGroup(group, "Plain")
	one := s.CreateTopic(forum, alice, "one")
	two := s.CreateTopic(forum, alice, "two")
	inOne := s.SendTopicText(forum, one, alice, "/score")
	inGeneral := s.SendTopicText(forum, 0, alice, "/score")
	tests := []struct {
		name   string
		chat   int64
		thread int
		reply  int
		want   string // the error, "" for a send into wantIn
		wantIn int
	}{
		{"into a topic", forum, two, 0, "", two},
		{"into General", forum, 0, 0, "", 0},
		{"a reply without a thread stays in its topic", forum, 0, inOne, "", one},
		{"a reply in its topic", forum, one, inOne, "", one},
		{"a reply in General", forum, 0, inGeneral, "", 0},
		{"General's id", forum, generalTopic, 0, "message thread not found", 0},
		{"an unknown topic", forum, 999, 0, "message thread not found", 0},
		{"a thread in a chat without topics", group, one, 0, "message thread not found", 0},
		{"a reply across topics", forum, two, inOne, "message to be replied not found", 0},
		{"a topic's thread for a General message", forum, one, inGeneral, "message to be replied not found", 0},
	}
	violations := 0
	for _, tt := range tests {
		clk.add(time.Minute)
		p := &tg.SendMessageParams{ChatID: tt.chat, MessageThreadID: tt.thread, Text: tt.name}
		if tt.reply != 0 {
			p.ReplyParameters = &models.ReplyParameters{MessageID: tt.reply}
		}
		m, err := b.SendMessage(context.Background(), p)
		if tt.want != "" {
			violations++
			if !strings.Contains(errText(err), tt.want) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got, _ := s.Message(tt.chat, m.ID); got.Thread != tt.wantIn {
			t.Errorf("%s: landed in thread %d, want %d", tt.name, got.Thread, tt.wantIn)
		}
	}
	if v := s.Violations(); len(v) != violations {
		t.Errorf("%d violations, want %d: %q", len(v), violations, v)
	}
	if got := s.Topic(forum, one); len(got) != 2 {
		t.Errorf("Topic(one) = %+v, want the two messages sent there", got)
	}
	s.SendTopicText(forum, 12345, alice, "/score")
	if v := s.Violations(); len(v) != violations+1 || !strings.Contains(v[len(v)-1], "script error: topic 12345") {
		t.Errorf("a message in a topic never created: %q", v)
	}
}
