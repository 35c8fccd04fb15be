package cards

import (
	"fmt"
	"math/rand/v2"
)

// Purpose names what a random stream of a table is for. Every random choice of a match draws from
// the stream of its purpose, so two uses can never share (or collide on) a stream, and adding a new
// use never shifts the deals of stored tables.
type Purpose uint8

// The purposes. Their values are persisted implicitly (they select the streams stored tables were
// played with), so a purpose is never renumbered or removed; a new one is appended.
const (
	// Deal is the shuffle of deal n (n = 1, 2, ...: the deal, round or party-deal counter of the
	// match). It is purpose 0, so Stream(seed, Deal, n) is the stream every table has always dealt
	// with, rand.NewPCG(seed, n).
	Deal Purpose = iota
	// Dealer is the draw by lot of who deals (or banks) first; n numbers the draw within the match:
	// 1 for a match's only draw, the party in Joker, the tie-break round in jokerbank.
	Dealer
	// Trumps is Magister's random assignment of trump suits to the players (variant 1); n is 1.
	Trumps
	// Agent is the randomness of the computer player choosing for a seat; the bot derives n from
	// the table's version and the seat, so a replayed table replays the same agent moves.
	Agent
	numPurposes
)

var purposeNames = [numPurposes]string{"deal", "dealer", "trumps", "agent"}

// String is the purpose's lower-case name, for logs and test names.
func (p Purpose) String() string {
	if p < numPurposes {
		return purposeNames[p]
	}
	return fmt.Sprintf("purpose(%d)", uint8(p))
}

// streamBits is the width of a stream's number n; the purpose sits above it.
const streamBits = 56

// streamID is the second PCG seed word of stream (p, n): the purpose in the top byte, n below it.
// Bits of n from streamBits up are masked off, so a large n can never spill into another purpose.
func streamID(p Purpose, n uint64) uint64 { return uint64(p)<<streamBits | n&(1<<streamBits-1) }

// Stream is random stream n of purpose p of the table seeded with seed: a PCG seeded with
// (seed, p<<56 | n). n must be below 2^56; its higher bits are masked off, so such an n aliases
// n mod 2^56 of the same purpose and never reaches another purpose's streams.
func Stream(seed uint64, p Purpose, n uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, streamID(p, n)))
}

// Shuffle returns a shuffled copy of deck for deal k of the table seeded with seed: ShuffleWith on
// Stream(seed, Deal, k).
func Shuffle(deck []Card, seed, k uint64) []Card {
	return ShuffleWith(deck, Stream(seed, Deal, k))
}

// ShuffleWith returns a copy of deck shuffled with r. It is our own Fisher–Yates, so the order
// depends only on r's numbers, never on a library's shuffle algorithm.
func ShuffleWith(deck []Card, r *rand.Rand) []Card {
	out := append([]Card(nil), deck...)
	for i := len(out) - 1; i > 0; i-- {
		j := int(r.Uint64N(uint64(i + 1)))
		out[i], out[j] = out[j], out[i]
	}
	return out
}
