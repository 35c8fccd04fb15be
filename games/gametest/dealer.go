package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// DealerSettings tune CheckDealer.
type DealerSettings struct {
	Seeds int // random matches per configuration
	// NeedsLog is set for a game whose Deal may need the deal's moves (Joker's extra parties):
	// then Deal without them is only required to agree where it does not fail.
	NeedsLog bool
	// Hands reads every seat's cards from the engine's own state, for a game whose Views do not
	// show a seat its cards as soon as they are dealt (Nasilie's blind bid); nil reads the Views.
	Hands func(st games.State) []cards.Set
	// Piles checks the cards of deal k besides the hands, as only the engine's own state shows
	// them (the skat, the turned card, the order of a banker's pack), against d, the re-deal:
	// start is the state in which deal k was dealt (its first when nobody holds cards), end the
	// one right after the action that ended it. Nil checks the hands only.
	Piles func(k int, start, end games.State, d games.Deal) error
}

// CheckDealer plays random matches of every configuration of Configs(r) and checks, deal by deal,
// that r's games.Dealer re-deals from the seed exactly what the engine dealt in play: every seat's
// hand as its View showed it when the deal was dealt (the first moment of the deal at which
// anybody holds cards), the dealer, and through s.Piles the rest. Each deal's moves are passed to
// Deal as a match's log gives them (a deal ends with the action whose events include a
// DealEnd); a match of a fixed length must have Deals(cfg) deals.
func CheckDealer(t *testing.T, r games.Rules, s DealerSettings) {
	t.Helper()
	dr, ok := r.(games.Dealer)
	if !ok {
		t.Fatalf("%s's rules are no games.Dealer", r.Name())
	}
	played := 0
	for _, cfg := range Configs(r) {
		for i := range s.Seeds {
			seed := seedFor(r.Name()+"/dealer", cfg, i)
			n, err := checkDeals(dr, r, cfg, seed, s)
			if errors.Is(err, games.ErrBadConfig) && n < 0 {
				continue // a combination of options the rules refuse
			}
			if err != nil {
				t.Fatalf("%s %+v seed %d: %v", r.Name(), cfg, seed, err)
			}
			played += n
		}
	}
	if played == 0 {
		t.Fatalf("%s: no deal was checked", r.Name())
	}
	t.Logf("%s: %d deals re-dealt as the engine dealt them", r.Name(), played)
}

// checkDeals plays one random match and checks its deals; it returns how many it checked, or -1
// when the configuration does not make a match.
func checkDeals(dr games.Dealer, r games.Rules, cfg games.Config, seed uint64, s DealerSettings) (int, error) {
	st, err := r.New(cfg, seed)
	if err != nil {
		return -1, err
	}
	rng := rand.New(rand.NewPCG(seed, 0xdea1))
	k, start := 1, st
	var hands []cards.Set // each seat's cards when deal k was dealt; nil until somebody holds some
	looked := false       // whether hands were looked for since deal k began
	var moves []games.Move
	for steps := 0; len(st.ToAct()) > 0; steps++ {
		if steps > Defaults.MaxSteps {
			return k - 1, errors.New("the match does not end")
		}
		// Every deal but the first is dealt by the action that ends the one before; the first
		// may wait for choices made before it (Magister's trumps).
		if hands == nil && (k == 1 || !looked) {
			if hands, looked = heldCards(st, s.Hands), true; hands != nil {
				start = st
			}
		}
		toAct := st.ToAct()
		seat := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(seat)
		a := legal[rng.IntN(len(legal))]
		next, evs, err := st.Apply(seat, a)
		if err != nil {
			return k - 1, fmt.Errorf("random play: %w", err)
		}
		st = next
		moves = append(moves, games.Move{Seat: seat, Action: a})
		if !dealEnded(evs) {
			continue
		}
		if err := checkDeal(dr, cfg, seed, k, moves, hands, start, st, s); err != nil {
			return k - 1, fmt.Errorf("deal %d: %w", k, err)
		}
		k, start, hands, looked, moves = k+1, st, nil, false, nil
	}
	if n, err := dr.Deals(cfg); err != nil || (n > 0 && n != k-1) {
		return k - 1, fmt.Errorf("the match had %d deals, Deals says %d (%v)", k-1, n, err)
	}
	return k - 1, nil
}

// checkDeal compares deal k's re-deal with what the engine dealt.
func checkDeal(dr games.Dealer, cfg games.Config, seed uint64, k int, moves []games.Move, hands []cards.Set,
	start, end games.State, s DealerSettings) error {
	d, err := dr.Deal(cfg, seed, k, moves)
	if err != nil {
		return fmt.Errorf("Deal with the log: %w", err)
	}
	if hands == nil {
		hands = make([]cards.Set, cfg.Players) // nobody held cards in this deal
	}
	if !reflect.DeepEqual(d.Hands, hands) {
		return fmt.Errorf("re-dealt hands %v, the engine dealt %v", d.Hands, hands)
	}
	if v := start.View(games.Nobody); v.Dealer != games.Nobody && d.Dealer != v.Dealer {
		return fmt.Errorf("re-dealt by seat %d, the engine's dealer is seat %d", d.Dealer, v.Dealer)
	}
	if s.Piles != nil {
		if err := s.Piles(k, start, end, d); err != nil {
			return err
		}
	}
	bare, err := dr.Deal(cfg, seed, k, nil)
	switch {
	case err != nil && !s.NeedsLog:
		return fmt.Errorf("Deal without the log: %w", err)
	case err == nil && !reflect.DeepEqual(bare.Hands, d.Hands) && !s.NeedsLog:
		return fmt.Errorf("Deal without the log deals %v, with it %v", bare.Hands, d.Hands)
	}
	return nil
}

// heldCards is every seat's cards, read by engine (nil: as the Views show them), or nil when
// nobody holds any.
func heldCards(st games.State, engine func(games.State) []cards.Set) []cards.Set {
	var out []cards.Set
	if engine != nil {
		out = engine(st)
	} else {
		out = make([]cards.Set, st.View(games.Nobody).Players)
		for s := range out {
			out[s] = cards.SetOf(st.View(games.Seat(s)).Hand...)
		}
	}
	for _, h := range out {
		if !h.Empty() {
			return out
		}
	}
	return nil
}

// dealEnded reports whether an action's events end a deal.
func dealEnded(evs []games.Event) bool {
	for _, e := range evs {
		if e.Kind == games.EventDealEnd {
			return true
		}
	}
	return false
}

// SamePiles is the usual body of DealerSettings.Piles: the re-dealt piles must be exactly the
// engine's.
func SamePiles(got, want []games.Pile) error {
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("re-dealt piles %v, the engine's %v", got, want)
	}
	return nil
}
