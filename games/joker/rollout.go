package joker

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Rollout is the trick game's cheap player, the one a search plays its simulated deals with
// (games.RolloutRules). It plays the policy of the Agent's own simulations straight from the View:
// bids the hand's estimated worth (bidEstimate, the dealer off his forbidden bid) and plays
// playPolicy, with no simulations of its own, so a move costs microseconds where the Agent's
// hundreds of simulated deals cost a millisecond.
type Rollout struct{}

// Choose picks one of legal; it never draws from rng.
func (Rollout) Choose(v games.View, legal []games.Action, _ *rand.Rand) games.Action {
	g, ok := v.Game.(View)
	if !ok || len(legal) == 1 || v.Seat < 0 || int(v.Seat) >= len(g.In) || !g.In[v.Seat] {
		return legal[0]
	}
	m := 0
	for _, in := range g.In {
		if in {
			m++
		}
	}
	hand := cards.SetOf(v.Hand...)
	if g.Bidding {
		e := bidEstimate(hand, g.Trump, m)
		return nearestBid(legal, avoidForbidden(int(e+0.5), e, g.Forbidden, g.HandSize))
	}
	var t trick
	for _, p := range g.Trick {
		t.add(p.Seat, p.Card, p.Call)
	}
	c, call := playPolicy(hand, g.Bids[v.Seat]-g.Taken[v.Seat], &t, m, g.Trump)
	return playAction(legal, c, call)
}

// nearestBid is the bid of legal closest to b, the lower one of two as close.
func nearestBid(legal []games.Action, b int) games.Action {
	best := legal[0]
	for _, a := range legal[1:] {
		if abs(int(a.N)-b) < abs(int(best.N)-b) {
			best = a
		}
	}
	return best
}

func abs(x int) int { return max(x, -x) }

// playAction is the action of legal that plays c with call: for a joker the one legal joker
// action of that call (Legal offers one of two jokers held, and the second joker of a trick
// without a call), else legal[0] should c not be offered.
func playAction(legal []games.Action, c cards.Card, call Call) games.Action {
	kind := KindPlay
	switch {
	case !c.IsJoker():
	case call == High:
		kind = KindHigh
	case call == Low:
		kind = KindLow
	}
	for _, a := range legal {
		if a.Card == c && a.Kind == kind {
			return a
		}
	}
	for _, a := range legal {
		if c.IsJoker() && a.Card.IsJoker() && (a.Kind == kind || a.Kind == KindPlay) {
			return a
		}
	}
	return legal[0]
}
