package schedule

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestFiresInOrder: keys fire once each, earliest first; a replaced time counts, not the first
// one; a removed key never fires.
func TestFiresInOrder(t *testing.T) {
	var mu sync.Mutex
	var fired []string
	done := make(chan struct{})
	s := New(func(k string) {
		mu.Lock()
		defer mu.Unlock()
		fired = append(fired, k)
		if len(fired) == 3 {
			close(done)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	now := time.Now()
	s.Set("c", now.Add(60*time.Millisecond))
	s.Set("a", now.Add(10*time.Millisecond))
	s.Set("b", now.Add(time.Hour))
	s.Set("b", now.Add(30*time.Millisecond)) // replaced: sooner
	s.Set("x", now.Add(20*time.Millisecond))
	s.Set("x", time.Time{}) // removed
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("timers did not fire")
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(fired, []string{"a", "b", "c"}) {
		t.Errorf("fired %v, want [a b c]", fired)
	}
}

// TestHeapStaysSmall: however often one key's time is replaced, the heap holds about as many
// entries as there are keys.
func TestHeapStaysSmall(t *testing.T) {
	s := New(func(int) {})
	now := time.Now()
	for i := range 100_000 {
		s.Set(i%10, now.Add(time.Duration(i)*time.Second))
	}
	if n := len(s.heap); n > 2*10+64+1 {
		t.Errorf("heap of %d entries for 10 keys", n)
	}
}
