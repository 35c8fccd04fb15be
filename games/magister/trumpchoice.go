package magister

import (
	"math/rand/v2"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// trumpContracts are the contracts whose scoring cards differ from suit to suit: only in them does
// it matter which suit is a player's own trump. The others treat every suit alike, so whatever the
// suits, they play the same up to renaming the suits, and simulating them could only add noise.
var trumpContracts = [...]Contract{Hearts, JackKing, QueenSp, KingHt}

// trumpSamples is how many deals of each of those contracts, in each half, a trump choice
// simulates per free suit.
const trumpSamples = 4

// chooseTrump picks seat me's own trump in variant 1 (M-TRUMPCHOICE) by simulation: for every free
// suit, deals of the contracts where the suit matters, in both halves, with the suits still free
// going to the other choosers at random, played out by every seat with the agents' one-step
// policy and a plain lead. Every suit is tried on
// the same deals, and the one with the best total for me wins. Nothing of the deals is known yet,
// so the simulation reads only the table size, the suits taken and who is still to choose.
func chooseTrump(g View, me games.Seat, legal []games.Action, rng *rand.Rand) games.Action {
	free := make([]cards.Suit, 0, len(legal))
	for _, a := range legal {
		s, ok := suitOfKind(a.Kind)
		if !ok {
			return legal[rng.IntN(len(legal))]
		}
		free = append(free, s)
	}
	sums := make([]float64, len(legal))
	for range trumpSamples {
		for _, c := range trumpContracts {
			pack := Pack()
			rng.Shuffle(len(pack), func(i, j int) { pack[i], pack[j] = pack[j], pack[i] })
			perm := rng.Perm(len(free))
			leader := games.Seat(rng.IntN(g.Players))
			for i, mine := range free {
				own := append([]cards.Suit(nil), g.Trumps.Own...)
				own[me] = mine
				k := 0
				for p := range own {
					if own[p] == cards.NoSuit {
						for free[perm[k]] == mine {
							k++
						}
						own[p] = free[perm[k]]
						k++
					}
				}
				tr := Trumps{Variant: VariantOwn, Own: own}
				for _, sign := range [2]float64{-1, 1} {
					sums[i] += simulateDeal(g.Players, tr, c, sign, pack, leader, me)
				}
			}
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

// simulateDeal plays a deal of contract c with the given sign (−1 for deals 1–12) from pack, dealt
// one card at a time from leader on, and returns me's signed points (the contract's value of the
// banks he took). Every seat sees its own hand only: a leader plays leadCard, a follower the
// agents' one-step policy (world.greedy).
func simulateDeal(n int, tr Trumps, c Contract, sign float64, pack []cards.Card, leader, me games.Seat) float64 {
	size := HandSize(c, n)
	var hands [4]cards.Set
	for i := range size * n {
		p := (int(leader) + i) % n
		hands[p] = hands[p].Add(pack[i])
	}
	w := world{n: n, tr: tr, contract: c, want: sign, dealBanks: size}
	score := 0.0
	for w.played = 0; w.played < size; w.played++ {
		lead := leadCard(hands[leader], sign)
		hands[leader] = hands[leader].Remove(lead)
		b := Open(leader, lead)
		for i := 1; i < n; i++ {
			p := games.Seat((int(leader) + i) % n)
			x := w.greedy(b, p, hands[p])
			b, _ = b.Play(tr, p, x, hands[p])
			hands[p] = hands[p].Remove(x)
		}
		if b.Holder() == me {
			score += sign * w.value(b.Cards())
		}
		leader = b.Holder()
	}
	return score
}

// leadCard is the simulated deals' lead: the lowest card by seniority where taking is bad (the
// one most easily beaten), the highest where it is good.
func leadCard(hand cards.Set, sign float64) cards.Card {
	best := cards.NoCard
	for _, c := range hand.Cards() {
		if best == cards.NoCard || (sign < 0) == (Seniority(c) < Seniority(best)) {
			best = c
		}
	}
	return best
}
