package tgtest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-telegram/bot/models"
)

// Delivery is one webhook request the fake made: the update, and the HTTP status the bot
// answered (0 when the request failed).
type Delivery struct {
	UpdateID int64
	Status   int
	Time     time.Time
}

// hook is the webhook set with setWebhook.
type hook struct {
	url      string
	secret   string
	max      int
	inflight map[int64]bool // updates being delivered
	chats    map[int64]bool // chats with an update being delivered: one at a time per chat
	retryAt  map[int64]time.Time
	stop     chan struct{}
}

// webhookBackoff is how long the fake waits before delivering an update again after the bot
// failed it (Telegram waits longer; tests want speed).
const webhookBackoff = 50 * time.Millisecond

func (s *Server) setWebhook(_ context.Context, f form) reply {
	raw := f["url"]
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return bad("bad webhook: invalid URL " + strconv.Quote(raw))
	}
	secret := f["secret_token"]
	if len(secret) > 256 {
		return bad("bad webhook: secret token is too long")
	}
	for _, r := range secret {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return bad("bad webhook: secret token contains unallowed characters")
		}
	}
	max := 40
	if n, ok := f.int64("max_connections"); ok && n > 0 {
		if n > 100 {
			return bad("bad webhook: max_connections must be at most 100")
		}
		max = int(n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if raw := f["allowed_updates"]; raw != "" {
		var kinds []string
		if err := json.Unmarshal([]byte(raw), &kinds); err != nil {
			return bad("can't parse allowed updates")
		}
		s.allowed = nil
		if len(kinds) > 0 {
			s.allowed = map[string]bool{}
			for _, k := range kinds {
				s.allowed[k] = true
			}
		}
	}
	if f.bool("drop_pending_updates") {
		s.updates = nil
	}
	s.stopHookLocked()
	h := &hook{url: raw, secret: secret, max: max, inflight: map[int64]bool{}, chats: map[int64]bool{},
		retryAt: map[int64]time.Time{}, stop: make(chan struct{})}
	s.hook = h
	close(s.pollKick) // a waiting getUpdates ends with a conflict, like Telegram
	s.pollKick = make(chan struct{})
	go s.deliver(h)
	return ok(true)
}

func (s *Server) deleteWebhook(_ context.Context, f form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopHookLocked()
	if f.bool("drop_pending_updates") {
		s.updates = nil
	}
	return ok(true)
}

func (s *Server) getWebhookInfo(context.Context, form) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	info := models.WebhookInfo{PendingUpdateCount: len(s.updates)}
	if s.hook != nil {
		info.URL, info.MaxConnections = s.hook.url, s.hook.max
	}
	return ok(info)
}

func (s *Server) stopHookLocked() {
	if s.hook != nil {
		close(s.hook.stop)
		s.hook = nil
	}
}

// Deliveries lists the webhook requests made so far.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.deliveries...)
}

// deliver posts pending updates to the webhook until it is deleted or the server closes: in
// update order, at most max at once and one at a time per chat; an update goes when the bot
// answers 2xx, otherwise it is sent again after a pause.
func (s *Server) deliver(h *hook) {
	client := &http.Client{Timeout: 60 * time.Second}
	for {
		s.mu.Lock()
		if s.hook != h {
			s.mu.Unlock()
			return
		}
		s.confirmLocked(0)
		now := s.now()
		var next time.Time
		blocked := map[int64]bool{} // chats whose earlier update is in flight or waits for a retry
		for c := range h.chats {
			blocked[c] = true
		}
		for _, u := range s.updates {
			chat := updateChat(&u)
			if h.inflight[u.ID] || blocked[chat] {
				blocked[chat] = true
				continue
			}
			if at, ok := h.retryAt[u.ID]; ok && now.Before(at) {
				if next.IsZero() || at.Before(next) {
					next = at
				}
				blocked[chat] = true
				continue
			}
			if len(h.inflight) >= h.max {
				break
			}
			h.inflight[u.ID], h.chats[chat] = true, true
			blocked[chat] = true
			go s.post(client, h, u, chat)
		}
		wake := s.wake
		s.mu.Unlock()
		var timer <-chan time.Time
		if !next.IsZero() {
			timer = time.After(next.Sub(now))
		}
		select {
		case <-wake:
		case <-timer:
		case <-h.stop:
			return
		case <-s.done:
			return
		}
	}
}

// post makes one webhook request.
func (s *Server) post(client *http.Client, h *hook, u models.Update, chat int64) {
	body, _ := json.Marshal(u)
	status := 0
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		if h.secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", h.secret)
		}
		if resp, err := client.Do(req); err == nil {
			status = resp.StatusCode
			resp.Body.Close()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deliveries = append(s.deliveries, Delivery{UpdateID: u.ID, Status: status, Time: s.now()})
	delete(h.inflight, u.ID)
	delete(h.chats, chat)
	if status >= 200 && status < 300 {
		delete(h.retryAt, u.ID)
		keep := s.updates[:0]
		for _, x := range s.updates {
			if x.ID != u.ID {
				keep = append(keep, x)
			}
		}
		clear(s.updates[len(keep):])
		s.updates = keep
	} else {
		h.retryAt[u.ID] = s.now().Add(webhookBackoff)
	}
	s.bumpLocked()
}

// updateChat is the chat an update comes from (its sender's, for a press on an inline message).
func updateChat(u *models.Update) int64 {
	switch {
	case u.Message != nil:
		return u.Message.Chat.ID
	case u.CallbackQuery != nil:
		if m := u.CallbackQuery.Message.Message; m != nil {
			return m.Chat.ID
		}
		if m := u.CallbackQuery.Message.InaccessibleMessage; m != nil {
			return m.Chat.ID
		}
		return u.CallbackQuery.From.ID
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	}
	return 0
}
