package bot

import (
	"context"
	"sync"

	"github.com/rs/zerolog"
)

// serializer runs functions one at a time per key (a table's chat id), in submission order, and
// different keys in parallel. It is the "one writer per table" of design §4: go-telegram/bot would
// otherwise run two presses on one table at once and out of order.
type serializer struct {
	log    zerolog.Logger
	mu     sync.Mutex
	queues map[int64][]func()
	wg     sync.WaitGroup
}

func newSerializer(log zerolog.Logger) *serializer {
	return &serializer{log: log, queues: map[int64][]func(){}}
}

// Do queues fn behind the earlier work of key. It never blocks.
func (s *serializer) Do(key int64, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, running := s.queues[key]
	s.queues[key] = append(q, fn)
	if !running {
		s.wg.Add(1)
		go s.drain(key)
	}
}

func (s *serializer) drain(key int64) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		q := s.queues[key]
		if len(q) == 0 {
			delete(s.queues, key)
			s.mu.Unlock()
			return
		}
		fn := q[0]
		q[0] = nil
		s.queues[key] = q[1:]
		s.mu.Unlock()
		s.run(key, fn)
	}
}

// run shields the other tables from a bug in one: a panic (an engine's, say) is logged, not fatal.
func (s *serializer) run(key int64, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error().Int64("chat", key).Interface("panic", r).Msg("handler panicked")
		}
	}()
	fn()
}

// Wait returns when nothing is queued or running, or when ctx is done.
func (s *serializer) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// offsets tracks which updates are finished so the persisted offset is the highest update_id
// whose processing, and that of every update received before it, is complete.
type offsets struct {
	mu      sync.Mutex
	pending []int64        // received and not yet below the mark, in arrival order
	done    map[int64]bool // finished out of order
	mark    int64
	saved   int64 // the mark last persisted
	changed chan struct{}
}

func newOffsets(mark int64) *offsets {
	return &offsets{mark: mark, saved: mark, done: map[int64]bool{}, changed: make(chan struct{}, 1)}
}

// received notes an update handed to the serializer; updates arrive in update_id order.
func (o *offsets) received(id int64) {
	o.mu.Lock()
	o.pending = append(o.pending, id)
	o.mu.Unlock()
}

// finished notes that an update's work is over and advances the mark past every finished prefix.
func (o *offsets) finished(id int64) {
	o.mu.Lock()
	o.done[id] = true
	moved := false
	for len(o.pending) > 0 && o.done[o.pending[0]] {
		delete(o.done, o.pending[0])
		o.mark = o.pending[0]
		o.pending = o.pending[1:]
		moved = true
	}
	o.mu.Unlock()
	if moved {
		select {
		case o.changed <- struct{}{}:
		default:
		}
	}
}

// Mark is the offset to persist.
func (o *offsets) Mark() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.mark
}

// Saved is the mark last persisted.
func (o *offsets) Saved() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.saved
}

func (o *offsets) setSaved(mark int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if mark > o.saved {
		o.saved = mark
	}
}
