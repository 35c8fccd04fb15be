package magister

import (
	"bytes"
	"encoding/json"
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

// Options are the trump variant and its trump choices (§3).
func (rules) Options() []games.Option { return options() }

func options() []games.Option {
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
	g := &state{N: n, Seed: seed, Records: []DealRecord{}}
	for i, p := range su.Packs {
		if len(p) != 36 || cards.SetOf(p...) != PackSet() {
			return nil, fmt.Errorf("%w: pack %d is not the 36-card pack", games.ErrBadConfig, i+1)
		}
	}
	g.Packs = slices.Clone(su.Packs)
	if su.Dealer != nil {
		if *su.Dealer < 0 || int(*su.Dealer) >= n {
			return nil, fmt.Errorf("%w: no seat %d", games.ErrBadConfig, *su.Dealer)
		}
		g.Dealer = *su.Dealer
	} else {
		g.Dealer = games.Seat(cards.Stream(seed, cards.Dealer, 1).IntN(n)) // §2.3: by lot
	}
	if su.Own != nil && variant != VariantOwn {
		return nil, fmt.Errorf("%w: a trump map is for variant 1 only", games.ErrBadConfig)
	}
	switch variant {
	case VariantOwn:
		switch {
		case su.Own != nil:
			g.Tr = Trumps{Variant: VariantOwn, Own: slices.Clone(su.Own)}
		case cfg.Get(opts, OptTrumps) == "random":
			perm := cards.Stream(seed, cards.Trumps, 1).Perm(4)
			g.Tr = Trumps{Variant: VariantOwn, Own: make([]cards.Suit, n)}
			for p := range n {
				g.Tr.Own[p] = suitOrder[perm[p]]
			}
		default:
			// M-TRUMPCHOICE: the players choose in seat order from the first dealer's left.
			g.Tr = Trumps{Variant: VariantOwn, Own: make([]cards.Suit, n)}
			for p := range n {
				g.Tr.Own[p] = cards.NoSuit
			}
			g.Choosing = true
			g.Stock = PackSet()
			g.Turn = g.left(g.Dealer)
			return g, nil
		}
	case VariantOne:
		s, _ := suitOfKind(cfg.Get(opts, OptTrump3))
		g.Tr = Trumps{Variant: variant, Shared: []cards.Suit{s}}
	case VariantTwo:
		a, b, _ := strings.Cut(cfg.Get(opts, OptTrump4), "-")
		sa, _ := suitOfKind(a)
		sb, _ := suitOfKind(b)
		g.Tr = Trumps{Variant: variant, Shared: []cards.Suit{sa, sb}}
	default:
		g.Tr = Trumps{Variant: variant}
	}
	if err := g.Tr.Validate(n); err != nil {
		return nil, fmt.Errorf("%w: %w", games.ErrBadConfig, err)
	}
	g.startDeal(1)
	return g, nil
}

// MarshalBinary writes the state as JSON (deterministic: structs and slices only).
func (g *state) MarshalBinary() ([]byte, error) { return json.Marshal(g) }

// Unmarshal restores a state written by MarshalBinary; anything else wraps games.ErrCorrupt.
func (rules) Unmarshal(b []byte) (games.State, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	g := &state{}
	if err := dec.Decode(g); err != nil {
		return nil, fmt.Errorf("%w: magister: %w", games.ErrCorrupt, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: magister: trailing data", games.ErrCorrupt)
	}
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("%w: magister: %w", games.ErrCorrupt, err)
	}
	return g, nil
}

// check rejects a decoded state that no game can reach in ways that would make a method panic or
// lose cards.
func (g *state) check() error {
	n := g.N
	if n < 2 || n > 4 {
		return fmt.Errorf("%d players", n)
	}
	seat := func(s games.Seat) bool { return s >= 0 && int(s) < n }
	if !seat(g.Dealer) || !seat(g.Leader) || !seat(g.Turn) {
		return fmt.Errorf("bad seat")
	}
	for p := n; p < 4; p++ {
		if g.Hands[p] != 0 || g.Taken[p] != 0 || g.Banks[p] != 0 || g.LastTwo[p] != 0 || g.Fours[p] != 0 {
			return fmt.Errorf("seat %d of %d has cards or banks", p, n)
		}
	}
	if g.Choosing {
		if g.Deal != 0 || g.Tr.Variant != VariantOwn || len(g.Tr.Own) != n || g.Tr.Own[g.Turn] != cards.NoSuit {
			return fmt.Errorf("bad trump choice")
		}
		var chosen []cards.Suit
		for _, s := range g.Tr.Own {
			if s != cards.NoSuit {
				chosen = append(chosen, s)
			}
		}
		if err := distinctSuits(chosen); err != nil {
			return err
		}
	} else {
		if g.Deal < 1 || g.Deal > Deals {
			return fmt.Errorf("deal %d", g.Deal)
		}
		if err := g.Tr.Validate(n); err != nil {
			return err
		}
	}
	for _, p := range g.Packs {
		if len(p) != 36 || cards.SetOf(p...) != PackSet() {
			return fmt.Errorf("bad pack")
		}
	}
	var all cards.Set
	count := 0
	for _, z := range g.Zones() {
		if !all.Intersect(z).Empty() {
			return fmt.Errorf("a card in two places")
		}
		all = all.Union(z)
		count += z.Len()
	}
	if all != PackSet() || count != 36 {
		return fmt.Errorf("cards not conserved")
	}
	for _, b := range []*Bank{g.Bank, g.Last} {
		if b == nil {
			continue
		}
		if len(b.Plays) == 0 || len(b.Plays) > n {
			return fmt.Errorf("bad bank")
		}
		for _, p := range b.Plays {
			if !seat(p.Seat) || !PackSet().Has(p.Card) || p.Outcome > Lead {
				return fmt.Errorf("bad bank")
			}
		}
		if !seat(b.TopSeat) || !seat(b.Leader) || !PackSet().Has(b.L) || !PackSet().Has(b.Top) ||
			b.S > cards.Spades || b.TopKind > Lead || b.Beaters.Minus(PackSet()) != 0 {
			return fmt.Errorf("bad bank")
		}
	}
	if g.Bank != nil && len(g.Bank.Plays) == n {
		return fmt.Errorf("uncollected bank")
	}
	if len(g.Records) > Deals {
		return fmt.Errorf("%d records", len(g.Records))
	}
	for i, r := range g.Records {
		if r.Deal != i+1 || r.Dealer < 0 || int(r.Dealer) >= n || r.Leader < 0 || int(r.Leader) >= n || len(r.Banks) != n || len(r.Points) != n || r.Counts != nil && len(r.Counts) != n {
			return fmt.Errorf("bad record %d", i+1)
		}
	}
	if g.Over != (len(g.Records) == Deals) {
		return fmt.Errorf("over with %d records", len(g.Records))
	}
	return nil
}
