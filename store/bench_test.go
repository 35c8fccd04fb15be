package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

// benchTable is a table late in a 4-player match: a 200-action log and a 2 KB state.
func benchTable(chat int64) Table {
	t := sampleTable(chat)
	t.Log = make([]string, 200)
	for i := range t.Log {
		t.Log[i] = fmt.Sprintf("%d:play/S%d", i%4, 2+i%9)
	}
	t.Version = len(t.Log)
	t.State = make([]byte, 2048)
	return t
}

// BenchmarkUpdateTable is one accepted move: read the record, change it, write it, fsync — on
// disk, as the bot runs it. Compare with BenchmarkEmptyCommit, the fsync floor.
func BenchmarkUpdateTable(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	seed := benchTable(-1)
	if err := s.UpdateTable(ctx, -1, func(t *Table, _ bool) error { *t = seed; return nil }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		err := s.UpdateTable(ctx, -1, func(t *Table, ok bool) error {
			t.Log = append(t.Log[1:], t.Log[0]) // constant size: the record stays a late-match one
			t.Version++
			t.State[t.Version%len(t.State)]++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkUpdateTableParallel is many groups moving at once. bbolt commits one write transaction
// at a time, so this shows whether anything but the fsync limits the rate.
func BenchmarkUpdateTableParallel(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	for c := range int64(64) {
		seed := benchTable(-c - 1)
		if err := s.UpdateTable(ctx, -c-1, func(t *Table, _ bool) error { *t = seed; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		chat := -(next.Add(1) % 64) - 1
		for pb.Next() {
			err := s.UpdateTable(ctx, chat, func(t *Table, ok bool) error {
				t.Version++
				return nil
			})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkEmptyCommit is a write transaction that changes nothing: what any commit costs.
func BenchmarkEmptyCommit(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	if err := s.UpdateTable(ctx, -1, func(t *Table, _ bool) error { *t = benchTable(-1); return nil }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Ping(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkTable is one read of a late-match record: what a render costs in the store.
func BenchmarkTable(b *testing.B) {
	s, _ := openTemp(b)
	ctx := context.Background()
	if err := s.UpdateTable(ctx, -1, func(t *Table, _ bool) error { *t = benchTable(-1); return nil }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Table(ctx, -1); err != nil {
			b.Fatal(err)
		}
	}
}
