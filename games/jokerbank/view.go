package jokerbank

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/joker"
)

// View is the banker game's structured view for agents (View.Game). Other punters' stakes
// stay hidden until all are in (joker.md version 1, "One round" step 2); only whether they have
// staked is public.
type View struct {
	Seat     games.Seat
	Players  int
	Banker   games.Seat
	Round    int // 1-based
	Rounds   int // 0: open session
	Ceiling  int
	Money    []int
	Staked   []bool // who has staked this round
	MyStake  int    // the viewer's stake this round, 0 if none yet
	LastHit  int    // the last round's hit turn, 0 after fourteen misses or before any round
	LastCard []cards.Card
	Over     bool
}

// View shows the round, banker, money and last round to all; a stake only to its punter.
func (st *state) View(s games.Seat) games.View {
	v := games.View{Seat: s, Players: st.N, ToAct: st.ToAct(), Dealer: st.Banker}
	staked := make([]bool, st.N)
	var who []games.Seat
	for p := range games.Seat(st.N) {
		staked[p] = st.Stakes[p] > 0
		if staked[p] {
			who = append(who, p)
		}
	}
	g := View{Seat: s, Players: st.N, Banker: st.Banker, Round: st.Round, Rounds: st.Rounds,
		Ceiling: st.Ceiling, Money: slices.Clone(st.Money), Staked: staked, Over: st.Over}
	if s >= 0 && int(s) < st.N {
		g.MyStake = st.Stakes[s]
		if g.MyStake > 0 {
			v.Private = []games.Msg{games.M("jokerbank.p.stake", "N", g.MyStake)}
		}
	}
	var t []games.Msg
	if st.Rounds > 0 {
		t = append(t, games.M("jokerbank.t.roundof", "N", st.Round, "Of", st.Rounds))
	} else {
		t = append(t, games.M("jokerbank.t.round", "N", st.Round))
	}
	t = append(t, games.M("jokerbank.t.banker", "Seat", st.Banker, "N", st.Ceiling))
	if len(st.History) == 0 {
		for i, d := range st.Draws {
			var lines []games.Msg
			for _, x := range d {
				lines = append(lines, games.M("jokerbank.t.drawof", "Seat", x.Seat, "Card", x.Card))
			}
			t = append(t, games.M("jokerbank.t.draw", "N", i+1, "Lines", lines))
		}
	} else {
		r := st.History[len(st.History)-1]
		g.LastHit, g.LastCard = r.Hit, slices.Clone(st.Turned)
		if r.Hit > 0 {
			t = append(t, games.M("jokerbank.t.lasthit", "Cards", st.Turned, "N", r.Hit, "Call", callMsg(r.Hit)))
		} else {
			t = append(t, games.M("jokerbank.t.lastmiss", "Cards", st.Turned))
		}
	}
	if len(who) > 0 && !st.Over {
		t = append(t, games.M("jokerbank.t.staked", "Seats", who))
	}
	t = append(t, st.moneyLines()...)
	if st.Over {
		t = append(t, games.M("jokerbank.t.over", "Seats", st.winners(), "Count", len(st.winners())))
	}
	v.Table = t
	v.Game = g
	if slices.Contains(v.ToAct, s) {
		if st.Rounds == 0 {
			v.Prompt = games.M("jokerbank.pr.stakeopen", "N", st.Ceiling)
		} else {
			v.Prompt = games.M("jokerbank.pr.stake", "N", st.Ceiling)
		}
	}
	return v
}

// winners are the seats with the most money (J1-END: the running money decides the session).
func (st *state) winners() []games.Seat {
	hi := slices.Max(st.Money)
	var out []games.Seat
	for s, m := range st.Money {
		if m == hi {
			out = append(out, games.Seat(s))
		}
	}
	return out
}

// bankRows is how many rounds the sheet shows one by one; earlier rounds are summed in one row.
const bankRows = 15

// Score is the running money per player (J1-END): a row per round (the banker's cell marked *),
// earlier rounds folded into one row so the sheet stays short.
func (st *state) Score() games.Sheet {
	sh := games.Sheet{Totals: slices.Clone(st.Money)}
	hist := st.History
	if len(hist) > bankRows {
		old := hist[:len(hist)-bankRows]
		hist = hist[len(hist)-bankRows:]
		pts := make([]int, st.N)
		for _, r := range old {
			for s, d := range r.Deltas {
				pts[s] += d
			}
		}
		cells := make([]string, st.N)
		for s, p := range pts {
			cells[s] = fmt.Sprintf("%+d", p)
		}
		label := games.M("jokerbank.row.earlier", "Count", len(old))
		if len(old) == 1 {
			// One folded round is labelled as a round: "Rounds 1–1" reads badly, and a plural form
			// cannot single out 1 in Russian (21 takes the same form).
			label = games.M("jokerbank.row.round", "N", old[0].Round, "Seat", old[0].Banker)
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: label, Cells: cells, Points: pts})
	}
	for _, r := range hist {
		cells := make([]string, st.N)
		for s, d := range r.Deltas {
			cells[s] = fmt.Sprintf("%+d", d)
			if games.Seat(s) == r.Banker {
				cells[s] += "*"
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M("jokerbank.row.round", "N", r.Round, "Seat", r.Banker),
			Cells: cells, Points: slices.Clone(r.Deltas)})
	}
	sh.Notes = append(sh.Notes, games.M("jokerbank.note.mark"))
	if st.Over {
		sh.Winners = st.winners()
		if st.Stopper != games.Nobody {
			sh.Notes = append(sh.Notes, games.M("jokerbank.note.stopped", "Seat", st.Stopper))
		}
	} else {
		sh.Notes = append(sh.Notes, games.M("jokerbank.note.banker", "Seat", st.Banker))
	}
	return sh
}

// Zones: the deck is shuffled afresh for each round, so between actions it is one pile.
func (st *state) Zones() []cards.Set { return []cards.Set{st.Deck()} }

// Deck is the 54-card pack.
func (st *state) Deck() cards.Set { return cards.SetOf(joker.Pack()...) }

// Redeal has nothing to move: no card is hidden between rounds.
func (st *state) Redeal(games.Seat, *rand.Rand) games.State { return st.clone() }
