package joker

import (
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Agent plays the trick game from its View. For every bid and every card it could play it deals
// the cards it has not seen to the other players many times, plays each deal out with a simple
// bid-aware policy (win cheaply while tricks are still needed, duck once the bid is made, a high
// joker to take a trick that must be won, a low joker to shed one that must be lost, no joker
// leads while other cards remain) and picks the choice with the best average score for itself,
// joker-lead penalties included. The simulated players follow the game's own rules: Playable,
// TrickWinner, ForbiddenBid and ScoreDeal.
type Agent struct{}

// agentBudget is the number of simulated deals per decision, shared among its choices: enough to
// rank them, few enough for a turn timer and for the tests under -race.
const agentBudget = 480

// Choose picks one of legal.
func (Agent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(View)
	if !ok || len(legal) == 1 || v.Seat < 0 || int(v.Seat) >= len(g.In) || !g.In[v.Seat] {
		return legal[0]
	}
	d := newSim(g, v.Hand)
	samples := max(8, agentBudget/len(legal))
	best, bestV := legal[0], -1e18
	sums := make([]float64, len(legal))
	for range samples {
		world := d.sample(rng)
		for i, a := range legal {
			x := world // a copy: sim holds arrays only
			if g.Bidding {
				sums[i] += x.rolloutFromBid(int(a.N))
			} else {
				sums[i] += x.rolloutFromPlay(a)
			}
		}
	}
	for i, a := range legal {
		if sums[i] > bestV {
			best, bestV = a, sums[i]
		}
	}
	return best
}

// sim is a deal seen from the agent's seat and, once sampled, a full deal to simulate. Players
// are numbered 0..m-1 in seat order among those in the party; everything is an array so a copy
// is a fresh simulation.
type sim struct {
	m, me     int
	trump     cards.Suit
	dealer    int
	handSize  int
	hands     [maxSeats]cards.Set
	bids      [maxSeats]int // -1: not bid yet
	taken     [maxSeats]int
	unseen    cards.Set
	sizes     [maxSeats]int // cards held by each player now
	trick     trick         // the trick in progress; its seats are sim players
	turn      int           // whose turn
	leads     int           // the agent's penalised joker leads
	leftLeads bool
}

// newSim reads the agent's view.
func newSim(g View, hand []cards.Card) sim {
	var d sim
	idx := map[games.Seat]int{}
	for s, in := range g.In {
		if in {
			idx[games.Seat(s)] = d.m
			d.m++
		}
	}
	d.me = idx[g.Seat]
	d.dealer = idx[g.Dealer]
	d.trump = g.Trump
	d.handSize = g.HandSize
	seen := cards.SetOf(hand...).Add(g.TurnUp)
	for s, i := range idx {
		d.bids[i], d.taken[i] = g.Bids[s], g.Taken[s]
		d.sizes[i] = len(hand)
	}
	d.hands[d.me] = cards.SetOf(hand...)
	d.turn = d.me
	for _, p := range g.Trick {
		seen = seen.Add(p.Card)
		i := idx[p.Seat]
		d.sizes[i] = len(hand) - 1
		d.trick.add(games.Seat(i), p.Card, p.Call)
	}
	for _, p := range g.Last {
		seen = seen.Add(p.Card)
	}
	d.unseen = packSet.Minus(seen)
	d.leftLeads = g.LeftLeads
	return d
}

// sample deals the unseen cards to the other players, each keeping his hand size.
func (d sim) sample(rng *rand.Rand) sim {
	pool := d.unseen.Cards()
	for i := range d.m {
		if i == d.me {
			continue
		}
		var h cards.Set
		for range min(d.sizes[i], len(pool)) {
			j := rng.IntN(len(pool))
			h = h.Add(pool[j])
			pool[j] = pool[len(pool)-1]
			pool = pool[:len(pool)-1]
		}
		d.hands[i] = h
	}
	return d
}

// rolloutFromBid makes the agent's bid b, estimates the later bids, plays the deal out and
// returns the agent's score.
func (d sim) rolloutFromBid(b int) float64 {
	d.bids[d.me] = b
	for i := (d.me + 1) % d.m; i != (d.dealer+1)%d.m; i = (i + 1) % d.m {
		d.bids[i] = d.estimateBid(i)
	}
	d.turn = d.dealer // joker.md J-FIRSTLEAD
	if d.leftLeads {
		d.turn = (d.dealer + 1) % d.m
	}
	d.trick = trick{}
	return d.playOut()
}

// rolloutFromPlay plays a for the agent, then the rest of the deal, and returns its score.
func (d sim) rolloutFromPlay(a games.Action) float64 {
	call := NoCall
	switch a.Kind {
	case KindHigh:
		call = High
	case KindLow:
		call = Low
	}
	d.put(d.me, a.Card, call)
	return d.playOut()
}

// put plays card c for player p and collects the trick when it is complete.
func (d *sim) put(p int, c cards.Card, call Call) {
	if d.trick.n == 0 && c.IsJoker() && d.hands[p].Len() > 1 && p == d.me {
		d.leads++
	}
	d.hands[p] = d.hands[p].Remove(c)
	d.trick.add(games.Seat(p), c, d.trick.valueOf(c, call))
	if d.trick.n < d.m {
		d.turn = (p + 1) % d.m
		return
	}
	w := int(d.trick.winner(d.trump))
	d.taken[w]++
	d.trick = trick{}
	d.turn = w
}

// playOut plays to the end of the deal with the policy and scores the agent.
func (d *sim) playOut() float64 {
	for !d.hands[d.turn].Empty() {
		c, call := d.policy(d.turn)
		d.put(d.turn, c, call)
	}
	return float64(ScoreDeal(d.bids[d.me], d.taken[d.me], d.leads, false).Points)
}

// policy is the simulated players' play (playPolicy).
func (d *sim) policy(p int) (cards.Card, Call) {
	return playPolicy(d.hands[p], d.bids[p]-d.taken[p], &d.trick, d.m, d.trump)
}

// estimateBid guesses a simulated player's bid from his hand (bidEstimate); the dealer avoids the
// forbidden total (J-HOOK).
func (d *sim) estimateBid(p int) int {
	e := bidEstimate(d.hands[p], d.trump, d.m)
	b := int(e + 0.5)
	if p == d.dealer {
		var others []int
		for i := range d.m {
			if i != p {
				others = append(others, d.bids[i])
			}
		}
		b = avoidForbidden(b, e, ForbiddenBid(d.handSize, others), d.handSize)
	}
	return b
}

// strength orders cards for the policy: trumps above plain suits, then rank.
func strength(c cards.Card, trump cards.Suit) int {
	s := int(c.Rank())
	if trump != cards.NoSuit && c.Suit() == trump {
		s += 20
	}
	return s
}

// wins reports whether c, played now with call to trick t, would take the lead of the trick
// (joker.md "Winning a trick").
func wins(t trick, c cards.Card, call Call, trump cards.Suit) bool {
	t.add(games.Nobody, c, t.valueOf(c, call))
	return TrickWinner(t.cards[:t.n], t.calls[:t.n], trump) == t.n-1
}

// playPolicy is the simple play of the agent's simulations and of the search's rollouts, for a
// player holding hand who still needs need tricks, to trick t of a deal of m players: win cheaply
// while tricks are needed, duck otherwise; jokers high to win, low to duck, led only when nothing
// else is left. It plays only what Playable allows.
func playPolicy(hand cards.Set, need int, t *trick, m int, trump cards.Suit) (cards.Card, Call) {
	var jk cards.Card
	var plain []cards.Card
	for _, c := range Playable(hand, t.follow()).Cards() {
		if c.IsJoker() {
			jk = c
		} else {
			plain = append(plain, c)
		}
	}
	want := Low
	if need > 0 {
		want = High
	}
	if t.n == 0 {
		if len(plain) == 0 {
			return jk, want
		}
		best := plain[0]
		for _, c := range plain[1:] {
			if (need > 0) == (strength(c, trump) > strength(best, trump)) {
				best = c
			}
		}
		return best, NoCall
	}
	last := t.n == m-1
	highJoker := slices.Contains(t.calls[:t.n], High) // its player wins the trick
	var win, lose cards.Card
	for _, c := range plain {
		if wins(*t, c, NoCall, trump) {
			// last to play: the cheapest winner; otherwise the strongest
			if win == cards.NoCard || (last == (strength(c, trump) < strength(win, trump))) {
				win = c
			}
		} else if lose == cards.NoCard || strength(c, trump) > strength(lose, trump) {
			lose = c
		}
	}
	if need > 0 {
		switch {
		case win != cards.NoCard:
			return win, NoCall
		case jk != cards.NoCard && !highJoker:
			return jk, High
		}
		low := cards.NoCard
		for _, c := range plain {
			if low == cards.NoCard || strength(c, trump) < strength(low, trump) {
				low = c
			}
		}
		if low == cards.NoCard {
			return jk, Low
		}
		return low, NoCall
	}
	switch {
	case lose != cards.NoCard:
		return lose, NoCall
	case jk != cards.NoCard:
		return jk, Low
	}
	low := win
	for _, c := range plain {
		if strength(c, trump) < strength(low, trump) {
			low = c
		}
	}
	return low, NoCall
}

// bidEstimate is the tricks a hand is worth in a deal of m players: jokers and high trumps are
// tricks, aces and kings likely ones.
func bidEstimate(hand cards.Set, trump cards.Suit, m int) float64 {
	e := 0.0
	for _, c := range hand.Cards() {
		switch {
		case c.IsJoker():
			e++
		case trump != cards.NoSuit && c.Suit() == trump:
			e += min(1, max(0.1, float64(int(c.Rank())-7)/7))
		case c.Rank() == cards.Ace:
			e += 0.8 - 0.1*float64(m-2)
		case c.Rank() == cards.King:
			e += 0.45 - 0.1*float64(m-2)
		}
	}
	return e
}

// avoidForbidden moves bid b, rounded from the estimate e, off the dealer's forbidden bid
// (J-HOOK; -1 for none) in a deal of hand cards: down when the estimate was rounded up or b is the
// whole hand, else up.
func avoidForbidden(b int, e float64, forbidden, hand int) int {
	if b != forbidden {
		return b
	}
	if b > 0 && e < float64(b) || b == hand {
		return b - 1
	}
	return b + 1
}
