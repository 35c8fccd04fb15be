// Package schedule wakes keys up at their due times with one goroutine and one timer.
package schedule

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// Timers calls fire for each key when its due time comes. One goroutine and one timer, set to the
// earliest due time of a heap, however many keys wait: the bot's tables wake up for an agent's
// move or a turn deadline without a goroutine or a timer each.
type Timers[K comparable] struct {
	mu   sync.Mutex
	due  map[K]time.Time
	heap dueHeap[K]
	wake chan struct{}
	fire func(id K)
}

// New returns Timers that call fire (from Run's goroutine) for each key that falls due.
func New[K comparable](fire func(K)) *Timers[K] {
	return &Timers[K]{due: map[K]time.Time{}, wake: make(chan struct{}, 1), fire: fire}
}

// Set makes id due at at, replacing its earlier due time; the zero time removes it.
func (s *Timers[K]) Set(id K, at time.Time) {
	s.mu.Lock()
	if at.IsZero() {
		delete(s.due, id)
	} else if cur, ok := s.due[id]; !ok || !cur.Equal(at) {
		s.due[id] = at
		heap.Push(&s.heap, dueAt[K]{id, at})
	}
	if len(s.heap) > 2*len(s.due)+64 {
		// Replaced and removed times wait in the heap until they come up; when they are most of
		// it, rebuild it from the due times, so its size follows the keys, not the calls.
		s.heap = s.heap[:0]
		for id, at := range s.due {
			s.heap = append(s.heap, dueAt[K]{id, at})
		}
		heap.Init(&s.heap)
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run fires due keys until ctx is done.
func (s *Timers[K]) Run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		var fire []K
		wait := time.Hour
		s.mu.Lock()
		for s.heap.Len() > 0 {
			top := s.heap[0]
			if at, ok := s.due[top.id]; !ok || !at.Equal(top.at) {
				heap.Pop(&s.heap) // replaced or removed since it was pushed
				continue
			}
			if top.at.After(now) {
				wait = top.at.Sub(now)
				break
			}
			heap.Pop(&s.heap)
			delete(s.due, top.id)
			fire = append(fire, top.id)
		}
		s.mu.Unlock()
		for _, id := range fire {
			s.fire(id)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-timer.C:
		}
	}
}

type dueAt[K comparable] struct {
	id K
	at time.Time
}

// dueHeap orders due times, earliest first (container/heap).
type dueHeap[K comparable] []dueAt[K]

func (h dueHeap[K]) Len() int           { return len(h) }
func (h dueHeap[K]) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h dueHeap[K]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *dueHeap[K]) Push(x any)        { *h = append(*h, x.(dueAt[K])) }
func (h *dueHeap[K]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
