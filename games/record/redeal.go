package record

import (
	"errors"
	"fmt"

	"github.com/kozyr-bot/kozyr/games"
)

// ErrDealCount means the number of deals is play's to decide and nobody said it.
var ErrDealCount = errors.New("the number of deals depends on play")

// Redeal deals deals 1..n of a match of cfg again from its seed with r's games.Dealer (n = 0: as
// many as the configuration fixes). played[k-1], where given, are deal k's moves from the log, for
// the games whose deals depend on earlier play. It is what kozyr verify prints.
func Redeal(r games.Rules, cfg games.Config, seed uint64, n int, played [][]games.Move) ([]games.Deal, error) {
	dr, ok := r.(games.Dealer)
	if !ok {
		return nil, fmt.Errorf("redeal: %s cannot re-deal", r.Name())
	}
	if n <= 0 {
		fixed, err := dr.Deals(cfg)
		if err != nil {
			return nil, fmt.Errorf("redeal: %w", err)
		}
		if fixed == 0 {
			return nil, fmt.Errorf("redeal: %s: %w", r.Name(), ErrDealCount)
		}
		n = fixed
	}
	out := make([]games.Deal, 0, n)
	for k := 1; k <= n; k++ {
		var moves []games.Move
		if k <= len(played) {
			moves = played[k-1]
		}
		d, err := dr.Deal(cfg, seed, k, moves)
		if err != nil {
			return nil, fmt.Errorf("redeal: deal %d: %w", k, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// Redeal deals the record's deals again from its seed (see Redeal), with each deal's moves from
// its log; r must be the record's game at its rules version.
func (rec Record) Redeal(r games.Rules) ([]games.Deal, error) {
	if rec.Game != r.Name() || rec.Rules != r.Version() {
		return nil, fmt.Errorf("redeal: the record is of %s rules %d, the engine is %s rules %d", rec.Game, rec.Rules, r.Name(), r.Version())
	}
	if len(rec.Deals) == 0 {
		return nil, nil
	}
	played, err := rec.DealMoves()
	if err != nil {
		return nil, fmt.Errorf("redeal: %w", err)
	}
	return Redeal(r, rec.Config(), uint64(rec.Seed), len(rec.Deals), played)
}
