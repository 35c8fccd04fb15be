package joker

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// TrickView is the trick game's structured view for agents (View.Game): the public table plus the
// viewer's own seat. Taken tricks lie face down, so only the trick in progress and the last trick
// are shown (joker.md "Play", what is visible).
type TrickView struct {
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

// Play is one card of a trick; Call says High or Low for a joker (the second joker's value
// already resolved), NoCall for a suited card.
type Play struct {
	Seat games.Seat
	Card cards.Card
	Call Call
}

func toPlays(ps []play) []Play {
	out := make([]Play, len(ps))
	for i, p := range ps {
		out[i] = Play{Seat: p.Seat, Card: p.Card, Call: p.Call}
	}
	return out
}

// View shows the public table to all, the hand only to its owner.
func (st *trickState) View(s games.Seat) games.View {
	v := games.View{Seat: s, Players: st.N, ToAct: st.ToAct(), Dealer: st.Dealer}
	if st.valid(s) {
		v.Hand = st.Hands[s].Cards()
	}
	g := TrickView{
		Seat: s, Players: st.N, In: slices.Clone(st.In), Dealer: st.Dealer, Party: st.Party,
		Extra: st.Extra, Deal: st.DealNo, HandSize: HandSize(st.DealNo), Bidding: st.Phase == phaseBid,
		Over: st.Phase == phaseOver, TurnUp: st.TurnUp, Trump: st.trump(), Bids: slices.Clone(st.Bids),
		Taken: slices.Clone(st.Taken), Totals: st.totals(), Forbidden: -1, Trick: toPlays(st.Trick),
		Follow: st.follow(), LastWon: games.Nobody,
		LeftLeads: st.LeftLeads, Wins: slices.Clone(st.Wins), Seconds: slices.Clone(st.Seconds),
	}
	if l := st.last(); l != nil {
		g.Last, g.LastWon = toPlays(l.Plays), l.Winner
	}
	if st.Phase == phaseBid && st.Turn == st.Dealer {
		g.Forbidden = st.forbidden()
	}
	v.Game = g
	v.Table = st.table(g)
	if st.Phase != phaseOver && s == st.Turn {
		v.Prompt = st.prompt(g)
	}
	return v
}

// table is the group message: deal, trump, bids and tricks, the trick, the last trick, totals.
func (st *trickState) table(g TrickView) []games.Msg {
	var t []games.Msg
	if st.Match {
		id := "joker.t.party"
		if st.Extra {
			id = "joker.t.extra"
		}
		t = append(t, games.M(id, "N", st.Party))
	}
	t = append(t, games.M("joker.t.deal", "Deal", st.DealNo, "Of", Deals, "Count", g.HandSize, "Seat", st.Dealer))
	if g.Trump == cards.NoSuit {
		t = append(t, games.M("joker.t.notrump", "Card", st.TurnUp))
	} else {
		t = append(t, games.M("joker.t.trump", "Card", st.TurnUp, "Suit", g.Trump))
	}
	for _, s := range st.seatsIn() {
		if st.Bids[s] < 0 {
			t = append(t, games.M("joker.t.nobid", "Seat", s, "Total", g.Totals[s]))
		} else {
			t = append(t, games.M("joker.t.bid", "Seat", s, "Bid", st.Bids[s], "Tricks", st.Taken[s], "Total", g.Totals[s]))
		}
	}
	if len(st.Trick) > 0 {
		t = append(t, games.M("joker.t.trick", "Plays", playMsgs("joker.t", st.Trick)))
		if st.Trick[0].Card.IsJoker() && g.Follow != cards.NoSuit {
			t = append(t, games.M("joker.t.follow", "Suit", g.Follow))
		}
	}
	if l := st.last(); l != nil {
		t = append(t, games.M("joker.t.last", "Seat", l.Winner, "Plays", playMsgs("joker.t", l.Plays)))
	}
	if st.Match {
		var w []games.Msg
		for s := range games.Seat(st.N) {
			w = append(w, games.M("joker.t.wins", "Seat", s, "Count", st.Wins[s], "N", st.Seconds[s]))
		}
		t = append(t, games.M("joker.t.match", "Lines", w))
	}
	if st.Phase == phaseOver {
		t = append(t, st.resultMsg())
	}
	return t
}

// resultMsg says who won the party or the match.
func (st *trickState) resultMsg() games.Msg {
	if st.Match {
		return games.M("joker.t.matchwin", "Seats", st.Winners, "Count", len(st.Winners))
	}
	last := st.History[len(st.History)-1]
	if len(last.Winners) == 0 {
		return games.M("joker.t.draw")
	}
	return games.M("joker.t.win", "Seats", last.Winners, "Count", len(last.Winners))
}

// prompt is the question for the seat to act.
func (st *trickState) prompt(g TrickView) games.Msg {
	switch {
	case st.Phase == phaseBid && g.Forbidden >= 0:
		return games.M("joker.pr.biddealer", "Count", g.HandSize, "N", g.Forbidden)
	case st.Phase == phaseBid:
		return games.M("joker.pr.bid", "Count", g.HandSize)
	case len(st.Trick) == 0:
		return games.M("joker.pr.lead")
	case g.Follow == cards.NoSuit:
		return games.M("joker.pr.any")
	}
	return games.M("joker.pr.follow", "Suit", g.Follow)
}

// Score is the sheet (joker.md "Structure"): a summary row per earlier party of a match, a row per
// scored deal of the party in progress (bid/tricks and points), a display row with the bids of the
// deal in progress; totals are the party's.
func (st *trickState) Score() games.Sheet {
	sh := games.Sheet{Totals: st.totals()}
	hist := st.History
	if st.Phase == phaseOver {
		hist = hist[:len(hist)-1]
	}
	for i, h := range hist {
		cells := make([]string, st.N)
		for s := range cells {
			cells[s] = "—"
			if h.In[s] {
				cells[s] = fmt.Sprint(h.Totals[s])
				if slices.Contains(h.Winners, games.Seat(s)) {
					cells[s] += " ★"
				}
			}
		}
		id := "joker.row.party"
		if h.Extra {
			id = "joker.row.extra"
		}
		sh.Rows = append(sh.Rows, games.SheetRow{Label: games.M(id, "N", i+1), Cells: cells})
	}
	for _, r := range st.Rows {
		cells := make([]string, st.N)
		for s := range cells {
			cells[s] = "—"
			if r.Bids[s] >= 0 {
				d := ScoreDeal(r.Bids[s], r.Tricks[s], r.Leads[s], false)
				cells[s] = fmt.Sprintf("%d/%d %+d", r.Bids[s], r.Tricks[s], d.Base)
				if d.Penalty != 0 {
					cells[s] += fmt.Sprintf("%+d", d.Penalty)
				}
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("joker.row.deal", "Deal", r.Deal, "Count", HandSize(r.Deal)),
			Cells: cells, Points: slices.Clone(r.Points)})
	}
	if st.Phase != phaseOver {
		cells := make([]string, st.N)
		for s := range cells {
			switch {
			case !st.In[s]:
				cells[s] = "—"
			case st.Bids[s] < 0:
				cells[s] = "·"
			default:
				cells[s] = fmt.Sprintf("%d/%d", st.Bids[s], st.Taken[s])
			}
		}
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("joker.row.deal", "Deal", st.DealNo, "Count", HandSize(st.DealNo)), Cells: cells})
	}
	if st.Match {
		for s := range games.Seat(st.N) {
			sh.Notes = append(sh.Notes, games.M("joker.note.wins", "Seat", s, "Count", st.Wins[s], "N", st.Seconds[s]))
		}
		if st.Extra && st.Phase != phaseOver {
			sh.Notes = append(sh.Notes, games.M("joker.note.extra", "Seats", st.seatsIn()))
		}
	}
	if st.Phase == phaseOver {
		sh.Winners = slices.Clone(st.Winners)
		sh.Notes = append(sh.Notes, st.resultMsg())
	}
	return sh
}

// Zones are the hands, the trick in progress, the collected tricks, the turn-up and the undealt
// stock of the deal (joker.md "Engine notes": 54 cards conserved per deal).
func (st *trickState) Zones() []cards.Set {
	z := slices.Clone(st.Hands)
	return append(z, cards.SetOf(st.trickCards()...), st.played(), cards.SetOf(st.TurnUp), st.Stock)
}

// Deck is the 54-card pack.
func (st *trickState) Deck() cards.Set { return cards.SetOf(Pack()...) }

// Redeal redistributes the cards hidden from s (the other hands and the stock) among those places.
func (st *trickState) Redeal(s games.Seat, rng *rand.Rand) games.State {
	n := st.clone()
	var places []*cards.Set
	for t := range games.Seat(st.N) {
		if t != s {
			places = append(places, &n.Hands[t])
		}
	}
	places = append(places, &n.Stock)
	zones := make([]cards.Set, len(places))
	for i, p := range places {
		zones[i] = *p
	}
	dealt, _, err := cards.Redistribute(zones, nil, rng)
	if err != nil {
		return n // the zones of a state are disjoint, and without fits nothing else can fail
	}
	for i, p := range places {
		*p = dealt[i]
	}
	return n
}
