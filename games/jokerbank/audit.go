package jokerbank

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// Zones: the deck is shuffled afresh for each round, so between actions it is one pile.
func (st *state) Zones() []cards.Set { return []cards.Set{st.Deck()} }

// Deck is the 54-card joker.Pack.
func (st *state) Deck() cards.Set { return cards.SetOf(joker.Pack()...) }

// Redeal has nothing to move: no card is hidden between rounds.
func (st *state) Redeal(games.Seat, *rand.Rand) games.State {
	n := *st
	return &n
}
