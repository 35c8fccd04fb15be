package wizard

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Deals is the number of rounds of a match of cfg: every round 1..60/players, or the rounds the
// short_game option keeps (wizard.md §2, §10).
func (r rules) Deals(cfg games.Config) (int, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return 0, err
	}
	return int(set.nRounds), nil
}

// Deal re-deals round k from the seed (games.Dealer). Nothing in a Wizard match depends on play
// before it is dealt: the first dealer is drawn from the seed, the deal passes left every round
// and the round's size comes from the options, so played is not needed.
func (r rules) Deal(cfg games.Config, seed uint64, k int, _ []games.Move) (games.Deal, error) {
	set, err := parseConfig(r, cfg)
	if err != nil {
		return games.Deal{}, err
	}
	if err := games.CheckDeal(Name, k, int(set.nRounds)); err != nil {
		return games.Deal{}, err
	}
	st := &state{set: set, seed: seed, ri: int8(k - 1)}
	st.dealer = (firstDealer(set.players, seed) + int8(k-1)) % set.players
	var evs []games.Event
	st.deal(&evs)
	d := games.Deal{Dealer: games.Seat(st.dealer), Hands: slices.Clone(st.hands[:set.players])}
	if st.turned.Valid() {
		d.Piles = []games.Pile{{Name: "trump", Cards: []cards.Card{st.turned}}, {Name: "stock", Cards: st.stock.Cards()}}
	}
	return d, nil
}
