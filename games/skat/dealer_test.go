package skat

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every deal the engine deals in play, for three and four players and every option,
// is the deal Deal re-deals from the seed, the skat included.
func TestDealer(t *testing.T) {
	s := gametest.DealerSettings{Seeds: 2, Piles: func(_ int, start, _ games.State, d games.Deal) error {
		return gametest.SamePiles(d.Piles, []games.Pile{{Name: "skat", Cards: start.(*state).Skat0.Cards()}})
	}}
	if raceBuild {
		s.Seeds = 1
	}
	gametest.CheckDealer(t, Rules(), s)
}

// TestDealBounds: Deal refuses a deal past the match's length.
func TestDealBounds(t *testing.T) {
	dr := Rules().(games.Dealer)
	cfg := games.Config{Players: 3, Options: map[string]string{OptDeals: "3"}}
	if _, err := dr.Deal(cfg, 5, 4, nil); err == nil {
		t.Error("deal 4 of a 3-deal match dealt")
	}
	d, err := dr.Deal(cfg, 5, 3, nil)
	if err != nil || len(d.Hands) != 3 || d.Hands[0].Len() != 10 || len(d.Piles[0].Cards) != 2 {
		t.Errorf("deal 3: %+v, %v", d, err)
	}
}
