package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kozyr-bot/kozyr/games"
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

// crashChild commits one action per Update — the record, the state and a log entry, as a move
// does — and prints "committed N" after each returns, until it is killed (or gives up after a
// bound, so it can never outlive a broken parent for long).
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
		err := s.Update(ctx, func(tx Tx) error {
			t, err := tx.TableAt(crashPlace)
			if errors.Is(err, ErrNotFound) {
				t = Table{Place: crashPlace, Game: "wizard", Started: true}
			} else if err != nil {
				return err
			}
			v = t.Version + 1
			t.Version = v
			if err := tx.PutTable(&t); err != nil {
				return err
			}
			if err := tx.AppendLog(t.ID, v-1, Entry{Action: games.Num("play", v)}); err != nil {
				return err
			}
			return tx.PutState(t.ID, crashState(v))
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Printf("committed %d\n", v)
	}
	return 3
}

var crashPlace = Place{Chat: -77}

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
		var tb Table
		var log []Entry
		var state []byte
		err = s.View(context.Background(), func(tx Tx) error {
			var err error
			if tb, err = tx.TableAt(crashPlace); err != nil {
				return err
			}
			if log, err = tx.Log(tb.ID); err != nil {
				return err
			}
			state, err = tx.State(tb.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if tb.Version < acked {
			t.Fatalf("round %d: version %d after kill, but %d commits had returned", round, tb.Version, acked)
		}
		if tb.Version != len(log) || !bytes.Equal(state, crashState(tb.Version)) {
			t.Fatalf("round %d: inconsistent record: version %d, log %d", round, tb.Version, len(log))
		}
		for i, e := range log {
			if e.Action != games.Num("play", i+1) {
				t.Fatalf("round %d: log[%d] = %v", round, i, e)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: killed after %d acknowledged commits (total %d); reopened at version %d", round, seen, acked, tb.Version)
		lastAcked = tb.Version
	}
}
