package wizard

import (
	"math"
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Agent plays Wizard to make its bid exactly: it bids the tricks its Wizards, high trumps and aces
// should take, takes tricks with the cheapest winning card while it still needs them, and ducks
// with the highest losing card once it has enough. It reads only the seat's View and Legal.
type Agent struct{}

// Choose picks the trump suit, a bid or a card from the seat's view; from a view that is not
// Wizard's it plays like games.Random.
func (Agent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	p, ok := v.Game.(View)
	if !ok || len(legal) == 0 {
		return games.Random{}.Choose(v, legal, rng)
	}
	hand := cards.SetOf(v.Hand...)
	switch legal[0].Kind {
	case KindTrump:
		return chooseTrump(hand, legal)
	case KindBid:
		return chooseBid(p, hand, legal)
	case KindPlay:
		return choosePlay(p, v.Seat, hand, legal)
	}
	return games.Random{}.Choose(v, legal, rng)
}

// chooseTrump names the suit in which the hand is longest and strongest.
func chooseTrump(hand cards.Set, legal []games.Action) games.Action {
	best, bestScore := legal[0], -1
	for _, a := range legal {
		st := cards.Suit(a.N)
		score := 0
		for _, c := range hand.Suit(st).Cards() {
			score += 10 + int(c.Rank())
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}

// expectedTricks estimates how many tricks hand takes under trump with n players.
func expectedTricks(hand cards.Set, trump cards.Suit, n, r int) float64 {
	crowd := float64(n-3) * 0.06 // more players: more Wizards and trumps against every card
	total := 0.0
	trumps := 0
	if trump != cards.NoSuit {
		trumps = hand.Suit(trump).Len()
	}
	for _, c := range hand.Cards() {
		switch {
		case c.IsWizard():
			total += 0.95
		case c.IsJester():
		case c.Suit() == trump:
			switch rk := c.Rank(); {
			case rk == cards.Ace:
				total += 0.9
			case rk == cards.King:
				total += 0.75
			case rk == cards.Queen:
				total += 0.6
			case rk >= 10:
				total += 0.45
			default:
				total += 0.25
			}
		default:
			long := float64(hand.Suit(c.Suit()).Len()-1) * 0.1 // the longer the suit, the sooner it is trumped
			base := 0.0
			switch c.Rank() {
			case cards.Ace:
				base = 0.75
			case cards.King:
				base = 0.4
			case cards.Queen:
				base = 0.15
			}
			if trump == cards.NoSuit {
				base *= 1.15
			}
			if base > 0 {
				total += max(0, base-long-crowd)
			}
		}
	}
	if trump != cards.NoSuit && trumps > 0 {
		// Voids in side suits let spare trumps ruff.
		for _, st := range cards.Suits {
			if st != trump && hand.Suit(st).Empty() && r > 2 {
				total += 0.2 * float64(min(trumps, 2))
			}
		}
		if trumps >= 3 {
			total += 0.2 * float64(trumps-2)
		}
	}
	// Calibrated on seeded self-play: the card values above undercount tricks by about 30 %.
	return 1.3*total + 0.15
}

// chooseBid bids the rounded estimate, or the nearest allowed number.
func chooseBid(p View, hand cards.Set, legal []games.Action) games.Action {
	return closestBid(expectedTricks(hand, p.Trump, p.Players, p.Cards), legal)
}

// closestBid is the bid of legal nearest to want, the first of two as near.
func closestBid(want float64, legal []games.Action) games.Action {
	best, bestD := legal[0], math.Inf(1)
	for _, a := range legal {
		if d := math.Abs(float64(a.N) - want); d < bestD {
			best, bestD = a, d
		}
	}
	return best
}

// nearestBid is the bid of 0..r nearest to want, the lower one of two as near: what chooseBid
// bids when every bid is allowed.
func nearestBid(want float64, r int) int {
	return min(r, max(0, int(math.Ceil(want-0.5))))
}

// strength orders cards by how sure they are to win a trick: Wizards, trumps, ranks, Jesters.
func strength(c cards.Card, trump cards.Suit) int {
	switch {
	case c.IsWizard():
		return 100
	case c.IsJester():
		return 0
	case c.Suit() == trump:
		return 50 + int(c.Rank())
	}
	return int(c.Rank())
}

// boss reports whether no unseen card outranks the suited card c in its suit.
func boss(c cards.Card, seen cards.Set) bool {
	if !c.IsFrench() {
		return c.IsWizard()
	}
	for r := c.Rank() + 1; r <= cards.Ace; r++ {
		if !seen.Has(cards.French(c.Suit(), r)) {
			return false
		}
	}
	return true
}

// choosePlay plays to make the bid: take with the cheapest sure winner while tricks are
// needed, otherwise duck with the highest loser.
func choosePlay(p View, seat games.Seat, hand cards.Set, legal []games.Action) games.Action {
	need := 0
	if seat >= 0 && int(seat) < len(p.Bids) {
		need = p.Bids[seat] - p.Taken[seat]
	}
	trump := p.Trump
	seen := hand | p.Played
	last := len(p.Trick) == p.Players-1
	unseenWizards := (wizards &^ seen).Len()
	var mine, winners, losers []cards.Card
	trick := make([]cards.Card, len(p.Trick)+1)
	copy(trick, p.Trick)
	for _, a := range legal {
		mine = append(mine, a.Card)
		trick[len(p.Trick)] = a.Card
		if TrickWinner(trick, trump) == len(p.Trick) {
			winners = append(winners, a.Card)
		} else {
			losers = append(losers, a.Card)
		}
	}
	// pick is the weakest (or, with high, the strongest) card of cs that keep accepts, or NoCard.
	pick := func(cs []cards.Card, high bool, keep func(cards.Card) bool) cards.Card {
		best := cards.NoCard
		for _, c := range cs {
			if !keep(c) {
				continue
			}
			if d := strength(c, trump) - strength(best, trump); best == cards.NoCard || high && d > 0 || !high && d < 0 {
				best = c
			}
		}
		return best
	}
	anyCard := func(cards.Card) bool { return true }
	suited := func(c cards.Card) bool { return c.IsFrench() && c.Suit() != trump }
	notWizard := func(c cards.Card) bool { return !c.IsWizard() }
	// sure: nothing unseen can beat c once it leads or wins the trick so far.
	sure := func(c cards.Card) bool {
		if c.IsWizard() {
			return len(p.Trick) > 0 // a led Wizard can be matched by none, but save it for later
		}
		return c.IsFrench() && unseenWizards == 0 && boss(c, seen) && (c.Suit() == trump || trump == cards.NoSuit || noTrumpsOut(seen, trump))
	}
	play := func(c cards.Card) games.Action { return games.With(KindPlay, c) }

	if need > 0 {
		// Wizards are sure tricks: with enough of them, take with a Wizard and lose with the rest.
		if (hand & wizards).Len() >= need {
			if c := pick(winners, false, func(c cards.Card) bool { return c.IsWizard() }); c != cards.NoCard {
				return play(c)
			}
			if c := pick(losers, true, notWizard); c != cards.NoCard {
				return play(c)
			}
		}
		if len(p.Trick) == 0 {
			if need >= hand.Len() {
				return play(pick(mine, true, anyCard))
			}
			if c := pick(mine, false, sure); c != cards.NoCard {
				return play(c)
			}
			// A boss trump, then a boss ace while hands are long, are the next best leads.
			if c := pick(mine, false, func(c cards.Card) bool {
				return c.IsFrench() && boss(c, seen) && (c.Suit() == trump || hand.Len() > 2 && c.Rank() == cards.Ace)
			}); c != cards.NoCard {
				return play(c)
			}
			// Nothing sure: lose a small side card and keep the winners.
			if c := pick(mine, false, suited); c != cards.NoCard {
				return play(c)
			}
			return play(pick(mine, false, anyCard))
		}
		if len(winners) > 0 {
			if last {
				return play(pick(winners, false, anyCard))
			}
			if c := pick(winners, false, func(c cards.Card) bool { return notWizard(c) && sure(c) }); c != cards.NoCard {
				return play(c)
			}
			if c := pick(winners, false, func(c cards.Card) bool { return c.IsWizard() }); c != cards.NoCard {
				return play(c)
			}
			return play(pick(winners, true, anyCard))
		}
		// Cannot win: throw the least useful card, keeping Jesters for ducking later.
		if c := pick(losers, false, suited); c != cards.NoCard {
			return play(c)
		}
		return play(pick(losers, false, anyCard))
	}

	// Enough tricks: lose this one.
	if len(p.Trick) == 0 {
		if c := pick(mine, false, func(c cards.Card) bool { return c.IsJester() }); c != cards.NoCard {
			return play(c)
		}
		if c := pick(mine, false, suited); c != cards.NoCard {
			return play(c)
		}
		return play(pick(mine, false, anyCard))
	}
	if len(losers) > 0 {
		// The highest card that still loses (a trick's winner never changes to an earlier card);
		// Jesters last, as the emergency exit.
		if c := pick(losers, true, func(c cards.Card) bool { return !c.IsJester() }); c != cards.NoCard {
			return play(c)
		}
		return play(pick(losers, false, anyCard))
	}
	if last {
		// Forced to take it: shed the strongest card.
		return play(pick(winners, true, anyCard))
	}
	// Forced to lead the trick so far: the lowest winner is the likeliest to be overtaken.
	return play(pick(winners, false, anyCard))
}

// noTrumpsOut reports whether every trump has been seen.
func noTrumpsOut(seen cards.Set, trump cards.Suit) bool {
	return seen.Suit(trump).Len() == 13
}
