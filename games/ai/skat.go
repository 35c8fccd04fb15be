package ai

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/skat"
)

func init() { agents["skat"] = func() Agent { return SkatAgent{} } }

// SkatAgent plays Robber Skat from its View: it values its hand for every game (jacks, trump
// length, aces and tens, voids), bids step by step up to the value of the best game it could
// declare and never beyond, lays away the two cards that leave the strongest game, and plays
// its cards by simple trick-taking rules (draw trumps, cash aces, smear points to a partner,
// duck in Null and Ramsch).
type SkatAgent struct{}

// Thresholds of the hand evaluation: the score a game needs to be declared with the skat taken,
// and the extra a hand game needs because the skat will not help.
const (
	skatSuitNeed  = 8.0
	skatGrandNeed = 7.2
	skatHandExtra = 2.0
)

// Choose picks a call, a choice, a discard, a game or a card from the seat's view.
func (SkatAgent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(skat.Game)
	if !ok || len(legal) == 0 {
		return Random{}.Choose(v, legal, rng)
	}
	hand := cards.SetOf(v.Hand...)
	var a games.Action
	switch g.Phase {
	case "auction":
		a = skatBid(g, hand, legal)
	case "choice":
		a = skatAlone(g, hand, legal)
	case "skat":
		a = skatPickUp(g, hand, legal)
	case "discard":
		a = skatDiscard(g, hand, legal)
	case "game":
		a = skatDeclare(g, hand, legal)
	case "announce":
		a = skatAnnounce(g, hand, legal)
	case "play":
		a = skatPlay(g, v.Seat, hand, legal)
	}
	if !slices.Contains(legal, a) {
		return legal[0]
	}
	return a
}

// skatTrumpGames are the games the agent values with trumps.
var skatTrumpGames = [...]skat.Kind{skat.Clubs, skat.Spades, skat.Hearts, skat.Diamonds, skat.Grand}

// skatJackWeight is what each jack adds to a hand, clubs jack first.
var skatJackWeight = [4]float64{1.0, 0.8, 0.6, 0.5}

// skatStrength scores hand h for trump game k: roughly the tricks and control it brings.
func skatStrength(k skat.Kind, h cards.Set) float64 {
	order := skat.TrumpOrder(k)
	trumps := 0
	score := 0.0
	for i, c := range order {
		if !h.Has(c) {
			continue
		}
		trumps++
		switch {
		case i < 4 && k == skat.Grand:
			score += 1.0 + skatJackWeight[i]*0.6
		case i < 4:
			score += 1.0 + skatJackWeight[i]
		case i == 4:
			score += 1.5 // the trump ace
		case i == 5:
			score += 1.3 // the trump ten
		default:
			score += 1.0
		}
	}
	for _, s := range cards.Suits {
		if skat.SuitKind(s) == k {
			continue
		}
		side := cards.Set(0)
		for _, c := range h.Suit(s).Cards() {
			if c.Rank() != cards.Jack {
				side = side.Add(c)
			}
		}
		n := side.Len()
		ace, ten := side.Has(cards.French(s, cards.Ace)), side.Has(cards.French(s, 10))
		switch {
		case ace && ten:
			score += 2.0
			if n >= 4 && k == skat.Grand {
				score += 0.6 * float64(n-3) // a long suit runs in Grand
			}
		case ace:
			score += 1.1
		case ten && n >= 2:
			score += 0.4
		}
		if k != skat.Grand && trumps >= 5 {
			switch {
			case n == 0:
				score += 0.6
			case n == 1 && !ace:
				score += 0.3
			}
		}
		if k != skat.Grand && !ace && n >= 3 {
			score -= 0.3 // a long side suit without its ace loses tricks
		}
	}
	if k == skat.Grand && trumps < 2 {
		score -= 2 // Grand without two jacks is a gamble
	}
	return score
}

// skatNeed is the strength a game needs: with the skat taken, or as a hand game.
func skatNeed(k skat.Kind, hand bool) float64 {
	need := skatSuitNeed
	if k == skat.Grand {
		need = skatGrandNeed
	}
	if hand {
		need += skatHandExtra
	}
	return need
}

// skatNullSafe reports whether h can play Null: in every suit the k-th lowest card it holds is
// at most the 2k-th lowest of the suit, so each of its cards can be ducked under an opponent's.
func skatNullSafe(h cards.Set) bool {
	nullRanks := [8]cards.Rank{7, 8, 9, 10, cards.Jack, cards.Queen, cards.King, cards.Ace}
	for _, s := range cards.Suits {
		k := 0
		for i, r := range nullRanks {
			if h.Has(cards.French(s, r)) {
				if i > 2*k {
					return false
				}
				k++
			}
		}
	}
	return true
}

// skatValue is what game k is worth under v with the declarer's known trumps in held.
func skatValue(v skat.Variant, k skat.Kind, held cards.Set, hand bool) int {
	c := skat.Contract{Kind: k, Hand: hand || k.IsNull(), Open: k == skat.NullOuvert}
	n, _ := skat.Matadors(k, held)
	return skat.Value(v, c, n, skat.LevelGame)
}

// skatMaxBid is the highest bid the agent will make or hold: the value of the best game its ten
// cards can declare (the skat counted at nothing), 0 if it has none.
func skatMaxBid(v skat.Variant, h cards.Set) int {
	best := 0
	for _, k := range skatTrumpGames {
		s := skatStrength(k, h)
		if s >= skatNeed(k, true) {
			best = max(best, skatValue(v, k, h, true))
		} else if s >= skatNeed(k, false) {
			best = max(best, skatValue(v, k, h, false))
		}
	}
	if skatNullSafe(h) {
		best = max(best, skat.Null.Base(v))
	}
	return best
}

// skatBid bids the next value while its best game is worth it, holds up to that value, and
// passes otherwise.
func skatBid(g skat.Game, h cards.Set, legal []games.Action) games.Action {
	limit := skatMaxBid(g.Variant, h)
	for _, a := range legal {
		switch {
		case a.Kind == "bid" && int(a.N) <= limit:
			return a // legal bids come lowest first: bid one step at a time
		case a.Kind == "hold" && g.Auction.Highest <= limit:
			return a
		}
	}
	return games.Do("pass")
}

// skatAlone is forehand's choice when nobody bid: play at 18 with a game, Ramsch with a hand that
// takes few points, else throw in.
func skatAlone(g skat.Game, h cards.Set, legal []games.Action) games.Action {
	if skatMaxBid(g.Variant, h) >= 18 {
		return games.Num("playat", 18)
	}
	danger := 0
	for _, c := range h.Cards() {
		if c.Rank() == cards.Jack || c.Rank() == cards.Ace || c.Rank() == 10 {
			danger++
		}
	}
	if danger <= 4 || !slices.Contains(legal, games.Do("throwin")) {
		return games.Do("ramsch")
	}
	return games.Do("throwin")
}

// skatPickUp plays hand only with a game strong enough without the skat that reaches the bid.
func skatPickUp(g skat.Game, h cards.Set, _ []games.Action) games.Action {
	for _, k := range skatTrumpGames {
		if skatStrength(k, h) >= skatNeed(k, true) && skatValue(g.Variant, k, h, true) >= g.Bid {
			return games.Do("hand")
		}
	}
	if skatNullSafe(h) && skat.Null.Base(g.Variant) >= g.Bid {
		return games.Do("hand")
	}
	return games.Do("skat")
}

// skatGameScore is the expected score of declaring k with the cards h (held: every card known
// to be the declarer's): the chance of winning, guessed from how far its strength clears the
// need, times the value, less the chance of losing times the loss. A game whose value cannot
// reach the bid is lost anyway.
func skatGameScore(g skat.Game, k skat.Kind, h, held cards.Set) float64 {
	margin := skatStrength(k, h) - skatNeed(k, false)
	val := skatValue(g.Variant, k, held, !g.Taken)
	loss := float64(g.Bid)
	if g.Taken {
		loss *= 2
	}
	if val < g.Bid {
		return -loss - 100 + margin
	}
	p := 1 / (1 + math.Exp(-(margin+skatMarginBias)/skatMarginScale))
	return p*float64(val) - (1-p)*loss
}

// The win chance of skatGameScore: 1/(1+e^-(margin+bias)/scale).
const (
	skatMarginBias  = 1.0
	skatMarginScale = 1.5
)

// skatDiscard lays away the card(s) that leave the best game; points laid away count for the
// declarer, so a loose ten is a good discard.
func skatDiscard(g skat.Game, h cards.Set, legal []games.Action) games.Action {
	laid := cards.SetOf(g.Laid...)
	all := h.Union(laid)
	best, bestScore := legal[0], -1e9
	for _, a := range legal {
		rest := h.Remove(a.Card)
		for _, k := range skatTrumpGames {
			if slices.Contains(skat.TrumpOrder(k), a.Card) {
				continue // never lay away a trump
			}
			s := skatGameScore(g, k, rest, all)
			if laid.Empty() {
				// Two to lay away: score the best second card too.
				second := -1e9
				for _, c := range rest.Cards() {
					if !slices.Contains(skat.TrumpOrder(k), c) {
						second = max(second, skatGameScore(g, k, rest.Remove(c), all)+0.1*float64(skat.Points(c)))
					}
				}
				s = second
			}
			s += 0.1 * float64(skat.Points(a.Card))
			if s > bestScore {
				best, bestScore = a, s
			}
		}
	}
	return best
}

// skatDeclare names the best game that reaches the bid (see skatGameScore); Null when the hand
// is safe for it and no trump game is playable.
func skatDeclare(g skat.Game, h cards.Set, legal []games.Action) games.Action {
	held := h.Union(cards.SetOf(g.Laid...))
	best, bestScore := legal[0], -1e9
	for _, a := range legal {
		k, ok := skatKindOf(a.Kind)
		if !ok || k.IsNull() {
			continue
		}
		if s := skatGameScore(g, k, h, held); s > bestScore {
			best, bestScore = a, s
		}
	}
	if bestScore < 0 && skatNullSafe(h) && slices.Contains(legal, games.Do("null")) &&
		skat.Null.Base(g.Variant) >= g.Bid {
		return games.Do("null")
	}
	return best
}

// skatKindOf maps a game action to its kind.
func skatKindOf(kind string) (skat.Kind, bool) {
	if kind == "nullouvert" {
		return skat.NullOuvert, true
	}
	return skat.ParseKind(kind)
}

// skatAnnounce plays without announcements unless only schneider announced reaches the bid and
// the hand is very strong.
func skatAnnounce(g skat.Game, h cards.Set, legal []games.Action) games.Action {
	held := h.Union(cards.SetOf(g.Laid...))
	n, _ := skat.Matadors(g.Contract.Kind, held)
	plain := g.Contract
	if skat.Value(g.Variant, plain, n, skat.LevelGame) < g.Bid {
		sn := plain
		sn.Schneider = true
		if skat.Value(g.Variant, sn, n, skat.LevelSchneiderAnn) >= g.Bid &&
			skatStrength(plain.Kind, h) >= skatNeed(plain.Kind, false)+3 {
			return games.Do("schneider")
		}
	}
	return games.Do("simple")
}

// skatTable is what the agent knows while playing a card.
type skatTable struct {
	kind     skat.Kind
	me       games.Seat
	declarer games.Seat // Nobody in Ramsch
	hand     cards.Set
	unseen   cards.Set // cards neither played, nor in the hand, nor known laid away or open
	trick    []cards.Card
	players  []games.Seat // the seats of the trick in playing order from its leader
	voids    map[games.Seat]map[cards.Suit]bool
}

func skatNewTable(g skat.Game, me games.Seat, hand cards.Set) skatTable {
	t := skatTable{kind: g.Contract.Kind, me: me, declarer: g.Declarer, hand: hand,
		trick: g.Trick, voids: map[games.Seat]map[cards.Suit]bool{}}
	seen := hand.Union(cards.SetOf(g.Laid...)).Union(cards.SetOf(g.Open...)).Union(cards.SetOf(g.Trick...))
	order := func(leader games.Seat) []games.Seat {
		var out []games.Seat
		start := 0
		for i, s := range g.Seats {
			if s == leader {
				start = i
			}
		}
		for i := range 3 {
			out = append(out, g.Seats[(start+i)%3])
		}
		return out
	}
	note := func(leader games.Seat, cs []cards.Card) {
		who := order(leader)
		led := skat.Follow(t.kind, cs[0])
		for i, c := range cs {
			seen = seen.Add(c)
			if i > 0 && skat.Follow(t.kind, c) != led {
				if t.voids[who[i]] == nil {
					t.voids[who[i]] = map[cards.Suit]bool{}
				}
				t.voids[who[i]][led] = true
			}
		}
	}
	for _, tr := range g.Tricks {
		note(tr.Leader, tr.Cards)
	}
	if len(g.Trick) > 0 {
		note(g.Leader, g.Trick)
	}
	t.players = order(g.Leader)
	var deck cards.Set
	for _, c := range skat.Deck() {
		deck = deck.Add(c)
	}
	t.unseen = deck.Minus(seen)
	return t
}

// partner reports whether s plays on the agent's side (only between the two opponents).
func (t skatTable) partner(s games.Seat) bool {
	return s != t.me && t.declarer != games.Nobody && t.me != t.declarer && s != t.declarer
}

// winnerSoFar is the seat winning the current trick and its card.
func (t skatTable) winnerSoFar() (games.Seat, cards.Card) {
	i := skat.TrickWinner(t.kind, t.trick)
	return t.players[i], t.trick[i]
}

// beats reports whether c would take the trick as it stands.
func (t skatTable) beats(c cards.Card) bool {
	if len(t.trick) == 0 {
		return true
	}
	_, best := t.winnerSoFar()
	return skat.Beats(t.kind, c, best, skat.Follow(t.kind, t.trick[0]))
}

// boss reports whether no unseen card of c's suit (as followed) is higher than c.
func (t skatTable) boss(c cards.Card) bool {
	f := skat.Follow(t.kind, c)
	for _, x := range t.unseen.Cards() {
		if skat.Follow(t.kind, x) == f && skat.Beats(t.kind, x, c, f) {
			return false
		}
	}
	return true
}

// unseenIn counts the unseen cards of follow-suit f.
func (t skatTable) unseenIn(f cards.Suit) int {
	n := 0
	for _, x := range t.unseen.Cards() {
		if skat.Follow(t.kind, x) == f {
			n++
		}
	}
	return n
}

// rank orders cards inside their follow-suit, low to high.
func (t skatTable) rank(c cards.Card) int {
	n := 0
	f := skat.Follow(t.kind, c)
	for _, x := range skat.Deck() {
		if skat.Follow(t.kind, x) == f && skat.Beats(t.kind, c, x, f) {
			n++
		}
	}
	return n
}

// pick returns the card of cs minimising cost.
func skatPick(cs []cards.Card, cost func(cards.Card) float64) cards.Card {
	best, bc := cs[0], cost(cs[0])
	for _, c := range cs[1:] {
		if x := cost(c); x < bc {
			best, bc = c, x
		}
	}
	return best
}

// skatPlay chooses a card to play.
func skatPlay(g skat.Game, me games.Seat, hand cards.Set, legal []games.Action) games.Action {
	t := skatNewTable(g, me, hand)
	var options []cards.Card
	for _, a := range legal {
		options = append(options, a.Card)
	}
	var c cards.Card
	switch {
	case t.kind == skat.Ramsch:
		c = t.ramsch(options)
	case t.kind.IsNull() && me == t.declarer:
		c = t.nullDeclarer(options)
	case t.kind.IsNull():
		c = t.nullDefender(options)
	case len(t.trick) == 0:
		c = t.lead(options)
	default:
		c = t.follow(options)
	}
	return games.With("play", c)
}

// isTrump reports whether c is a trump in the current game.
func (t skatTable) isTrump(c cards.Card) bool {
	return t.kind.HasTrumps() && skat.Follow(t.kind, c) == skat.Trumps
}

// lead opens a trick in a suit game or Grand.
func (t skatTable) lead(options []cards.Card) cards.Card {
	trumpSuit := skat.Trumps
	if t.me == t.declarer {
		// Draw trumps while the opponents have some and the agent holds the top one.
		if t.unseenIn(trumpSuit) > 0 {
			for _, c := range options {
				if t.isTrump(c) && t.boss(c) {
					return c
				}
			}
		}
		// Cash a master card in a suit where nobody is known to be void.
		if c, ok := t.cash(options); ok {
			return c
		}
		var trumps []cards.Card
		for _, c := range options {
			if t.isTrump(c) {
				trumps = append(trumps, c)
			}
		}
		if len(trumps) > 0 && len(trumps) >= t.unseenIn(trumpSuit) && t.unseenIn(trumpSuit) > 0 {
			return skatPick(trumps, func(c cards.Card) float64 { return float64(t.rank(c)) })
		}
	} else if c, ok := t.cash(options); ok {
		return c
	}
	// Otherwise a low card, plain suits before trumps.
	return skatPick(options, func(c cards.Card) float64 {
		cost := float64(skat.Points(c))*2 + float64(t.rank(c))
		if t.isTrump(c) {
			cost += 40
		}
		return cost
	})
}

// cash finds a plain master card that is safe to lead: no player known void in its suit.
func (t skatTable) cash(options []cards.Card) (cards.Card, bool) {
	for _, c := range options {
		if t.isTrump(c) || !t.boss(c) {
			continue
		}
		f := skat.Follow(t.kind, c)
		safe := true
		for s, v := range t.voids {
			if s != t.me && !t.partner(s) && v[f] {
				safe = false
			}
		}
		if safe {
			return c, true
		}
	}
	return 0, false
}

// follow plays to a trick in a suit game or Grand.
func (t skatTable) follow(options []cards.Card) cards.Card {
	winner, _ := t.winnerSoFar()
	last := len(t.trick) == 2
	points := 0
	for _, c := range t.trick {
		points += skat.Points(c)
	}
	var winning []cards.Card
	for _, c := range options {
		if t.beats(c) {
			winning = append(winning, c)
		}
	}
	cheapWin := func() cards.Card {
		return skatPick(winning, func(c cards.Card) float64 {
			cost := float64(t.rank(c))
			if t.isTrump(c) {
				cost += 20
			}
			if !last && !t.boss(c) {
				cost += 40 // the last player may still beat it
			}
			return cost
		})
	}
	low := func() cards.Card {
		return skatPick(options, func(c cards.Card) float64 {
			cost := float64(skat.Points(c))*3 + float64(t.rank(c))
			if t.isTrump(c) {
				cost += 25
			}
			return cost
		})
	}
	smear := func() cards.Card {
		return skatPick(options, func(c cards.Card) float64 {
			cost := -float64(skat.Points(c)) * 3
			if t.isTrump(c) {
				cost += 30 // keep trumps for later tricks
			}
			return cost
		})
	}
	if t.partner(winner) {
		next := t.players[2]
		if last || (t.partner(next) || t.safeAgainst(next)) {
			return smear()
		}
		return low()
	}
	// The trick goes to the other side so far.
	if len(winning) == 0 {
		return low()
	}
	c := cheapWin()
	if last || t.boss(c) || points >= 10 || t.me == t.declarer {
		return c
	}
	return low()
}

// safeAgainst reports whether the trick's current winner cannot be beaten by seat s as far as
// the agent can tell: it is the master card, and s is not known void in the suit led.
func (t skatTable) safeAgainst(s games.Seat) bool {
	_, best := t.winnerSoFar()
	led := skat.Follow(t.kind, t.trick[0])
	if !t.boss(best) {
		return false
	}
	if t.isTrump(best) {
		return true
	}
	return !t.voids[s][led]
}

// nullDeclarer ducks: the highest card that stays under the trick, else the lowest.
func (t skatTable) nullDeclarer(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		return skatPick(options, func(c cards.Card) float64 { return float64(t.rank(c)) })
	}
	led := skat.Follow(t.kind, t.trick[0])
	var under []cards.Card
	for _, c := range options {
		if !t.beats(c) {
			under = append(under, c)
		}
	}
	if len(under) > 0 {
		return skatPick(under, func(c cards.Card) float64 {
			if skat.Follow(t.kind, c) != led {
				return -float64(t.rank(c)) - 20 // discard the most dangerous card
			}
			return -float64(t.rank(c))
		})
	}
	return skatPick(options, func(c cards.Card) float64 { return float64(t.rank(c)) })
}

// nullDefender tries to make the Null declarer take a trick.
func (t skatTable) nullDefender(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		// Lead low in a suit the declarer still holds.
		return skatPick(options, func(c cards.Card) float64 {
			cost := float64(t.rank(c))
			if t.voids[t.declarer][skat.Follow(t.kind, c)] {
				cost += 20
			}
			return cost
		})
	}
	winner, _ := t.winnerSoFar()
	if winner == t.declarer {
		// Stay under the declarer's card.
		return skatPick(options, func(c cards.Card) float64 {
			if t.beats(c) {
				return 100 + float64(t.rank(c))
			}
			return -float64(t.rank(c))
		})
	}
	// The declarer is still to play (or under): lead him low, discard high.
	return skatPick(options, func(c cards.Card) float64 {
		if skat.Follow(t.kind, c) != skat.Follow(t.kind, t.trick[0]) {
			return -float64(t.rank(c))
		}
		return float64(t.rank(c))
	})
}

// ramsch avoids taking points: duck with the highest card that loses, dump points on others.
func (t skatTable) ramsch(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		return skatPick(options, func(c cards.Card) float64 {
			cost := float64(t.rank(c)) + float64(skat.Points(c))
			if t.isTrump(c) {
				cost += 10
			}
			return cost
		})
	}
	var under []cards.Card
	for _, c := range options {
		if !t.beats(c) {
			under = append(under, c)
		}
	}
	if len(under) > 0 {
		return skatPick(under, func(c cards.Card) float64 {
			return -float64(skat.Points(c))*2 - float64(t.rank(c))
		})
	}
	// Forced to win: take it as cheaply as possible.
	return skatPick(options, func(c cards.Card) float64 {
		return float64(skat.Points(c))*2 + float64(t.rank(c))
	})
}
