//go:build !linux

package search_test

import "time"

// threadCPU is not measured here: the benchmark reports wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }
