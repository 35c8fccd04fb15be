package joker

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is the trick game's structured view for agents (games.View.Game): the public table plus
// the viewer's own seat. Taken tricks lie face down, so only the trick in progress and the last
// trick are shown (joker.md "Play", what is visible).
type View struct {
	Seat      games.Seat
	Players   int
	In        []bool // seats playing the party in progress
	Dealer    games.Seat
	Party     int  // 1-based, counting extra parties
	Extra     bool // the party in progress is an extra party of a match
	Deal      int  // 1..13
	HandSize  int
	Bidding   bool // bids are being made
	Over      bool
	TurnUp    cards.Card
	Trump     cards.Suit // NoSuit: no trump (a joker was turned)
	Bids      []int      // -1: not bid yet, or not in the party
	Taken     []int
	Totals    []int // party totals so far
	Forbidden int   // the dealer's forbidden bid while the dealer bids, else -1
	Trick     []Play
	Follow    cards.Suit // the suit to follow, NoSuit while none is fixed
	Last      []Play     // the last trick until a card is played
	LastWon   games.Seat // the last trick's winner, Nobody when none is shown
	LeftLeads bool       // the player on the dealer's left leads first (table variant of J-FIRSTLEAD)
	Wins      []int      // party wins in a match
	Seconds   []int      // second places in a match
}

// View shows the public table to all, the hand only to its owner.
func (st *state) View(s games.Seat) games.View {
	v, g, m := st.agentView(s)
	v.Table = st.table(g, m)
	if st.phase != phaseOver && s == st.turn {
		v.Prompt = st.prompt(g)
	}
	return v
}

// AgentView is View without its texts for people (games.AgentViewer): the search asks for one at
// every simulated move.
func (st *state) AgentView(s games.Seat) games.View {
	v, _, _ := st.agentView(s)
	return v
}

// agentView is the View but its Table and Prompt, with its structured part and the standings.
func (st *state) agentView(s games.Seat) (games.View, View, standings) {
	v := games.View{Seat: s, Players: st.n, ToAct: st.ToAct(), Dealer: st.dealer}
	if st.valid(s) {
		v.Hand = st.hands[s].Cards()
	}
	m := st.standings()
	totals := st.totals()
	g := View{
		Seat: s, Players: st.n, In: slices.Clone(st.in[:st.n]), Dealer: st.dealer, Party: st.partyNo(),
		Extra: st.extra, Deal: st.dealNo(), HandSize: HandSize(st.dealNo()), Bidding: st.phase == phaseBid,
		Over: st.phase == phaseOver, TurnUp: st.turnUp, Trump: st.trump(), Bids: slices.Clone(st.bids[:st.n]),
		Taken: slices.Clone(st.taken[:st.n]), Totals: slices.Clone(totals[:st.n]), Forbidden: -1,
		Trick: st.trick.plays(), Follow: st.trick.follow(), LastWon: games.Nobody, LeftLeads: st.leftLeads,
		Wins: slices.Clone(m.wins[:st.n]), Seconds: slices.Clone(m.seconds[:st.n]),
	}
	if st.last.n > 0 {
		g.Last, g.LastWon = st.last.plays(), st.last.winner(st.trump())
	}
	if st.phase == phaseBid && st.turn == st.dealer {
		g.Forbidden = st.forbidden()
	}
	v.Game = g
	return v, g, m
}

// table is the group message: deal, trump, bids and tricks, the trick, the last trick, totals.
func (st *state) table(g View, m standings) []games.Msg {
	var t []games.Msg
	if st.match {
		id := "joker.t.party"
		if st.extra {
			id = "joker.t.extra"
		}
		t = append(t, games.M(id, "N", g.Party))
	}
	t = append(t, games.M("joker.t.deal", "Deal", g.Deal, "Of", Deals, "Count", g.HandSize, "Seat", st.dealer))
	if g.Trump == cards.NoSuit {
		t = append(t, games.M("joker.t.notrump", "Card", st.turnUp))
	} else {
		t = append(t, games.M("joker.t.trump", "Card", st.turnUp, "Suit", g.Trump))
	}
	for _, s := range st.seatsIn() {
		if st.bids[s] < 0 {
			t = append(t, games.M("joker.t.nobid", "Seat", s, "Total", g.Totals[s]))
		} else {
			t = append(t, games.M("joker.t.bid", "Seat", s, "Bid", st.bids[s], "Tricks", st.taken[s], "Total", g.Totals[s]))
		}
	}
	if len(g.Trick) > 0 {
		t = append(t, games.M("joker.t.trick", "Plays", playMsgs("joker.t", g.Trick)))
		if g.Trick[0].Card.IsJoker() && g.Follow != cards.NoSuit {
			t = append(t, games.M("joker.t.follow", "Suit", g.Follow))
		}
	}
	if len(g.Last) > 0 {
		t = append(t, games.M("joker.t.last", "Seat", g.LastWon, "Plays", playMsgs("joker.t", g.Last)))
	}
	if st.match {
		var w []games.Msg
		for s := range games.Seat(st.n) {
			w = append(w, games.M("joker.t.wins", "Seat", s, "Count", m.wins[s], "N", m.seconds[s]))
		}
		t = append(t, games.M("joker.t.match", "Lines", w))
	}
	if st.phase == phaseOver {
		t = append(t, st.resultMsg(m))
	}
	return t
}

// resultMsg says who won the party or the match.
func (st *state) resultMsg(m standings) games.Msg {
	if st.match {
		return games.M("joker.t.matchwin", "Seats", m.winners, "Count", len(m.winners))
	}
	last := st.parties[len(st.parties)-1]
	winners, _, _, _ := last.result(st.n)
	if len(winners) == 0 {
		return games.M("joker.t.draw")
	}
	return games.M("joker.t.win", "Seats", winners, "Count", len(winners))
}

// prompt is the question for the seat to act.
func (st *state) prompt(g View) games.Msg {
	switch {
	case g.Bidding && g.Forbidden >= 0:
		return games.M("joker.pr.biddealer", "Count", g.HandSize, "N", g.Forbidden)
	case g.Bidding:
		return games.M("joker.pr.bid", "Count", g.HandSize)
	case len(g.Trick) == 0:
		return games.M("joker.pr.lead")
	case g.Follow == cards.NoSuit:
		return games.M("joker.pr.any")
	}
	return games.M("joker.pr.follow", "Suit", g.Follow)
}

// Totals are the party's totals, Score().Totals without the sheet (games.Totaler).
func (st *state) Totals() []int {
	totals := st.totals()
	return slices.Clone(totals[:st.n])
}

// Score is the sheet (joker.md "Structure"): a summary row per earlier party of a match, a row per
// scored deal of the party in progress (bid/tricks and points), a display row with the bids of the
// deal in progress; totals are the party's.
func (st *state) Score() games.Sheet {
	sh := games.Sheet{Totals: st.Totals()}
	m := st.standings()
	earlier := st.parties
	if st.phase == phaseOver {
		earlier = earlier[:len(earlier)-1]
	}
	for i, p := range earlier {
		winners, _, _, _ := p.result(st.n)
		cells := make([]string, st.n)
		for s := range cells {
			cells[s] = "—"
			if p.in[s] {
				cells[s] = fmt.Sprint(p.totals[s])
				if slices.Contains(winners, games.Seat(s)) {
					cells[s] += " ★"
				}
			}
		}
		id := "joker.row.party"
		if p.extra {
			id = "joker.row.extra"
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M(id, "N", i+1), Cells: cells})
	}
	for i, r := range st.deals {
		cells := make([]string, st.n)
		points := make([]int, st.n)
		for s := range cells {
			cells[s] = "—"
			if r.bids[s] >= 0 {
				d := ScoreDeal(r.bids[s], r.tricks[s], r.leads[s], false)
				cells[s] = fmt.Sprintf("%d/%d %+d", r.bids[s], r.tricks[s], d.Base)
				if d.Penalty != 0 {
					cells[s] += fmt.Sprintf("%+d", d.Penalty)
				}
				points[s] = d.Points
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("joker.row.deal", "Deal", i+1, "Count", HandSize(i+1)), Cells: cells, Points: points})
	}
	if st.phase != phaseOver {
		cells := make([]string, st.n)
		for s := range cells {
			switch {
			case !st.in[s]:
				cells[s] = "—"
			case st.bids[s] < 0:
				cells[s] = "·"
			default:
				cells[s] = fmt.Sprintf("%d/%d", st.bids[s], st.taken[s])
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("joker.row.deal", "Deal", st.dealNo(), "Count", HandSize(st.dealNo())), Cells: cells})
	}
	if st.match {
		for s := range games.Seat(st.n) {
			sh.Notes = append(sh.Notes, games.M("joker.note.wins", "Seat", s, "Count", m.wins[s], "N", m.seconds[s]))
		}
		if st.extra && st.phase != phaseOver {
			sh.Notes = append(sh.Notes, games.M("joker.note.extra", "Seats", st.seatsIn()))
		}
	}
	if st.phase == phaseOver {
		sh.Winners = m.winners
		sh.Notes = append(sh.Notes, st.resultMsg(m))
	}
	return sh
}
