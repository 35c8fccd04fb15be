package magister

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Apply plays a (a trump choice or a card) for s and runs what follows automatically: collecting
// a bank, ending and scoring a deal, dealing the next one.
func (g *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(g, s, a); err != nil {
		return nil, nil, fmt.Errorf("magister: seat %d %v: %w", s, a, err)
	}
	n := *g
	var evs []games.Event
	if n.choosing {
		evs = n.chooseTrump(s, a)
	} else {
		evs = n.play(s, a.Card)
	}
	return &n, evs, nil
}

// chooseTrump records s's own trump (§3, M-TRUMPCHOICE) and deals deal 1 after the last choice.
func (g *state) chooseTrump(s games.Seat, a games.Action) []games.Event {
	su, _ := suitOfKind(a.Kind)
	own := slices.Clone(g.tr.Own) // earlier states share the old slice
	own[s] = su
	g.tr.Own = own
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody,
		Msg: games.M("magister.ev.trump", "Seat", s, "Suit", su)}}
	g.turn = g.left(s)
	if slices.Contains(g.tr.Own, cards.NoSuit) {
		return evs
	}
	g.choosing = false
	return append(evs, g.startDeal(1)...)
}

// startDeal deals deal d (§2.3–2.5).
func (g *state) startDeal(d int) []games.Event {
	if d > 1 {
		g.dealer = g.leader // M-DEALER: the first leader of the previous deal deals
	}
	g.deal = d
	g.hands, g.aside = g.dealt(d, g.dealer)
	g.stock = 0
	g.taken, g.banks, g.lastTwo, g.fours = [4]cards.Set{}, [4]int{}, [4]int{}, [4]int{}
	g.voids = [4]cards.Set{}
	g.played = 0
	g.bank, g.last = Bank{}, Bank{}
	g.leader = g.firstLeader(d, g.dealer, g.hands)
	g.turn = g.leader
	return []games.Event{{Kind: games.EventInfo, To: games.Nobody, Msg: games.M("magister.ev.deal",
		"Num", d, "Deal", games.M("magister.deal."+g.contract().ID()), "Dealer", g.dealer, "Seat", g.leader)}}
}

// dealt is what deal d, dealt by dealer, gives each seat and sets aside (§2.4): one card at a time
// from the dealer's left, in seat order, from the deal's given pack or its seeded shuffle.
func (g *state) dealt(d int, dealer games.Seat) (hands [4]cards.Set, aside cards.Set) {
	var pack []cards.Card
	if d <= len(g.packs) {
		pack = g.packs[d-1]
	} else {
		pack = cards.Shuffle(Pack(), g.seed, uint64(d))
	}
	size := HandSize(ContractOf(d), g.n)
	for i := range size * g.n {
		p := (int(dealer) + 1 + i) % g.n
		hands[p] = hands[p].Add(pack[i])
	}
	return hands, cards.SetOf(pack[size*g.n:]...)
}

// firstLeader is §2.5 (M-FIRSTLEAD): in deal 1 the holder of the lowest diamond by seniority in
// the hands dealt, else (and in deals 2–24) the player to the dealer's left.
func (g *state) firstLeader(d int, dealer games.Seat, hands [4]cards.Set) games.Seat {
	if d == 1 {
		best, who := 99, games.Nobody
		for p, h := range hands[:g.n] {
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
	return g.left(dealer)
}

// play puts s's card on the bank (§4) and collects the bank when everyone has played.
func (g *state) play(s games.Seat, c cards.Card) []games.Event {
	hand := g.hands[s]
	g.hands[s] = hand.Remove(c)
	if g.leading() {
		g.bank, g.last = Open(s, c), Bank{}
	} else {
		before := g.bank
		var o Outcome
		g.bank, o = g.bank.Play(g.tr, s, c, hand)
		g.voids[s] = g.voids[s].Union(shownMissing(before, c, o))
	}
	g.turn = g.left(s)
	if len(g.bank.Plays) < g.n {
		return nil
	}
	return g.collect()
}

// collect gives the finished bank to its holder (§4.3), who leads next (§2.6), and ends the deal
// when its cards are out or nothing more can score (M-EARLYEND).
func (g *state) collect() []games.Event {
	b := g.bank
	w := b.Holder()
	bank := b.Cards()
	g.taken[w] = g.taken[w].Union(bank)
	g.banks[w]++
	g.played++
	if g.played > HandSize(g.contract(), g.n)-2 {
		g.lastTwo[w]++
	}
	if g.n == 4 && FourOfASuit(bank) {
		g.fours[w]++ // M-BONUS
	}
	g.last, g.bank = b, Bank{}
	g.turn = w
	played := make([]cards.Card, len(b.Plays))
	for i, p := range b.Plays {
		played[i] = p.Card
	}
	evs := []games.Event{{Kind: games.EventInfo, To: games.Nobody,
		Msg: games.M("magister.ev.bank", "Seat", w, "Cards", played, "Count", g.banks[w])}}
	if g.hands[0].Empty() || g.contract().EndsEarly() && g.allScoringTaken() {
		evs = append(evs, g.endDeal()...)
	}
	return evs
}

// allScoringTaken reports whether every card that scores in the deal's contract has been taken.
func (g *state) allScoringTaken() bool {
	var taken cards.Set
	for _, t := range g.taken[:g.n] {
		taken = taken.Union(t)
	}
	sc := g.contract().ScoringCards()
	return taken.Intersect(sc) == sc
}

// endDeal scores the deal (§8.1, §8.3), records its sheet row and deals the next deal or ends the
// game.
func (g *state) endDeal() []games.Event {
	rec := g.record()
	g.records = append(slices.Clip(g.records), rec) // earlier states share the old records
	evs := g.dealEndEvents(rec)
	if g.deal == Deals {
		g.over = true
		return append(evs, g.matchEndEvents()...)
	}
	// The cards still in hand score nothing (M-EARLYEND); they are simply gathered.
	return append(evs, g.startDeal(g.deal+1)...)
}

// record is the sheet row of the deal as it stands (§9): each seat's banks and signed points, the
// banks not played, and in Max deals each seat's count (§8.3).
func (g *state) record() DealRecord {
	c := g.contract()
	pts := DealPoints(c, g.taken[:g.n], g.banks[:g.n], g.lastTwo[:g.n], g.fours[:g.n])
	rec := DealRecord{
		Deal: g.deal, Dealer: g.dealer, Leader: g.leader,
		Banks: slices.Clone(g.banks[:g.n]), Points: make([]int, g.n), Remaining: g.hands[0].Len(),
	}
	for p := range g.n {
		rec.Points[p] = Sign(g.deal) * pts[p]
	}
	if c == Max {
		rec.Counts = make([]int, g.n)
		for p := range g.n {
			rec.Counts[p] = MaxCount(g.taken[p], g.fours[p])
		}
	}
	return rec
}

// dealEndEvents announce the deal's result for every seat and the banks left unplayed.
func (g *state) dealEndEvents(rec DealRecord) []games.Event {
	msg := func(m games.Msg) games.Event { return games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: m} }
	evs := []games.Event{msg(games.M("magister.ev.dealend", "Num", rec.Deal,
		"Deal", games.M("magister.deal."+ContractOf(rec.Deal).ID())))}
	t := TallyOf(g.n, g.records)
	for p := range g.n {
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
	t := TallyOf(g.n, g.records)
	places := Places(t.GameResult, t.GameBanks)
	order := make([]games.Seat, g.n)
	for p := range g.n {
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
