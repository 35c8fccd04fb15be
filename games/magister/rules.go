package magister

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Name is the game id persisted with every table.
const Name = "magister"

// Option keys of the lobby (§3): the variant, how variant-1 trumps are set, and the suits of
// variants 3 and 4.
const (
	OptVariant = "variant" // "1".."5"
	OptTrumps  = "trumps"  // variant 1: "choose" (each player in turn) or "random"
	OptTrump3  = "trump3"  // variant 3: the suit
	OptTrump4  = "trump4"  // variant 4: the two suits, "hearts-clubs"
)

// Rules returns the rules of Magister.
func Rules() games.Rules { return rules{} }

// rules is Magister's games.Rules; it also rates players across matches (games.Rater) and has its
// own computer player (games.AgentRules).
type rules struct{}

// Name is "magister".
func (rules) Name() string { return Name }

// Seats is 2–4 players (§2.1).
func (rules) Seats() (min, max int) { return 2, 4 }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (rules) Version() int { return 2 }

// OverallRating is the overall rating of §10 over matches games whose results (the sheet's
// Totals) add up to totalPoints: "53.69%", or "—" with no games (M-RATING).
func (rules) OverallRating(totalPoints, matches int) games.Msg {
	return games.M("magister.overall", "Rating", OverallRatingText(totalPoints, matches), "Count", matches)
}

// Agent is Magister's computer player.
func (rules) Agent() games.Agent { return Agent{} }

// RolloutAgent is the cheaper player of the search's simulated deals (games.RolloutRules): the
// rule agent simulates ten deals of the unseen cards per decision, the rollouts one.
func (rules) RolloutAgent() games.Agent { return RolloutAgent() }

// Options are the trump variant and its trump choices (§3).
func (rules) Options() []games.Option {
	var pairs []string
	for i, a := range suitKinds {
		for _, b := range suitKinds[i+1:] {
			pairs = append(pairs, a+"-"+b)
		}
	}
	return []games.Option{
		{Key: OptVariant, Values: []string{"1", "2", "3", "4", "5"}, Default: "1"},
		{Key: OptTrumps, Values: []string{"choose", "random"}, Default: "choose"},
		{Key: OptTrump3, Values: suitKinds[:], Default: "hearts"},
		{Key: OptTrump4, Values: pairs, Default: "hearts-clubs"},
	}
}

// suitKinds are the action kinds of the trump choice and the suit names of the options, in
// display order (§3, M-TRUMPCHOICE).
var suitKinds = [4]string{"spades", "hearts", "diamonds", "clubs"}

// suitOfKind is the suit a trump-choice action or an option value names.
func suitOfKind(kind string) (cards.Suit, bool) {
	i := slices.Index(suitKinds[:], kind)
	if i < 0 {
		return cards.NoSuit, false
	}
	return suitOrder[i], true
}

// Unmarshal restores a state written by MarshalBinary; anything else wraps games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	g, err := unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("%w: magister: %w", games.ErrCorrupt, err)
	}
	return g, nil
}

// Setup overrides what New otherwise draws from the seed or the options, for tests and replays.
type Setup struct {
	Dealer *games.Seat    // the first dealer; nil: by lot (§2.3)
	Own    []cards.Suit   // variant 1: seat → trump; nil: chosen by the players or at random
	Packs  [][]cards.Card // the shuffled and cut pack of deals 1, 2, ...; missing: seeded shuffle
}

// New starts a game: the first dealer by lot, then the trump choice (variant 1) or deal 1.
func (rules) New(cfg games.Config, seed uint64) (games.State, error) {
	return NewGame(cfg, seed, Setup{})
}

// NewGame is New with parts of the setup given: a first dealer, a variant-1 trump map (rejected
// unless it gives every player exactly one suit, all different, §3) and packs.
func NewGame(cfg games.Config, seed uint64, su Setup) (games.State, error) {
	r := rules{}
	if err := games.Validate(r, cfg); err != nil {
		return nil, err
	}
	opts := r.Options()
	variant, _ := strconv.Atoi(cfg.Get(opts, OptVariant))
	n := cfg.Players
	if len(su.Packs) > Deals {
		return nil, fmt.Errorf("%w: %d packs for %d deals", games.ErrBadConfig, len(su.Packs), Deals)
	}
	for i, p := range su.Packs {
		if !isPack(p) {
			return nil, fmt.Errorf("%w: pack %d is not the 36-card pack", games.ErrBadConfig, i+1)
		}
	}
	g := &state{n: n, seed: seed}
	for _, p := range su.Packs {
		g.packs = append(g.packs, slices.Clone(p))
	}
	if su.Dealer != nil {
		if *su.Dealer < 0 || int(*su.Dealer) >= n {
			return nil, fmt.Errorf("%w: no seat %d", games.ErrBadConfig, *su.Dealer)
		}
		g.dealer = *su.Dealer
	} else {
		g.dealer = games.Seat(cards.Stream(seed, cards.Dealer, 1).IntN(n)) // §2.3: by lot
	}
	if su.Own != nil && variant != VariantOwn {
		return nil, fmt.Errorf("%w: a trump map is for variant 1 only", games.ErrBadConfig)
	}
	switch variant {
	case VariantOwn:
		switch {
		case su.Own != nil:
			g.tr = Trumps{Variant: VariantOwn, Own: slices.Clone(su.Own)}
		case cfg.Get(opts, OptTrumps) == "random":
			perm := cards.Stream(seed, cards.Trumps, 1).Perm(4)
			g.tr = Trumps{Variant: VariantOwn, Own: make([]cards.Suit, n)}
			for p := range n {
				g.tr.Own[p] = suitOrder[perm[p]]
			}
		default:
			// M-TRUMPCHOICE: the players choose in seat order from the first dealer's left.
			g.tr = Trumps{Variant: VariantOwn, Own: make([]cards.Suit, n)}
			for p := range n {
				g.tr.Own[p] = cards.NoSuit
			}
			g.choosing = true
			g.stock = PackSet()
			g.turn = g.left(g.dealer)
			return g, nil
		}
	case VariantOne:
		s, _ := suitOfKind(cfg.Get(opts, OptTrump3))
		g.tr = Trumps{Variant: variant, Shared: []cards.Suit{s}}
	case VariantTwo:
		a, b, _ := strings.Cut(cfg.Get(opts, OptTrump4), "-")
		sa, _ := suitOfKind(a)
		sb, _ := suitOfKind(b)
		g.tr = Trumps{Variant: variant, Shared: []cards.Suit{sa, sb}}
	default:
		g.tr = Trumps{Variant: variant}
	}
	if err := g.tr.Validate(n); err != nil {
		return nil, fmt.Errorf("%w: magister: %w", games.ErrBadConfig, err)
	}
	g.startDeal(1)
	return g, nil
}

// isPack reports whether p is the 36-card pack in some order.
func isPack(p []cards.Card) bool {
	return len(p) == 36 && cards.SetOf(p...) == PackSet()
}
