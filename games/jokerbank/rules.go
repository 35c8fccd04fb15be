package jokerbank

import (
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
)

// Option keys of the banker game.
const (
	OptCeiling = "ceiling" // the stake ceiling (joker.md version 1, "Table limit"); default 10
	OptRounds  = "rounds"  // session length in rounds, or "open" (J1-END)
)

// Action kinds of the banker game: "stake/N" stakes N units; "stop" (open sessions only) ends
// the session instead of staking.
const (
	KindStake = "stake"
	KindStop  = "stop"
)

// maxSeats is the most players of a table (joker.md version 1, "Money": the bot limit).
const maxSeats = 10

type rules struct{}

// Rules is the banker game, version 1 of joker.md: game id "jokerbank".
func Rules() games.Rules { return rules{} }

// Name is the game id.
func (rules) Name() string { return "jokerbank" }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// Seats: 2 to 10 players (joker.md version 1, "Money": the bot limit).
func (rules) Seats() (int, int) { return 2, maxSeats }

// Options: the stake ceiling ("Table limit") and the session length (J1-END).
func (rules) Options() []games.Option {
	return []games.Option{
		{Key: OptCeiling, Values: []string{"5", "10", "20", "50"}, Default: "10"},
		{Key: OptRounds, Values: []string{"10", "20", "30", "50", "open"}, Default: "20"},
	}
}

// New draws the first banker and opens round 1 for stakes.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("jokerbank: %w", err)
	}
	opts := r.Options()
	ceiling, _ := strconv.Atoi(cfg.Get(opts, OptCeiling))
	rounds, _ := strconv.Atoi(cfg.Get(opts, OptRounds)) // "open" reads as 0
	return newState(cfg.Players, ceiling, rounds, seed), nil
}

// Unmarshal restores a state written by MarshalBinary. It accepts nothing else: bytes that are
// not the canonical encoding of a state the engine can reach are refused with games.ErrCorrupt.
func (r rules) Unmarshal(b []byte) (games.State, error) {
	st, err := unmarshal(r, b)
	if err != nil {
		return nil, fmt.Errorf("jokerbank: %w: %w", games.ErrCorrupt, err)
	}
	return st, nil
}

// Agent is the banker game's computer player, the one the bot seats for a jokerbank table.
func (rules) Agent() games.Agent { return Agent{} }
