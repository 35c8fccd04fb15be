package store

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// queueBehind runs a Batch whose fn blocks until release is closed, and waits until it runs, so
// the calls made meanwhile share the commit that follows it.
func queueBehind(t *testing.T, s *BoltStore) (release func(), wait func()) {
	t.Helper()
	running, gate := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Batch(context.Background(), func(tx Tx) error {
			select {
			case <-running:
			default:
				close(running)
			}
			<-gate
			return tx.MarkSeen(1)
		})
	}()
	<-running
	return func() { close(gate) }, func() {
		if err := <-done; err != nil {
			t.Errorf("the blocking call: %v", err)
		}
	}
}

// waiting is the number of Batch calls queued for the next commit.
func waiting(s *BoltStore) int {
	s.group.mu.Lock()
	defer s.group.mu.Unlock()
	return len(s.group.wait)
}

// TestBatchFailures: in one shared commit, a call refused before writing costs the others
// nothing (each runs once); a call that fails after writing leaves no trace and the others run
// again and commit; a panicking call panics in its caller only.
func TestBatchFailures(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	release, wait := queueBehind(t, s)
	refused := errors.New("refused")
	var runs [4]atomic.Int32
	calls := []func(tx Tx) error{
		func(tx Tx) error { runs[0].Add(1); return tx.MarkSeen(10) },
		func(tx Tx) error { runs[1].Add(1); return refused },
		func(tx Tx) error {
			runs[2].Add(1)
			if err := tx.MarkSeen(12); err != nil {
				return err
			}
			return refused
		},
		func(tx Tx) error { runs[3].Add(1); return tx.MarkSeen(13) },
	}
	errs := make([]error, len(calls)+1)
	var panicked atomic.Value
	var wg sync.WaitGroup
	for i, fn := range calls {
		wg.Go(func() { errs[i] = s.Batch(context.Background(), fn) })
	}
	wg.Go(func() {
		defer func() { panicked.Store(recover()) }()
		errs[len(calls)] = s.Batch(context.Background(), func(tx Tx) error {
			_ = tx.MarkSeen(14)
			panic("engine bug")
		})
	})
	for waiting(s) < len(calls)+1 {
		runtime.Gosched()
	}
	release()
	wait()
	wg.Wait()

	for i, want := range []error{nil, refused, refused, nil} {
		if !errors.Is(errs[i], want) {
			t.Errorf("call %d: %v, want %v", i, errs[i], want)
		}
	}
	if p := panicked.Load(); p != "engine bug" {
		t.Errorf("the panicking call's caller recovered %v", p)
	}
	if n := runs[1].Load(); n != 1 {
		t.Errorf("the call refused before writing ran %d times, want once", n)
	}
	if n := runs[2].Load(); n != 1 {
		t.Errorf("the call that failed after writing ran %d times, want once", n)
	}
	view(t, s, func(tx Tx) error {
		for id, want := range map[int64]bool{1: true, 10: true, 12: false, 13: true, 14: false} {
			if got, _ := tx.Seen(id); got != want {
				t.Errorf("update %d seen = %v, want %v", id, got, want)
			}
		}
		return nil
	})
}

// TestBatchIdleCommitsAtOnce: a lone call does not wait for company, and calls queued during a
// commit share the next one.
func TestBatchIdleCommitsAtOnce(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	if err := s.Batch(context.Background(), func(tx Tx) error { return tx.MarkSeen(2) }); err != nil {
		t.Fatal(err)
	}
	if c := s.Stats().Commits; c != 1 {
		t.Fatalf("%d commits for one call", c)
	}
	release, wait := queueBehind(t, s)
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := s.Batch(context.Background(), func(tx Tx) error { return tx.MarkSeen(int64(100 + i)) }); err != nil {
				t.Error(err)
			}
		})
	}
	for waiting(s) < n {
		runtime.Gosched()
	}
	release()
	wait()
	wg.Wait()
	if c := s.Stats().Commits; c != 3 {
		t.Errorf("%d commits, want 3: the lone call, the blocking one, then the %d queued together", c, n)
	}
}

// TestBatchAfterClose: Close commits what was queued; a later call gets ErrClosed.
func TestBatchAfterClose(t *testing.T) {
	s, _ := openTemp(t, WithNoSync())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Batch(context.Background(), func(Tx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("Batch after Close: %v", err)
	}
}

// TestWritesAreMarked: every write in the package goes through a boltTx method that marks the
// transaction written (putRaw, del, delAt, nextSeq, or a bucket made or dropped right after
// setting wrote), which the group commit relies on to keep a failed call's writes out of the
// shared commit. The migrations, which run before any Batch, are exempt.
func TestWritesAreMarked(t *testing.T) {
	writes := map[string]bool{"Put": true, "Delete": true, "NextSequence": true, "CreateBucket": true,
		"CreateBucketIfNotExists": true, "DeleteBucket": true, "SetSequence": true}
	helpers := map[string]bool{"putRaw": true, "del": true, "delAt": true, "nextSeq": true}
	exempt := map[string]bool{"prepare": true, "migrate.go": true}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || exempt[name] {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || helpers[fd.Name.Name] || exempt[fd.Name.Name] || fd.Body == nil {
				continue
			}
			marks := strings.Contains(string(src[fset.Position(fd.Body.Pos()).Offset:fset.Position(fd.Body.End()).Offset]), "t.wrote = true")
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, isPkg := sel.X.(*ast.Ident); isPkg && (pkg.Name == "slices" || pkg.Name == "maps") {
					return true
				}
				if writes[sel.Sel.Name] && !marks {
					t.Errorf("%s: %s calls %s directly; write through putRaw, del, delAt or nextSeq", fset.Position(call.Pos()), fd.Name.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}
