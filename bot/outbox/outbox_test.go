package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/rs/zerolog"
)

// call is one recorded attempt.
type call struct {
	chat       int64
	name       string
	start, end time.Time
}

// recorder makes fake Calls and remembers when each ran.
type recorder struct {
	mu       sync.Mutex
	calls    []call
	inflight map[int64]int
	overlap  bool // two calls of one chat ran at once
}

func newRecorder() *recorder { return &recorder{inflight: map[int64]int{}} }

// job returns a Job whose Call records itself and returns the next of errs (then nil).
func (r *recorder) job(chat int64, name string, errs ...error) Job {
	n := 0
	return Job{Chat: chat, Call: func(ctx context.Context) error {
		r.mu.Lock()
		c := call{chat: chat, name: name, start: time.Now()}
		r.inflight[chat]++
		if r.inflight[chat] > 1 {
			r.overlap = true
		}
		r.mu.Unlock()
		var err error
		if n < len(errs) {
			err = errs[n]
		}
		n++
		r.mu.Lock()
		r.inflight[chat]--
		c.end = time.Now()
		r.calls = append(r.calls, c)
		r.mu.Unlock()
		return err
	}}
}

func (r *recorder) snapshot() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	cs := slices.Clone(r.calls)
	slices.SortFunc(cs, func(a, b call) int { return a.start.Compare(b.start) })
	return cs
}

func (r *recorder) names(chat int64) []string {
	var out []string
	for _, c := range r.snapshot() {
		if c.chat == chat {
			out = append(out, c.name)
		}
	}
	return out
}

// checkLimits verifies that no window was ever exceeded. Within a chat, calls are sequential, so
// a call starts only once the call `limit` places before it ended at least `window` earlier.
// Overall, calls overlap, so any limit+1 consecutive starts span at least `window` (what a
// server counting arrivals sees).
func checkLimits(t *testing.T, calls []call, l Limits) {
	t.Helper()
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) / l.Scale) }
	check := func(what string, cs []call, limit int, window time.Duration, fromEnd bool) {
		for k := limit; k < len(cs); k++ {
			from := cs[k-limit].start
			if fromEnd {
				from = cs[k-limit].end
			}
			if gap := cs[k].start.Sub(from); gap < window {
				t.Errorf("%s: call %d started %v after call %d, want ≥ %v", what, k, gap, k-limit, window)
				return
			}
		}
	}
	check("global", calls, l.GlobalPerSecond, scale(time.Second), false)
	byChat := map[int64][]call{}
	for _, c := range calls {
		byChat[c.chat] = append(byChat[c.chat], c)
	}
	for chat, cs := range byChat {
		check(fmt.Sprintf("chat %d", chat), cs, 1, scale(l.PerChat), true)
		if chat < 0 {
			check(fmt.Sprintf("group %d", chat), cs, l.GroupPerMinute, scale(time.Minute), true)
		}
	}
}

// run starts o.Run and returns a function that flushes (with a deadline) and stops it.
func run(t *testing.T, o *Outbox) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		fctx, fcancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer fcancel()
		if err := o.Flush(fctx); err != nil {
			t.Errorf("Flush: %v", err)
		}
		cancel()
		<-done
	}
	t.Cleanup(stop)
	return stop
}

// syncBuffer is a log sink for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func scaled(s float64) Limits { l := DefaultLimits(); l.Scale = s; return l }

func TestOrderPerChat(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	stop := run(t, o)
	chats := []int64{-1, -2, 3, 4}
	for i := range 20 {
		for _, c := range chats {
			o.Submit(r.job(c, fmt.Sprint(i)))
		}
	}
	stop()
	for _, c := range chats {
		var want []string
		for i := range 20 {
			want = append(want, fmt.Sprint(i))
		}
		if got := r.names(c); !slices.Equal(got, want) {
			t.Errorf("chat %d ran %v, want %v", c, got, want)
		}
	}
	if r.overlap {
		t.Error("two calls of one chat ran at the same time")
	}
	checkLimits(t, r.snapshot(), scaled(1000))
}

func TestCoalesce(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	gate := make(chan struct{})
	started := make(chan struct{})
	o.Submit(Job{Chat: -5, Call: func(context.Context) error { close(started); <-gate; return nil }})
	stop := run(t, o)
	<-started // the chat is busy: everything below stays pending
	var doneMu sync.Mutex
	dones := map[string]error{}
	add := func(name, key string) {
		j := r.job(-5, name)
		j.Coalesce = key
		j.Done = func(err error) { doneMu.Lock(); dones[name] = err; doneMu.Unlock() }
		o.Submit(j)
	}
	add("edit table v1", "edit:1")
	add("send deal result", "")
	add("edit hand v1", "edit:2")
	add("edit table v2", "edit:1")
	add("edit table v3", "edit:1")
	close(gate)
	stop()
	want := []string{"send deal result", "edit hand v1", "edit table v3"}
	if got := r.names(-5); !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if len(dones) != 5 {
		t.Fatalf("Done called for %v, want all 5", dones)
	}
	for name, err := range dones {
		if err != nil {
			t.Errorf("Done(%s) = %v, want nil", name, err)
		}
	}
}

func TestLimits(t *testing.T) {
	type sub struct {
		chat int64
		n    int
	}
	tests := []struct {
		name  string
		scale float64
		jobs  []sub
		min   time.Duration // the limits force at least this much time
	}{
		{"one chat: one per PerChat", 100, []sub{{7, 6}}, 5 * 10 * time.Millisecond},
		{"group: 20 per minute", 100, []sub{{-7, 25}}, 600 * time.Millisecond},
		{"two groups are independent", 100, []sub{{-7, 21}, {-8, 21}}, 600 * time.Millisecond},
		{"overall: 30 per second", 20, []sub{{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}, {9, 2}, {10, 2},
			{11, 2}, {12, 2}, {13, 2}, {14, 2}, {15, 2}, {16, 2}, {17, 2}, {18, 2}, {19, 2}, {20, 2}, {-21, 2}}, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder()
			l := scaled(tt.scale)
			o := New(l, zerolog.Nop())
			begin := time.Now()
			stop := run(t, o)
			total := 0
			for i := 0; ; i++ {
				more := false
				for _, s := range tt.jobs {
					if i < s.n {
						o.Submit(r.job(s.chat, fmt.Sprint(i)))
						total++
						more = true
					}
				}
				if !more {
					break
				}
			}
			stop()
			calls := r.snapshot()
			if len(calls) != total {
				t.Fatalf("%d calls, want %d", len(calls), total)
			}
			checkLimits(t, calls, l)
			if took := time.Since(begin); took < tt.min {
				t.Errorf("took %v, the limits need at least %v", took, tt.min)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	r := newRecorder()
	o := New(scaled(10), zerolog.Nop())
	var got error = errors.New("Done not called")
	j := r.job(-9, "send", &tg.TooManyRequestsError{Message: "too many requests, Too Many Requests: retry after 3", RetryAfter: 3})
	j.Done = func(err error) { got = err }
	o.Submit(j)
	o.Submit(r.job(-9, "after"))
	o.Submit(r.job(5, "other chat"))
	run(t, o)()
	if got != nil {
		t.Fatalf("Done = %v, want nil", got)
	}
	calls := r.snapshot()
	var first, retry, other call
	for _, c := range calls {
		switch {
		case c.name == "send" && first.name == "":
			first = c
		case c.name == "send":
			retry = c
		case c.name == "other chat":
			other = c
		}
	}
	if pause := retry.start.Sub(first.end); pause < 300*time.Millisecond {
		t.Errorf("retried %v after the 429, want ≥ retry_after 3 s / 10", pause)
	}
	if !other.start.Before(retry.start) {
		t.Error("a 429 in one chat held up another chat")
	}
	if names := r.names(-9); !slices.Equal(names, []string{"send", "send", "after"}) {
		t.Errorf("chat -9 ran %v", names)
	}
}

func TestBackoff(t *testing.T) {
	bad := errors.New("error response from telegram for method sendMessage, 502 Bad Gateway")
	netErr := errors.New(`error do request for method sendMessage, Post "http://x/bot***/sendMessage": connection refused`)
	tests := []struct {
		name  string
		errs  []error
		calls int
		final bool // Done gets an error
	}{
		{"recovers after three 5xx", []error{bad, bad, netErr}, 4, false},
		{"gives up after maxTries", slices.Repeat([]error{bad}, 100), maxTries, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs syncBuffer
			r := newRecorder()
			o := New(scaled(100), zerolog.New(&logs))
			var got error = errors.New("Done not called")
			j := r.job(11, "send", tt.errs...)
			j.Done = func(err error) { got = err }
			o.Submit(j)
			run(t, o)()
			calls := r.snapshot()
			if len(calls) != tt.calls || (got != nil) != tt.final {
				t.Fatalf("%d calls, Done(%v); want %d calls, error %v", len(calls), got, tt.calls, tt.final)
			}
			for k := 1; k < len(calls); k++ {
				want := time.Duration(float64(backoff(k)) / 100)
				if gap := calls[k].start.Sub(calls[k-1].end); gap < want {
					t.Errorf("attempt %d came %v after the failure, want ≥ %v", k+1, gap, want)
				}
			}
			if tt.final && !strings.Contains(logs.String(), "giving up") {
				t.Errorf("no warning logged: %s", logs.String())
			}
			if strings.Contains(logs.String(), "AAFake") {
				t.Error("token in the log")
			}
		})
	}
}

func TestOutcomes(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		calls int
		done  bool // Done gets nil
	}{
		{"success", nil, 1, true},
		{"not modified is success", fmt.Errorf("%w, %s", tg.ErrorBadRequest, "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"), 1, true},
		{"403 is final", fmt.Errorf("%w, %s", tg.ErrorForbidden, "Forbidden: bot can't initiate conversation with a user"), 1, false},
		{"400 is final", fmt.Errorf("%w, %s", tg.ErrorBadRequest, "Bad Request: message to edit not found"), 1, false},
		{"migration is final", &tg.MigrateError{Message: "bad request: Bad Request: group chat was upgraded to a supergroup chat", MigrateToChatID: -100123}, 1, false},
		{"other 4xx is final", errors.New("error response from telegram for method sendMessage, 413 Request Entity Too Large"), 1, false},
		{"500 is retried", errors.New("error response from telegram for method sendMessage, 500 Internal Server Error"), 2, true},
		{"undecodable body is retried", errors.New("error decode response body for method sendMessage, <html>, invalid character '<'"), 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder()
			o := New(scaled(1000), zerolog.Nop())
			var got error = errors.New("Done not called")
			j := r.job(-3, "x", tt.err)
			j.Done = func(err error) { got = err }
			o.Submit(j)
			run(t, o)()
			if n := len(r.snapshot()); n != tt.calls || (got == nil) != tt.done {
				t.Fatalf("%d calls, Done(%v); want %d calls, success %v", n, got, tt.calls, tt.done)
			}
			var migrate *tg.MigrateError
			if errors.As(tt.err, &migrate) && !errors.As(got, &migrate) {
				t.Errorf("Done(%v) lost the MigrateError", got)
			}
		})
	}
}

func TestFlushDrivesWithoutRun(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	for i := range 5 {
		o.Submit(r.job(-1, fmt.Sprint(i)))
	}
	if n := len(r.snapshot()); n != 0 {
		t.Fatalf("%d calls before Run or Flush", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := o.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n, p := len(r.snapshot()), o.Pending(); n != 5 || p != 0 {
		t.Fatalf("%d calls, %d pending after Flush", n, p)
	}
	// A Flush that cannot finish in time says so.
	o.Submit(Job{Chat: 1, Call: func(context.Context) error { return errors.New("502") }})
	short, cancel2 := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel2()
	if err := New(DefaultLimits(), zerolog.Nop()).Flush(short); err != nil {
		t.Fatalf("Flush of an empty outbox: %v", err)
	}
	if err := o.Flush(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Flush = %v, want deadline exceeded", err)
	}
}

func TestRunStopsThenFlushFinishes(t *testing.T) {
	r := newRecorder()
	o := New(scaled(100), zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	for i := range 10 {
		o.Submit(r.job(-1, fmt.Sprint(i))) // 10 ms apart: Run is stopped before all are sent
	}
	cancel()
	<-done
	fctx, fcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer fcancel()
	if err := o.Flush(fctx); err != nil {
		t.Fatal(err)
	}
	if got := r.names(-1); len(got) != 10 {
		t.Fatalf("ran %v, want all 10", got)
	}
	checkLimits(t, r.snapshot(), scaled(100))
}

func TestSubmitDoesNotBlock(t *testing.T) {
	o := New(DefaultLimits(), zerolog.Nop()) // not running: nothing is sent
	begin := time.Now()
	for i := range 10000 {
		o.Submit(Job{Chat: int64(i % 100), Coalesce: fmt.Sprint(i % 7), Call: func(context.Context) error { return nil }})
	}
	if took := time.Since(begin); took > 5*time.Second {
		t.Fatalf("10000 Submits took %v", took)
	}
	if p := o.Pending(); p != 700 { // 7 keys in each of 100 chats
		t.Fatalf("pending = %d, want 700 after coalescing", p)
	}
}

func BenchmarkSubmit(b *testing.B) {
	o := New(scaled(1e9), zerolog.Nop())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { o.Run(ctx); close(done) }()
	noop := func(context.Context) error { return nil }
	i := 0
	for b.Loop() {
		j := Job{Chat: int64(i%64 - 32), Call: noop}
		if i%2 == 0 {
			j.Coalesce = "edit"
		}
		o.Submit(j)
		i++
	}
	b.StopTimer()
	if err := o.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	cancel()
	<-done
}

// TestNotBefore: a held job waits for its time while the chat's later jobs go ahead; a
// replacement keeps the earlier time, so a stream of replacements cannot hold it back for ever.
func TestNotBefore(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	stop := run(t, o)
	held := r.job(7, "held edit")
	held.Coalesce, held.NotBefore = "hand", time.Now().Add(200*time.Millisecond)
	o.Submit(held)
	o.Submit(r.job(7, "post"))
	again := r.job(7, "newer edit")
	again.Coalesce, again.NotBefore = "hand", time.Now().Add(time.Hour)
	time.Sleep(20 * time.Millisecond)
	o.Submit(again)
	stop()
	calls := r.snapshot()
	if got := r.names(7); !slices.Equal(got, []string{"post", "newer edit"}) {
		t.Fatalf("ran %v, want the post first, then the replacement", got)
	}
	if d := calls[1].start.Sub(calls[0].start); d < 150*time.Millisecond || d > 5*time.Second {
		t.Errorf("the replacement ran %v after the post; want it at the first job's time, about 200 ms", d)
	}
}

// TestFlushAfterReplace: a Flush waiting on one job returns once its replacement is sent, with no
// wait for its deadline.
func TestFlushAfterReplace(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	first := r.job(-3, "v1")
	first.Coalesce = "table"
	o.Submit(first)
	flushed := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() { flushed <- o.Flush(ctx) }()
	second := r.job(-3, "v2")
	second.Coalesce = "table"
	o.Submit(second)
	select {
	case err := <-flushed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Flush did not return after the replacement was sent")
	}
	if o.Pending() != 0 {
		t.Errorf("%d pending after Flush", o.Pending())
	}
}

// TestHeldChatsDoNotDelayOthers: many chats whose jobs wait for their NotBefore do not hold back
// a chat whose job may go now, and no held job goes before its time.
func TestHeldChatsDoNotDelayOthers(t *testing.T) {
	r := newRecorder()
	o := New(scaled(1000), zerolog.Nop())
	stop := run(t, o)
	now := time.Now()
	for i := range 200 {
		j := r.job(int64(-100-i), fmt.Sprint("held", i))
		j.Coalesce, j.NotBefore = "table", now.Add(time.Duration(300-i)*time.Millisecond)
		o.Submit(j)
	}
	o.Submit(r.job(5, "now"))
	stop()
	calls := r.snapshot()
	if len(calls) != 201 || calls[0].name != "now" {
		t.Fatalf("%d calls, first %q; want 201, the unheld job first", len(calls), calls[0].name)
	}
	if d := calls[0].start.Sub(now); d > 150*time.Millisecond {
		t.Errorf("the unheld job started after %v, want at once", d)
	}
	for _, c := range calls[1:] {
		var i int
		fmt.Sscanf(c.name, "held%d", &i)
		if d := c.start.Sub(now); d < time.Duration(300-i)*time.Millisecond {
			t.Errorf("%s started %v after submit, before its NotBefore", c.name, d)
		}
	}
}

// BenchmarkDispatchManyChats is the outbox's cost per job with many chats known to it (recent
// group windows, held jobs): a dispatch looks only at the queues that may start, so ns/op stays
// flat as chats grows.
func BenchmarkDispatchManyChats(b *testing.B) {
	for _, chats := range []int{10, 1000} {
		b.Run(fmt.Sprint("chats=", chats), func(b *testing.B) {
			o := New(scaled(1e9), zerolog.Nop())
			noop := func(context.Context) error { return nil }
			for i := range chats {
				o.Restore(int64(-1-i), []time.Time{time.Now()})
				o.Submit(Job{Chat: int64(-1 - i), Coalesce: "table", Call: noop, NotBefore: time.Now().Add(time.Hour)})
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { o.Run(ctx); close(done) }()
			i := 0
			for b.Loop() {
				o.Submit(Job{Chat: int64(i%8 + 1), Call: noop})
				i++
			}
			b.StopTimer()
			cancel()
			<-done
		})
	}
}
