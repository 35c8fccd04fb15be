package nasilie

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// Deals is 0: a match runs until a total reaches 100 (or the rounds option's cap), so play
// decides its length (nasilie.md §End of the game).
func (r rules) Deals(cfg games.Config) (int, error) {
	if _, err := r.New(cfg, 0); err != nil {
		return 0, err
	}
	return 0, nil
}

// Deal re-deals deal k from the seed (games.Dealer): the first dealer is the first jack turned
// from the seed's Dealer stream (N-DEALER) and the deal passes left after every deal, so played
// is not needed; whether a match reaches deal k (at most the rounds option's cap) is play's to
// say. The piles are the four-card "stock" and, with the 52-card pack, the cards set "aside".
func (r rules) Deal(cfg games.Config, seed uint64, k int, _ []games.Move) (games.Deal, error) {
	g, err := r.New(cfg, seed)
	if err != nil {
		return games.Deal{}, err
	}
	st := g.(*state)
	if err := games.CheckDeal(Name, k, st.maxDeals); err != nil {
		return games.Deal{}, err
	}
	st.deal = k
	st.dealer = (st.dealer + games.Seat(k-1)) % games.Seat(st.players)
	st.dealCards()
	d := games.Deal{Dealer: st.dealer, Hands: slices.Clone(st.hands[:st.players]),
		Piles: []games.Pile{{Name: "stock", Cards: st.stock.Cards()}}}
	if !st.aside.Empty() {
		d.Piles = append(d.Piles, games.Pile{Name: "aside", Cards: st.aside.Cards()})
	}
	return d, nil
}
