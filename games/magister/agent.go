package magister

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Agent plays Magister knowing each deal's contract: it avoids taking banks that carry points in
// the negative half (deals 1–12), takes them in the positive half (13–24), and plays for card
// points in the Max deals. For every legal card it deals the cards it has not seen to the players
// still to play in the bank, lets them answer with the same one-step policy, and keeps the card
// with the best average outcome for itself. It reads only its View and Legal, and plays the
// simulated banks with the engine's own rules (Bank.Play, LegalPlays).
//
// Samples is how many deals of the unseen cards each decision simulates, agentSamples when 0:
// the rule agent of a table uses the default, the search's rollouts a cheaper few (RolloutAgent).
type Agent struct {
	Samples int
}

// agentSamples is the number of simulated deals of the unseen cards per decision.
const agentSamples = 10

// rolloutSamples is the Samples of the rollout agent: one deal of the unseen cards per decision,
// the same play at a tenth of the agent's cost; the search's many worlds average its noise.
const rolloutSamples = 1

// RolloutAgent is the player a search plays its simulated deals with: Agent with a single
// simulated deal per decision, since Agent's own ten make every simulated move ten times dearer.
func RolloutAgent() Agent { return Agent{Samples: rolloutSamples} }

// Choose picks a card, or in the variant-1 trump choice a suit, by simulation (chooseTrump).
func (a Agent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(View)
	if !ok || len(legal) == 1 || v.Seat < 0 || int(v.Seat) >= g.Players {
		return legal[rng.IntN(len(legal))]
	}
	if g.Choosing {
		if a.Samples > 0 && a.Samples < agentSamples {
			return legal[rng.IntN(len(legal))] // a rollout's choice: the simulation is too dear
		}
		return chooseTrump(g, v.Seat, legal, rng)
	}
	if legal[0].Kind != "play" {
		return legal[rng.IntN(len(legal))]
	}
	w := worldOf(g, v.Seat, cards.SetOf(v.Hand...))
	var order []games.Seat // seats still to play after us in this bank
	played := 0
	if g.Bank != nil {
		played = len(g.Bank.Plays)
	}
	for i := 1; i < g.Players-played; i++ {
		order = append(order, games.Seat((int(v.Seat)+i)%g.Players))
	}
	sums := make([]float64, len(legal))
	pool := w.unseen.Cards()
	samples := a.Samples
	if samples <= 0 {
		samples = agentSamples
	}
	for range samples {
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		var hands [4]cards.Set
		rest := pool
		for _, s := range order {
			k := min(g.HandSizes[s], len(rest))
			hands[s] = cards.SetOf(rest[:k]...)
			rest = rest[k:]
		}
		for i, l := range legal {
			var b Bank
			if g.Bank == nil {
				b = Open(v.Seat, l.Card)
			} else {
				b, _ = g.Bank.Play(w.tr, v.Seat, l.Card, w.hand)
			}
			for _, s := range order {
				c := w.greedy(b, s, hands[s])
				b, _ = b.Play(w.tr, s, c, hands[s])
			}
			sums[i] += w.final(b, v.Seat) + w.keep(l.Card, b.Holder() == v.Seat)
		}
	}
	best := 0
	for i := range legal {
		if sums[i] > sums[best] {
			best = i
		}
	}
	return legal[best]
}

// world is what the agent knows of the deal in progress.
type world struct {
	n         int
	tr        Trumps
	contract  Contract
	want      float64 // +1: taking points is good (deals 13–24), −1: bad (1–12)
	played    int     // banks finished before this one
	dealBanks int
	hand      cards.Set
	unseen    cards.Set // cards in other hands or set aside
}

// worldOf reads the agent's world from the view of seat me, who holds hand.
func worldOf(g View, me games.Seat, hand cards.Set) world {
	w := world{
		n: g.Players, tr: g.Trumps, contract: g.Contract, want: float64(g.Sign),
		played: g.Played, dealBanks: g.DealBanks, hand: hand,
	}
	seen := hand
	for _, t := range g.Taken {
		seen = seen.Union(t)
	}
	if g.Bank != nil {
		seen = seen.Union(g.Bank.Cards())
	}
	w.unseen = PackSet().Minus(seen)
	return w
}

// value is what a bank of these cards is worth to its taker under the contract, unsigned (§8.1;
// the bank's count of §8.3, scaled, stands in for the Max deal's 12).
func (w world) value(bank cards.Set) float64 {
	switch w.contract {
	case All:
		return float64(All.Value())
	case LastTwo:
		if w.played >= w.dealBanks-2 {
			return float64(LastTwo.Value())
		}
		return 0
	case Max:
		fours := 0
		if w.n == 4 && FourOfASuit(bank) {
			fours = 1 // M-BONUS
		}
		return float64(MaxCount(bank, fours)) * 12 / 124 * float64(w.n)
	}
	return float64(bank.Intersect(w.contract.ScoringCards()).Len() * w.contract.Value())
}

// final is the outcome of a finished bank for seat me: its value if me takes it, else the share
// of it that the others gain against me.
func (w world) final(b Bank, me games.Seat) float64 {
	v := w.value(b.Cards())
	if b.Holder() == me {
		return w.want * v
	}
	return -w.want * v / float64(w.n-1)
}

// keep is a small preference on which card to give up: in the negative half shed high cards (they
// are the ones that are made to take later), in the positive half keep them.
func (w world) keep(c cards.Card, took bool) float64 {
	if took {
		return 0
	}
	return -w.want * 0.02 * float64(Seniority(c))
}

// greedy is the one-step policy of the simulated players: the legal card whose immediate effect
// on the bank is best for s, assuming the bank is taken by whoever holds it, a little less surely
// while others are still to play.
func (w world) greedy(b Bank, s games.Seat, hand cards.Set) cards.Card {
	last := len(b.Plays) == w.n-1
	best, bestU := cards.NoCard, -1e18
	for _, c := range LegalPlays(b, w.tr, s, hand).Cards() {
		nb, _ := b.Play(w.tr, s, c, hand)
		v := w.value(nb.Cards())
		var u float64
		if nb.Holder() == s {
			p := 0.55
			if last {
				p = 1
			}
			u = p*w.want*v - (1-p)*w.want*v/float64(w.n-1)
		} else {
			u = -w.want * v / float64(w.n-1)
		}
		u += w.keep(c, nb.Holder() == s)
		if u > bestU {
			best, bestU = c, u
		}
	}
	return best
}
