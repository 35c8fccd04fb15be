package skat

import (
	"github.com/kozyr-bot/kozyr/games"
)

// contractMsg names a declaration: the game ("skat.game.clubs") with its extras (hand, schneider
// or schwarz announced, open) when there are any.
func contractMsg(c Contract) games.Msg {
	game := games.M("skat.game." + c.Kind.String())
	var extras []games.Msg
	if c.Hand && !c.Kind.IsNull() {
		extras = append(extras, games.M("skat.ann.hand"))
	}
	switch {
	case c.Schwarz:
		extras = append(extras, games.M("skat.ann.schwarz"))
	case c.Schneider:
		extras = append(extras, games.M("skat.ann.schneider"))
	}
	if c.Open && c.Kind != NullOuvert {
		extras = append(extras, games.M("skat.ann.open"))
	}
	if len(extras) == 0 {
		return games.M("skat.contract", "Game", game)
	}
	return games.M("skat.contract.ext", "Game", game, "Extras", extras)
}

// totalsMsgs lists every seat's running total.
func (st *state) totalsMsgs() []games.Msg {
	out := make([]games.Msg, st.players())
	for s, t := range st.Totals[:st.players()] {
		out[s] = games.M("skat.total", "Seat", games.Seat(s), "N", t)
	}
	return out
}

// matadorsMsg is "with n" or "without n".
func matadorsMsg(o Outcome) games.Msg {
	if o.With {
		return games.M("skat.mat.with", "Count", o.Matadors)
	}
	return games.M("skat.mat.without", "Count", o.Matadors)
}

// detailMsg explains a declared game's value in Skat list style: "with 2, 4 × 20 = 80".
func detailMsg(v Variant, r row) games.Msg {
	o, c := r.outcome(v), r.Contract
	if c.Kind.IsNull() {
		return games.M("skat.detail.null", "Value", o.Value)
	}
	id := "skat.detail"
	if c.Open && !v.ISkOOpen {
		id = "skat.detail.open"
	}
	return games.M(id, "Mat", matadorsMsg(o), "K", o.Multiplier, "Base", c.Kind.Base(v), "Value", o.Value)
}

// lossMsg says why a declared game was lost (§9, §11).
func lossMsg(v Variant, r row) games.Msg {
	o, c := r.outcome(v), r.Contract
	switch {
	case o.Overbid:
		return games.M("skat.why.overbid", "Value", o.Value, "Bid", r.Bid)
	case c.Kind.IsNull():
		return games.M("skat.why.null")
	case c.Schwarz:
		return games.M("skat.why.schwarz")
	case c.Schneider:
		return games.M("skat.why.schneider", "N", r.Points[0], "Min", v.SchneiderMin)
	}
	return games.M("skat.why.points", "N", r.Points[0])
}

// resultMsg is the line posted after a deal (§14): declarer, game, value, won or lost, totals.
func (st *state) resultMsg(r row) games.Msg {
	totals := st.totalsMsgs()
	switch r.Kind {
	case rowThrown:
		return games.M("skat.result.thrownin", "N", r.Deal, "Totals", totals)
	case rowRamsch:
		var pts []games.Msg
		for ro := Forehand; ro <= Rearhand; ro++ {
			s := st.seat(ro)
			pts = append(pts, games.M("skat.pts", "Seat", s, "N", r.Points[s]))
		}
		return games.M("skat.result.ramsch", "N", r.Deal, "Points", pts, "Outcome", ramschMsg(r),
			"Totals", totals)
	}
	o := r.outcome(st.Cfg.Variant)
	kv := []any{"N", r.Deal, "Seat", r.Declarer, "Game", contractMsg(r.Contract),
		"Detail", detailMsg(st.Cfg.Variant, r), "Bid", r.Bid, "Score", signed(o.Score),
		"Totals", totals}
	if !r.Contract.Kind.IsNull() {
		kv = append(kv, "Points", r.Points[0], "Opp", r.Points[1])
	}
	if o.Won {
		return games.M(resultID(r, "won"), kv...)
	}
	return games.M(resultID(r, "lost"), append(kv, "Reason", lossMsg(st.Cfg.Variant, r))...)
}

// resultID picks the result message: null games have no card points to show.
func resultID(r row, outcome string) string {
	if r.Contract.Kind.IsNull() {
		return "skat.result.null." + outcome
	}
	return "skat.result." + outcome
}

// ramschMsg says who scored in a Ramsch deal (§13).
func ramschMsg(r row) games.Msg {
	for s, d := range r.Scores {
		switch {
		case d == -30:
			return games.M("skat.ramsch.durchmarsch", "Seat", games.Seat(s))
		case d > 0:
			return games.M("skat.ramsch.winner", "Seat", games.Seat(s), "Score", signed(d))
		}
	}
	return games.M("skat.ramsch.none")
}

// rowLabel is the sheet label of a deal (§14).
func (st *state) rowLabel(r row) games.Msg {
	switch r.Kind {
	case rowThrown:
		return games.M("skat.row.thrownin", "N", r.Deal, "Dealer", r.Dealer)
	case rowRamsch:
		return games.M("skat.row.ramsch", "N", r.Deal, "Dealer", r.Dealer)
	}
	o := r.outcome(st.Cfg.Variant)
	outcome := "lost"
	if o.Won {
		outcome = "won"
	}
	kv := []any{"N", r.Deal, "Dealer", r.Dealer, "Seat", r.Declarer, "Game", contractMsg(r.Contract),
		"Value", o.Value, "Bid", r.Bid}
	if r.Contract.Kind.IsNull() {
		return games.M("skat.row.null."+outcome, kv...)
	}
	return games.M("skat.row."+outcome, append(kv, "Points", r.Points[0])...)
}
