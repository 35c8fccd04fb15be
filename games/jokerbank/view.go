package jokerbank

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is the banker game's structured view for agents (games.View.Game). Other punters' stakes
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
	v := games.View{Seat: s, Players: st.n, ToAct: st.ToAct(), Dealer: st.banker}
	staked := make([]bool, st.n)
	var who []games.Seat
	for p := range games.Seat(st.n) {
		staked[p] = st.stakes[p] > 0
		if staked[p] {
			who = append(who, p)
		}
	}
	g := View{Seat: s, Players: st.n, Banker: st.banker, Round: st.round(), Rounds: st.rounds,
		Ceiling: st.ceiling, Money: slices.Clone(st.money[:st.n]), Staked: staked, Over: st.over()}
	if st.valid(s) {
		g.MyStake = st.stakes[s]
		if g.MyStake > 0 {
			v.Private = []games.Msg{games.M("jokerbank.p.stake", "N", g.MyStake)}
		}
	}
	var t []games.Msg
	if st.rounds > 0 {
		t = append(t, games.M("jokerbank.t.roundof", "N", g.Round, "Of", st.rounds))
	} else {
		t = append(t, games.M("jokerbank.t.round", "N", g.Round))
	}
	t = append(t, games.M("jokerbank.t.banker", "Seat", st.banker, "N", st.ceiling))
	if len(st.history) == 0 {
		draws, _ := drawBanker(st.n, st.seed)
		for i, d := range draws {
			var lines []games.Msg
			for _, x := range d {
				lines = append(lines, games.M("jokerbank.t.drawof", "Seat", x.Seat, "Card", x.Card))
			}
			t = append(t, games.M("jokerbank.t.draw", "N", i+1, "Lines", lines))
		}
	} else {
		r := st.history[len(st.history)-1]
		turned := slices.Clone(st.turned[:st.nTurned])
		g.LastHit, g.LastCard = int(r.hit), turned
		if r.hit > 0 {
			t = append(t, games.M("jokerbank.t.lasthit", "Cards", turned, "N", g.LastHit, "Call", callMsg(g.LastHit)))
		} else {
			t = append(t, games.M("jokerbank.t.lastmiss", "Cards", turned))
		}
	}
	if len(who) > 0 && !g.Over {
		t = append(t, games.M("jokerbank.t.staked", "Seats", who))
	}
	t = append(t, st.moneyLines()...)
	if g.Over {
		t = append(t, games.M("jokerbank.t.over", "Seats", st.winners(), "Count", len(st.winners())))
	}
	v.Table = t
	v.Game = g
	if slices.Contains(v.ToAct, s) {
		if st.rounds == 0 {
			v.Prompt = games.M("jokerbank.pr.stakeopen", "N", st.ceiling)
		} else {
			v.Prompt = games.M("jokerbank.pr.stake", "N", st.ceiling)
		}
	}
	return v
}

// winners are the seats with the most money (J1-END: the running money decides the session).
func (st *state) winners() []games.Seat {
	hi := slices.Max(st.money[:st.n])
	var out []games.Seat
	for s, m := range st.money[:st.n] {
		if m == hi {
			out = append(out, games.Seat(s))
		}
	}
	return out
}

// bankRows is how many rounds the sheet shows one by one; earlier rounds are summed in one row.
const bankRows = 15

// Totals are each player's money, Score().Totals without the sheet (games.Totaler).
func (st *state) Totals() []int { return slices.Clone(st.money[:st.n]) }

// Score is the running money per player (J1-END): a row per round (the banker's cell marked *),
// earlier rounds folded into one row so the sheet stays short.
func (st *state) Score() games.Sheet {
	sh := games.Sheet{Totals: st.Totals()}
	hist := st.history
	if len(hist) > bankRows {
		old := hist[:len(hist)-bankRows]
		hist = hist[len(hist)-bankRows:]
		pts := make([]int, st.n)
		for i := range old {
			for s := range games.Seat(st.n) {
				pts[s] += old[i].delta(s)
			}
		}
		cells := make([]string, st.n)
		for s, p := range pts {
			cells[s] = fmt.Sprintf("%+d", p)
		}
		label := games.M("jokerbank.row.earlier", "Count", len(old))
		if len(old) == 1 {
			// One folded round is labelled as a round: "Rounds 1–1" reads badly, and a plural form
			// cannot single out 1 in Russian (21 takes the same form).
			label = games.M("jokerbank.row.round", "N", 1, "Seat", old[0].banker)
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: label, Cells: cells, Points: pts})
	}
	first := len(st.history) - len(hist) + 1 // the number of the first round shown one by one
	for i, r := range hist {
		cells := make([]string, st.n)
		points := make([]int, st.n)
		for s := range games.Seat(st.n) {
			points[s] = r.delta(s)
			cells[s] = fmt.Sprintf("%+d", points[s])
			if s == r.banker {
				cells[s] += "*"
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M("jokerbank.row.round", "N", first+i, "Seat", r.banker),
			Cells: cells, Points: points})
	}
	sh.Notes = append(sh.Notes, games.M("jokerbank.note.mark"))
	if st.over() {
		sh.Winners = st.winners()
		if st.stopper != games.Nobody {
			sh.Notes = append(sh.Notes, games.M("jokerbank.note.stopped", "Seat", st.stopper))
		}
	} else {
		sh.Notes = append(sh.Notes, games.M("jokerbank.note.banker", "Seat", st.banker))
	}
	return sh
}
