package magister

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every deal the engine deals in play, for two to four players and every trump
// variant, is the deal Deal re-deals from the seed, the cards set aside included, and dealt by
// the same seat.
func TestDealer(t *testing.T) {
	gametest.CheckDealer(t, Rules(), gametest.DealerSettings{Seeds: 1, Piles: func(_ int, start, _ games.State, d games.Deal) error {
		return gametest.SamePiles(d.Piles, []games.Pile{{Name: "aside", Cards: start.(*state).aside.Cards()}})
	}})
}

// TestDealBounds: Magister has 24 deals, always.
func TestDealBounds(t *testing.T) {
	dr := Rules().(games.Dealer)
	cfg := games.Config{Players: 3}
	if n, err := dr.Deals(cfg); n != Deals || err != nil {
		t.Errorf("Deals = %d, %v", n, err)
	}
	if _, err := dr.Deal(cfg, 3, Deals+1, nil); err == nil {
		t.Error("deal 25 dealt")
	}
	if _, err := dr.Deal(games.Config{Players: 5}, 3, 1, nil); err == nil {
		t.Error("a deal for five players")
	}
}
