package nasilie

import (
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// ToAct is the one seat to act, or nobody when the match is over.
func (st *state) ToAct() []games.Seat {
	switch st.phase {
	case phaseAuction:
		return []games.Seat{st.auctionTurn()}
	case phaseNanny:
		return []games.Seat{st.nanny()}
	case phaseStock, phaseDiscard, phaseTrump, phaseMelds:
		d, _ := st.declarer()
		return []games.Seat{d}
	case phasePlay:
		return []games.Seat{st.playTurn()}
	}
	return nil
}

// trumpKinds are the actions that name trump, by suit.
var trumpKinds = [4]string{"clubs", "diamonds", "hearts", "spades"}

// trumpOf is the suit a trump action names, or NoSuit.
func trumpOf(kind string) cards.Suit {
	if i := slices.Index(trumpKinds[:], kind); i >= 0 {
		return cards.Suits[i]
	}
	return cards.NoSuit
}

// Legal lists the actions of s in canonical order: look/blind, pass/bid, playone/decline,
// take/leave, discard/CARD, the four suits, all/meld/N/done, play/CARD and stoek/CARD. It is the
// one statement of what may be done: Apply and the agent take their choices from it.
func (st *state) Legal(s games.Seat) []games.Action {
	if !slices.Contains(st.ToAct(), s) {
		return nil
	}
	var out []games.Action
	switch st.phase {
	case phaseAuction:
		if !st.looked[s] {
			// N-BLIND: the hand stays hidden until he looks; blind 2 only while nobody has bid.
			out = append(out, games.Do("look"))
			if h, _ := st.high(); h == 0 {
				out = append(out, games.Do("blind"))
			}
			return out
		}
		out = append(out, games.Do("pass"))
		if b := st.nextBid(); b > 0 {
			out = append(out, games.Num("bid", b))
		}
	case phaseNanny:
		// N-NANNY: play a game of 1 or decline for −10.
		out = append(out, games.Do("playone"), games.Do("decline"))
	case phaseStock:
		out = append(out, games.Do("take"), games.Do("leave"))
	case phaseDiscard:
		for _, c := range st.hands[s].Cards() {
			out = append(out, games.With("discard", c))
		}
	case phaseTrump:
		for _, k := range trumpKinds {
			out = append(out, games.Do(k))
		}
	case phaseMelds:
		avail := st.available()
		if len(avail) > 0 {
			out = append(out, games.Do("all"))
		}
		for _, i := range avail {
			out = append(out, games.Num("meld", i+1))
		}
		out = append(out, games.Do("done"))
	case phasePlay:
		legal := st.legalCards(s)
		for _, c := range legal {
			out = append(out, games.With("play", c))
		}
		if d, _ := st.declarer(); s == d && st.stoekOpen() {
			// N-STOEK: stoek may be declared when the trump K or Q is played.
			for _, c := range legal {
				if c.Suit() == st.trump && (c.Rank() == cards.King || c.Rank() == cards.Queen) {
					out = append(out, games.With("stoek", c))
				}
			}
		}
	}
	return out
}

// legalCards is what s may play to the current trick.
func (st *state) legalCards(s games.Seat) []cards.Card {
	led := cards.NoCard
	if n := st.nPlays % st.inPlay(); n > 0 {
		led = st.plays[st.nPlays-n]
	}
	return LegalPlays(st.hands[s].Cards(), led, st.trump, st.lenient)
}

// available lists the indexes into candidates the declarer may still declare.
func (st *state) available() []int {
	d, _ := st.declarer()
	var out []int
	for i, c := range candidates(st.hands[d], st.trump) {
		if declarable(c, st.declared()) {
			out = append(out, i)
		}
	}
	return out
}

// events collects what Apply reports.
type events []games.Event

func (e *events) info(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: m})
}
func (e *events) private(s games.Seat, m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventInfo, To: s, Msg: m})
}
func (e *events) dealEnd(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventDealEnd, To: games.Nobody, Msg: m})
}
func (e *events) matchEnd(m games.Msg) {
	*e = append(*e, games.Event{Kind: games.EventMatchEnd, To: games.Nobody, Msg: m})
}

// Apply checks a against Legal, applies it to a copy and runs what follows automatically: the end
// of the auction, collecting tricks, scoring, the next deal (nasilie.md §Bidding … §End of the game).
func (st *state) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("nasilie: seat %d %v: %w", s, a, err)
	}
	ns := *st
	var ev events
	switch st.phase {
	case phaseAuction:
		ns.auction(s, a, &ev)
	case phaseNanny:
		if a.Kind == "decline" {
			ns.decline(&ev)
		} else {
			ev.info(games.M("nasilie.e.playone", "Seat", s))
			ns.contract(s)
		}
	case phaseStock:
		if a.Kind == "take" {
			ns.took = ns.stock
			ns.hands[s] = ns.hands[s].Union(ns.stock)
			ns.stock = 0
			ns.phase = phaseDiscard
			ev.info(games.M("nasilie.e.take", "Seat", s))
			ev.private(s, games.M("nasilie.e.took", "Cards", ns.took.Cards()))
		} else {
			ns.phase = phaseTrump
			ev.info(games.M("nasilie.e.leave", "Seat", s))
		}
	case phaseDiscard:
		ns.hands[s] = ns.hands[s].Remove(a.Card)
		ns.stock = ns.stock.Add(a.Card)
		if ns.stock.Len() == stockSize {
			ns.phase = phaseTrump
			ev.info(games.M("nasilie.e.laid", "Seat", s))
		}
	case phaseTrump:
		ns.trump = trumpOf(a.Kind)
		ns.phase = phaseMelds
		ev.info(games.M("nasilie.e.trump", "Seat", s, "Suit", ns.trump))
	case phaseMelds:
		ns.meldStep(s, a, &ev)
	case phasePlay:
		ns.play(s, a, &ev)
	}
	return &ns, ev, nil
}

// auction applies a call (nasilie.md §Bidding).
func (st *state) auction(s games.Seat, a games.Action, ev *events) {
	switch a.Kind {
	case "look":
		st.looked[s] = true
		return
	case "blind":
		st.call(Call{s, 2})
		ev.info(games.M("nasilie.e.blind", "Seat", s))
	case "bid":
		st.call(Call{s, int(a.N)})
		ev.info(games.M("nasilie.e.bid", "Seat", s, "N", int(a.N)))
	case "pass":
		st.call(Call{s, 0})
		ev.info(games.M("nasilie.e.pass", "Seat", s))
	}
	switch h, hs := st.high(); {
	case st.left() == 0:
		// N-NANNY: everybody passed; the nanny must choose, even after her own pass.
		st.phase = phaseNanny
		ev.info(games.M("nasilie.e.allpassed", "Seat", st.nanny()))
	case st.left() == 1 && h > 0:
		st.contract(hs)
	}
}

// call records a call of the auction.
func (st *state) call(c Call) {
	st.calls[st.nCalls] = c
	st.nCalls++
}

// contract starts the declarer's game (nasilie.md §After the auction): a blind declarer sees his
// hand now, then decides on the stock.
func (st *state) contract(s games.Seat) {
	st.looked[s] = true
	st.phase = phaseStock
}

// decline ends the deal with the nanny's −10 (N-NANNY).
func (st *state) decline(ev *events) {
	s := st.nanny()
	o := ScoreHand(Hand{NannyDeclined: true})
	st.scores[s] += o.Result
	st.addRow(row{rowDeal: st.deal, rowSeat: int(s), rowFlags: flagDeclined, rowResult: o.Result})
	ev.dealEnd(games.M("nasilie.e.declined", "N", st.deal, "Seat", s, "Total", st.scores[s]))
	st.endDeal(s, ev)
}

// meldStep applies a declaration before the first lead (nasilie.md §Declaring melds and trump).
func (st *state) meldStep(s games.Seat, a games.Action, ev *events) {
	cands := candidates(st.hands[s], st.trump)
	switch a.Kind {
	case "meld":
		st.declare(s, cands[a.N-1].Meld, ev)
		return
	case "all":
		for _, c := range cands {
			if c.full && declarable(c, st.declared()) {
				st.declare(s, c.Meld, ev)
			}
		}
	}
	st.phase, st.lead = phasePlay, s
	ev.info(games.M("nasilie.e.melded", "Seat", s, "N", st.meldPoints()))
}

// declare records a declared meld and shows it to everybody.
func (st *state) declare(s games.Seat, m Meld, ev *events) {
	st.melds[st.nMelds] = m
	st.nMelds++
	ev.info(games.M("nasilie.e.meld", "Seat", s, "Meld", meldMsg(m)))
}

// play applies a card (nasilie.md §Play), collects a full trick and scores the seventh.
func (st *state) play(s games.Seat, a games.Action, ev *events) {
	if a.Kind == "stoek" {
		// N-STOEK: declared as the trump K or Q is played; the partner card is shown if held.
		st.declare(s, Meld{Stoek, cards.SetOf(cards.French(st.trump, cards.Queen), cards.French(st.trump, cards.King))}, ev)
	}
	st.hands[s] = st.hands[s].Remove(a.Card)
	st.plays[st.nPlays] = a.Card
	st.nPlays++
	n := st.inPlay()
	if st.nPlays%n != 0 {
		return
	}
	ps := st.tricks()
	st.lead = ps.last
	ev.info(games.M("nasilie.e.trick", "Seat", ps.last, "Cards", slices.Clone(st.plays[st.nPlays-n:st.nPlays])))
	if len(ps.history) == dealTricks {
		st.score(ps, ev)
	}
}

// score ends a played deal (nasilie.md §Scoring).
func (st *state) score(ps playState, ev *events) {
	d, bid := st.declarer()
	left := st.took.Empty()
	o := ScoreHand(Hand{
		Bid:         bid,
		TrickPoints: SetPoints(ps.won[d], st.trump),
		LastTrick:   ps.last == d,
		Tricks:      ps.count[d],
		MeldPoints:  st.meldPoints(),
		StockUsed:   !left,
	})
	st.scores[d] += o.Result
	flags := 0
	if left {
		flags = flagLeft
	}
	st.addRow(row{rowDeal: st.deal, rowSeat: int(d), rowBid: bid, rowFlags: flags,
		rowReached: o.Achieved, rowNeeded: o.Needed, rowResult: o.Result})
	ev.dealEnd(games.M("nasilie.e.result", "N", st.deal, "Seat", d, "Contract", bidMsg(bid),
		"Count", ps.count[d], "Points", o.CardPoints, "Reached", o.Achieved, "Needed", o.Needed))
	switch ps.count[d] {
	case dealTricks:
		ev.dealEnd(games.M("nasilie.e.alltricks"))
	case 0:
		ev.dealEnd(games.M("nasilie.e.notrick"))
	}
	if left {
		ev.dealEnd(games.M("nasilie.e.doubled"))
	}
	ev.dealEnd(games.M("nasilie.e.change", "Seat", d, "N", o.Result, "Total", st.scores[d]))
	// nasilie.md §After the auction 5: the laid-away cards or the untouched stock are shown.
	if left {
		ev.dealEnd(games.M("nasilie.e.showstock", "Cards", st.stock.Cards()))
	} else {
		ev.dealEnd(games.M("nasilie.e.showlaid", "Seat", d, "Cards", st.stock.Cards()))
	}
	st.endDeal(d, ev)
}

// endDeal ends the match when s reached the target (nasilie.md §End of the game) or the deal limit
// is reached, and deals the next deal otherwise.
func (st *state) endDeal(s games.Seat, ev *events) {
	switch {
	case st.scores[s] >= Target:
		st.phase = phaseOver
		ev.matchEnd(games.M("nasilie.e.winner", "Seat", s, "N", st.scores[s]))
	case st.maxDeals > 0 && st.deal >= st.maxDeals:
		st.phase = phaseOver
		w := st.winners()
		ev.matchEnd(games.M("nasilie.e.limit", "Seats", w, "N", st.scores[w[0]], "Count", st.deal))
	default:
		st.deal++
		st.dealer = (st.dealer + 1) % games.Seat(st.players)
		st.dealCards()
		ev.info(games.M("nasilie.e.newdeal", "N", st.deal, "Seat", st.dealer))
	}
}
