package magister

import (
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// View is the structured view for agents (games.View.Game): the same knowledge as the rest of
// the games.View. Banks already played are public (every card was played face up), so Taken is
// too.
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
	Last      *Bank      // the last finished bank of the deal
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
	v := games.View{Seat: s, Players: g.N, ToAct: g.ToAct(), Dealer: g.Dealer}
	gv := g.gameView()
	if s >= 0 && int(s) < g.N {
		v.Hand = Sorted(g.Hands[s])
		if g.Tr.Variant == VariantOwn && g.Tr.Own[s] != cards.NoSuit {
			v.Private = append(v.Private, games.M("magister.prv.trump", "Suit", g.Tr.Own[s]))
		}
		if !g.Over && s == g.Turn {
			v.Prompt = g.prompt()
			if g.Bank != nil {
				gv.Takes, gv.Knocks = g.effects(s)
				v.Private = append(v.Private, effectMsgs(gv.Takes, gv.Knocks)...)
			}
		}
	}
	v.Table = g.table()
	v.Game = gv
	return v
}

// effects splits s's legal cards into those that would take the bank now and those that would
// knock the card on top out (§6).
func (g *state) effects(s games.Seat) (takes, knocks cards.Set) {
	hand := g.Hands[s]
	for _, c := range g.playable(s).Cards() {
		switch o := g.Bank.Resolve(g.Tr, s, c, hand); {
		case o.Takes():
			takes = takes.Add(c)
		case o == Cancel:
			knocks = knocks.Add(c)
		}
	}
	return takes, knocks
}

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

func (g *state) prompt() games.Msg {
	switch {
	case g.Choosing:
		return games.M("magister.prompt.trump")
	case g.Bank == nil:
		return games.M("magister.prompt.lead")
	}
	return games.M("magister.prompt.follow", "Seat", g.Bank.Holder(), "Card", g.Bank.Top)
}

func (g *state) gameView() View {
	gv := View{
		Players: g.N, Trumps: g.Tr.clone(), Choosing: g.Choosing, Deal: g.Deal,
		Dealer: g.Dealer, Leader: g.Leader, Played: g.Played,
		Taken: slices.Clone(g.Taken[:g.N]), Banks: slices.Clone(g.Banks[:g.N]), Fours: slices.Clone(g.Fours[:g.N]),
		HandSizes: make([]int, g.N), Points: make([]int, g.N), Totals: TallyOf(g.N, g.Records).GameResult,
	}
	for p, h := range g.Hands[:g.N] {
		gv.HandSizes[p] = h.Len()
	}
	if g.Bank != nil {
		b := *g.Bank
		b.Plays = slices.Clone(b.Plays)
		gv.Bank = &b
	}
	if g.Last != nil {
		b := *g.Last
		b.Plays = slices.Clone(b.Plays)
		gv.Last = &b
	}
	if g.Deal > 0 && !g.Over {
		gv.Contract, gv.Sign = g.contract(), Sign(g.Deal)
		gv.DealBanks = HandSize(gv.Contract, g.N)
		if gv.Contract != Max { // Max points exist only when the deal ends (§8.3)
			pts := DealPoints(gv.Contract, g.Taken[:g.N], g.Banks[:g.N], g.LastTwo[:g.N], g.Fours[:g.N])
			for p := range g.N {
				gv.Points[p] = gv.Sign * pts[p]
			}
		}
	}
	return gv
}

var outcomeMsg = [...]string{
	None: "magister.tbl.none", Cancel: "magister.tbl.cancel", Higher: "magister.tbl.higher",
	Lower: "magister.tbl.lower", Rank: "magister.tbl.rank", Trump: "magister.tbl.trump",
	Eight: "magister.tbl.eight", Switch: "magister.tbl.switch", Lead: "magister.tbl.lead",
}

// table is the group's view: the deal and what scores in it, the trumps, the bank as a stack with
// what each card did, its holder and main suit, the last bank, and the standings.
func (g *state) table() []games.Msg {
	var t []games.Msg
	if g.Choosing {
		t = append(t, games.M("magister.tbl.choosing", "Seat", g.Turn))
	} else if !g.Over {
		c := g.contract()
		t = append(t,
			games.M("magister.tbl.deal", "Num", g.Deal, "Deal", games.M("magister.deal."+c.ID())),
			games.M("magister.scores."+c.ID(), "Points", signed(Sign(g.Deal)*c.Value())),
		)
	} else {
		t = append(t, games.M("magister.tbl.over"))
	}
	t = append(t, g.trumpMsgs()...)
	if g.Over {
		return append(t, g.totalMsgs()...)
	}
	if g.Bank != nil {
		b := g.Bank
		if b.MainActive {
			t = append(t, games.M("magister.tbl.bank", "Seat", b.Holder(), "Card", b.Top, "Suit", b.S))
		} else {
			t = append(t, games.M("magister.tbl.bankswitched", "Seat", b.Holder(), "Card", b.Top, "Suit", b.S))
		}
		for _, p := range b.Plays {
			t = append(t, games.M(outcomeMsg[p.Outcome], "Seat", p.Seat, "Card", p.Card, "Suit", p.Card.Suit()))
		}
	} else if g.Last != nil {
		cs := make([]cards.Card, len(g.Last.Plays))
		for i, p := range g.Last.Plays {
			cs[i] = p.Card
		}
		t = append(t, games.M("magister.tbl.last", "Seat", g.Last.Holder(), "Cards", cs))
	}
	if !g.Choosing {
		t = append(t, games.M("magister.tbl.banksleft", "Count", HandSize(g.contract(), g.N)-g.Played))
		c := g.contract()
		totals := TallyOf(g.N, g.Records).GameResult
		var pts []int
		if c != Max {
			pts = DealPoints(c, g.Taken[:g.N], g.Banks[:g.N], g.LastTwo[:g.N], g.Fours[:g.N])
		}
		for p := range g.N {
			if c == Max {
				t = append(t, games.M("magister.tbl.seatmax", "Seat", games.Seat(p), "Count", g.Banks[p],
					"CardPoints", MaxCount(g.Taken[p], g.Fours[p]), "Total", signed(totals[p])))
			} else {
				t = append(t, games.M("magister.tbl.seat", "Seat", games.Seat(p), "Count", g.Banks[p],
					"Points", signed(Sign(g.Deal)*pts[p]), "Total", signed(totals[p])))
			}
		}
	}
	return t
}

func (g *state) trumpMsgs() []games.Msg {
	switch g.Tr.Variant {
	case VariantOwn:
		out := []games.Msg{games.M("magister.tbl.own")}
		for p, s := range g.Tr.Own {
			if s != cards.NoSuit {
				out = append(out, games.M("magister.tbl.owntrump", "Seat", games.Seat(p), "Suit", s))
			}
		}
		return out
	case VariantOne:
		return []games.Msg{games.M("magister.tbl.one", "Suit", g.Tr.Shared[0])}
	case VariantTwo:
		return []games.Msg{games.M("magister.tbl.two", "Suit", g.Tr.Shared[0], "Suit2", g.Tr.Shared[1])}
	case VariantSeniorJunior:
		return []games.Msg{games.M("magister.tbl.seniorjunior", "Suit", cards.Spades, "Suit2", cards.Diamonds)}
	}
	return []games.Msg{games.M("magister.tbl.notrumps")}
}

func (g *state) totalMsgs() []games.Msg {
	t := TallyOf(g.N, g.Records)
	places := Places(t.GameResult, t.GameBanks)
	out := make([]games.Msg, g.N)
	for p := range g.N {
		out[p] = games.M("magister.tbl.final", "Seat", games.Seat(p), "Place", places[p],
			"Points", signed(t.GameResult[p]), "Rating", RatingText(t.GameResult[p]))
	}
	return out
}
