package joker

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Option keys and values of the trick game.
const (
	OptParties   = "parties"   // "1": a single party (default); "3": a match of up to three parties
	OptFirstLead = "firstlead" // "dealer" (default, J-FIRSTLEAD) or "left" (the Oh Hell variant)
)

// Action kinds of the trick game: "pass" is a bid of zero, "bid/N" a bid of N >= 1; "play/CARD"
// plays a suited card or the second joker of a trick; "high/X1" and "low/X1" play a joker and
// announce its value in one step (joker.md "Jokers").
const (
	KindPass = "pass"
	KindBid  = "bid"
	KindPlay = "play"
	KindHigh = "high"
	KindLow  = "low"
)

type trickRules struct{}

// Rules is the trick game, version 2 of joker.md: game id "joker".
func Rules() games.Rules { return trickRules{} }

// Name is the game id.
func (trickRules) Name() string { return "joker" }

// Version is the rules version; bump it whenever a change could replay a stored log differently.
func (trickRules) Version() int { return 2 }

// Seats: 2 to 6 players (joker.md version 2, "Players and cards").
func (trickRules) Seats() (int, int) { return 2, 6 }

// Options: single party or match (J-MATCH), and who leads first (J-FIRSTLEAD).
func (trickRules) Options() []games.Option {
	return []games.Option{
		{Key: OptParties, Values: []string{"1", "3"}, Default: "1"},
		{Key: OptFirstLead, Values: []string{"dealer", "left"}, Default: "dealer"},
	}
}

// Phases of a deal.
const (
	phaseBid  = "bid"
	phasePlay = "play"
	phaseOver = "over"
)

// play is one card of a trick with its joker value (High or Low; NoCall for a suited card).
type play struct {
	Seat games.Seat `json:"s"`
	Card cards.Card `json:"c"`
	Call Call       `json:"v,omitempty"`
}

// taken is a collected trick and who won it.
type taken struct {
	Plays  []play     `json:"p"`
	Winner games.Seat `json:"w"`
}

// dealRow is one scored deal of the party in progress.
type dealRow struct {
	Deal   int   `json:"deal"`
	Bids   []int `json:"bids"`   // -1 for a seat not in the party
	Tricks []int `json:"tricks"` // tricks taken
	Leads  []int `json:"leads"`  // penalised joker leads
	Points []int `json:"points"`
}

// partyResult is a finished party of a match.
type partyResult struct {
	Extra   bool         `json:"extra,omitempty"`
	In      []bool       `json:"in"`
	Totals  []int        `json:"totals"`
	Winners []games.Seat `json:"winners,omitempty"` // empty: drawn
	Seconds []games.Seat `json:"seconds,omitempty"`
}

// trickState is the whole serialisable state of a joker table.
type trickState struct {
	N         int    `json:"n"`
	Match     bool   `json:"match,omitempty"`
	LeftLeads bool   `json:"leftLeads,omitempty"`
	Seed      uint64 `json:"seed"`

	Party   int           `json:"party"` // 1-based, counting extra parties
	Extra   bool          `json:"extra,omitempty"`
	In      []bool        `json:"in"` // seats playing the party in progress
	Wins    []int         `json:"wins"`
	Seconds []int         `json:"seconds"`
	History []partyResult `json:"history,omitempty"`
	Winners []games.Seat  `json:"winners,omitempty"` // set when the match is over

	DealNo   int         `json:"dealNo"` // 1..13 within the party
	DealK    uint64      `json:"dealK"`  // deal counter of the match, the shuffle's k
	Dealer   games.Seat  `json:"dealer"`
	Phase    string      `json:"phase"`
	Turn     games.Seat  `json:"turn"`
	Hands    []cards.Set `json:"hands"`
	Stock    cards.Set   `json:"stock"`
	TurnUp   cards.Card  `json:"turnUp"`
	Bids     []int       `json:"bids"` // -1: not yet (or not playing)
	Taken    []int       `json:"taken"`
	Leads    []int       `json:"leads"` // penalised joker leads this deal
	Trick    []play      `json:"trick,omitempty"`
	Tricks   []taken     `json:"tricks,omitempty"`   // the collected tricks of this deal
	ShowLast bool        `json:"showLast,omitempty"` // the last trick is shown until a card is played
	Rows     []dealRow   `json:"rows,omitempty"`     // scored deals of the party in progress
}

// New starts the first party: first dealer by lot, deal 1 dealt.
func (r trickRules) New(cfg games.Config, seed uint64) (games.State, error) {
	if err := games.Validate(r, cfg); err != nil {
		return nil, fmt.Errorf("joker: %w", err)
	}
	opts := r.Options()
	st := &trickState{
		N:         cfg.Players,
		Match:     cfg.Get(opts, OptParties) == "3",
		LeftLeads: cfg.Get(opts, OptFirstLead) == "left",
		Seed:      seed,
		Wins:      make([]int, cfg.Players),
		Seconds:   make([]int, cfg.Players),
	}
	in := make([]bool, cfg.Players)
	for i := range in {
		in[i] = true
	}
	st.startParty(in, false)
	return st, nil
}

// Unmarshal restores a state; bytes that do not describe one wrap games.ErrCorrupt.
func (trickRules) Unmarshal(b []byte) (games.State, error) {
	var st trickState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("joker: %w: %v", games.ErrCorrupt, err)
	}
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("joker: %w: %v", games.ErrCorrupt, err)
	}
	return &st, nil
}

// check rejects states no sequence of actions can produce in a way that would make a method panic.
func (st *trickState) check() error {
	n := st.N
	switch {
	case n < 2 || n > 6:
		return fmt.Errorf("%d players", n)
	case len(st.In) != n || len(st.Wins) != n || len(st.Seconds) != n || len(st.Hands) != n ||
		len(st.Bids) != n || len(st.Taken) != n || len(st.Leads) != n:
		return fmt.Errorf("per-seat slices do not have %d entries", n)
	case st.DealNo < 1 || st.DealNo > Deals:
		return fmt.Errorf("deal %d", st.DealNo)
	case !st.valid(st.Dealer) || !st.valid(st.Turn):
		return fmt.Errorf("seat out of range")
	case st.Phase != phaseBid && st.Phase != phasePlay && st.Phase != phaseOver:
		return fmt.Errorf("phase %q", st.Phase)
	case st.players() < 2:
		return fmt.Errorf("%d players in the party", st.players())
	case len(st.Trick) >= st.players():
		return fmt.Errorf("trick of %d cards", len(st.Trick))
	case !st.TurnUp.Valid():
		return fmt.Errorf("no turn-up card")
	}
	for _, r := range st.Rows {
		if len(r.Bids) != n || len(r.Tricks) != n || len(r.Leads) != n || len(r.Points) != n {
			return fmt.Errorf("sheet row with wrong width")
		}
	}
	all := slices.Clone(st.Trick)
	for _, t := range st.Tricks {
		if !st.valid(t.Winner) || len(t.Plays) == 0 {
			return fmt.Errorf("bad trick")
		}
		all = append(all, t.Plays...)
	}
	for _, p := range all {
		if !st.valid(p.Seat) || !p.Card.Valid() {
			return fmt.Errorf("bad card in a trick")
		}
	}
	for _, h := range st.History {
		if len(h.In) != n || len(h.Totals) != n {
			return fmt.Errorf("party result with wrong width")
		}
	}
	return nil
}

func (st *trickState) valid(s games.Seat) bool { return s >= 0 && int(s) < st.N }

// players is the number of seats in the party in progress.
func (st *trickState) players() int {
	k := 0
	for _, in := range st.In {
		if in {
			k++
		}
	}
	return k
}

// next is the next seat clockwise after s that plays the party in progress.
func (st *trickState) next(s games.Seat) games.Seat {
	for i := 1; i <= st.N; i++ {
		t := games.Seat((int(s) + i) % st.N)
		if st.In[t] {
			return t
		}
	}
	return s
}

// clone is a copy Apply may change without touching its receiver: slices changed in place are
// copied; append-only ones (whose elements are never changed) are clipped, so an append copies.
func (st *trickState) clone() *trickState {
	c := *st
	c.Wins = slices.Clone(st.Wins)
	c.Seconds = slices.Clone(st.Seconds)
	c.Hands = slices.Clone(st.Hands)
	c.Bids = slices.Clone(st.Bids)
	c.Taken = slices.Clone(st.Taken)
	c.Leads = slices.Clone(st.Leads)
	c.History = slices.Clip(st.History)
	c.Trick = slices.Clip(st.Trick)
	c.Rows = slices.Clip(st.Rows)
	c.Tricks = slices.Clip(st.Tricks)
	return &c
}

// MarshalBinary is deterministic JSON.
func (st *trickState) MarshalBinary() ([]byte, error) { return json.Marshal(st) }

// fullDeck is the 54-card pack: 52 French cards and two jokers (joker.md "Players and cards").
func Pack() []cards.Card {
	return append(cards.FrenchFrom(2), cards.Joker(1), cards.Joker(2))
}

// startParty begins a party among the seats in: zero totals, first dealer by lot (joker.md
// "Dealer and deal", J-MATCH), then its first deal.
func (st *trickState) startParty(in []bool, extra bool) {
	st.Party++
	st.Extra = extra
	st.In = in
	st.Rows = nil
	seats := st.seatsIn()
	rng := cards.Stream(st.Seed, cards.Dealer, uint64(st.Party))
	st.Dealer = seats[rng.IntN(len(seats))]
	st.DealNo = 1
	st.deal()
}

// seatsIn lists the seats of the party in progress in seat order.
func (st *trickState) seatsIn() []games.Seat {
	var out []games.Seat
	for s := range games.Seat(st.N) {
		if st.In[s] {
			out = append(out, s)
		}
	}
	return out
}

// deal shuffles and deals deal st.DealNo: one card at a time from the dealer's left, then the
// turn-up whose suit is trump, no trump if it is a joker (joker.md "Dealer and deal", J-DRAW).
func (st *trickState) deal() {
	st.DealK++
	deck := cards.Shuffle(Pack(), st.Seed, st.DealK)
	h := HandSize(st.DealNo)
	st.Hands = make([]cards.Set, st.N)
	st.Bids = make([]int, st.N)
	st.Taken = make([]int, st.N)
	st.Leads = make([]int, st.N)
	for i := range st.Bids {
		st.Bids[i] = -1
	}
	s, i := st.Dealer, 0
	for range h {
		for range st.players() {
			s = st.next(s)
			st.Hands[s] = st.Hands[s].Add(deck[i])
			i++
		}
	}
	st.TurnUp = deck[i]
	st.Stock = cards.SetOf(deck[i+1:]...)
	st.Trick, st.Tricks, st.ShowLast = nil, nil, false
	st.Phase = phaseBid
	st.Turn = st.next(st.Dealer) // joker.md "Bidding": from the dealer's left
}

// last is the last collected trick while it is shown, else nil.
func (st *trickState) last() *taken {
	if !st.ShowLast || len(st.Tricks) == 0 {
		return nil
	}
	return &st.Tricks[len(st.Tricks)-1]
}

// played is every card of the collected tricks of the deal.
func (st *trickState) played() cards.Set {
	var s cards.Set
	for _, t := range st.Tricks {
		for _, p := range t.Plays {
			s = s.Add(p.Card)
		}
	}
	return s
}

// Trump is the deal's trump suit, NoSuit when a joker was turned (joker.md "Dealer and deal").
func (st *trickState) trump() cards.Suit { return st.TurnUp.Suit() }

// ToAct is the one player to bid or play, none when the match is over.
func (st *trickState) ToAct() []games.Seat {
	if st.Phase == phaseOver {
		return nil
	}
	return []games.Seat{st.Turn}
}

// forbidden is the dealer's forbidden bid (J-HOOK), or -1; meaningful while bidding.
func (st *trickState) forbidden() int {
	var others []int
	for s, b := range st.Bids {
		if games.Seat(s) != st.Dealer && b >= 0 {
			others = append(others, b)
		}
	}
	return ForbiddenBid(HandSize(st.DealNo), others)
}

// bidAction is the action for bid b: "pass" for zero (joker.md "Bidding": pass is a bid of 0).
func bidAction(b int) games.Action {
	if b == 0 {
		return games.Do(KindPass)
	}
	return games.Num(KindBid, b)
}

// Legal lists the bids or the playable cards, jokers with their high/low call.
func (st *trickState) Legal(s games.Seat) []games.Action {
	if st.Phase == phaseOver || s != st.Turn {
		return nil
	}
	if st.Phase == phaseBid {
		h := HandSize(st.DealNo)
		f := -1
		if s == st.Dealer {
			f = st.forbidden() // joker.md "Bidding", J-HOOK
		}
		out := make([]games.Action, 0, h+1)
		for b := 0; b <= h; b++ {
			if b != f {
				out = append(out, bidAction(b))
			}
		}
		return out
	}
	second := false
	for _, p := range st.Trick {
		second = second || p.Card.IsJoker()
	}
	out := make([]games.Action, 0, HandSize(st.DealNo)+1)
	jokerOffered := false
	for _, c := range legalSet(st.Hands[s], st.follow()).Cards() {
		switch {
		case !c.IsJoker():
			out = append(out, games.With(KindPlay, c))
		case jokerOffered:
			// Both jokers in one hand are the same card: offer one of them.
		case second:
			// joker.md "Jokers", J-TWOJOKERS: the second joker of a trick is not announced.
			out = append(out, games.With(KindPlay, c))
			jokerOffered = true
		default:
			out = append(out, games.With(KindHigh, c), games.With(KindLow, c))
			jokerOffered = true
		}
	}
	return out
}

// follow is the suit to follow in the trick in progress (joker.md "Play", J-LEAD).
func (st *trickState) follow() cards.Suit {
	for _, p := range st.Trick {
		if !p.Card.IsJoker() {
			return p.Card.Suit()
		}
	}
	return cards.NoSuit
}

func (st *trickState) trickCards() []cards.Card {
	out := make([]cards.Card, len(st.Trick))
	for i, p := range st.Trick {
		out[i] = p.Card
	}
	return out
}

// Apply makes a bid or plays a card and runs every automatic step that follows.
func (st *trickState) Apply(s games.Seat, a games.Action) (games.State, []games.Event, error) {
	if err := games.CheckLegal(st, s, a); err != nil {
		return nil, nil, fmt.Errorf("joker: seat %d %v: %w", s, a, err)
	}
	n := st.clone()
	var evs []games.Event
	if n.Phase == phaseBid {
		b := int(a.N)
		n.Bids[s] = b
		if b == 0 {
			evs = append(evs, info(games.M("joker.ev.pass", "Seat", s)))
		} else {
			evs = append(evs, info(games.M("joker.ev.bid", "Seat", s, "N", b)))
		}
		if s == n.Dealer {
			n.Phase = phasePlay
			n.Turn = n.Dealer // joker.md "Play", J-FIRSTLEAD
			if n.LeftLeads {
				n.Turn = n.next(n.Dealer)
			}
		} else {
			n.Turn = n.next(s)
		}
		return n, evs, nil
	}
	evs = n.play(s, a, evs)
	return n, evs, nil
}

func info(m games.Msg) games.Event {
	return games.Event{Kind: games.EventInfo, To: games.Nobody, Msg: m}
}

// play puts a card on the trick and runs what follows: collecting the trick, scoring the deal,
// the next deal, the end of the party or match.
func (st *trickState) play(s games.Seat, a games.Action, evs []games.Event) []games.Event {
	c := a.Card
	if len(st.Trick) == 0 {
		st.ShowLast = false // joker.md "Play": the last trick is visible until the next card is played
		if c.IsJoker() && st.Hands[s].Len() > 1 {
			// joker.md "Penalties", J-LEADPEN: a joker led while holding other cards costs 10.
			st.Leads[s]++
			evs = append(evs, info(games.M("joker.ev.leadpen", "Seat", s)))
		}
	}
	st.Hands[s] = st.Hands[s].Remove(c)
	call := NoCall
	switch a.Kind {
	case KindHigh:
		call = High
	case KindLow:
		call = Low
	case KindPlay:
		if c.IsJoker() {
			// J-TWOJOKERS: the second joker takes the value opposite to the first.
			call = ResolveCalls([]cards.Card{c, c}, []Call{st.firstJokerCall(), NoCall})[1]
		}
	}
	p := play{Seat: s, Card: c, Call: call}
	st.Trick = append(st.Trick, p)
	evs = append(evs, info(playMsg("joker.ev", p)))
	if len(st.Trick) < st.players() {
		st.Turn = st.next(s)
		return evs
	}
	trick, calls := st.trickCards(), make([]Call, len(st.Trick))
	for i, p := range st.Trick {
		calls[i] = p.Call
	}
	w := st.Trick[TrickWinner(trick, calls, st.trump())].Seat // joker.md "Winning a trick"
	st.Taken[w]++
	st.Tricks = append(st.Tricks, taken{Plays: st.Trick, Winner: w})
	st.ShowLast = true
	st.Turn = w // joker.md "Play": the winner leads to the next trick
	evs = append(evs, info(games.M("joker.ev.trick", "Seat", w, "Plays", playMsgs("joker.t", st.Trick))))
	st.Trick = nil
	if st.Hands[w].Empty() {
		evs = st.endDeal(evs)
	}
	return evs
}

// firstJokerCall is the announced value of the joker already in the trick.
func (st *trickState) firstJokerCall() Call {
	for _, p := range st.Trick {
		if p.Card.IsJoker() {
			return p.Call
		}
	}
	return NoCall
}

// playMsg is one card of a trick as a message: prefix+".card", ".high" or ".low".
func playMsg(prefix string, p play) games.Msg {
	id := prefix + ".card"
	switch p.Call {
	case High:
		id = prefix + ".high"
	case Low:
		id = prefix + ".low"
	}
	return games.M(id, "Seat", p.Seat, "Card", p.Card)
}

func playMsgs(prefix string, ps []play) []games.Msg {
	out := make([]games.Msg, len(ps))
	for i, p := range ps {
		out[i] = playMsg(prefix, p)
	}
	return out
}
