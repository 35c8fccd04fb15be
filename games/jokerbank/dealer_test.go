package jokerbank

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every round the engine plays, for every player count and session length, turns
// the cards Deal re-deals from the seed in the same order, and the banker Deal reads from the
// round's stakes is the engine's.
func TestDealer(t *testing.T) {
	s := gametest.DealerSettings{Seeds: 2, Piles: func(k int, start, end games.State, d games.Deal) error {
		turned := end.(*state).turned[:end.(*state).nTurned]
		if len(d.Piles) != 1 || d.Piles[0].Name != "pack" || len(d.Piles[0].Cards) != Turns ||
			!slices.Equal(d.Piles[0].Cards[:len(turned)], turned) {
			return fmt.Errorf("round %d: re-dealt %v, the banker turned %v", k, d.Piles, turned)
		}
		if b := start.(*state).banker; d.Dealer != b {
			return fmt.Errorf("round %d: banker %d, the engine's %d", k, d.Dealer, b)
		}
		return nil
	}}
	if raceBuild {
		s.Seeds = 1
	}
	gametest.CheckDealer(t, Rules(), s)
}

// TestDealerFirstBanker: without the log the first round's banker is the one drawn by lot, a
// later round's is unknown.
func TestDealerFirstBanker(t *testing.T) {
	dr := Rules().(games.Dealer)
	cfg := games.Config{Players: 4}
	st, err := Rules().New(cfg, 77)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]games.Seat{1: st.(*state).banker, 2: games.Nobody} {
		if d, err := dr.Deal(cfg, 77, k, nil); err != nil || d.Dealer != want {
			t.Errorf("round %d: banker %d (%v), want %d", k, d.Dealer, err, want)
		}
	}
	if _, err := dr.Deal(cfg, 77, 21, nil); err == nil {
		t.Error("round 21 of a 20-round session dealt")
	}
}
