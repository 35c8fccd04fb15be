package wizard

import (
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is games.View.Game: the structured facts of the table for agents, exactly what the viewing
// seat may know (other hands and the undealt cards never appear; hidden bids only the viewer's own).
type View struct {
	Players     int          // seats at the table
	RoundNo     int          // 1-based number of this round in the match
	Rounds      int          // rounds in the match
	Cards       int          // cards dealt to each player this round (the round size r)
	Phase       string       // "trump", "bid", "play" or "over"
	Dealer      games.Seat   // bids last; his left bids and leads first
	Turned      cards.Card   // the card turned for trump, cards.NoCard when none was left
	Trump       cards.Suit   // cards.NoSuit: no trump (or not named yet)
	CannotMatch bool         // bids_cannot_match is on
	HiddenBids  bool         // hidden_bids is on
	Bids        []int        // per seat; -1 for no bid yet, or a secret bid of another seat
	HasBid      []bool       // per seat: the bid is in (even if secret)
	Forbidden   int          // the bid the viewer may not make now (bids_cannot_match), or -1
	Taken       []int        // tricks won this round, per seat
	Totals      []int        // running score, per seat
	Leader      games.Seat   // who led the current trick
	Trick       []cards.Card // the current trick in play order
	TrickSeats  []games.Seat // who played each card of Trick
	Led         cards.Suit   // the suit to follow, cards.NoSuit when none
	Played      cards.Set    // every card played this round, the current trick included
	Voids       []cards.Set  // per seat, the suited cards it has shown it does not hold this round
	LastTrick   []cards.Card // the previous trick of this round, nil when none
	LastSeats   []games.Seat // who played each card of LastTrick
	LastWinner  games.Seat   // Nobody when no trick was completed this round
	Winners     []games.Seat // the match's winners once it is over
}

// View is what s may know, with a View as its Game; View(games.Nobody) is the group's table.
func (st *state) View(s games.Seat) games.View {
	v := st.AgentView(s)
	v.Table = st.table()
	if st.own(s) {
		if st.set.hidden && st.phase == phaseBid && st.bids[s] >= 0 {
			v.Private = []games.Msg{games.M("wizard.pv.bid", "Count", int(st.bids[s]))}
		}
		if st.canAct(s) {
			v.Prompt = st.prompt(s)
		}
	}
	return v
}

// AgentView is View without the texts for people (games.AgentViewer): what an agent reads, the
// hand and the structured View, built thousands of times per decision by a search.
func (st *state) AgentView(s games.Seat) games.View {
	v := games.View{Seat: s, Players: int(st.n()), ToAct: st.ToAct(), Dealer: games.Seat(st.dealer), Game: st.view(s)}
	if st.own(s) {
		v.Hand = st.hands[s].Cards()
	}
	return v
}

// own reports whether s is a seat of the table (not Nobody).
func (st *state) own(s games.Seat) bool { return s >= 0 && s < games.Seat(st.n()) }

// bidVisible reports whether seat i's bid may be shown to s.
func (st *state) bidVisible(i int8, s games.Seat) bool {
	return st.bids[i] >= 0 && (!st.set.hidden || st.phase != phaseBid || games.Seat(i) == s)
}

// view is the View of s.
func (st *state) view(s games.Seat) View {
	n := int(st.n())
	p := View{
		Players: n, RoundNo: int(st.ri) + 1, Rounds: int(st.set.nRounds), Cards: st.round(),
		Phase: st.phase.String(), Dealer: games.Seat(st.dealer), Turned: st.turned, Trump: st.trump,
		CannotMatch: st.set.cannotMatch, HiddenBids: st.set.hidden, Forbidden: st.forbiddenBid(s),
		Bids: make([]int, n), HasBid: make([]bool, n), Taken: make([]int, n), Totals: st.totals(),
		Leader: games.Seat(st.leader), Led: LedSuit(st.trick[:st.nTrick]), LastWinner: games.Nobody,
		Played: st.played | cards.SetOf(st.trick[:st.nTrick]...), Voids: make([]cards.Set, n),
	}
	copy(p.Voids, st.voids[:n])
	for i := range st.n() {
		p.Bids[i], p.HasBid[i], p.Taken[i] = -1, st.bids[i] >= 0, int(st.taken[i])
		if st.bidVisible(i, s) {
			p.Bids[i] = int(st.bids[i])
		}
	}
	if st.nTrick > 0 {
		p.Trick = append([]cards.Card(nil), st.trick[:st.nTrick]...)
		p.TrickSeats = st.seatsFrom(st.leader, int(st.nTrick))
	}
	if st.lastWinner >= 0 {
		p.LastTrick = append([]cards.Card(nil), st.last[:n]...)
		p.LastSeats = st.seatsFrom(st.lastLeader, n)
		p.LastWinner = games.Seat(st.lastWinner)
	}
	if st.phase == phaseOver {
		p.Winners = st.winners()
	}
	return p
}

// seatsFrom lists k seats in play order from first.
func (st *state) seatsFrom(first int8, k int) []games.Seat {
	out := make([]games.Seat, k)
	for i := range out {
		out[i] = games.Seat((int(first) + i) % int(st.n()))
	}
	return out
}

// trumpMsg says what was turned and what is trump (wizard.md §3).
func (st *state) trumpMsg() games.Msg {
	switch {
	case st.turned == cards.NoCard:
		return games.M("wizard.trump.none")
	case st.turned.IsJester():
		return games.M("wizard.trump.jester", "Card", st.turned)
	case st.turned.IsWizard() && st.phase == phaseTrump:
		return games.M("wizard.trump.pending", "Card", st.turned, "Seat", games.Seat(st.dealer))
	case st.turned.IsWizard():
		return games.M("wizard.trump.named", "Card", st.turned, "Seat", games.Seat(st.dealer), "Suit", st.trump)
	}
	return games.M("wizard.trump.suit", "Card", st.turned, "Suit", st.trump)
}

// plays lists "seat card" for k cards of a trick led by first.
func (st *state) plays(trick []cards.Card, first int8) []games.Msg {
	out := make([]games.Msg, len(trick))
	for i, c := range trick {
		out[i] = games.M("wizard.t.play", "Seat", games.Seat((int(first)+i)%int(st.n())), "Card", c)
	}
	return out
}

// table is the group's message: round, trump, each player's bid, tricks and score, the bids'
// total, the current and the last trick, and the winners at the end.
func (st *state) table() []games.Msg {
	out := []games.Msg{
		games.M("wizard.t.round", "Round", int(st.ri)+1, "Rounds", int(st.set.nRounds), "Count", st.round()),
		st.trumpMsg(),
	}
	totals := st.totals()
	sum, shown := 0, 0
	for i := range st.n() {
		seat := games.Seat(i)
		switch {
		case st.bidVisible(i, games.Nobody):
			sum, shown = sum+int(st.bids[i]), shown+1
			out = append(out, games.M("wizard.t.bid", "Seat", seat, "Bid", int(st.bids[i]),
				"Count", int(st.taken[i]), "Total", totals[i]))
		case st.bids[i] >= 0:
			out = append(out, games.M("wizard.t.secret", "Seat", seat, "Total", totals[i]))
		default:
			out = append(out, games.M("wizard.t.nobid", "Seat", seat, "Total", totals[i]))
		}
	}
	if shown > 0 {
		// wizard.md §4: the bids and their total stay visible until the round is scored.
		out = append(out, games.M("wizard.t.bidsum", "Bids", sum, "Count", st.round()))
	}
	if st.nTrick > 0 {
		out = append(out, games.M("wizard.t.trick", "Plays", st.plays(st.trick[:st.nTrick], st.leader)))
		if led := LedSuit(st.trick[:st.nTrick]); led != cards.NoSuit {
			out = append(out, games.M("wizard.t.led", "Suit", led))
		}
	}
	if st.lastWinner >= 0 {
		out = append(out, games.M("wizard.t.last", "Seat", games.Seat(st.lastWinner),
			"Plays", st.plays(st.last[:st.n()], st.lastLeader)))
	}
	if st.phase == phaseOver {
		w := st.winners()
		out = append(out, games.M("wizard.t.over", "Seats", w, "Count", len(w)))
	}
	return out
}

// prompt is the question for s, who is to act.
func (st *state) prompt(s games.Seat) games.Msg {
	switch st.phase {
	case phaseTrump:
		return games.M("wizard.p.trump", "Card", st.turned)
	case phaseBid:
		if f := st.forbiddenBid(s); f >= 0 {
			return games.M("wizard.p.bidnot", "Count", st.round(), "N", f)
		}
		return games.M("wizard.p.bid", "Count", st.round())
	}
	if st.nTrick == 0 {
		return games.M("wizard.p.lead")
	}
	if led := LedSuit(st.trick[:st.nTrick]); led != cards.NoSuit {
		return games.M("wizard.p.follow", "Suit", led)
	}
	return games.M("wizard.p.play")
}

// Totals are the match totals, Score().Totals without the sheet (games.Totaler).
func (st *state) Totals() []int { return st.totals() }

// Score is the sheet: a row per scored round with "bid/taken ±points" per seat.
func (st *state) Score() games.Sheet {
	n := int(st.n())
	sh := games.Sheet{Totals: st.totals()}
	for r := range st.scored() {
		row := games.SheetRow{
			Label:  games.M("wizard.sheet.round", "Round", r+1, "Count", int(st.set.rounds[r])),
			Cells:  make([]string, n),
			Points: make([]int, n),
		}
		for i := range n {
			h := st.row(r)[i]
			p := RoundScore(int(h.bid), int(h.taken))
			row.Cells[i] = strconv.Itoa(int(h.bid)) + "/" + strconv.Itoa(int(h.taken)) + " " + signed(p)
			row.Points[i] = p
		}
		sh.Rows = append(sh.Rows, row)
	}
	if st.phase == phaseOver {
		sh.Winners = st.winners()
		sh.Notes = []games.Msg{games.M("wizard.sheet.winners", "Seats", sh.Winners, "Count", len(sh.Winners))}
	}
	return sh
}

// signed writes points with their sign, "+40", "-10", "0".
func signed(p int) string {
	if p > 0 {
		return "+" + strconv.Itoa(p)
	}
	return strconv.Itoa(p)
}
