package store

import (
	"context"
	"errors"
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// ErrClosed is returned by a Batch made after Close.
var ErrClosed = errors.New("store: closed")

// committer is the group commit behind Batch. A call made while no commit is under way is
// committed at once, on its own; calls made during a commit wait for it and then share the next
// one, so under load many presses cost one fsync and an idle bot adds no delay (bbolt's own Batch
// waits a fixed time for company on every call).
//
// The calls of one commit run one after the other in one transaction. A call that fails having
// written nothing (a refused press, a repeated update) leaves the transaction as it was and only
// its caller sees the error; one that fails after writing rolls the transaction back, and the
// others run again in the next one, which is why a Batch fn may run more than once.
type committer struct {
	s    *BoltStore
	mu   sync.Mutex
	wait []*batchCall // calls waiting for the next commit
	wake chan struct{}
	quit chan struct{}
	done chan struct{}
}

// batchCall is one Batch call: its fn, and where its outcome goes.
type batchCall struct {
	fn     func(Tx) error
	result chan batchResult
}

type batchResult struct {
	err      error
	panicked any // fn panicked: the caller panics again with it
}

func newCommitter(s *BoltStore) *committer {
	c := &committer{s: s, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.loop()
	return c
}

// do queues fn for the next commit and waits for its outcome.
func (c *committer) do(fn func(Tx) error) error {
	call := &batchCall{fn: fn, result: make(chan batchResult, 1)}
	c.mu.Lock()
	select {
	case <-c.quit:
		c.mu.Unlock()
		return ErrClosed
	default:
	}
	c.wait = append(c.wait, call)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	r := <-call.result
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.err
}

// loop commits the waiting calls until close, then the ones still waiting.
func (c *committer) loop() {
	defer close(c.done)
	for {
		select {
		case <-c.wake:
		case <-c.quit:
			c.commitWaiting()
			return
		}
		c.commitWaiting()
	}
}

// commitWaiting commits everything queued, batch after batch, until nothing waits.
func (c *committer) commitWaiting() {
	for {
		c.mu.Lock()
		calls := c.wait
		c.wait = nil
		c.mu.Unlock()
		if len(calls) == 0 {
			return
		}
		c.commit(calls)
	}
}

// commit runs calls in one transaction, dropping the ones that poison it (see committer).
func (c *committer) commit(calls []*batchCall) {
	for len(calls) > 0 {
		results := make([]batchResult, len(calls))
		poisoned := -1
		var put int64
		err := c.s.db.Update(func(tx *bolt.Tx) error {
			for i, call := range calls {
				t := &boltTx{tx: tx, s: c.s}
				results[i] = callSafely(call.fn, t)
				if results[i].err == nil && results[i].panicked == nil {
					put += t.put
					continue
				}
				if t.wrote || results[i].panicked != nil {
					poisoned = i
					return errPoisoned
				}
			}
			return nil
		})
		if poisoned >= 0 {
			// The poisoning call and those refused before it are done; the ones that
			// succeeded lost their writes with the rollback and run again.
			var again []*batchCall
			for i, call := range calls[:poisoned+1] {
				if i == poisoned || results[i].err != nil {
					call.result <- results[i]
				} else {
					again = append(again, call)
				}
			}
			calls = append(again, calls[poisoned+1:]...)
			continue
		}
		if err == nil {
			c.s.commits.Add(1)
			c.s.put.Add(put)
		}
		for i, call := range calls {
			if err != nil {
				results[i] = batchResult{err: fmt.Errorf("store: batch commit: %w", err)}
			}
			call.result <- results[i]
		}
		return
	}
}

// errPoisoned rolls back a transaction one of whose calls failed after writing.
var errPoisoned = errors.New("store: a batched call failed after writing")

// callSafely calls fn, turning a panic into a result its caller re-raises.
func callSafely(fn func(Tx) error, t *boltTx) (r batchResult) {
	defer func() {
		if p := recover(); p != nil {
			r = batchResult{panicked: p}
		}
	}()
	return batchResult{err: fn(t)}
}

// close commits what is queued and stops the loop; later calls get ErrClosed.
func (c *committer) close() {
	c.mu.Lock()
	select {
	case <-c.quit:
	default:
		close(c.quit)
	}
	c.mu.Unlock()
	<-c.done
}

// Batch runs fn in a write transaction it may share with concurrent callers (one commit, one
// fsync for all); fn may run more than once, so it must compute its result afresh on every run.
// A call made while no commit is under way commits at once.
func (s *BoltStore) Batch(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: batch: %w", err)
	}
	return s.group.do(fn)
}
