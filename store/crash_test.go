package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashEnv names the database a re-executed test binary writes to until it is killed.
const crashEnv = "KOZYR_STORE_CRASH_CHILD_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

// crashState is the State the child writes at version v: big enough to span pages, and checkable.
func crashState(v int) []byte {
	return bytes.Repeat([]byte{byte(v), byte(v >> 8), 0xA5}, 1500)
}

// crashChild commits one action per UpdateTable and prints "committed N" after each returns, until
// it is killed (or gives up after a bound, so it can never outlive a broken parent for long).
func crashChild(path string) int {
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; i < 100_000 && time.Now().Before(deadline); i++ {
		var v int
		err := s.UpdateTable(ctx, -77, func(t *Table, ok bool) error {
			v = t.Version + 1
			t.Game = "wizard"
			t.Log = append(t.Log, "0:play/n"+strconv.Itoa(v))
			t.Version = v
			t.State = crashState(v)
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("committed %d\n", v)
	}
	return 3
}

// TestCrashKill: a process killed with SIGKILL at an arbitrary moment loses no UpdateTable that had
// returned, and leaves a file that opens and reads consistently. Three kills in a row, each at a
// different point.
func TestCrashKill(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	lastAcked := 0
	for round, after := range []int{5, 23, 61} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked, seen, killed := 0, 0, false
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			n, ok := strings.CutPrefix(sc.Text(), "committed ")
			if !ok {
				continue
			}
			v, err := strconv.Atoi(n)
			if err != nil {
				t.Fatalf("child printed %q", sc.Text())
			}
			acked = v
			if seen++; seen == after && !killed {
				if err := cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		err = cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !killed || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child was not killed as planned (%v): %s", round, err, stderr.String())
		}
		if acked <= lastAcked {
			t.Fatalf("round %d: child acknowledged %d, no progress past %d", round, acked, lastAcked)
		}

		s, err := Open(path, WithTimeout(time.Second))
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		tb, err := s.Table(context.Background(), -77)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Version < acked {
			t.Fatalf("round %d: version %d after kill, but %d commits had returned", round, tb.Version, acked)
		}
		if tb.Version != len(tb.Log) || !bytes.Equal(tb.State, crashState(tb.Version)) {
			t.Fatalf("round %d: inconsistent record: version %d, log %d", round, tb.Version, len(tb.Log))
		}
		for i, e := range tb.Log {
			if e != "0:play/n"+strconv.Itoa(i+1) {
				t.Fatalf("round %d: log[%d] = %q", round, i, e)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d acknowledged commits (total %d); reopened at version %d", round, seen, acked, tb.Version)
		lastAcked = tb.Version
	}
}
