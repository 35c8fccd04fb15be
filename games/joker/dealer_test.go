package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestDealer: every deal the engine deals in play, single parties and matches of every player
// count, is the deal Deal re-deals from the seed and the deal's moves, the turn-up and the stock
// included; extra parties, whose players only the log tells, are among them.
func TestDealer(t *testing.T) {
	extra := 0
	s := gametest.DealerSettings{Seeds: 3, NeedsLog: true, Piles: func(_ int, start, _ games.State, d games.Deal) error {
		st := start.(*state)
		if st.extra && st.players() < st.n {
			extra++
		}
		rest := packSet.Remove(st.turnUp)
		for _, h := range st.hands[:st.n] {
			rest = rest.Minus(h)
		}
		return gametest.SamePiles(d.Piles, []games.Pile{{Name: "trump", Cards: []cards.Card{st.turnUp}}, {Name: "stock", Cards: rest.Cards()}})
	}}
	if raceBuild {
		s.Seeds = 1
	}
	gametest.CheckDealer(t, Rules(), s)
	t.Logf("%d deals of extra parties without every seat", extra)
}

// TestDealerExtraParty: a deal of an extra party among fewer players than the table's is dealt
// only among the seats that acted in it, and without the log only up to the third party.
func TestDealerExtraParty(t *testing.T) {
	dr := Rules().(games.Dealer)
	cfg := games.Config{Players: 3, Options: map[string]string{OptParties: "3"}}
	k := 3*Deals + 2 // deal 2 of the first extra party, between seats 0 and 2
	moves := []games.Move{{Seat: 2, Action: games.Num(KindBid, 1)}, {Seat: 0, Action: games.Do(KindPass)}}
	d, err := dr.Deal(cfg, 9, k, moves)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Hands[1].Empty() || d.Hands[0].Len() != HandSize(2) || d.Hands[2].Len() != HandSize(2) || d.Dealer == 1 {
		t.Errorf("extra party deal: %+v", d)
	}
	if _, err := dr.Deal(cfg, 9, k, nil); err == nil {
		t.Error("a deal of the fourth party dealt without the log")
	}
	if _, err := dr.Deal(games.Config{Players: 3}, 9, Deals+1, nil); err == nil {
		t.Error("deal 14 of a single party dealt")
	}
}
