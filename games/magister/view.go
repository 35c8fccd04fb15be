package magister

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is the structured view for agents (games.View.Game): the same knowledge as the rest of
// the games.View. Banks already played are public (every card was played face up), so Taken is
// too. It is built afresh for every call and shares no memory with the state.
type View struct {
	Players   int
	Trumps    Trumps     // the trump configuration (variant 1 while choosing: NoSuit = not yet)
	Choosing  bool       // the variant-1 trump choice is under way
	Deal      int        // 1–24, 0 while choosing
	Contract  Contract   // the deal's contract
	Sign      int        // −1 in deals 1–12, +1 in 13–24
	Dealer    games.Seat // dealer of the deal
	Leader    games.Seat // first leader of the deal
	Bank      *Bank      // the bank on the table, nil before the lead
	Last      *Bank      // the last finished bank of the deal until the next lead, or nil
	HandSizes []int      // cards in each hand
	Taken     []cards.Set
	Banks     []int     // banks each seat took in the deal
	Fours     []int     // four-of-a-suit banks each seat took in the deal (Max)
	Played    int       // banks finished in the deal
	DealBanks int       // banks of the deal (§8.1)
	Points    []int     // signed points of the deal so far (Max: not final until the deal ends)
	Totals    []int     // game result so far
	Takes     cards.Set // the viewer's legal cards that would take the bank now
	Knocks    cards.Set // the viewer's legal cards that would knock the top card out
}

// View is what s may know; View(Nobody) is the group table.
func (g *state) View(s games.Seat) games.View {
	v := games.View{Seat: s, Players: g.n, ToAct: g.ToAct(), Dealer: g.dealer}
	gv := g.gameView()
	if s >= 0 && int(s) < g.n {
		v.Hand = Sorted(g.hands[s])
		if g.tr.Variant == VariantOwn && g.tr.Own[s] != cards.NoSuit {
			v.Private = append(v.Private, games.M("magister.prv.trump", "Suit", g.tr.Own[s]))
		}
		if !g.over && s == g.turn {
			v.Prompt = g.prompt()
			if !g.leading() {
				gv.Takes, gv.Knocks = g.effects(s)
				v.Private = append(v.Private, effectMsgs(gv.Takes, gv.Knocks)...)
			}
		}
	}
	v.Table = g.table()
	v.Game = gv
	return v
}

// AgentView is View without the texts for people (Table, Private, Prompt), which agents never
// read and which cost most of a View (games.AgentViewer): a search builds thousands per decision.
func (g *state) AgentView(s games.Seat) games.View {
	v := games.View{Seat: s, Players: g.n, ToAct: g.ToAct(), Dealer: g.dealer}
	gv := g.gameView()
	if s >= 0 && int(s) < g.n {
		v.Hand = Sorted(g.hands[s])
		if !g.over && s == g.turn && !g.leading() {
			gv.Takes, gv.Knocks = g.effects(s)
		}
	}
	v.Game = gv
	return v
}

// effects splits s's legal cards into those that would take the bank now and those that would
// knock the card on top out (§6).
func (g *state) effects(s games.Seat) (takes, knocks cards.Set) {
	hand := g.hands[s]
	for _, c := range g.playable(s).Cards() {
		switch o := g.bank.Resolve(g.tr, s, c, hand); {
		case o.Takes():
			takes = takes.Add(c)
		case o == Cancel:
			knocks = knocks.Add(c)
		}
	}
	return takes, knocks
}

// effectMsgs tell the player to act which of his cards would take the bank or knock its top out.
func effectMsgs(takes, knocks cards.Set) []games.Msg {
	var out []games.Msg
	if takes.Empty() {
		out = append(out, games.M("magister.prv.takesnone"))
	} else {
		out = append(out, games.M("magister.prv.takes", "Cards", Sorted(takes)))
	}
	if !knocks.Empty() {
		out = append(out, games.M("magister.prv.knocks", "Cards", Sorted(knocks)))
	}
	return out
}

// prompt is what the seat to act is asked: a trump, a lead, or a card onto the bank.
func (g *state) prompt() games.Msg {
	switch {
	case g.choosing:
		return games.M("magister.prompt.trump")
	case g.leading():
		return games.M("magister.prompt.lead")
	}
	return games.M("magister.prompt.follow", "Seat", g.bank.Holder(), "Card", g.bank.Top)
}

// gameView is the View of every seat; View adds the viewer's Takes and Knocks.
func (g *state) gameView() View {
	gv := View{
		Players: g.n, Trumps: g.tr.clone(), Choosing: g.choosing, Deal: g.deal,
		Dealer: g.dealer, Leader: g.leader, Played: g.played,
		Taken: slices.Clone(g.taken[:g.n]), Banks: slices.Clone(g.banks[:g.n]), Fours: slices.Clone(g.fours[:g.n]),
		HandSizes: make([]int, g.n), Points: make([]int, g.n), Totals: TallyOf(g.n, g.records).GameResult,
	}
	for p, h := range g.hands[:g.n] {
		gv.HandSizes[p] = h.Len()
	}
	gv.Bank, gv.Last = viewBank(g.bank), viewBank(g.last)
	if g.deal > 0 && !g.over {
		gv.Contract, gv.Sign = g.contract(), Sign(g.deal)
		gv.DealBanks = HandSize(gv.Contract, g.n)
		if gv.Contract != Max { // Max points exist only when the deal ends (§8.3)
			pts := DealPoints(gv.Contract, g.taken[:g.n], g.banks[:g.n], g.lastTwo[:g.n], g.fours[:g.n])
			for p := range g.n {
				gv.Points[p] = gv.Sign * pts[p]
			}
		}
	}
	return gv
}

// viewBank is a copy of b for a View, nil for no bank.
func viewBank(b Bank) *Bank {
	if len(b.Plays) == 0 {
		return nil
	}
	b.Plays = slices.Clone(b.Plays)
	return &b
}

// outcomeMsg is the table line of a card on the bank, by what it did.
var outcomeMsg = [...]string{
	None: "magister.tbl.none", Cancel: "magister.tbl.cancel", Higher: "magister.tbl.higher",
	Lower: "magister.tbl.lower", Rank: "magister.tbl.rank", Trump: "magister.tbl.trump",
	Eight: "magister.tbl.eight", Switch: "magister.tbl.switch", Lead: "magister.tbl.lead",
}

// table is the group's view: the deal and what scores in it, the trumps, the bank as a stack with
// what each card did, its holder and main suit, the last bank, and the standings.
func (g *state) table() []games.Msg {
	var t []games.Msg
	if g.choosing {
		t = append(t, games.M("magister.tbl.choosing", "Seat", g.turn))
	} else if !g.over {
		c := g.contract()
		t = append(t,
			games.M("magister.tbl.deal", "Num", g.deal, "Deal", games.M("magister.deal."+c.ID())),
			games.M("magister.scores."+c.ID(), "Points", signed(Sign(g.deal)*c.Value())),
		)
	} else {
		t = append(t, games.M("magister.tbl.over"))
	}
	t = append(t, g.trumpMsgs()...)
	if g.over {
		return append(t, g.totalMsgs()...)
	}
	if !g.leading() {
		b := g.bank
		if b.MainActive {
			t = append(t, games.M("magister.tbl.bank", "Seat", b.Holder(), "Card", b.Top, "Suit", b.S))
		} else {
			t = append(t, games.M("magister.tbl.bankswitched", "Seat", b.Holder(), "Card", b.Top, "Suit", b.S))
		}
		for _, p := range b.Plays {
			t = append(t, games.M(outcomeMsg[p.Outcome], "Seat", p.Seat, "Card", p.Card, "Suit", p.Card.Suit()))
		}
	} else if len(g.last.Plays) > 0 {
		cs := make([]cards.Card, len(g.last.Plays))
		for i, p := range g.last.Plays {
			cs[i] = p.Card
		}
		t = append(t, games.M("magister.tbl.last", "Seat", g.last.Holder(), "Cards", cs))
	}
	if !g.choosing {
		t = append(t, games.M("magister.tbl.banksleft", "Count", HandSize(g.contract(), g.n)-g.played))
		c := g.contract()
		totals := TallyOf(g.n, g.records).GameResult
		var pts []int
		if c != Max {
			pts = DealPoints(c, g.taken[:g.n], g.banks[:g.n], g.lastTwo[:g.n], g.fours[:g.n])
		}
		for p := range g.n {
			if c == Max {
				t = append(t, games.M("magister.tbl.seatmax", "Seat", games.Seat(p), "Count", g.banks[p],
					"CardPoints", MaxCount(g.taken[p], g.fours[p]), "Total", signed(totals[p])))
			} else {
				t = append(t, games.M("magister.tbl.seat", "Seat", games.Seat(p), "Count", g.banks[p],
					"Points", signed(Sign(g.deal)*pts[p]), "Total", signed(totals[p])))
			}
		}
	}
	return t
}

// trumpMsgs are the table lines of the trump configuration; variant-1 trumps show once chosen.
func (g *state) trumpMsgs() []games.Msg {
	switch g.tr.Variant {
	case VariantOwn:
		out := []games.Msg{games.M("magister.tbl.own")}
		for p, s := range g.tr.Own {
			if s != cards.NoSuit {
				out = append(out, games.M("magister.tbl.owntrump", "Seat", games.Seat(p), "Suit", s))
			}
		}
		return out
	case VariantOne:
		return []games.Msg{games.M("magister.tbl.one", "Suit", g.tr.Shared[0])}
	case VariantTwo:
		return []games.Msg{games.M("magister.tbl.two", "Suit", g.tr.Shared[0], "Suit2", g.tr.Shared[1])}
	case VariantSeniorJunior:
		return []games.Msg{games.M("magister.tbl.seniorjunior", "Suit", cards.Spades, "Suit2", cards.Diamonds)}
	}
	return []games.Msg{games.M("magister.tbl.notrumps")}
}

// totalMsgs are the final table lines: each seat's place, result and rating (§9, §10).
func (g *state) totalMsgs() []games.Msg {
	t := TallyOf(g.n, g.records)
	places := Places(t.GameResult, t.GameBanks)
	out := make([]games.Msg, g.n)
	for p := range g.n {
		out[p] = games.M("magister.tbl.final", "Seat", games.Seat(p), "Place", places[p],
			"Points", signed(t.GameResult[p]), "Rating", RatingText(t.GameResult[p]))
	}
	return out
}
