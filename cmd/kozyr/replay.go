package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kozyr-bot/kozyr/games/record"
)

// replay is kozyr replay FILE: it plays a match record again with this kozyr's engine, from its
// seed and options, action by action, and checks that every action is accepted and that the
// deals end where the record says with the results it says, and that the match's end and the
// final sheet are the record's. It prints a one-line summary and exits 0, or prints the first
// difference (the action's index and what differs) and exits 1.
func replay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kozyr replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, "usage: kozyr replay FILE") }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	path := fs.Arg(0)
	sum, err := replayFile(path)
	var m *record.Mismatch
	switch {
	case errors.As(err, &m):
		fmt.Fprintf(stderr, "kozyr replay: %s differs from the engine's replay at %v\n", path, m)
		return exitMismatch
	case err != nil:
		fmt.Fprintf(stderr, "kozyr replay: %s: %v\n", path, err)
		return exitMismatch
	}
	fmt.Fprintln(stdout, "kozyr replay: "+sum.String())
	return exitOK
}

// replayFile reads the record at path and replays it with its game's rules.
func replayFile(path string) (record.Summary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return record.Summary{}, err
	}
	rec, err := record.Unmarshal(data)
	if err != nil {
		return record.Summary{}, err
	}
	r, ok := gameRules(rec.Game)
	if !ok {
		return record.Summary{}, fmt.Errorf("this kozyr does not know the game %q", rec.Game)
	}
	return record.Replay(r, rec)
}
