package wizard

import (
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
)

// Name is the game id persisted with every table.
const Name = "wizard"

// Option keys: the table variants of wizard.md §10, all off by default.
const (
	OptCannotMatch = "bids_cannot_match" // the dealer may not make the bids total the tricks
	OptHiddenBids  = "hidden_bids"       // all bid at once, secretly, revealed together
	OptShortGame   = "short_game"        // only the first N rounds, or only odd or even rounds
)

// maxRounds is the longest match: 20 rounds with three players.
const maxRounds = 20

// maxSeats is the most players a table seats; the state keeps its per-seat facts in arrays of it.
const maxSeats = 6

// rules is Wizard's games.Rules; it holds nothing, every table's variants live in its State.
type rules struct{}

// Rules returns Wizard's rules for the registry. They implement games.AgentRules: their Agent is
// the package's computer player.
func Rules() games.Rules { return rules{} }

func (rules) Name() string          { return Name }
func (rules) Seats() (min, max int) { return 3, maxSeats }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// Options are the variants of wizard.md §10.
func (rules) Options() []games.Option {
	return []games.Option{
		{Key: OptCannotMatch, Values: []string{"off", "on"}, Default: "off"},
		{Key: OptHiddenBids, Values: []string{"off", "on"}, Default: "off"},
		{Key: OptShortGame, Values: []string{"off", "3", "5", "7", "10", "odd", "even"}, Default: "off"},
	}
}

// New validates cfg and deals the first round of a match.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return nil, err
	}
	st, _ := newState(set, seed)
	return st, nil
}

// Unmarshal restores a state written by MarshalBinary; anything else is refused with an error
// wrapping games.ErrCorrupt (and a nil State).
func (rules) Unmarshal(b []byte) (games.State, error) {
	st, err := unmarshal(b)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Agent is the computer player that sits in for absent players and fills seats added with /addai.
func (rules) Agent() games.Agent { return Agent{} }

// Rounds is the number of rounds of a full match: 60 cards shared among the players
// (wizard.md §2: 3 → 20, 4 → 15, 5 → 12, 6 → 10).
func Rounds(players int) int {
	if players <= 0 {
		return 0
	}
	return deckSize / players
}

// settings are a table's options in a form the engine reads cheaply.
type settings struct {
	players     int8
	cannotMatch bool
	hidden      bool
	nRounds     int8
	rounds      [maxRounds]int8 // cards per player in each round of the match, in order
}

// roundList is the rounds a short_game value keeps (wizard.md §10), nil for a value it does not
// know. "off" is every round 1..60/players.
func roundList(players int, short string) []int {
	full := Rounds(players)
	var out []int
	switch short {
	case "off":
		for r := 1; r <= full; r++ {
			out = append(out, r)
		}
	case "odd", "even":
		first := 1
		if short == "even" {
			first = 2
		}
		for r := first; r <= full; r += 2 {
			out = append(out, r)
		}
	default:
		n, err := strconv.Atoi(short)
		if err != nil || n < 1 || n > full {
			return nil
		}
		for r := 1; r <= n; r++ {
			out = append(out, r)
		}
	}
	return out
}

// parseConfig checks cfg against the options and turns it into settings.
func parseConfig(r games.Rules, cfg games.Config) (settings, error) {
	if err := games.Validate(r, cfg); err != nil {
		return settings{}, err
	}
	opts := r.Options()
	st := settings{
		players:     int8(cfg.Players),
		cannotMatch: cfg.Get(opts, OptCannotMatch) == "on",
		hidden:      cfg.Get(opts, OptHiddenBids) == "on",
	}
	if st.cannotMatch && st.hidden {
		// A secret bid leaves the dealer nothing to avoid, and enforcing the rule would tell him
		// the others' total: the two variants do not combine.
		return settings{}, fmt.Errorf("%w: %s and %s do not combine", games.ErrBadConfig, OptCannotMatch, OptHiddenBids)
	}
	short := cfg.Get(opts, OptShortGame)
	list := roundList(cfg.Players, short)
	if len(list) == 0 {
		return settings{}, fmt.Errorf("%w: %s=%s does not fit %d players", games.ErrBadConfig, OptShortGame, short, cfg.Players)
	}
	st.nRounds = int8(len(list))
	for i, r := range list {
		st.rounds[i] = int8(r)
	}
	return st, nil
}
