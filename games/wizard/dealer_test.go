package wizard

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every round the engine deals in play, for every player count and variant, is the
// round Deal re-deals from the seed, the turned trump card and the hidden stock included.
func TestDealer(t *testing.T) {
	s := gametest.DealerSettings{Seeds: 2, Piles: func(_ int, start, _ games.State, d games.Deal) error {
		st := start.(*state)
		if !st.turned.Valid() {
			return gametest.SamePiles(d.Piles, nil) // the last round deals every card
		}
		return gametest.SamePiles(d.Piles, []games.Pile{{Name: "trump", Cards: []cards.Card{st.turned}},
			{Name: "stock", Cards: st.stock.Cards()}})
	}}
	if raceBuild {
		s.Seeds = 1
	}
	gametest.CheckDealer(t, Rules(), s)
}

// TestDealBounds: Deal refuses a round the match does not have and a configuration the rules
// refuse.
func TestDealBounds(t *testing.T) {
	dr := Rules().(games.Dealer)
	short := games.Config{Players: 4, Options: map[string]string{OptShortGame: "3"}}
	for _, c := range []struct {
		cfg games.Config
		k   int
	}{{short, 0}, {short, 4}, {games.Config{Players: 3}, 21}, {games.Config{Players: 2}, 1}} {
		if _, err := dr.Deal(c.cfg, 1, c.k, nil); err == nil {
			t.Errorf("Deal(%+v, round %d) dealt", c.cfg, c.k)
		}
	}
	if n, err := dr.Deals(short); n != 3 || err != nil {
		t.Errorf("Deals(short_game=3) = %d, %v", n, err)
	}
}
