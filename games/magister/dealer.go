package magister

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// Deals is always 24 (§2.2).
func (r rules) Deals(cfg games.Config) (int, error) {
	if err := games.Validate(r, cfg); err != nil {
		return 0, err
	}
	return Deals, nil
}

// Deal re-deals deal k from the seed (games.Dealer). Who deals follows from the seed alone: the
// first dealer by lot (§2.3), the next dealer is the first leader of the deal before (M-DEALER),
// which is the holder of the lowest diamond dealt in deal 1 and the dealer's left in the others
// (§2.5), so played is not needed. The pile "aside" is the cards no one is dealt.
func (r rules) Deal(cfg games.Config, seed uint64, k int, _ []games.Move) (games.Deal, error) {
	if err := games.CheckDeal(Name, k, Deals); err != nil {
		return games.Deal{}, err
	}
	st, err := r.New(cfg, seed)
	if err != nil {
		return games.Deal{}, err
	}
	g := st.(*state)
	dealer, leader := g.dealer, games.Nobody
	var d games.Deal
	for i := 1; i <= k; i++ {
		if i > 1 {
			dealer = leader
		}
		hands, aside := g.dealt(i, dealer)
		leader = g.firstLeader(i, dealer, hands)
		d = games.Deal{Dealer: dealer, Hands: slices.Clone(hands[:g.n]), Piles: []games.Pile{{Name: "aside", Cards: aside.Cards()}}}
	}
	return d, nil
}
