package nasilie

import (
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
// players only. rounds: the longest a match may run, in rounds of one deal per player, so a table
// whose players keep losing ends (the bot's addition; RoundsOff plays to Target as the rules say).
const (
	OptFollow    = "follow"
	FollowStrict = "strict"
	FollowFree   = "lenient"
	OptFive      = "five"
	FivePack52   = "pack52"
	FiveDealer   = "dealerout"
	OptRounds    = "rounds"
	RoundsOff    = "off"
)

// Rules returns the Nasilie rules for the bot's game registry.
func Rules() games.Rules { return rules{} }

// rules is the stateless Rules of Nasilie; its States are *state.
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
		{Key: OptRounds, Values: roundsValues(), Default: RoundsOff},
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
	limit, err := maxDeals(cfg.Get(opts, OptRounds), cfg.Players)
	if err != nil {
		return nil, fmt.Errorf("nasilie: %w: %w", games.ErrBadConfig, err)
	}
	st := &state{
		settings: settings{
			players:  cfg.Players,
			lenient:  cfg.Get(opts, OptFollow) == FollowFree,
			sitOut:   cfg.Players == 5 && cfg.Get(opts, OptFive) == FiveDealer,
			maxDeals: limit,
		},
		seed: seed,
		deal: 1,
	}
	st.firstJack, st.dealer = firstDealer(seed, st.pack(), cfg.Players)
	st.dealCards()
	return st, nil
}

// Unmarshal reads what MarshalBinary wrote, and nothing else: anything but the canonical bytes of
// a state the rules can reach is refused with an error wrapping games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	st, err := unmarshal(b)
	if err != nil {
		return nil, err // not st: a nil *state in the interface would not be a nil State
	}
	return st, nil
}

// Agent is the computer player of Nasilie (agent.go), which the bot asks for through
// games.AgentRules.
func (rules) Agent() games.Agent { return Agent{} }

// RolloutAgent is the cheaper player of the search's simulated deals (games.RolloutRules): the
// rule agent plays 24 sample deals for every bid, stock and trump decision, the rollouts 4.
func (rules) RolloutAgent() games.Agent { return RolloutAgent() }

// roundsValues are the values of OptRounds: no limit, or a match of 3, 6 or 12 rounds.
func roundsValues() []string { return []string{RoundsOff, "3", "6", "12"} }

// maxDeals is the deal limit of a rounds option value for n players: 0 for RoundsOff, else the
// rounds times n.
func maxDeals(rounds string, n int) (int, error) {
	if rounds == RoundsOff {
		return 0, nil
	}
	r, err := strconv.Atoi(rounds)
	if err != nil {
		return 0, fmt.Errorf("rounds %q: %w", rounds, err)
	}
	return r * n, nil
}

// firstDealer draws the first dealer of a match with n players (N-DEALER): cards of the pack are
// dealt face up, one to each player in turn, until somebody gets a jack. It returns that jack and
// that seat.
func firstDealer(seed uint64, pack []cards.Card, n int) (cards.Card, games.Seat) {
	for i, c := range cards.ShuffleWith(pack, cards.Stream(seed, cards.Dealer, 1)) {
		if c.Rank() == cards.Jack {
			return c, games.Seat(i % n)
		}
	}
	return cards.NoCard, 0 // every pack has its four jacks
}
