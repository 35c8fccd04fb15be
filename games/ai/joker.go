package ai

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

func init() { agents["joker"] = func() Agent { return JokerAgent{} } }

// JokerAgent plays the Joker trick game (joker.md version 2) from its View. For every bid and
// every card it could play it deals the cards it has not seen to the other players many times,
// plays each deal out with a simple bid-aware policy (win cheaply while tricks are still needed,
// duck once the bid is made, a high joker to take a trick that must be won, a low joker to shed
// one that must be lost, no joker leads while other cards remain) and picks the choice with the
// best average score for itself, joker-lead penalties included.
type JokerAgent struct{}

// jokerBudget is the number of simulated deals per decision, shared among its choices: enough to
// rank them, few enough for a turn timer and for the tests under -race.
const jokerBudget = 480

// Choose picks one of legal.
func (JokerAgent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(joker.View)
	if !ok || len(legal) == 1 || v.Seat < 0 || int(v.Seat) >= len(g.In) || !g.In[v.Seat] {
		return legal[0]
	}
	d := jokerNewDeal(g, v.Hand)
	samples := max(8, jokerBudget/len(legal))
	best, bestV := legal[0], -1e18
	sums := make([]float64, len(legal))
	for range samples {
		sim := d.sample(rng)
		for i, a := range legal {
			x := sim // a copy: jokerDeal holds arrays only
			if g.Bidding {
				sums[i] += x.rolloutFromBid(jokerBidOf(a))
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

func jokerBidOf(a games.Action) int {
	if a.HasN {
		return int(a.N)
	}
	return 0
}

// jokerMax is the most players of a deal (joker.md: 2 to 6).
const jokerMax = 6

// jokerDeal is a deal seen from the agent's seat and, once sampled, a full deal to simulate. Players
// are numbered 0..m-1 in seat order among those in the party; everything is an array so a copy
// is a fresh simulation.
type jokerDeal struct {
	m, me     int
	trump     cards.Suit
	dealer    int
	handSize  int
	hands     [jokerMax]cards.Set
	bids      [jokerMax]int // -1: not bid yet
	taken     [jokerMax]int
	unseen    cards.Set
	sizes     [jokerMax]int // cards held by each player now
	trick     jokerTrick
	turn      int // whose turn
	played    int // cards in the trick
	leads     int // the agent's penalised joker leads
	leftLeads bool
}

// jokerTrick is a trick in progress, kept incrementally for speed.
type jokerTrick struct {
	follow     cards.Suit
	best       cards.Card // the winning suited card, NoCard if none
	bestBy     int
	highJoker  bool // a high joker is in the trick (its player wins)
	highBy     int
	firstJoker joker.Call // the first joker's value, NoCall if none yet
}

// value is the value card c would have if played now with announcement call.
func (t *jokerTrick) value(c cards.Card, call joker.Call) joker.Call {
	if !c.IsJoker() {
		return joker.NoCall
	}
	switch t.firstJoker {
	case joker.High:
		return joker.Low
	case joker.Low:
		return joker.High
	}
	return call
}

// beats reports whether c (with call) would take the lead of the trick (joker.md "Winning a trick").
func (t *jokerTrick) beats(c cards.Card, call joker.Call, trump cards.Suit) bool {
	if t.highJoker {
		return false
	}
	if c.IsJoker() {
		return t.value(c, call) == joker.High
	}
	if t.best == cards.NoCard {
		return true
	}
	if c.Suit() == t.best.Suit() {
		return c.Rank() > t.best.Rank()
	}
	return trump != cards.NoSuit && c.Suit() == trump
}

func (t *jokerTrick) add(c cards.Card, call joker.Call, by int, trump cards.Suit) {
	win := t.beats(c, call, trump)
	if c.IsJoker() {
		v := t.value(c, call)
		if t.firstJoker == joker.NoCall {
			t.firstJoker = call
		}
		if v == joker.High {
			t.highJoker, t.highBy = true, by
		}
		return
	}
	if t.follow == cards.NoSuit {
		t.follow = c.Suit()
	}
	if win {
		t.best, t.bestBy = c, by
	}
}

func (t *jokerTrick) winner() int {
	if t.highJoker {
		return t.highBy
	}
	return t.bestBy
}

// jokerNewDeal reads the agent's view.
func jokerNewDeal(g joker.View, hand []cards.Card) jokerDeal {
	var d jokerDeal
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
	all := cards.SetOf(cards.FrenchFrom(2)...).Add(cards.Joker(1)).Add(cards.Joker(2))
	seen := cards.SetOf(hand...).Add(g.TurnUp)
	for s, i := range idx {
		d.bids[i], d.taken[i] = g.Bids[s], g.Taken[s]
		d.sizes[i] = len(hand)
	}
	d.hands[d.me] = cards.SetOf(hand...)
	d.turn = d.me
	d.trick = jokerTrick{follow: cards.NoSuit}
	for _, p := range g.Trick {
		seen = seen.Add(p.Card)
		i := idx[p.Seat]
		d.sizes[i] = len(hand) - 1
		d.trick.add(p.Card, p.Call, i, d.trump)
	}
	d.played = len(g.Trick)
	for _, p := range g.Last {
		seen = seen.Add(p.Card)
	}
	d.unseen = all.Minus(seen)
	d.leftLeads = g.LeftLeads
	return d
}

// sample deals the unseen cards to the other players, each keeping his hand size.
func (d jokerDeal) sample(rng *rand.Rand) jokerDeal {
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
func (d jokerDeal) rolloutFromBid(b int) float64 {
	d.bids[d.me] = b
	for i := (d.me + 1) % d.m; i != (d.dealer+1)%d.m; i = (i + 1) % d.m {
		d.bids[i] = d.estimateBid(i)
	}
	d.turn = d.dealer // joker.md J-FIRSTLEAD
	if d.leftLeads {
		d.turn = (d.dealer + 1) % d.m
	}
	d.played = 0
	d.trick = jokerTrick{follow: cards.NoSuit}
	return d.playOut()
}

// rolloutFromPlay plays a for the agent, then the rest of the deal, and returns its score.
func (d jokerDeal) rolloutFromPlay(a games.Action) float64 {
	call := joker.NoCall
	switch a.Kind {
	case joker.KindHigh:
		call = joker.High
	case joker.KindLow:
		call = joker.Low
	}
	if d.played == 0 {
		d.trick = jokerTrick{follow: cards.NoSuit}
	}
	d.put(d.me, a.Card, call)
	return d.playOut()
}

// put plays card c for player p and collects the trick when it is complete.
func (d *jokerDeal) put(p int, c cards.Card, call joker.Call) {
	if d.played == 0 {
		d.trick = jokerTrick{follow: cards.NoSuit}
		if c.IsJoker() && d.hands[p].Len() > 1 && p == d.me {
			d.leads++
		}
	}
	d.hands[p] = d.hands[p].Remove(c)
	d.trick.add(c, call, p, d.trump)
	d.played++
	if d.played < d.m {
		d.turn = (p + 1) % d.m
		return
	}
	w := d.trick.winner()
	d.taken[w]++
	d.played = 0
	d.turn = w
}

// playOut plays to the end of the deal with the policy and scores the agent.
func (d *jokerDeal) playOut() float64 {
	for !d.hands[d.turn].Empty() {
		c, call := d.policy(d.turn)
		d.put(d.turn, c, call)
	}
	return float64(joker.ScoreDeal(d.bids[d.me], d.taken[d.me], d.leads, false).Points)
}

// strength orders cards for the policy: trumps above plain suits, then rank.
func (d *jokerDeal) strength(c cards.Card) int {
	s := int(c.Rank())
	if d.trump != cards.NoSuit && c.Suit() == d.trump {
		s += 20
	}
	return s
}

// policy is the simulated players' play (joker.md "Play" for legality): win cheaply while tricks
// are needed, duck otherwise; jokers high to win, low to duck, led only when nothing else is left.
func (d *jokerDeal) policy(p int) (cards.Card, joker.Call) {
	hand := d.hands[p]
	legal := hand
	if d.played > 0 && d.trick.follow != cards.NoSuit {
		if in := hand.Suit(d.trick.follow); !in.Empty() {
			legal = in.Union(hand.Intersect(cards.SetOf(cards.Joker(1), cards.Joker(2))))
		}
	}
	var jk cards.Card
	var plain []cards.Card
	for _, c := range legal.Cards() {
		if c.IsJoker() {
			jk = c
		} else {
			plain = append(plain, c)
		}
	}
	need := d.bids[p] - d.taken[p]
	want := joker.Low
	if need > 0 {
		want = joker.High
	}
	if d.played == 0 {
		if len(plain) == 0 {
			return jk, want
		}
		best := plain[0]
		for _, c := range plain[1:] {
			if (need > 0) == (d.strength(c) > d.strength(best)) {
				best = c
			}
		}
		return best, joker.NoCall
	}
	last := d.played == d.m-1
	var win, lose cards.Card
	for _, c := range plain {
		if d.trick.beats(c, joker.NoCall, d.trump) {
			// last to play: the cheapest winner; otherwise the strongest
			if win == cards.NoCard || (last == (d.strength(c) < d.strength(win))) {
				win = c
			}
		} else if lose == cards.NoCard || d.strength(c) > d.strength(lose) {
			lose = c
		}
	}
	if need > 0 {
		switch {
		case win != cards.NoCard:
			return win, joker.NoCall
		case jk != cards.NoCard && !d.trick.highJoker:
			return jk, joker.High
		}
		low := cards.NoCard
		for _, c := range plain {
			if low == cards.NoCard || d.strength(c) < d.strength(low) {
				low = c
			}
		}
		if low == cards.NoCard {
			return jk, joker.Low
		}
		return low, joker.NoCall
	}
	switch {
	case lose != cards.NoCard:
		return lose, joker.NoCall
	case jk != cards.NoCard:
		return jk, joker.Low
	}
	low := win
	for _, c := range plain {
		if d.strength(c) < d.strength(low) {
			low = c
		}
	}
	return low, joker.NoCall
}

// estimateBid guesses a simulated player's bid from his hand: jokers and high trumps are tricks,
// aces and kings likely ones; the dealer avoids the forbidden total (J-HOOK).
func (d *jokerDeal) estimateBid(p int) int {
	e := 0.0
	for _, c := range d.hands[p].Cards() {
		switch {
		case c.IsJoker():
			e++
		case d.trump != cards.NoSuit && c.Suit() == d.trump:
			e += min(1, max(0.1, float64(int(c.Rank())-7)/7))
		case c.Rank() == cards.Ace:
			e += 0.8 - 0.1*float64(d.m-2)
		case c.Rank() == cards.King:
			e += 0.45 - 0.1*float64(d.m-2)
		}
	}
	b := int(e + 0.5)
	if p == d.dealer {
		var others []int
		for i := range d.m {
			if i != p {
				others = append(others, d.bids[i])
			}
		}
		if b == joker.ForbiddenBid(d.handSize, others) {
			if b > 0 && e < float64(b) || b == d.handSize {
				b--
			} else {
				b++
			}
		}
	}
	return b
}
