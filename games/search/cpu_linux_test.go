//go:build linux

package search_test

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's own use.
const rusageThread = 1

// threadCPU is the CPU time the calling OS thread has used, so a benchmark on a busy machine can
// tell what a decision costs one core apart from the time it waited for one.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
