package skat

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// Deals is the match length the options set (skat.md §14).
func (r rules) Deals(cfg games.Config) (int, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return 0, fmt.Errorf("skat: %w", err)
	}
	return set.Deals, nil
}

// Deal re-deals deal k from the seed (games.Dealer): the first dealer is drawn from the seed and
// the deal passes left after every deal, a thrown-in one too (§1, §14), so played is not needed.
// With four players the dealer's hand is empty.
func (r rules) Deal(cfg games.Config, seed uint64, k int, _ []games.Move) (games.Deal, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return games.Deal{}, fmt.Errorf("skat: %w", err)
	}
	if err := games.CheckDeal(Name, k, set.Deals); err != nil {
		return games.Deal{}, err
	}
	n := games.Seat(set.Players)
	st := &state{Cfg: set, Seed: seed, Deal: k - 1, Dealer: (firstDealer(seed, set.Players) + games.Seat(k-1)) % n}
	st.deal()
	return games.Deal{Dealer: st.Dealer, Hands: slices.Clone(st.Hands[:n]),
		Piles: []games.Pile{{Name: "skat", Cards: st.Skat0.Cards()}}}, nil
}
