// Package games is the contract between the card-game engines and everything else. An engine is a
// Rules value that makes immutable States; the bot, the store and the agents see a game only
// through this contract, so one transport and one persistence layer serve every game (design §2).
package games

import (
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Seat is a 0-based place at the table, in play order.
type Seat int8

// Nobody is the public: View(Nobody) is what the group chat may see, and an Event addressed to
// Nobody goes to everybody.
const Nobody Seat = -1

// Sentinel errors of Apply and New, always wrapped with context. Apply leaves its receiver untouched
// whatever it returns.
var (
	ErrNotYourTurn = errors.New("not your turn")
	ErrIllegal     = errors.New("illegal action")
	ErrOver        = errors.New("the match is over")
	ErrBadConfig   = errors.New("bad table configuration")
	ErrBadAction   = errors.New("malformed action")
	ErrCorrupt     = errors.New("corrupt state")
)

// Rules is one game: stateless, registered once, and the factory of its States.
type Rules interface {
	// Name is the stable id persisted with every table: "skat", "wizard", ...
	Name() string
	// Version is the rules version, persisted with every table; it is bumped whenever a change
	// could replay an old log differently, so a stored table is never silently replayed under
	// other rules (gametest.CheckReplayPin fails when the replay changes and it did not).
	Version() int
	// Seats is the inclusive range of player counts.
	Seats() (min, max int)
	// Options lists the table variants the lobby may set, each with its default.
	Options() []Option
	// New deals the first deal of a match. The seed drives every shuffle of the match.
	New(cfg Config, seed uint64) (State, error)
	// Unmarshal restores a State written by MarshalBinary.
	Unmarshal([]byte) (State, error)
}

// State is one moment of a match. No method mutates the receiver: Apply returns a new State, so a
// rejected action can never leave a half-applied game behind.
type State interface {
	// ToAct lists the seats that may act now; it is empty only when the match is over. Several
	// seats may act at once (stakes placed simultaneously).
	ToAct() []Seat
	// Legal lists every action s may take now, in canonical order, and nothing else. It is the one
	// source of legality: buttons, Apply and agents all use it.
	Legal(s Seat) []Action
	// Apply performs a by s, then every automatic step that follows (collecting a trick, scoring,
	// dealing the next deal), and reports what happened as Events.
	Apply(s Seat, a Action) (State, []Event, error)
	// View is exactly what s may know; View(Nobody) is the group's view.
	View(s Seat) View
	// Score is the score sheet so far.
	Score() Sheet
	// MarshalBinary serializes the state; same seed and same actions give the same bytes.
	MarshalBinary() ([]byte, error)
}

// Auditor is implemented by every State so the conformance suite can check that no card is
// created, lost or duplicated and that hidden cards never leak into a View.
type Auditor interface {
	// Zones lists every place a card can be (hands, stock, skat, trick, won piles, ...). They must be
	// pairwise disjoint and together equal Deck.
	Zones() []cards.Set
	// Deck is the set of cards this deal is played with.
	Deck() cards.Set
	// Redeal returns a copy of the state in which every card hidden from s is redistributed at
	// random (drawn from rng, typically with cards.Redistribute) among the places hidden from s,
	// each keeping its size. View(s) and Legal(s) of the copy must equal those of the original, and
	// the original must not change. A search calls it many times on one stream.
	Redeal(s Seat, rng *rand.Rand) State
}

// Totaler is implemented by a State that gives its match totals without building its score
// sheet, whose rows grow with the match (Nasilie's without bound): a search reads the totals at
// the end of every rollout. Totals must equal Score().Totals, which the conformance suite checks.
type Totaler interface {
	Totals() []int
}

// Rater is implemented by the Rules of a game with an overall rating across matches (Magister §10):
// the bot keeps each user's sum of match totals and matches played, and the game rates them.
type Rater interface {
	OverallRating(totalPoints, matches int) Msg
}

// PlayoutCapper is implemented by Rules whose matches end only when someone reaches a score target
// (Nasilie's 100), which random play need never do. Random playouts (the conformance suite, the
// locale checks) apply these options, typically a cap on the number of deals, so they terminate.
type PlayoutCapper interface {
	PlayoutOptions() map[string]string
}

// CheckLegal is the first step of every Apply (design §2): the sentinel for an action s may not
// take now, or nil.
func CheckLegal(st State, s Seat, a Action) error {
	if len(st.ToAct()) == 0 {
		return ErrOver
	}
	if !slices.Contains(st.ToAct(), s) {
		return ErrNotYourTurn
	}
	if !slices.Contains(st.Legal(s), a) {
		return ErrIllegal
	}
	return nil
}
