package jokerbank

import (
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// Deals is the session's rounds, or 0 for an open session, which a punter ends (J1-END).
func (r rules) Deals(cfg games.Config) (int, error) {
	if err := games.Validate(r, cfg); err != nil {
		return 0, fmt.Errorf("jokerbank: %w", err)
	}
	rounds, _ := strconv.Atoi(cfg.Get(r.Options(), OptRounds)) // "open" reads as 0
	return rounds, nil
}

// Deal re-deals round k from the seed (games.Dealer): nobody holds cards; the pile "pack" is
// the fresh shuffle of the round in the order the banker turns it, as far as he may turn
// (joker.md version 1, "One round"). The first banker is drawn from the seed; later bankers
// depend on the rounds before, so Dealer is the seat that did not stake in played, or Nobody
// without it.
func (r rules) Deal(cfg games.Config, seed uint64, k int, played []games.Move) (games.Deal, error) {
	n, err := r.Deals(cfg)
	if err != nil {
		return games.Deal{}, err
	}
	if err := games.CheckDeal("jokerbank", k, n); err != nil {
		return games.Deal{}, err
	}
	d := games.Deal{Dealer: games.Nobody, Hands: make([]cards.Set, cfg.Players)}
	switch {
	case played != nil:
		d.Dealer = banker(cfg.Players, played)
	case k == 1:
		_, d.Dealer = drawBanker(cfg.Players, seed)
	}
	deck := cards.Shuffle(joker.Pack(), seed, uint64(k))
	d.Piles = []games.Pile{{Name: "pack", Cards: deck[:Turns]}}
	return d, nil
}

// banker is the one seat of n that placed no stake among a round's moves, or Nobody.
func banker(n int, played []games.Move) games.Seat {
	staked := make([]bool, n)
	for _, m := range played {
		if m.Seat >= 0 && int(m.Seat) < n {
			staked[m.Seat] = true
		}
	}
	who := games.Nobody
	for s, ok := range staked {
		if !ok {
			if who != games.Nobody {
				return games.Nobody
			}
			who = games.Seat(s)
		}
	}
	return who
}
