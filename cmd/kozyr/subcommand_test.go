package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/record"
	"github.com/kozyr-bot/kozyr/games/wizard"
)

// playedRecord plays a short Wizard match (every seat takes its first legal action) and writes its
// record into dir: the file, the record and the rules.
func playedRecord(t *testing.T, dir string, seed uint64) (string, record.Record) {
	t.Helper()
	r := wizard.Rules()
	cfg := games.Config{Players: 3, Options: map[string]string{wizard.OptShortGame: "3"}}
	st, err := r.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	var log []games.Move
	for len(st.ToAct()) > 0 {
		s := st.ToAct()[0]
		a := st.Legal(s)[0]
		if st, _, err = st.Apply(s, a); err != nil {
			t.Fatal(err)
		}
		log = append(log, games.Move{Seat: s, Action: a})
	}
	rec, err := record.New(record.Match{Rules: r, Version: r.Version(), Config: cfg, Seed: seed, Log: log,
		Seats: []record.Seat{{Name: "Alice"}, {Name: "Bob"}, {Name: "Carol", AI: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return writeRecord(t, dir, "match.json", rec), rec
}

func writeRecord(t *testing.T, dir, name string, rec record.Record) string {
	t.Helper()
	data, err := record.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSubcommands runs kozyr verify and kozyr replay in-process on a played match, on records
// tampered with, and on bad command lines, and checks their exit codes and what they print.
func TestSubcommands(t *testing.T) {
	dir := t.TempDir()
	const seed = 0x1234abcd5678ef90
	good, rec := playedRecord(t, dir, seed)

	tampered := rec
	tampered.Deals = append([]record.Deal(nil), rec.Deals...)
	tampered.Deals[1].Result = []games.Msg{{ID: "wizard.deal.made"}}
	badResult := writeRecord(t, dir, "result.json", tampered)
	tampered = rec
	tampered.Seed++
	badSeed := writeRecord(t, dir, "seed.json", tampered)
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte(`{"format":1,"game":"wizard","extra":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	deals, err := record.Redeal(wizard.Rules(), rec.Config(), seed, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	hand := "seat 0 (Alice): " + deals[2].Hands[0].String()

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // a part of what it must print
		stderr string
	}{
		{"replay", []string{"replay", good}, exitOK, strconv.Itoa(len(rec.Actions)) + " actions and 3 deals replay exactly", ""},
		{"replay a changed result", []string{"replay", badResult}, exitMismatch, "", "action " + strconv.Itoa(rec.Deals[1].Last) + ": deal 2's result"},
		{"replay another seed", []string{"replay", badSeed}, exitMismatch, "", "header: commitment"},
		{"replay garbage", []string{"replay", garbage}, exitMismatch, "", "not a kozyr match record"},
		{"replay no file", []string{"replay"}, exitUsage, "", "usage: kozyr replay FILE"},
		{"replay missing file", []string{"replay", filepath.Join(dir, "none.json")}, exitMismatch, "", "no such file"},
		{"verify a record", []string{"verify", good}, exitOK, hand, ""},
		{"verify a record's commitment", []string{"verify", good}, exitOK, "commitment " + rec.Commitment + " matches", ""},
		{"verify a record of another seed", []string{"verify", badSeed}, exitMismatch, "", "the commitment shown was " + rec.Commitment},
		{"verify flags", []string{"verify", "-game", "wizard", "-seed", record.Seed(seed).String(), "-players", "3",
			"-opt", "short_game=3", "-commit", rec.Commitment}, exitOK, "seat 0: " + deals[2].Hands[0].String(), ""},
		{"verify flags, wrong commitment", []string{"verify", "-game", "wizard", "-seed", record.Seed(seed).String(), "-players", "3",
			"-commit", rec.Commitment}, exitMismatch, "", "the commitment shown was"},
		{"verify unknown game", []string{"verify", "-game", "chess", "-seed", record.Seed(seed).String()}, exitUsage, "", "unknown game"},
		{"verify bad seed", []string{"verify", "-game", "wizard", "-seed", "xyz"}, exitUsage, "", "16 lower-case hex digits"},
		{"verify bad option", []string{"verify", "-game", "wizard", "-seed", record.Seed(seed).String(), "-opt", "short_game"}, exitUsage, "", "want key=value"},
		{"verify both", []string{"verify", "-game", "wizard", good}, exitUsage, "", "usage: kozyr verify"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := subcommands[tc.args[0]](tc.args[1:], &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("kozyr %s: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant in stdout %q, in stderr %q",
					strings.Join(tc.args, " "), code, tc.code, stdout.String(), stderr.String(), tc.stdout, tc.stderr)
			}
		})
	}
}
