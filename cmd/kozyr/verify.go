package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/record"
)

// Exit codes of the subcommands: the check passed, it found a difference (or the input is not
// what it must be), or the command line is wrong.
const (
	exitOK       = 0
	exitMismatch = 1
	exitUsage    = 2
)

// subcommands are the tools the kozyr binary carries besides the bot: kozyr <name> args... runs
// one and exits with its code; kozyr without one of these names runs the bot.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"verify": verify,
	"replay": replay,
}

// optionFlags collects repeated -opt key=value flags.
type optionFlags map[string]string

func (o optionFlags) String() string { return fmt.Sprint(map[string]string(o)) }

func (o optionFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" || v == "" {
		return fmt.Errorf("%q: want key=value", s)
	}
	o[k] = v
	return nil
}

// verify is kozyr verify: it deals a match again from its seed and prints every seat's hand per
// deal, so anyone can compare them with the cards they were dealt, and checks the commitment the
// table showed when the match began. The match comes from a record (kozyr verify FILE) or from
// flags (-game, -seed and the table's options; -commit to check, -deals where play decides how
// many deals there were).
func verify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kozyr verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "game id: "+gameIDs())
	rules := fs.Int("rules", 0, "the rules version the match was played by (default: this kozyr's)")
	seed := fs.String("seed", "", "the seed the match-end post revealed: 16 hex digits")
	players := fs.Int("players", 0, "number of players (default: the game's fewest)")
	commit := fs.String("commit", "", "the commitment the table showed, to check (16 hex digits)")
	deals := fs.Int("deals", 0, "number of deals to print (default: as many as the options fix)")
	opts := optionFlags{}
	fs.Var(opts, "opt", "a table option as key=value; repeat for more (unset options are at their defaults)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kozyr verify FILE\n       kozyr verify -game G -seed S [-rules V] [-players N] [-opt k=v ...] [-commit C] [-deals N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	var c check
	var err error
	switch {
	case fs.NArg() == 1 && *game == "" && *seed == "":
		c, err = checkOfFile(fs.Arg(0))
	case fs.NArg() == 0 && *game != "" && *seed != "":
		c, err = checkOfFlags(*game, *rules, *seed, *players, opts, *commit, *deals)
		if errors.Is(err, errUsage) {
			fmt.Fprintln(stderr, "kozyr verify:", err)
			return exitUsage
		}
	default:
		fs.Usage()
		return exitUsage
	}
	if err != nil {
		fmt.Fprintln(stderr, "kozyr verify:", err)
		return exitMismatch
	}
	return c.print(stdout, stderr)
}

// errUsage marks a bad argument of kozyr verify.
var errUsage = errors.New("bad argument")

// check is one match to deal again: the game, its configuration and seed, what to compare the
// commitment with, the seats' names and the moves of each deal where known.
type check struct {
	rules  games.Rules
	cfg    games.Config
	seed   uint64
	commit string // "" when none was given
	names  []string
	deals  []games.Deal
}

// checkOfFile reads a match record.
func checkOfFile(path string) (check, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return check{}, err
	}
	rec, err := record.Unmarshal(data)
	if err != nil {
		return check{}, fmt.Errorf("%s: %w", path, err)
	}
	r, ok := gameRules(rec.Game)
	if !ok {
		return check{}, fmt.Errorf("%s: this kozyr does not know the game %q", path, rec.Game)
	}
	c := check{rules: r, cfg: rec.Config(), seed: uint64(rec.Seed), commit: rec.Commitment}
	for _, s := range rec.Seats {
		c.names = append(c.names, s.Name)
	}
	if c.deals, err = rec.Redeal(r); err != nil {
		return check{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// checkOfFlags takes the match from the command line.
func checkOfFlags(game string, rules int, seed string, players int, opts optionFlags, commit string, deals int) (check, error) {
	r, ok := gameRules(game)
	if !ok {
		return check{}, fmt.Errorf("%w: unknown game %q; games: %s", errUsage, game, gameIDs())
	}
	if rules != 0 && rules != r.Version() {
		return check{}, fmt.Errorf("the match was played under %s rules version %d; this kozyr deals version %d", game, rules, r.Version())
	}
	s, err := record.ParseSeed(strings.TrimPrefix(strings.ToLower(seed), "0x"))
	if err != nil {
		return check{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	if players == 0 {
		players, _ = r.Seats()
	}
	c := check{rules: r, cfg: games.Config{Players: players, Options: opts}, seed: uint64(s), commit: strings.ToLower(commit)}
	if err := games.Validate(r, c.cfg); err != nil {
		return check{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.deals, err = record.Redeal(r, c.cfg, c.seed, deals, nil); err != nil {
		if errors.Is(err, record.ErrDealCount) {
			return check{}, fmt.Errorf("%w: %v: give -deals N, or verify the match's record", errUsage, err)
		}
		return check{}, err
	}
	return c, nil
}

// print writes the check's header, its commitment and every deal, and returns the exit code: a
// commitment that does not match fails.
func (c check) print(stdout, stderr io.Writer) int {
	r := c.rules
	line := record.CommitLine(r.Name(), r.Version(), c.cfg, r.Options(), c.seed)
	got := record.Commit(r.Name(), r.Version(), c.cfg, r.Options(), c.seed)
	fmt.Fprintf(stdout, "%s, rules %d, %d players, seed %s\n", r.Name(), r.Version(), c.cfg.Players, record.Seed(c.seed))
	fmt.Fprintf(stdout, "commitment %s = first %d hex digits of SHA-256(%q)\n", got, record.CommitLen, line)
	for k, d := range c.deals {
		fmt.Fprintf(stdout, "deal %d", k+1)
		if d.Dealer != games.Nobody {
			fmt.Fprintf(stdout, ", dealt by %s", c.seatName(d.Dealer))
		}
		fmt.Fprintln(stdout, ":")
		for s, h := range d.Hands {
			if !h.Empty() {
				fmt.Fprintf(stdout, "  %s: %s\n", c.seatName(games.Seat(s)), h)
			}
		}
		for _, p := range d.Piles {
			fmt.Fprintf(stdout, "  %s: %s\n", p.Name, cardList(p.Cards))
		}
	}
	switch {
	case c.commit == "":
		fmt.Fprintln(stdout, "no commitment given to check")
	case c.commit == got:
		fmt.Fprintf(stdout, "commitment %s matches: these deals were fixed when the match began\n", got)
	default:
		fmt.Fprintf(stderr, "kozyr verify: the commitment shown was %s, but the seed, game, rules and options give %s\n", c.commit, got)
		return exitMismatch
	}
	return exitOK
}

// seatName is "seat N" with the player's name where the record has one.
func (c check) seatName(s games.Seat) string {
	if int(s) < len(c.names) && c.names[s] != "" {
		return fmt.Sprintf("seat %d (%s)", s, c.names[s])
	}
	return fmt.Sprintf("seat %d", s)
}

// cardList is cards in their notation, in the order given.
func cardList[C fmt.Stringer](cs []C) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// gameRules is the game of that id.
func gameRules(id string) (games.Rules, bool) {
	for _, r := range all.Rules() {
		if r.Name() == id {
			return r, true
		}
	}
	return nil, false
}

// gameIDs lists the games' ids.
func gameIDs() string {
	var ids []string
	for _, r := range all.Rules() {
		ids = append(ids, r.Name())
	}
	return strings.Join(ids, ", ")
}
