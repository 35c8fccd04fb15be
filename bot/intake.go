package bot

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/kozyr-bot/kozyr/store"
	"github.com/rs/zerolog"
)

// allowedUpdates are the update kinds the bot asks Telegram for.
var allowedUpdates = []string{models.AllowedUpdateMessage, models.AllowedUpdateCallbackQuery, models.AllowedUpdateMyChatMember}

// tracker follows every update from its arrival until its effect is durable (it is settled), so
// the bot confirms to Telegram — a getUpdates offset past it, a webhook 200 — only updates that a
// crash can no longer lose. An update whose processing failed is held: it is not confirmed, and
// Telegram's redelivery retries it.
//
// An update still in flight when the poll loop asks again would come back in every answer until
// it settles (a busy bot would decode the same updates over and over, and a full answer would
// hold nothing new); so the loop keeps such updates in the store (kept) and confirms past them.
// A kept update is the bot's own to finish: it retries one that fails, a restart processes what
// the store still keeps, and its row goes once it has settled (cleanup).
type tracker struct {
	mu       sync.Mutex
	inflight map[int64]*pending // received and not settled
	held     map[int64]*pending // failed, waiting for a retry from retryAt on
	// settled are the updates done with but perhaps not confirmed yet: a getUpdates answer
	// computed before one settled may still hold it, and a webhook may be retried.
	settled map[int64]time.Time
	cleanup []int64 // kept updates settled since their rows were last deleted
	max     int64   // the highest id received
	changed chan struct{}
}

// pending is one update in flight; done closes when it settles, err says how.
type pending struct {
	done    chan struct{}
	err     error
	u       *models.Update
	raw     []byte // as Telegram sent it (polling only), for keeping it in the store
	kept    bool   // the store holds it: it is confirmed to Telegram, and the bot retries it
	since   time.Time
	retryAt time.Time
}

func newTracker() *tracker {
	return &tracker{inflight: map[int64]*pending{}, held: map[int64]*pending{}, settled: map[int64]time.Time{},
		changed: make(chan struct{}, 1)}
}

// done is the pending entry of an update already settled.
var done = func() *pending {
	p := &pending{done: make(chan struct{})}
	close(p.done)
	return p
}()

// start registers an arriving update (raw: its JSON from getUpdates, nil from a webhook; kept: it
// comes from the store). It returns false with the pending entry of an update already in flight
// or settled (a redelivery, a webhook retry), which the caller may wait on instead; nil for one
// that failed a moment ago.
func (t *tracker) start(u *models.Update, raw []byte, kept bool, now time.Time) (*pending, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id := u.ID
	if p, ok := t.inflight[id]; ok {
		return p, false
	}
	if _, ok := t.settled[id]; ok {
		return done, false
	}
	if h, ok := t.held[id]; ok {
		if now.Before(h.retryAt) {
			return nil, false // failed a moment ago: retried on a later delivery
		}
		delete(t.held, id)
		kept = kept || h.kept
	}
	p := &pending{done: make(chan struct{}), u: u, raw: raw, kept: kept, since: now}
	t.inflight[id] = p
	t.max = max(t.max, id)
	return p, true
}

// retryDelay is how long a failed update waits before a redelivery retries it.
const retryDelay = time.Second

// settle ends an update's processing; with an error it is held for a retry. It returns the
// entry, whose kept field says that the retry is the bot's own (Telegram will not deliver it
// again); nil for an update not in flight.
func (t *tracker) settle(id int64, err error, now time.Time) *pending {
	t.mu.Lock()
	p := t.inflight[id]
	delete(t.inflight, id)
	switch {
	case p == nil:
	case err != nil:
		p.retryAt = now.Add(retryDelay)
		t.held[id] = p
	default:
		t.settled[id] = now
		if p.kept {
			t.cleanup = append(t.cleanup, id)
		}
	}
	t.mu.Unlock()
	if p != nil {
		p.err = err
		close(p.done)
	}
	select {
	case t.changed <- struct{}{}:
	default:
	}
	return p
}

// offset is the getUpdates offset that confirms exactly the settled and the kept updates: the
// lowest other update still in flight or held, else one past the highest received (0 before any).
func (t *tracker) offset() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	low := int64(0)
	for _, m := range []map[int64]*pending{t.inflight, t.held} {
		for id, p := range m {
			if !p.kept && (low == 0 || id < low) {
				low = id
			}
		}
	}
	if low != 0 {
		return low
	}
	if t.max == 0 {
		return 0
	}
	return t.max + 1
}

// settledKeep is how long a settled update is remembered without a confirmation (webhook mode):
// long enough for Telegram's retry of a request it gave up on; after that the store's processed
// ids recognise it.
const settledKeep = 2 * time.Minute

// confirmed forgets the settled updates below offset, which Telegram will not deliver again, and
// those settled long ago.
func (t *tracker) confirmed(offset int64, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, at := range t.settled {
		if (offset > 0 && id < offset) || now.Sub(at) > settledKeep {
			delete(t.settled, id)
		}
	}
}

// known reports whether an update is in flight or settled: a delivery of it again is not new.
func (t *tracker) known(id int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, inflight := t.inflight[id]
	_, settled := t.settled[id]
	return inflight || settled
}

// Updates in flight are kept once they have waited keepAfter, or all of them once keepBacklog
// wait: a moment's wait costs the next poll only a skip, a kept update a write (and its delete).
const (
	keepAfter   = 250 * time.Millisecond
	keepBacklog = 50 // of getUpdates' 100 a call
)

// toKeep lists the updates from getUpdates still in flight and not kept yet that are due to be
// kept at now.
func (t *tracker) toKeep(now time.Time) []store.Update {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := len(t.inflight) >= keepBacklog
	var out []store.Update
	for id, p := range t.inflight {
		if !p.kept && p.raw != nil && (all || now.Sub(p.since) >= keepAfter) {
			out = append(out, store.Update{ID: id, Raw: p.raw})
		}
	}
	return out
}

// keptNow marks updates as kept once their rows are committed; the ones that settled or failed
// meanwhile need no row (a failed one is still Telegram's to deliver again), so they join the
// cleanup.
func (t *tracker) keptNow(us []store.Update) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, u := range us {
		if p, ok := t.inflight[u.ID]; ok {
			p.kept = true
		} else {
			t.cleanup = append(t.cleanup, u.ID)
		}
	}
}

// takeCleanup returns the kept updates whose rows may go, and forgets them; putCleanup gives them
// back after a failed write.
func (t *tracker) takeCleanup() []int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.cleanup
	t.cleanup = nil
	return out
}

func (t *tracker) putCleanup(ids []int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanup = append(t.cleanup, ids...)
}

// busy is the number of updates in flight.
func (t *tracker) busy() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.inflight)
}

// receive takes one update into its queue (raw and kept as for tracker.start). It returns the
// update's pending entry (settled when its effect is durable) and whether the update is new; nil
// when it failed a moment ago and waits for a later delivery. A kept update that fails is
// retried here after retryDelay: Telegram will not deliver it again.
func (b *Bot) receive(u *models.Update, raw []byte, kept bool) (*pending, bool) {
	p, fresh := b.intake.start(u, raw, kept, time.Now())
	if !fresh {
		return p, false
	}
	run := func() {
		var once sync.Once
		var settled *pending
		settle := func(err error) *pending {
			once.Do(func() { settled = b.intake.settle(u.ID, err, time.Now()) })
			return settled
		}
		err := b.safely(context.WithValue(b.work, durableKey{}, func() { settle(nil) }), u)
		if p := settle(err); p != nil && p.kept && err != nil {
			time.AfterFunc(retryDelay, func() {
				if b.work.Err() == nil { // after a stop, the store keeps it for the next start
					b.receive(p.u, p.raw, true)
				}
			})
		}
	}
	if !b.queue.Do(b.keyOf(u), run) {
		// The table's queue is full: the press is answered "busy" and nothing changes.
		if q := u.CallbackQuery; q != nil {
			go b.answer(b.work, q.ID, b.render.Text(b.loc.Match(q.From.LanguageCode), "bot.cb.busy"), "", false)
		}
		b.intake.settle(u.ID, nil, time.Now())
	}
	return p, true
}

// durableKey carries, in a handler's context, the function that settles its update at once.
type durableKey struct{}

// durable tells the intake that the update being handled has its whole effect committed: what the
// handler still does (answering the press, sending) is no effect a redelivery would repeat (it is
// recognised as processed), so the update can be confirmed to Telegram now rather than after
// those calls, and the next poll hands out new updates instead of this one again.
func durable(ctx context.Context) {
	if settle, ok := ctx.Value(durableKey{}).(func()); ok {
		settle()
	}
}

// safely runs an update's handler; a panic (an engine's, say) is logged and the update settled, so
// one poisonous update can neither crash the bot nor be redelivered forever.
func (b *Bot) safely(ctx context.Context, u *models.Update) (err error) {
	defer func() {
		if r := recover(); r != nil {
			b.log.Error().Int64("update", u.ID).Interface("panic", r).Msg("handler panicked")
			err = nil
		}
	}()
	err = b.handle(ctx, u)
	if errors.Is(err, errDuplicate) {
		return nil
	}
	if err != nil {
		b.log.Error().Int64("update", u.ID).Err(err).Msg("update not processed; Telegram will deliver it again")
	}
	return err
}

// keyOf is the queue an update joins: the place of the table it concerns (presses on DM hand
// messages and deep links name their table), else the chat it came from. One queue runs one
// update at a time, so a table has one writer.
func (b *Bot) keyOf(u *models.Update) queueKey {
	switch {
	case u.Message != nil:
		m := u.Message
		if m.MigrateFromChatID != 0 {
			return queueKey{chat: m.MigrateFromChatID}
		}
		if m.Chat.Type == models.ChatTypePrivate {
			if cmd, ok := parseCommand(m.Text, m.Entities, b.me); ok && cmd.Name == "start" {
				if k, ok := b.tableKey(cmd.Args); ok {
					return k
				}
			}
		}
		return queueKey{chat: m.Chat.ID, topic: topicOf(m)}
	case u.CallbackQuery != nil:
		q := u.CallbackQuery
		if k, ok := b.tableKey(q.Data); ok {
			return k
		}
		if m := q.Message.Message; m != nil {
			return queueKey{chat: m.Chat.ID, topic: topicOf(m)}
		}
		return queueKey{chat: q.From.ID}
	case u.MyChatMember != nil:
		return queueKey{chat: u.MyChatMember.Chat.ID}
	}
	return queueKey{}
}

// poll is the long-polling loop: getUpdates with the offset that confirms only settled updates,
// every new update into its queue. An update already in flight comes back in every answer until it
// settles; when an answer holds nothing new, the loop waits for a settle before asking again.
func (b *Bot) poll(ctx context.Context) error {
	if _, err := b.api.DeleteWebhook(ctx, &tg.DeleteWebhookParams{}); err != nil {
		b.log.Warn().Str("err", b.clean(err)).Msg("deleteWebhook")
	}
	b.log.Info().Str("bot", b.me).Msg("polling")
	backoff := time.Duration(0)
	for ctx.Err() == nil {
		if backoff > 0 {
			if !sleep(ctx, backoff) {
				break
			}
		}
		offset := b.intake.offset()
		updates, err := b.getUpdates(ctx, offset, pollTimeout-time.Second)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			var tooMany *tg.TooManyRequestsError
			if errors.As(err, &tooMany) {
				backoff = time.Duration(tooMany.RetryAfter) * time.Second
			} else {
				backoff = min(max(2*backoff, 100*time.Millisecond), 5*time.Second)
			}
			b.log.Warn().Str("err", b.clean(err)).Dur("retry_in", backoff).Msg("getUpdates")
			continue
		}
		backoff = 0
		b.intake.confirmed(offset, time.Now())
		var fresh []*pending
		for _, r := range updates {
			if p, isNew := b.receive(r.u, r.raw, false); p != nil && isNew {
				fresh = append(fresh, p)
			}
		}
		switch {
		case len(fresh) > 0:
			// Let this batch settle for a moment before asking again: the next answer then
			// confirms it instead of handing most of it back.
			b.settleWait(ctx, fresh, pollSettle)
		case len(updates) > 0:
			// Only updates already in flight came back: wait until one of them settles.
			select {
			case <-ctx.Done():
			case <-b.intake.changed:
			case <-time.After(retryDelay):
			}
		}
		b.keep(ctx)
	}
	return nil
}

// keep stores the updates still in flight after a poll settled what it could, so the next poll
// confirms past them, and deletes the rows of kept updates that have settled since: one commit,
// shared with the presses (store.Batch), and none while the bot keeps up.
func (b *Bot) keep(ctx context.Context) {
	us, gone := b.intake.toKeep(time.Now()), b.intake.takeCleanup()
	if len(us) == 0 && len(gone) == 0 {
		return
	}
	err := b.st.Batch(ctx, func(tx store.Tx) error {
		for _, u := range us {
			if err := tx.PutUpdate(u.ID, u.Raw); err != nil {
				return err
			}
		}
		for _, id := range gone {
			if err := tx.DeleteUpdate(id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.intake.putCleanup(gone)
		b.log.Warn().Err(err).Int("updates", len(us)).Msg("keep updates in flight")
		return
	}
	b.intake.keptNow(us)
}

// resumeKept processes the updates an earlier run kept and did not finish (or finished and had
// not yet dropped: those change nothing again); a restarted bot does so before it polls.
func (b *Bot) resumeKept(ctx context.Context) error {
	var kept []store.Update
	if err := b.st.View(ctx, func(tx store.Tx) (err error) { kept, err = tx.Updates(); return err }); err != nil {
		return fmt.Errorf("read kept updates: %w", err)
	}
	for _, k := range kept {
		u, err := decodeUpdate(k.Raw)
		if err == nil && u.ID != k.ID {
			err = fmt.Errorf("update %d kept as %d", u.ID, k.ID)
		}
		if err != nil {
			b.log.Error().Int64("update", k.ID).Err(err).Msg("a kept update cannot be read; dropped")
			b.intake.putCleanup([]int64{k.ID})
			continue
		}
		b.receive(u, k.Raw, true)
	}
	return nil
}

// pollSettle bounds how long the poll loop waits for a batch to settle before it asks for more.
const pollSettle = 20 * time.Millisecond

// settleWait waits until every one of ps has settled, ctx is done or d has passed.
func (b *Bot) settleWait(ctx context.Context, ps []*pending, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for _, p := range ps {
		select {
		case <-p.done:
		case <-ctx.Done():
			return
		case <-t.C:
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// confirm tells Telegram, at shutdown, that every settled update is done with (a getUpdates call
// that waits for nothing), so a restart is not handed them again.
func (b *Bot) confirm(ctx context.Context) {
	off := b.intake.offset()
	if off == 0 {
		return
	}
	if _, err := b.getUpdatesLimit(ctx, off, 0, 1); err != nil {
		b.log.Warn().Str("err", b.clean(err)).Msg("confirm updates at shutdown")
	}
}

// polled is one update of a getUpdates answer: decoded, with its JSON, unless it is one the bot
// already has (then only its id is read).
type polled struct {
	u   *models.Update
	raw []byte
}

// getUpdates asks the Bot API for the updates from offset on, waiting up to timeout for one. It is
// the bot's own call (go-telegram/bot's poller confirms updates as soon as it has read them).
func (b *Bot) getUpdates(ctx context.Context, offset int64, timeout time.Duration) ([]polled, error) {
	return b.getUpdatesLimit(ctx, offset, timeout, 100)
}

func (b *Bot) getUpdatesLimit(ctx context.Context, offset int64, timeout time.Duration, limit int) ([]polled, error) {
	allowed, _ := json.Marshal(allowedUpdates)
	form := url.Values{
		"timeout":         {strconv.Itoa(int(timeout / time.Second))},
		"limit":           {strconv.Itoa(limit)},
		"allowed_updates": {string(allowed)},
	}
	if offset != 0 {
		form.Set("offset", strconv.FormatInt(offset, 10))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/bot"+b.cfg.Token+"/getUpdates", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("getUpdates: %s", b.clean(err))
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.httpc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("getUpdates: %s", b.clean(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("getUpdates: read answer: %w", err)
	}
	var r struct {
		OK          bool              `json:"ok"`
		Result      []json.RawMessage `json:"result"`
		ErrorCode   int               `json:"error_code"`
		Description string            `json:"description"`
		Parameters  struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("getUpdates: decode answer (HTTP %d): %w", resp.StatusCode, err)
	}
	if !r.OK {
		if r.ErrorCode == http.StatusTooManyRequests {
			return nil, &tg.TooManyRequestsError{Message: r.Description, RetryAfter: r.Parameters.RetryAfter}
		}
		return nil, fmt.Errorf("getUpdates: %d %s", r.ErrorCode, r.Description)
	}
	// An update still in flight comes back until it settles; only the new ones are decoded.
	out := make([]polled, 0, len(r.Result))
	for _, raw := range r.Result {
		if id, ok := leadingUpdateID(raw); ok && b.intake.known(id) {
			out = append(out, polled{u: &models.Update{ID: id}})
			continue
		}
		u, err := b.readUpdate(raw)
		if err != nil {
			return nil, fmt.Errorf("getUpdates: %w", err)
		}
		out = append(out, polled{u: u, raw: raw})
	}
	return out, nil
}

// leadingUpdateID reads the update_id of an update object that starts with it, as Telegram writes
// them, without decoding the rest.
func leadingUpdateID(raw []byte) (int64, bool) {
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte(`{"update_id":`))
	if !ok {
		return 0, false
	}
	end := bytes.IndexAny(rest, ",}")
	if end <= 0 {
		return 0, false
	}
	id, err := strconv.ParseInt(string(bytes.TrimSpace(rest[:end])), 10, 64)
	return id, err == nil
}

// webhookWait bounds how long a webhook request waits for its update to settle; Telegram gives
// up after about a minute and sends it again.
const webhookWait = 50 * time.Second

// serveWebhook registers the webhook with Telegram and serves its requests until ctx is done.
func (b *Bot) serveWebhook(ctx context.Context) error {
	u, _ := url.Parse(b.cfg.WebhookURL)
	path := u.Path
	if path == "" {
		path = "/"
	}
	mux := http.NewServeMux()
	mux.HandleFunc(path, b.webhook)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return b.work }}
	ln, err := net.Listen("tcp", b.cfg.Listen)
	if err != nil {
		return fmt.Errorf("webhook: listen on %s: %w", b.cfg.Listen, err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	_, err = b.api.SetWebhook(ctx, &tg.SetWebhookParams{URL: b.cfg.WebhookURL, SecretToken: b.cfg.WebhookSecret,
		AllowedUpdates: allowedUpdates, MaxConnections: 40})
	if err != nil {
		b.log.Error().Str("err", b.clean(err)).Msg("setWebhook")
	}
	b.log.Info().Str("bot", b.me).Str("listen", ln.Addr().String()).Msg("serving webhook")
	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("webhook server: %w", err)
	}
	grace, cancel := context.WithTimeout(b.work, shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(grace); err != nil {
		b.log.Warn().Err(err).Msg("webhook server shutdown")
	}
	return nil
}

// webhook answers one request of Telegram's: 401 without the secret (nothing is stored), 400
// for a body that is not an update, and 200 only once the update's effect is durable; a failure
// answers 500 so Telegram delivers it again. A repeated update id waits for, or finds, the first.
func (b *Bot) webhook(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	got := r.Header.Get("X-Telegram-Bot-Api-Secret-Token")
	if b.cfg.WebhookSecret != "" && subtle.ConstantTimeCompare([]byte(got), []byte(b.cfg.WebhookSecret)) != 1 {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read the update", http.StatusBadRequest)
		return
	}
	u, err := b.readUpdate(body)
	if err != nil {
		http.Error(w, "not an update", http.StatusBadRequest)
		return
	}
	b.intake.confirmed(0, time.Now())
	p, _ := b.receive(u, nil, false)
	if p == nil {
		http.Error(w, "retry later", http.StatusServiceUnavailable)
		return
	}
	select {
	case <-p.done:
	case <-r.Context().Done():
		return
	case <-time.After(webhookWait):
		http.Error(w, "still working", http.StatusServiceUnavailable)
		return
	}
	if p.err != nil {
		http.Error(w, "not stored", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// queueKey names a queue of work: a table's place (chat and topic), or a chat of its own.
type queueKey struct {
	chat  int64
	topic int
}

// maxQueue bounds the work waiting in one queue; a press beyond it is answered "busy".
const maxQueue = 64

// serializer runs functions one at a time per key, in submission order, and different keys in
// parallel: the "one writer per table" of design §4 (go-telegram/bot would otherwise run two
// presses on one table at once and out of order).
type serializer struct {
	log    zerolog.Logger
	mu     sync.Mutex
	queues map[queueKey][]func()
	// idle is closed while no queue runs; a drain that starts replaces it. (A WaitGroup would do
	// only if no Do could race a Wait, and a finishing job's Do may race Run's last Wait.)
	idle chan struct{}
}

func newSerializer(log zerolog.Logger) *serializer {
	idle := make(chan struct{})
	close(idle)
	return &serializer{log: log, queues: map[queueKey][]func(){}, idle: idle}
}

// Do queues fn behind the earlier work of key and reports whether it was queued (false: the
// queue is full). It never blocks.
func (s *serializer) Do(key queueKey, fn func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, running := s.queues[key]
	if len(q) >= maxQueue {
		return false
	}
	s.queues[key] = append(q, fn)
	if !running {
		if len(s.queues) == 1 {
			s.idle = make(chan struct{})
		}
		go s.drain(key)
	}
	return true
}

func (s *serializer) drain(key queueKey) {
	for {
		s.mu.Lock()
		q := s.queues[key]
		if len(q) == 0 {
			delete(s.queues, key)
			if len(s.queues) == 0 {
				close(s.idle)
			}
			s.mu.Unlock()
			return
		}
		fn := q[0]
		q[0] = nil
		s.queues[key] = slices.Clip(q[1:])
		s.mu.Unlock()
		s.run(key, fn)
	}
}

// run shields the other tables from a bug in one: a panic is logged, not fatal.
func (s *serializer) run(key queueKey, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Int64("chat", key.chat).Interface("panic", r).Msg("queued work panicked")
		}
	}()
	fn()
}

// Wait returns when nothing is queued or running, or when ctx is done.
func (s *serializer) Wait(ctx context.Context) error {
	for {
		s.mu.Lock()
		idle, empty := s.idle, len(s.queues) == 0
		s.mu.Unlock()
		if empty {
			return nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
