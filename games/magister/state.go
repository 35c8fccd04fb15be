package magister

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// state is one moment of a game. It is a value: Apply copies it with an assignment and changes
// the copy. The few slices it holds are never written in place — packs and a bank's plays never
// change once made, the trump choice replaces Trumps.Own, and records grow by a copying append —
// so copies never need a deeper clone.
type state struct {
	n        int
	seed     uint64
	packs    [][]cards.Card // Setup's packs of deals 1, 2, ...; later deals are seeded shuffles
	tr       Trumps
	choosing bool       // variant 1: the trump choice before deal 1
	deal     int        // 1–24; 0 while choosing trumps
	dealer   games.Seat // dealer of the deal
	leader   games.Seat // first leader of the deal
	turn     games.Seat
	hands    [4]cards.Set
	aside    cards.Set    // set aside unseen in "All" deals with 2–3 players (§2.4)
	stock    cards.Set    // the undealt pack while trumps are chosen
	taken    [4]cards.Set // cards of the banks each seat took this deal
	banks    [4]int       // banks each seat took this deal
	lastTwo  [4]int       // of the deal's last two banks (contract LastTwo)
	fours    [4]int       // four-of-a-suit banks (M-BONUS)
	voids    [4]cards.Set // cards each seat has shown it does not hold this deal (§7; see noteVoids)
	played   int          // banks finished this deal
	bank     Bank         // the bank on the table; no Plays before the lead
	last     Bank         // the deal's last finished bank until the next lead; no Plays if none
	records  []DealRecord // the finished deals
	over     bool
}

// left is the seat to the left of s, the next to play (§2.6).
func (g *state) left(s games.Seat) games.Seat { return games.Seat((int(s) + 1) % g.n) }

// contract is the contract of the deal being played.
func (g *state) contract() Contract { return ContractOf(g.deal) }

// leading reports that no card is on the table: the next card leads a bank.
func (g *state) leading() bool { return len(g.bank.Plays) == 0 }

// freeSuits are the suits no player has chosen as his trump yet (M-TRUMPCHOICE).
func (g *state) freeSuits() []cards.Suit {
	var out []cards.Suit
	for _, s := range suitOrder {
		if !slices.Contains(g.tr.Own, s) {
			out = append(out, s)
		}
	}
	return out
}

// ToAct is the one seat to act: the trump chooser or the player whose card is due.
func (g *state) ToAct() []games.Seat {
	if g.over {
		return nil
	}
	return []games.Seat{g.turn}
}

// Legal lists the free suits while trumps are chosen, else the playable cards in display order:
// any card for the leader, §7 for a follower.
func (g *state) Legal(s games.Seat) []games.Action {
	if g.over || s != g.turn {
		return nil
	}
	if g.choosing {
		var out []games.Action
		for _, su := range g.freeSuits() {
			out = append(out, games.Do(suitKinds[suitIndex(su)]))
		}
		return out
	}
	cs := Sorted(g.playable(s))
	out := make([]games.Action, len(cs))
	for i, c := range cs {
		out[i] = games.With("play", c)
	}
	return out
}

// playable is the set of cards s may play now (§7), the cards Legal offers.
func (g *state) playable(s games.Seat) cards.Set {
	if g.leading() {
		return g.hands[s] // §7: the leader may lead any card
	}
	return LegalPlays(g.bank, g.tr, s, g.hands[s])
}

// Score is the score sheet of §9 with the ratings of §10 at the end.
func (g *state) Score() games.Sheet { return sheet(g.n, g.records, g.over) }

// Totals are the match totals, Score().Totals without the sheet (games.Totaler).
func (g *state) Totals() []int { return totalsOf(g.n, g.records) }
