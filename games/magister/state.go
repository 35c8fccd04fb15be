package magister

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// state is one moment of a game. It is serialized with encoding/json; every method treats the
// receiver as immutable and Apply works on a deep copy.
type state struct {
	N        int            `json:"n"`
	Seed     uint64         `json:"seed"`
	Packs    [][]cards.Card `json:"packs,omitempty"` // given packs per deal (Setup); else seeded shuffles
	Tr       Trumps         `json:"trumps"`
	Choosing bool           `json:"choosing,omitempty"` // variant 1: the trump choice before deal 1
	Deal     int            `json:"deal"`               // 1–24; 0 while choosing trumps
	Dealer   games.Seat     `json:"dealer"`
	Leader   games.Seat     `json:"leader"` // first leader of the deal
	Turn     games.Seat     `json:"turn"`
	Hands    [4]cards.Set   `json:"hands"`
	Aside    cards.Set      `json:"aside"` // set aside unseen in "All" deals with 2–3 players (§2.4)
	Stock    cards.Set      `json:"stock"` // the undealt pack while trumps are chosen
	Taken    [4]cards.Set   `json:"taken"` // cards of the banks each seat took this deal
	Banks    [4]int         `json:"banks"`
	LastTwo  [4]int         `json:"last_two"` // of the deal's last two banks (contract LastTwo)
	Fours    [4]int         `json:"fours"`    // four-of-a-suit banks (M-BONUS)
	Played   int            `json:"played"`   // banks finished this deal
	Bank     *Bank          `json:"bank,omitempty"`
	Last     *Bank          `json:"last,omitempty"`
	Records  []DealRecord   `json:"records"`
	Over     bool           `json:"over,omitempty"`
}

func (g *state) clone() *state {
	c := *g
	// Packs, Bank, Last and Records are shared: they are replaced, never written in place, and
	// Records are only appended to a clipped slice.
	c.Tr = g.Tr.clone()
	c.Records = slices.Clip(g.Records)
	return &c
}

func (g *state) left(s games.Seat) games.Seat { return games.Seat((int(s) + 1) % g.N) }

func (g *state) contract() Contract { return ContractOf(g.Deal) }

// suitKinds are the action kinds of the trump choice, in display order (§3, M-TRUMPCHOICE).
var suitKinds = [4]string{"spades", "hearts", "diamonds", "clubs"}

func suitOfKind(kind string) (cards.Suit, bool) {
	i := slices.Index(suitKinds[:], kind)
	if i < 0 {
		return cards.NoSuit, false
	}
	return suitOrder[i], true
}

func (g *state) freeSuits() []cards.Suit {
	var out []cards.Suit
	for _, s := range suitOrder {
		if !slices.Contains(g.Tr.Own, s) {
			out = append(out, s)
		}
	}
	return out
}

// ToAct is the one seat to act: the trump chooser or the player whose card is due.
func (g *state) ToAct() []games.Seat {
	if g.Over {
		return nil
	}
	return []games.Seat{g.Turn}
}

// Legal lists the free suits while trumps are chosen, else the playable cards in display order:
// any card for the leader, §7 for a follower.
func (g *state) Legal(s games.Seat) []games.Action {
	if g.Over || s != g.Turn {
		return nil
	}
	if g.Choosing {
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

// playable is the set of cards s may play now (§7).
func (g *state) playable(s games.Seat) cards.Set {
	if g.Bank == nil {
		return g.Hands[s] // §7: the leader may lead any card
	}
	return LegalPlays(*g.Bank, g.Tr, s, g.Hands[s])
}

// Apply plays a (a trump choice or a card) for s and runs what follows automatically: collecting
// a bank, ending and scoring a deal, dealing the next one.
func (g *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(g, s, a); err != nil {
		return g, nil, fmt.Errorf("magister: seat %d %v: %w", s, a, err)
	}
	n := g.clone()
	var evs []games.Event
	if n.Choosing {
		evs = n.chooseTrump(s, a)
	} else {
		evs = n.play(s, a.Card)
	}
	return n, evs, nil
}

// chooseTrump records s's own trump (§3, M-TRUMPCHOICE) and deals deal 1 after the last choice.
func (g *state) chooseTrump(s games.Seat, a games.Action) []games.Event {
	su, _ := suitOfKind(a.Kind)
	g.Tr.Own[s] = su
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody,
		Msg: games.M("magister.ev.trump", "Seat", s, "Suit", su)}}
	g.Turn = g.left(s)
	if slices.Contains(g.Tr.Own, cards.NoSuit) {
		return evs
	}
	g.Choosing = false
	return append(evs, g.startDeal(1)...)
}

// startDeal deals deal d (§2.3–2.5).
func (g *state) startDeal(d int) []games.Event {
	if d > 1 {
		g.Dealer = g.Leader // M-DEALER: the first leader of the previous deal deals
	}
	g.Deal = d
	var pack []cards.Card
	if d <= len(g.Packs) {
		pack = g.Packs[d-1]
	} else {
		pack = cards.Shuffle(Pack(), g.Seed, uint64(d))
	}
	size := HandSize(g.contract(), g.N)
	g.Hands = [4]cards.Set{}
	// §2.4: one card at a time from the dealer's left, in seat order; the rest is set aside.
	for i := range size * g.N {
		p := (int(g.Dealer) + 1 + i) % g.N
		g.Hands[p] = g.Hands[p].Add(pack[i])
	}
	g.Aside = cards.SetOf(pack[size*g.N:]...)
	g.Stock = 0
	g.Taken, g.Banks, g.LastTwo, g.Fours = [4]cards.Set{}, [4]int{}, [4]int{}, [4]int{}
	g.Played = 0
	g.Bank, g.Last = nil, nil
	g.Leader = g.firstLeader()
	g.Turn = g.Leader
	return []games.Event{{Kind: games.EventInfo, To: games.Nobody, Msg: games.M("magister.ev.deal",
		"Num", d, "Deal", games.M("magister.deal."+g.contract().ID()), "Dealer", g.Dealer, "Seat", g.Leader)}}
}

// firstLeader is §2.5 (M-FIRSTLEAD): in deal 1 the holder of the lowest diamond by seniority,
// else (and in deals 2–24) the player to the dealer's left.
func (g *state) firstLeader() games.Seat {
	if g.Deal == 1 {
		best, who := 99, games.Nobody
		for p, h := range g.Hands[:g.N] {
			for _, c := range h.Suit(cards.Diamonds).Cards() {
				if Seniority(c) < best {
					best, who = Seniority(c), games.Seat(p)
				}
			}
		}
		if who != games.Nobody {
			return who
		}
	}
	return g.left(g.Dealer)
}

// play puts s's card on the bank (§4) and collects the bank when everyone has played.
func (g *state) play(s games.Seat, c cards.Card) []games.Event {
	hand := g.Hands[s]
	g.Hands[s] = hand.Remove(c)
	if g.Bank == nil {
		b := Open(s, c)
		g.Bank = &b
		g.Last = nil
	} else {
		b, _ := g.Bank.Play(g.Tr, s, c, hand)
		g.Bank = &b
	}
	g.Turn = g.left(s)
	if len(g.Bank.Plays) < g.N {
		return nil
	}
	return g.collect()
}

// collect gives the finished bank to its holder (§4.3), who leads next (§2.6), and ends the deal
// when its cards are out or nothing more can score (M-EARLYEND).
func (g *state) collect() []games.Event {
	b := g.Bank
	w := b.Holder()
	bank := b.Cards()
	g.Taken[w] = g.Taken[w].Union(bank)
	g.Banks[w]++
	g.Played++
	size := HandSize(g.contract(), g.N)
	if g.Played > size-2 {
		g.LastTwo[w]++
	}
	if g.N == 4 && FourOfASuit(bank) {
		g.Fours[w]++ // M-BONUS
	}
	g.Last, g.Bank = b, nil
	g.Turn = w
	played := make([]cards.Card, len(b.Plays))
	for i, p := range b.Plays {
		played[i] = p.Card
	}
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody,
		Msg: games.M("magister.ev.bank", "Seat", w, "Cards", played, "Count", g.Banks[w])}}
	if g.Hands[0].Empty() || g.contract().EndsEarly() && g.allScoringTaken() {
		evs = append(evs, g.endDeal()...)
	}
	return evs
}

func (g *state) allScoringTaken() bool {
	var taken cards.Set
	for _, t := range g.Taken[:g.N] {
		taken = taken.Union(t)
	}
	sc := g.contract().ScoringCards()
	return taken.Intersect(sc) == sc
}

// endDeal scores the deal (§8.1, §8.3), records its sheet row and deals the next deal or ends the
// game.
func (g *state) endDeal() []games.Event {
	c := g.contract()
	pts := DealPoints(c, g.Taken[:g.N], g.Banks[:g.N], g.LastTwo[:g.N], g.Fours[:g.N])
	sign := Sign(g.Deal)
	rec := DealRecord{
		Deal: g.Deal, Dealer: g.Dealer, Leader: g.Leader,
		Banks: slices.Clone(g.Banks[:g.N]), Points: make([]int, g.N), Remaining: g.Hands[0].Len(),
	}
	for p := range g.N {
		rec.Points[p] = sign * pts[p]
	}
	if c == Max {
		rec.Counts = make([]int, g.N)
		for p := range g.N {
			rec.Counts[p] = MaxCount(g.Taken[p], g.Fours[p])
		}
	}
	g.Records = append(g.Records, rec)
	evs := g.dealEndEvents(rec)
	if g.Deal == Deals {
		g.Over = true
		g.Bank = nil
		return append(evs, g.matchEndEvents()...)
	}
	// The cards still in hand score nothing (M-EARLYEND); they are simply gathered.
	return append(evs, g.startDeal(g.Deal+1)...)
}

func (g *state) dealEndEvents(rec DealRecord) []games.Event {
	msg := func(m games.Msg) games.Event { return games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: m} }
	evs := []games.Event{msg(games.M("magister.ev.dealend", "Num", rec.Deal,
		"Deal", games.M("magister.deal."+ContractOf(rec.Deal).ID())))}
	t := TallyOf(g.N, g.Records)
	for p := range g.N {
		if rec.Counts != nil {
			evs = append(evs, msg(games.M("magister.ev.resultmax", "Seat", games.Seat(p), "Count", rec.Banks[p],
				"Points", signed(rec.Points[p]), "CardPoints", rec.Counts[p], "Total", signed(t.GameResult[p]))))
		} else {
			evs = append(evs, msg(games.M("magister.ev.result", "Seat", games.Seat(p), "Count", rec.Banks[p],
				"Points", signed(rec.Points[p]), "Total", signed(t.GameResult[p]))))
		}
	}
	if rec.Remaining > 0 {
		evs = append(evs, msg(games.M("magister.ev.early", "Count", rec.Remaining)))
	}
	return evs
}

// matchEndEvents announce the winners, then every player's place, result and rating (§9, §10).
func (g *state) matchEndEvents() []games.Event {
	t := TallyOf(g.N, g.Records)
	places := Places(t.GameResult, t.GameBanks)
	order := make([]games.Seat, g.N)
	for p := range g.N {
		order[p] = games.Seat(p)
	}
	slices.SortStableFunc(order, func(a, b games.Seat) int { return places[a] - places[b] })
	var winners []games.Seat
	for _, p := range order {
		if places[p] == 1 {
			winners = append(winners, p)
		}
	}
	msg := func(m games.Msg) games.Event { return games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: m} }
	evs := []games.Event{msg(games.M("magister.ev.matchend", "Seats", winners, "Count", len(winners)))}
	for _, p := range order {
		evs = append(evs, msg(games.M("magister.ev.place", "Seat", p, "Place", places[p], "Count", t.GameBanks[p],
			"Points", signed(t.GameResult[p]), "Rating", RatingText(t.GameResult[p]))))
	}
	return evs
}

// Score is the score sheet of §9 with the ratings of §10 at the end.
func (g *state) Score() games.Sheet { return sheet(g.N, g.Records, g.Over) }
