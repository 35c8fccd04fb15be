package joker

import (
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
)

// Option keys and values of the trick game.
const (
	OptParties   = "parties"   // "1": a single party (default); "3": a match of up to three parties
	OptFirstLead = "firstlead" // "dealer" (default, J-FIRSTLEAD) or "left" (the Oh Hell variant)
)

// Action kinds of the trick game: "pass" is a bid of zero, "bid/N" a bid of N >= 1; "play/CARD"
// plays a suited card or the second joker of a trick; "high/X1" and "low/X1" play a joker and
// announce its value in one step (joker.md "Jokers").
const (
	KindPass = "pass"
	KindBid  = "bid"
	KindPlay = "play"
	KindHigh = "high"
	KindLow  = "low"
)

// maxSeats is the most players of a table (joker.md version 2, "Players and cards").
const maxSeats = 6

type rules struct{}

// Rules is the trick game, version 2 of joker.md: game id "joker".
func Rules() games.Rules { return rules{} }

// Name is the game id.
func (rules) Name() string { return "joker" }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// Seats: 2 to 6 players (joker.md version 2, "Players and cards").
func (rules) Seats() (int, int) { return 2, maxSeats }

// Options: single party or match (J-MATCH), and who leads first (J-FIRSTLEAD).
func (rules) Options() []games.Option {
	return []games.Option{
		{Key: OptParties, Values: []string{"1", "3"}, Default: "1"},
		{Key: OptFirstLead, Values: []string{"dealer", "left"}, Default: "dealer"},
	}
}

// New starts the first party: first dealer by lot, deal 1 dealt.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("joker: %w", err)
	}
	opts := r.Options()
	st := &state{
		n:         cfg.Players,
		match:     cfg.Get(opts, OptParties) == "3",
		leftLeads: cfg.Get(opts, OptFirstLead) == "left",
		seed:      seed,
	}
	st.startParty(allSeats(st.n), false)
	return st, nil
}

// Unmarshal restores a state written by MarshalBinary. It accepts nothing else: bytes that are
// not the canonical encoding of a state the engine can reach are refused with games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	st, err := unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("joker: %w: %w", games.ErrCorrupt, err)
	}
	return st, nil
}

// Agent is the trick game's computer player, the one the bot seats for a joker table.
func (rules) Agent() games.Agent { return Agent{} }

// RolloutAgent is the cheap player a search plays its simulated deals with (games.RolloutRules):
// the Agent runs simulations of its own, far too slow for the thousands of moves of a decision.
func (rules) RolloutAgent() games.Agent { return Rollout{} }
