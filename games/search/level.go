package search

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
)

// Level is how well the computer players of a table play; the lobby offers it and the bot plays
// AI seats and absent players at the table's level.
type Level uint8

// The levels. Easy is the game's own rule agent; Normal searches within about 150 ms per decision
// (p99, one core) and Strong within about a second.
const (
	Easy Level = iota
	Normal
	Strong
	numLevels
)

// DefaultLevel is the level of a table that did not choose one.
const DefaultLevel = Normal

// ErrLevel is returned (wrapped) by ParseLevel for a name that is no level.
var ErrLevel = errors.New("unknown level")

var levelNames = [numLevels]string{"easy", "normal", "strong"}

// String is the level's stable name, as persisted and offered in the lobby.
func (l Level) String() string {
	if l < numLevels {
		return levelNames[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// ParseLevel reads a level's name back.
func ParseLevel(s string) (Level, error) {
	for l, name := range levelNames {
		if s == name {
			return Level(l), nil
		}
	}
	return 0, fmt.Errorf("search: %w %q", ErrLevel, s)
}

// Levels lists every level, weakest first, in the order the lobby offers them.
func Levels() []Level { return []Level{Easy, Normal, Strong} }

// BudgetFor is the budget of a decision in game at level l, or false at Easy (and at a level it
// does not know). The steps are sized by BenchmarkDecide so that every decision stays within the
// level's time on one core: a simulated move costs 10–50 µs with a plain rule agent (Skat, Wizard)
// and 150–300 µs with an agent that runs simulations of its own; Joker, Magister and Nasilie play
// their rollouts with a cheaper RolloutAgent (Joker's a few µs a move; Magister's and Nasilie's
// the rule agent with one and four samples). Strong
// has four times the worlds and six times the steps. The margin is larger where the worlds are
// few (the slow agents), so the search overrules the agent only where the worlds agree. A game not
// listed gets a middling budget; for jokerbank it is never spent: no card is held, so its worlds
// are all the real one (what a punter cannot know, the other stakes and the turn-up, is not
// cards) and the search leaves every stake to the agent, rightly, since every unit staked loses
// the same share whatever is known.
func BudgetFor(game string, l Level) (Budget, bool) {
	var b Budget
	switch game {
	case "skat":
		b = Budget{Worlds: 48, Steps: 7_000, Margin: 1}
	case "wizard":
		b = Budget{Worlds: 120, Steps: 21_000, Margin: 1}
	case "joker":
		b = Budget{Worlds: 40, Steps: 8_000, Margin: 1}
	case "magister":
		b = Budget{Worlds: 48, Steps: 3_000, Margin: 2}
	case "nasilie":
		b = Budget{Worlds: 32, Steps: 1_200, Margin: 2}
	default:
		b = Budget{Worlds: 16, Steps: 1_000, Margin: 2}
	}
	switch l {
	case Normal:
		return b, true
	case Strong:
		return Budget{Worlds: 4 * b.Worlds, Steps: 6 * b.Steps, RandomAfter: b.RandomAfter, Margin: b.Margin}, true
	}
	return Budget{}, false
}

// New is the computer player of r at level l: the game's agent (games.AgentFor) at Easy, and a
// search with the level's budget that plays its rollouts with games.RolloutAgentFor otherwise.
func New(r games.Rules, l Level) Search {
	x := Search{Agent: games.AgentFor(r), Policy: games.RolloutAgentFor(r)}
	if b, ok := BudgetFor(r.Name(), l); ok {
		x.Budget = b
	}
	return x
}

// Decide is the move of a computer player of r at level l for seat s in st: New(r, l).Decide.
// Call it outside any store transaction: it may take the level's time (up to a second at Strong).
func Decide(r games.Rules, l Level, st games.State, s games.Seat, rng *rand.Rand) games.Action {
	return New(r, l).Decide(st, s, rng)
}

// Decide is x's move for seat s in st. It reads from st only what s knows, View(s) and Legal(s),
// and worlds drawn with st's Redeal for s, so it never plays from cards s cannot see; rng is its
// only randomness, so the same rng gives the same action. It returns one of st.Legal(s), or the
// zero Action when s has nothing to do.
func (x Search) Decide(st games.State, s games.Seat, rng *rand.Rand) games.Action {
	legal := st.Legal(s)
	if len(legal) < 2 {
		if len(legal) == 0 {
			return games.Action{}
		}
		return legal[0]
	}
	worlds, _ := RedealWorlds(st, s)
	a, _ := x.Choose(worlds, st.View(s), legal, rng)
	return a
}
