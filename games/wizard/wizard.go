package wizard

import (
	"github.com/kozyr-bot/kozyr/games"
)

// Name is the game id persisted with every table.
const Name = "wizard"

type rules struct{}

// Rules returns Wizard's rules for the registry.
func Rules() games.Rules { return rules{} }

func (rules) Name() string                              { return Name }
func (rules) Seats() (min, max int)                     { return 3, 6 }
func (rules) Options() []games.Option                   { return options() }
func (r rules) Unmarshal(b []byte) (games.State, error) { return unmarshal(b) }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// New validates cfg and deals the first round of a match.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return nil, err
	}
	st, _ := newState(set, seed)
	return st, nil
}
