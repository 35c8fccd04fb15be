package cards

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestPurposeNames(t *testing.T) {
	seen := map[string]Purpose{}
	for p := range numPurposes {
		name := p.String()
		if name == "" || strings.HasPrefix(name, "purpose(") {
			t.Errorf("purpose %d has no name", p)
		}
		if q, ok := seen[name]; ok {
			t.Errorf("purposes %d and %d are both %q", q, p, name)
		}
		seen[name] = p
	}
	if got := numPurposes.String(); got != "purpose(4)" {
		t.Errorf("an unknown purpose reads %q", got)
	}
}

// TestStreamsNeverCollide: no two (purpose, n) pairs share a stream, whatever the game uses them
// for, including n at the top of its range; an n beyond it stays within its own purpose.
func TestStreamsNeverCollide(t *testing.T) {
	const top = 1<<streamBits - 1
	ns := []uint64{0, 1, 2, 3, 1000, 1001, 2001, 1 << 32, top - 1, top}
	seen := map[uint64]string{}
	for p := range numPurposes {
		for _, n := range ns {
			id := streamID(p, n)
			name := fmt.Sprintf("%v/%d", p, n)
			if other, ok := seen[id]; ok {
				t.Errorf("streams %s and %s share id %#x", name, other, id)
			}
			seen[id] = name
		}
	}
	for p := range numPurposes {
		if got, want := streamID(p, top+1), streamID(p, 0); got != want {
			t.Errorf("%v: n = 2^56 gives id %#x, want it masked to %#x", p, got, want)
		}
		if got := streamID(p, ^uint64(0)) >> streamBits; got != uint64(p) {
			t.Errorf("%v: n = 2^64-1 spills into purpose %d", p, got)
		}
	}
}

// TestDealStreamUnchanged: the Deal streams are the ones every stored table was dealt with,
// rand.NewPCG(seed, k), so their shuffles stay byte-identical.
func TestDealStreamUnchanged(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, 1<<63 + 5} {
		for _, k := range []uint64{0, 1, 2, 1000, 1001} {
			got, want := Stream(seed, Deal, k), rand.New(rand.NewPCG(seed, k))
			for i := range 16 {
				if a, b := got.Uint64(), want.Uint64(); a != b {
					t.Fatalf("seed %d deal %d: draw %d is %#x, was %#x", seed, k, i, a, b)
				}
			}
		}
	}
}

func TestStreamIsItsPCG(t *testing.T) {
	got, want := Stream(7, Agent, 3<<8|2), rand.New(rand.NewPCG(7, 3<<56|3<<8|2))
	for range 8 {
		if got.Uint64() != want.Uint64() {
			t.Fatal("Stream(7, Agent, n) is not PCG(7, 3<<56|n)")
		}
	}
}
