package nasilie

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Name is the game id persisted with every table.
const Name = "nasilie"

// Target is the total that wins the match (nasilie.md §End of the game).
const Target = 100

// MaxBid is the highest bid the bot accepts (N-MAXBID).
const MaxBid = 42

// Option keys and values. follow: N-FOLLOW's strict seed rule or the current pagat rule (trump at
// any time). five: N-MORE's 52-card pack or pagat's 32 cards with the dealer sitting out, for five
// players only. deals: the longest a match may run, so a table whose players keep losing ends.
const (
	OptFollow    = "follow"
	FollowStrict = "strict"
	FollowFree   = "lenient"
	OptFive      = "five"
	FivePack52   = "pack52"
	FiveDealer   = "dealerout"
	OptRounds    = "rounds"
)

// roundLimits are the optional caps on a match's length; "off" (the default) plays to 100 game
// points exactly as nasilie.md "End of the game" says.
var roundLimits = []string{RoundsOff, "3", "6", "12"}

// RoundsOff is the rounds value that sets no cap.
const RoundsOff = "off"

// Rules returns the Nasilie rules for the bot's game registry.
func Rules() games.Rules { return rules{} }

type rules struct{}

// Name is the game id, "nasilie".
func (rules) Name() string { return Name }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// Seats: four players, or five to six with the 52-card pack (N-MORE).
func (rules) Seats() (int, int) { return 4, 6 }

// Options are the table variants: following rule, five-player form and longest match.
func (rules) Options() []games.Option {
	return []games.Option{
		{Key: OptFollow, Values: []string{FollowStrict, FollowFree}, Default: FollowStrict},
		{Key: OptFive, Values: []string{FivePack52, FiveDealer}, Default: FivePack52},
		{Key: OptRounds, Values: roundLimits, Default: RoundsOff},
	}
}

// PlayoutOptions caps random playouts at three rounds: random declarers lose, so random play never
// reaches 100 (nasilie.md "End of the game").
func (rules) PlayoutOptions() map[string]string { return map[string]string{OptRounds: "3"} }

// New draws the first dealer (N-DEALER) and deals the first deal.
func (r rules) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("nasilie: %w", err)
	}
	opts := r.Options()
	rounds := 0 // no cap: play to 100
	if v := cfg.Get(opts, OptRounds); v != RoundsOff {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("nasilie: rounds: %w", games.ErrBadConfig)
		}
		rounds = n
	}
	st := &state{
		Players:  cfg.Players,
		Lenient:  cfg.Get(opts, OptFollow) == FollowFree,
		SitOut:   cfg.Players == 5 && cfg.Get(opts, OptFive) == FiveDealer,
		MaxDeals: rounds * cfg.Players,
		Seed:     seed,
		Scores:   make([]int, cfg.Players),
	}
	// N-DEALER: cards are dealt face up, one to each player in turn, until somebody gets a jack.
	pack := cards.ShuffleWith(st.pack(), cards.Stream(seed, cards.Dealer, 1))
	for i, c := range pack {
		if c.Rank() == cards.Jack {
			st.FirstJack, st.Dealer = c, games.Seat(i%cfg.Players)
			break
		}
	}
	st.Deal = 1
	st.deal()
	return st, nil
}

// Unmarshal reads MarshalBinary's JSON back and checks it; bad bytes wrap games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("nasilie: %w: %v", games.ErrCorrupt, err)
	}
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("nasilie: %w: %v", games.ErrCorrupt, err)
	}
	return &st, nil
}

// Agent is the computer player of Nasilie (agent.go), which the bot asks for through
// games.AgentRules.
func (rules) Agent() games.Agent { return agent{} }
