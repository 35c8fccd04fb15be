package outbox

import (
	"container/heap"
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/rs/zerolog"
)

// Limits are the flood limits the Outbox keeps.
type Limits struct {
	PerChat         time.Duration // minimum time between two calls to one chat (1 s)
	GroupPerMinute  int           // calls per group (chat id < 0) in any sliding minute (20)
	GlobalPerSecond int           // calls overall in any sliding second (30)
	Scale           float64       // the bot's own windows (and backoff) are divided by it, never Telegram's retry_after; ≤ 0 means 1 (KOZYR_RATE_SCALE)
}

// DefaultLimits are Telegram's published limits: 1 message per second per chat, 20 per minute per
// group, 30 per second overall.
func DefaultLimits() Limits {
	return Limits{PerChat: time.Second, GroupPerMinute: 20, GlobalPerSecond: 30, Scale: 1}
}

// Job is one Bot API call for one chat.
type Job struct {
	Chat     int64                           // target chat: limits and ordering are per chat
	Coalesce string                          // non-empty: a pending job of the chat with the same key is replaced by this one
	Call     func(ctx context.Context) error // the API call (send, edit, delete)
	Done     func(err error)                 // optional: the final outcome (nil on success, or when replaced)
	// NotBefore holds the job back until then, so a later job of the same key (which replaces it)
	// can make it unnecessary; the chat's other jobs go ahead of it meanwhile. A replacement keeps
	// the earlier of the two times (zero is "now").
	NotBefore time.Time
}

// Retry policy. Attempts that fail with 5xx, a network error or a timeout are retried after
// backoffBase·2^(n-1), at most backoffCap (both divided by Scale), maxTries attempts in all;
// 429 answers are waited out, for exactly the retry_after Telegram sent, up to max429 times.
const (
	maxTries    = 8
	max429      = 20
	backoffBase = 250 * time.Millisecond
	backoffCap  = 10 * time.Second
	callTimeout = 30 * time.Second
)

// Outbox queues jobs per chat and sends them within the Limits. Its methods are safe for
// concurrent use.
type Outbox struct {
	l      Limits
	log    zerolog.Logger
	now    func() time.Time
	wake   chan struct{} // capacity 1: "something changed, dispatch again"
	driver chan struct{} // capacity 1: held by whoever runs the dispatch loop (Run or Flush)

	mu      sync.Mutex
	seq     uint64
	chats   map[int64]*queue
	pending int           // jobs submitted and not finished (queued, running, waiting to retry)
	idle    chan struct{} // closed while pending == 0
	global  window        // start times of recent calls
	hold    time.Time     // no call starts before it (a restart: the last process's calls are unknown)
	// waiting holds every queue that has jobs and no call running, earliest start first, so a
	// dispatch looks only at the queues that may start now instead of at every chat.
	waiting waitHeap
	swept   time.Time // when idle queues were last dropped from chats
	// changed are the groups whose window changed since TakeWindows, and since when.
	changed      map[int64]bool
	changedSince time.Time
}

type queue struct {
	chat    int64
	jobs    []*entry
	running bool
	next    time.Time // earliest start of the next call (per-chat gap, retry_after, backoff)
	group   window    // end times of recent calls, for groups
	// at is the earliest time a call of this queue may start, as last computed; slot is the
	// queue's index in Outbox.waiting, or -1 when it is not there (no jobs, or a call running).
	at   time.Time
	slot int
}

type entry struct {
	job     Job
	seq     uint64
	fails   int // 5xx/network failures so far
	limited int // 429 answers so far
}

// New returns an Outbox that sends nothing until Run (or Flush) drives it.
func New(l Limits, log zerolog.Logger) *Outbox {
	d := DefaultLimits()
	if l.PerChat < 0 {
		l.PerChat = 0
	}
	if l.GroupPerMinute <= 0 {
		l.GroupPerMinute = d.GroupPerMinute
	}
	if l.GlobalPerSecond <= 0 {
		l.GlobalPerSecond = d.GlobalPerSecond
	}
	if l.Scale <= 0 {
		l.Scale = 1
	}
	idle := make(chan struct{})
	close(idle)
	return &Outbox{l: l, log: log, now: time.Now, wake: make(chan struct{}, 1), driver: make(chan struct{}, 1),
		chats: map[int64]*queue{}, idle: idle, changed: map[int64]bool{}}
}

// Hold makes every call wait until t. A restarted bot cannot know the calls its predecessor made
// in the last second, per chat and overall, so it waits out those windows once.
func (o *Outbox) Hold(d time.Duration) {
	o.mu.Lock()
	o.hold = o.now().Add(o.scaled(d))
	o.mu.Unlock()
	o.poke()
}

// Restore gives a group's window the calls an earlier process made (their end times), so a
// restarted bot keeps Telegram's per-group limit across the restart.
func (o *Outbox) Restore(chat int64, ends []time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	q := o.queueLocked(chat)
	q.group.times = append(q.group.times, ends...)
	slices.SortFunc(q.group.times, func(a, b time.Time) int { return a.Compare(b) })
}

// TakeWindows returns the recent call end times of every group whose window changed since the
// last call (the bot stores them, for Restore after a restart), and since when they changed.
func (o *Outbox) TakeWindows() (map[int64][]time.Time, time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.changed) == 0 {
		return nil, time.Time{}
	}
	now, minute := o.now(), o.scaled(time.Minute)
	out := make(map[int64][]time.Time, len(o.changed))
	for chat := range o.changed {
		var ends []time.Time
		if q := o.chats[chat]; q != nil {
			q.group.count(now, minute)
			ends = slices.Clone(q.group.times)
		}
		out[chat] = ends
	}
	clear(o.changed)
	return out, o.changedSince
}

// Untaken puts back windows a failed write did not store.
func (o *Outbox) Untaken(chats map[int64][]time.Time, since time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.changed) == 0 || since.Before(o.changedSince) {
		o.changedSince = since
	}
	for chat := range chats {
		o.changed[chat] = true
	}
}

// WindowsLag reports whether a group's window changed before cut and was not taken since.
func (o *Outbox) WindowsLag(cut time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.changed) > 0 && !o.changedSince.After(cut)
}

// Submit queues j. It never blocks on the network: jobs of one chat run in submission order.
// A job without Call succeeds at once.
func (o *Outbox) Submit(j Job) {
	if j.Call == nil {
		if j.Done != nil {
			j.Done(nil)
		}
		return
	}
	var replaced *entry
	o.mu.Lock()
	q := o.queueLocked(j.Chat)
	if j.Coalesce != "" {
		if i := slices.IndexFunc(q.jobs, func(e *entry) bool { return e.job.Coalesce == j.Coalesce }); i >= 0 {
			replaced = q.jobs[i]
			q.jobs = slices.Delete(q.jobs, i, i+1)
			// The newer content goes when the older would have: a steady stream of
			// replacements must not hold a job back for ever.
			if !j.NotBefore.IsZero() && replaced.job.NotBefore.Before(j.NotBefore) {
				j.NotBefore = replaced.job.NotBefore
			}
		}
	}
	o.seq++
	q.jobs = append(q.jobs, &entry{job: j, seq: o.seq})
	o.scheduleLocked(q, o.now())
	if o.pending == 0 {
		o.idle = make(chan struct{})
	}
	o.pending++
	o.mu.Unlock()
	o.poke()
	if replaced != nil {
		o.finish(replaced, nil)
	}
}

// finish reports a job's outcome and counts it out of pending; Flush returns once none is left.
func (o *Outbox) finish(e *entry, err error) {
	if e.job.Done != nil {
		e.job.Done(err)
	}
	o.mu.Lock()
	o.pending--
	if o.pending == 0 {
		close(o.idle)
	}
	o.mu.Unlock()
}

func (o *Outbox) poke() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Run sends queued jobs until ctx is done, then returns; calls in flight finish in the
// background (see Flush).
func (o *Outbox) Run(ctx context.Context) {
	select {
	case o.driver <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-o.driver }()
	o.loop(ctx, false)
}

// Flush waits until nothing is pending or running (Done callbacks included). If Run is not
// running, Flush sends the pending jobs itself. It returns ctx's error if ctx ends first.
func (o *Outbox) Flush(ctx context.Context) error {
	for {
		o.mu.Lock()
		idle := o.idle
		o.mu.Unlock()
		select {
		case <-idle:
			return nil
		case o.driver <- struct{}{}:
			o.loop(ctx, true)
			<-o.driver
			if err := ctx.Err(); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Pending is the number of jobs submitted and not finished yet.
func (o *Outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pending
}

// loop dispatches jobs until ctx is done (or, with untilIdle, nothing is pending).
func (o *Outbox) loop(ctx context.Context, untilIdle bool) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	callCtx := context.WithoutCancel(ctx)
	for {
		o.mu.Lock()
		if untilIdle && o.pending == 0 {
			o.mu.Unlock()
			return
		}
		now := o.now()
		started, wakeAt := o.dispatchLocked(now)
		o.mu.Unlock()
		for _, w := range started {
			go o.attempt(callCtx, w.q, w.e)
		}
		var tick <-chan time.Time
		if !wakeAt.IsZero() {
			timer.Reset(max(wakeAt.Sub(now), 0))
			tick = timer.C
		}
		select {
		case <-ctx.Done():
			return
		case <-o.wake:
		case <-tick:
		}
	}
}

type work struct {
	q *queue
	e *entry
}

func (o *Outbox) scaled(d time.Duration) time.Duration { return time.Duration(float64(d) / o.l.Scale) }

// queueLocked is chat's queue, made on first use.
func (o *Outbox) queueLocked(chat int64) *queue {
	q := o.chats[chat]
	if q == nil {
		q = &queue{chat: chat, slot: -1}
		o.chats[chat] = q
	}
	return q
}

// readyLocked is the earliest time q's next call may start: after the chat's gap, its earliest
// job's NotBefore and, for a group with a full window, the moment its oldest call leaves it.
func (o *Outbox) readyLocked(q *queue, now time.Time) time.Time {
	at := q.next
	first := q.jobs[0].job.NotBefore
	for _, e := range q.jobs[1:] {
		if e.job.NotBefore.Before(first) {
			first = e.job.NotBefore
		}
	}
	at = later(at, first)
	if minute := o.scaled(time.Minute); q.chat < 0 && q.group.count(now, minute) >= o.l.GroupPerMinute {
		at = later(at, q.group.times[0].Add(minute))
	}
	return at
}

// scheduleLocked puts q among the waiting queues after its jobs changed (or moves it up when a new
// job may start sooner). A queue with a call running is scheduled when the call ends.
func (o *Outbox) scheduleLocked(q *queue, now time.Time) {
	if q.running || len(q.jobs) == 0 {
		return
	}
	at := o.readyLocked(q, now)
	switch {
	case q.slot < 0:
		q.at = at
		heap.Push(&o.waiting, q)
	default: // its oldest job may have been replaced, too
		if at.Before(q.at) {
			q.at = at
		}
		heap.Fix(&o.waiting, q.slot)
	}
}

// dispatchLocked starts every job whose chat and the global window allow it now, the queues that
// became ready first going first, and returns them with the time to look again (zero: only when
// woken). A group's window counts its call in flight and the calls that ended within it, so
// Telegram, which counts arrivals, never sees more; the global window counts the calls started
// within it (widened a little for the network's jitter): a rate, not a cap on the calls in flight.
// It looks only at the queues that may start now, so its cost does not grow with the chats.
func (o *Outbox) dispatchLocked(now time.Time) ([]work, time.Time) {
	o.sweepLocked(now)
	if now.Before(o.hold) {
		return nil, o.hold
	}
	second := o.scaled(time.Second)
	busy := o.global.count(now, second+second/10)
	var started []work
	for len(o.waiting) > 0 {
		q := o.waiting[0]
		if q.at.After(now) {
			return started, q.at
		}
		if busy >= o.l.GlobalPerSecond {
			return started, o.global.times[0].Add(second + second/10)
		}
		heap.Pop(&o.waiting)
		if at := o.readyLocked(q, now); at.After(now) { // q.at was a lower bound
			q.at = at
			heap.Push(&o.waiting, q)
			continue
		}
		i := slices.IndexFunc(q.jobs, func(e *entry) bool { return !now.Before(e.job.NotBefore) })
		e := q.jobs[i]
		q.jobs = slices.Delete(q.jobs, i, i+1)
		q.running = true
		busy++
		o.global.add(now)
		started = append(started, work{q, e})
	}
	return started, time.Time{}
}

// sweepLocked forgets, about once a second, the chats with nothing left to remember: no job, no
// call running, no gap to keep and an empty group window.
func (o *Outbox) sweepLocked(now time.Time) {
	if now.Sub(o.swept) < time.Second {
		return
	}
	o.swept = now
	minute := o.scaled(time.Minute)
	for id, q := range o.chats {
		if !q.running && len(q.jobs) == 0 && !now.Before(q.next) && q.group.count(now, minute) == 0 {
			delete(o.chats, id)
		}
	}
}

// waitHeap orders the waiting queues by the time they may start, then by their oldest job.
type waitHeap []*queue

func (h waitHeap) Len() int { return len(h) }
func (h waitHeap) Less(i, j int) bool {
	if c := h[i].at.Compare(h[j].at); c != 0 {
		return c < 0
	}
	return h[i].jobs[0].seq < h[j].jobs[0].seq
}
func (h waitHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].slot, h[j].slot = i, j
}
func (h *waitHeap) Push(x any) {
	q := x.(*queue)
	q.slot = len(*h)
	*h = append(*h, q)
}
func (h *waitHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	q.slot = -1
	return q
}

// attempt makes one call and settles its outcome.
func (o *Outbox) attempt(ctx context.Context, q *queue, e *entry) {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	err := e.job.Call(cctx)
	cancel()
	kind, retryAfter := classify(err)

	o.mu.Lock()
	end := o.now() // under the lock, so the windows stay sorted
	q.running = false
	if q.chat < 0 {
		q.group.add(end)
		if len(o.changed) == 0 {
			o.changedSince = end
		}
		o.changed[q.chat] = true
	}
	q.next = end.Add(o.scaled(o.l.PerChat))
	final := true
	switch kind {
	case outcomeOK:
		err = nil
	case outcomeLimited:
		e.limited++
		if e.limited <= max429 {
			final = false
			q.next = later(q.next, end.Add(time.Duration(retryAfter)*time.Second))
		}
	case outcomeRetry:
		e.fails++
		if e.fails < maxTries {
			final = false
			q.next = later(q.next, end.Add(o.scaled(backoff(e.fails))))
		}
	}
	superseded := false
	if !final {
		if e.job.Coalesce != "" && slices.ContainsFunc(q.jobs, func(n *entry) bool { return n.job.Coalesce == e.job.Coalesce }) {
			final, superseded, err = true, true, nil // a newer version is queued: it replaces this retry
		} else {
			q.jobs = slices.Insert(q.jobs, 0, e)
		}
	}
	o.scheduleLocked(q, end)
	fails, limited := e.fails, e.limited // e may be retried (and changed) once the lock is released
	o.mu.Unlock()

	if kind != outcomeOK && !superseded {
		ev := o.log.Debug()
		msg := "outbox: call failed, retrying"
		if final {
			msg = "outbox: call failed"
			if kind != outcomeFinal {
				ev, msg = o.log.Warn(), "outbox: call failed, giving up"
			}
		}
		ev.Int64("chat", q.chat).Str("coalesce", e.job.Coalesce).Str("kind", kind.String()).
			Int("fails", fails).Int("limited", limited).Err(err).Msg(msg)
	}

	if final {
		o.finish(e, err)
	}
	o.poke()
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func backoff(fails int) time.Duration {
	d := backoffBase << (fails - 1)
	if fails > 20 || d > backoffCap {
		return backoffCap
	}
	return d
}

type outcome int

const (
	outcomeOK      outcome = iota // success, or "message is not modified"
	outcomeLimited                // 429: wait retry_after and retry
	outcomeRetry                  // 5xx, network, timeout: back off and retry
	outcomeFinal                  // any other 4xx: give up at once
)

func (k outcome) String() string {
	return [...]string{"ok", "429", "transient", "final"}[k]
}

// responseCode finds the status go-telegram puts in errors for codes it has no sentinel for.
var responseCode = regexp.MustCompile(`error response from telegram for method \S+, (\d{3}) `)

// classify sorts a call's error into an outcome; for 429 it also returns retry_after (≥ 1 s).
func classify(err error) (outcome, int) {
	if err == nil {
		return outcomeOK, 0
	}
	var tooMany *tg.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return outcomeLimited, max(tooMany.RetryAfter, 1)
	}
	msg := err.Error()
	if strings.Contains(msg, "message is not modified") {
		return outcomeOK, 0
	}
	var migrate *tg.MigrateError
	if errors.As(err, &migrate) || errors.Is(err, tg.ErrorBadRequest) || errors.Is(err, tg.ErrorForbidden) ||
		errors.Is(err, tg.ErrorUnauthorized) || errors.Is(err, tg.ErrorNotFound) || errors.Is(err, tg.ErrorConflict) {
		return outcomeFinal, 0
	}
	if m := responseCode.FindStringSubmatch(msg); m != nil {
		if code, _ := strconv.Atoi(m[1]); code >= 400 && code < 500 {
			return outcomeFinal, 0
		}
	}
	return outcomeRetry, 0
}

// window holds the end times of recent calls, oldest first.
type window struct{ times []time.Time }

// count forgets calls that ended at or before now-span and returns how many remain.
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

func (w *window) add(t time.Time) { w.times = append(w.times, t) }
