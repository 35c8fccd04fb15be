package joker

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// regularParties is the most regular parties of a match (J-MATCH); any party after them is an
// extra party among the candidates.
const regularParties = 3

// Deals is 13 for a single party; a match's length depends on its results (J-MATCH).
func (r rules) Deals(cfg games.Config) (int, error) {
	if err := games.Validate(r, cfg); err != nil {
		return 0, fmt.Errorf("joker: %w", err)
	}
	if cfg.Get(r.Options(), OptParties) == "3" {
		return 0, nil
	}
	return Deals, nil
}

// Deal re-deals deal k of the match from the seed (games.Dealer): deal d of party p is deal
// 13(p-1)+d and shuffles with that stream, the party's first dealer is drawn by lot among its
// players and the deal passes clockwise among them ("Dealer and deal", J-MATCH). Who plays an
// extra party depends on the parties before it: the seats that acted in played (everybody in a
// party bids) are its players. Without played every seat plays, as in every regular party.
func (r rules) Deal(cfg games.Config, seed uint64, k int, played []games.Move) (games.Deal, error) {
	n, err := r.Deals(cfg)
	if err != nil {
		return games.Deal{}, err
	}
	if err := games.CheckDeal("joker", k, n); err != nil {
		return games.Deal{}, err
	}
	g, err := r.New(cfg, seed)
	if err != nil {
		return games.Deal{}, err
	}
	st := g.(*state)
	p, d := (k-1)/Deals+1, (k-1)%Deals+1
	st.parties, st.deals = make([]party, p-1), make([]dealRow, d-1)
	if played != nil {
		st.in = [maxSeats]bool{}
		for _, m := range played {
			if !st.valid(m.Seat) {
				return games.Deal{}, fmt.Errorf("%w: joker: no seat %d at %d players", games.ErrBadConfig, m.Seat, st.n)
			}
			st.in[m.Seat] = true
		}
		if st.players() < 2 {
			return games.Deal{}, fmt.Errorf("%w: joker: deal %d has moves of %d seats", games.ErrBadConfig, k, st.players())
		}
	} else if p > regularParties {
		return games.Deal{}, fmt.Errorf("%w: joker: deal %d is in an extra party, whose players only the match's log tells", games.ErrBadConfig, k)
	}
	st.dealer = st.firstDealer()
	for range d - 1 {
		st.dealer = st.next(st.dealer)
	}
	hands, up := st.dealt()
	rest := packSet.Remove(up)
	for _, h := range hands[:st.n] {
		rest = rest.Minus(h)
	}
	return games.Deal{Dealer: st.dealer, Hands: slices.Clone(hands[:st.n]),
		Piles: []games.Pile{{Name: "trump", Cards: []cards.Card{up}}, {Name: "stock", Cards: rest.Cards()}}}, nil
}
