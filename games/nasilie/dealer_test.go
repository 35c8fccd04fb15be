package nasilie

import (
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every deal the engine deals in play, for four to six players, with the dealer
// sitting out or the 52-card pack, is the deal Deal re-deals from the seed, stock and the cards
// set aside included.
func TestDealer(t *testing.T) {
	s := gametest.DealerSettings{Seeds: 2, Hands: func(st games.State) []cards.Set {
		// A seat sees its cards in its View only once it looked at them (it may bid blind).
		return slices.Clone(st.(*state).hands[:st.(*state).players])
	}, Piles: func(_ int, start, _ games.State, d games.Deal) error {
		st := start.(*state)
		want := []games.Pile{{Name: "stock", Cards: st.stock.Cards()}}
		if !st.aside.Empty() {
			want = append(want, games.Pile{Name: "aside", Cards: st.aside.Cards()})
		}
		return gametest.SamePiles(d.Piles, want)
	}}
	if raceBuild {
		s.Seeds = 1
	}
	gametest.CheckDealer(t, Rules(), s)
}

// TestDealBounds: a capped match has no deal past its cap; an uncapped one may run long.
func TestDealBounds(t *testing.T) {
	dr := Rules().(games.Dealer)
	capped := games.Config{Players: 4, Options: map[string]string{OptRounds: "3"}}
	if _, err := dr.Deal(capped, 1, 13, nil); err == nil {
		t.Error("deal 13 of a 12-deal match dealt")
	}
	if d, err := dr.Deal(games.Config{Players: 4}, 1, 40, nil); err != nil || d.Hands[0].Len() != handSize {
		t.Errorf("deal 40: %+v, %v", d, err)
	}
	if n, err := dr.Deals(capped); n != 0 || err != nil {
		t.Errorf("Deals = %d, %v: play decides a Nasilie match's length", n, err)
	}
}
