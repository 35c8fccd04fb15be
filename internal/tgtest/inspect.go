package tgtest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

func (m *message) snapshot() Message {
	out := m.Message
	out.Keyboard = make([][]Button, len(m.Keyboard))
	for i, row := range m.Keyboard {
		out.Keyboard[i] = slices.Clone(row)
	}
	if m.Keyboard == nil {
		out.Keyboard = nil
	}
	return out
}

// Messages lists the bot's messages in chat in their current (edited) state, oldest first,
// deleted ones excluded. Users' messages are not listed (see Message).
func (s *Server) Messages(chat int64) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat]
	if c == nil {
		return nil
	}
	var out []Message
	for _, m := range c.msgs {
		if m.From == BotID && !m.deleted {
			out = append(out, m.snapshot())
		}
	}
	return out
}

// Message returns any message of chat (the bot's or a user's) by id, unless it was deleted.
func (s *Server) Message(chat int64, id int) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[chat]
	if c == nil {
		return Message{}, false
	}
	m := c.byID[id]
	if m == nil || m.deleted {
		return Message{}, false
	}
	return m.snapshot(), true
}

// Answer returns what the bot answered to a callback query (see Press), and whether it did.
func (s *Server) Answer(callbackID string) (CallbackAnswer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cb := s.callbacks[callbackID]
	if cb == nil || !cb.answered {
		return CallbackAnswer{}, false
	}
	return cb.answer, true
}

// Calls returns every request received so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Violations returns every rule the client broke: 429s forced by the flood limits (not injected
// ones), bad HTML, text too long or empty, invalid buttons, edits of unknown messages, callback
// queries answered twice, unknown methods, and similar client bugs, each as one line.
func (s *Server) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.violations)
}

// Pending is the number of updates queued and not yet confirmed by getUpdates.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// DMOpen reports whether user pressed START in the bot's DM (or wrote to it).
func (s *Server) DMOpen(user int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.chats[user]
	return c != nil && c.open
}

// Commands returns the command list set by setMyCommands for a scope type ("" is "default") and
// language code ("" for all languages).
func (s *Server) Commands(scope, lang string) []models.BotCommand {
	if scope == "" {
		scope = "default"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commands[scope+"|"+lang])
}

// WaitFor polls cond until it is true, failing the test with what if it is still false after
// Options.WaitTimeout (default 20 s). It re-checks on every change in the fake (and at least every
// 10 ms, for conditions on other state). cond runs without the fake's lock, so it may call the
// inspecting methods. Call WaitFor from the test's goroutine.
func (s *Server) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(s.opt.WaitTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		wake := s.wake
		s.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline.C:
			if cond() {
				return
			}
			t.Fatalf("tgtest: timed out after %v waiting for %s", s.opt.WaitTimeout, what)
			return
		}
	}
}

// Find returns the bot's newest message in chat whose plain text contains substr.
func (s *Server) Find(chat int64, substr string) (Message, bool) {
	ms := s.Messages(chat)
	for i := len(ms) - 1; i >= 0; i-- {
		if strings.Contains(ms[i].Plain, substr) {
			return ms[i], true
		}
	}
	return Message{}, false
}
