package skat

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Agent plays Robber Skat from its View: it values its hand for every game (jacks, trump
// length, aces and tens, voids), bids step by step up to the value of the best game it could
// declare and never beyond, lays away the two cards that leave the strongest game, and plays
// its cards by simple trick-taking rules (draw trumps, cash aces, smear points to a partner,
// duck in Null and Ramsch). It reads the View and the Legal actions only, and takes every rule
// (card order, game values, the bid ladder) from the engine's own functions.
type Agent struct{}

// Thresholds of the hand evaluation: the score a game needs to be declared with the skat taken,
// and the extra a hand game needs because the skat will not help.
const (
	suitNeed  = 8.0
	grandNeed = 7.2
	handExtra = 2.0
)

// Choose picks a call, a choice, a discard, a game or a card from the seat's view; given a View
// that is not Skat's, it plays at random.
func (Agent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(View)
	if !ok || len(legal) == 0 {
		return games.Random{}.Choose(v, legal, rng)
	}
	hand := cards.SetOf(v.Hand...)
	var a games.Action
	switch g.Phase {
	case "auction":
		a = chooseBid(g, hand, legal)
	case "choice":
		a = chooseAlone(g, hand, legal)
	case "skat":
		a = choosePickUp(g, hand, legal)
	case "discard":
		a = chooseDiscard(g, hand, legal)
	case "game":
		a = chooseGame(g, hand, legal)
	case "announce":
		a = chooseAnnounce(g, hand, legal)
	case "play":
		a = choosePlay(g, v.Seat, hand, legal)
	}
	if !slices.Contains(legal, a) {
		return legal[0]
	}
	return a
}

// trumpGames are the games the agent values with trumps.
var trumpGames = [...]Kind{Clubs, Spades, Hearts, Diamonds, Grand}

// jackWeight is what each jack adds to a hand, clubs jack first.
var jackWeight = [4]float64{1.0, 0.8, 0.6, 0.5}

// strengthOf scores hand h for trump game k: roughly the tricks and control it brings.
func strengthOf(k Kind, h cards.Set) float64 {
	order := tableOf(k).trumps
	trumps := 0
	score := 0.0
	for i, c := range order {
		if !h.Has(c) {
			continue
		}
		trumps++
		switch {
		case i < 4 && k == Grand:
			score += 1.0 + jackWeight[i]*0.6
		case i < 4:
			score += 1.0 + jackWeight[i]
		case i == 4:
			score += 1.5 // the trump ace
		case i == 5:
			score += 1.3 // the trump ten
		default:
			score += 1.0
		}
	}
	for _, s := range cards.Suits {
		if SuitKind(s) == k {
			continue
		}
		side := h.Suit(s).Remove(jack(s))
		n := side.Len()
		ace, ten := side.Has(cards.French(s, cards.Ace)), side.Has(cards.French(s, 10))
		switch {
		case ace && ten:
			score += 2.0
			if n >= 4 && k == Grand {
				score += 0.6 * float64(n-3) // a long suit runs in Grand
			}
		case ace:
			score += 1.1
		case ten && n >= 2:
			score += 0.4
		}
		if k != Grand && trumps >= 5 {
			switch {
			case n == 0:
				score += 0.6
			case n == 1 && !ace:
				score += 0.3
			}
		}
		if k != Grand && !ace && n >= 3 {
			score -= 0.3 // a long side suit without its ace loses tricks
		}
	}
	if k == Grand && trumps < 2 {
		score -= 2 // Grand without two jacks is a gamble
	}
	return score
}

// needFor is the strength a game needs: with the skat taken, or as a hand game.
func needFor(k Kind, hand bool) float64 {
	need := suitNeed
	if k == Grand {
		need = grandNeed
	}
	if hand {
		need += handExtra
	}
	return need
}

// nullSafe reports whether h can play Null: in every suit the k-th lowest card it holds is
// at most the 2k-th lowest of the suit, so each of its cards can be ducked under an opponent's.
func nullSafe(h cards.Set) bool {
	for _, s := range cards.Suits {
		// The suit from its lowest card up, in the Null order of skat.md §6.
		order := SortHand(Null, pack().Suit(s))
		slices.Reverse(order)
		k := 0
		for i, c := range order {
			if h.Has(c) {
				if i > 2*k {
					return false
				}
				k++
			}
		}
	}
	return true
}

// plainValue is what game k is worth under v with the declarer's known trumps in held.
func plainValue(v Variant, k Kind, held cards.Set, hand bool) int {
	c := Contract{Kind: k, Hand: hand || k.IsNull(), Open: k == NullOuvert}
	n, _ := Matadors(k, held)
	return Value(v, c, n, LevelGame)
}

// maxBid is the highest bid the agent will make or hold: the value of the best game its ten
// cards can declare (the skat counted at nothing), 0 if it has none.
func maxBid(v Variant, h cards.Set) int {
	best := 0
	for _, k := range trumpGames {
		s := strengthOf(k, h)
		if s >= needFor(k, true) {
			best = max(best, plainValue(v, k, h, true))
		} else if s >= needFor(k, false) {
			best = max(best, plainValue(v, k, h, false))
		}
	}
	if nullSafe(h) {
		best = max(best, Null.Base(v))
	}
	return best
}

// chooseBid bids the next value while its best game is worth it, holds up to that value, and
// passes otherwise.
func chooseBid(g View, h cards.Set, legal []games.Action) games.Action {
	limit := maxBid(g.Variant, h)
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

// chooseAlone is forehand's choice when nobody bid: play at 18 with a game, Ramsch with a hand that
// takes few points, else throw in.
func chooseAlone(g View, h cards.Set, legal []games.Action) games.Action {
	if maxBid(g.Variant, h) >= 18 {
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

// choosePickUp plays hand only with a game strong enough without the skat that reaches the bid.
func choosePickUp(g View, h cards.Set, _ []games.Action) games.Action {
	for _, k := range trumpGames {
		if strengthOf(k, h) >= needFor(k, true) && plainValue(g.Variant, k, h, true) >= g.Bid {
			return games.Do("hand")
		}
	}
	if nullSafe(h) && Null.Base(g.Variant) >= g.Bid {
		return games.Do("hand")
	}
	return games.Do("skat")
}

// gameScore is the expected score of declaring k with the cards h (held: every card known
// to be the declarer's): the chance of winning, guessed from how far its strength clears the
// need, times the value, less the chance of losing times the loss. A game whose value cannot
// reach the bid is lost anyway.
func gameScore(g View, k Kind, h, held cards.Set) float64 {
	return scoreOf(g, k, strengthOf(k, h), plainValue(g.Variant, k, held, !g.Taken))
}

// scoreOf is gameScore of a hand of the given strength for k when k is worth val.
func scoreOf(g View, k Kind, strength float64, val int) float64 {
	margin := strength - needFor(k, false)
	loss := float64(g.Bid)
	if g.Taken {
		loss *= 2
	}
	if val < g.Bid {
		return -loss - 100 + margin
	}
	p := 1 / (1 + math.Exp(-(margin+marginBias)/marginScale))
	return p*float64(val) - (1-p)*loss
}

// The win chance of gameScore: 1/(1+e^-(margin+bias)/scale).
const (
	marginBias  = 1.0
	marginScale = 1.5
)

// chooseDiscard lays away the card(s) that leave the best game; points laid away count for the
// declarer, so a loose ten is a good discard.
func chooseDiscard(g View, h cards.Set, legal []games.Action) games.Action {
	laid := cards.SetOf(g.Laid...)
	all := h.Union(laid)
	// Every card the declarer holds or laid away is his, so each game's value is the same
	// whatever he lays away.
	var val [len(trumpGames)]int
	for i, k := range trumpGames {
		val[i] = plainValue(g.Variant, k, all, !g.Taken)
	}
	best, bestScore := legal[0], -1e9
	for _, a := range legal {
		rest := h.Remove(a.Card)
		for i, k := range trumpGames {
			trumps := tableOf(k).trumpSet
			if trumps.Has(a.Card) {
				continue // never lay away a trump
			}
			var s float64
			if laid.Empty() {
				// Two to lay away: score the best second card too.
				s = -1e9
				for v := rest.Minus(trumps); v != 0; v &= v - 1 {
					c := lowest(v)
					s = max(s, scoreOf(g, k, strengthOf(k, rest.Remove(c)), val[i])+0.1*float64(Points(c)))
				}
			} else {
				s = scoreOf(g, k, strengthOf(k, rest), val[i])
			}
			s += 0.1 * float64(Points(a.Card))
			if s > bestScore {
				best, bestScore = a, s
			}
		}
	}
	return best
}

// chooseGame names the best game that reaches the bid (see gameScore); Null when the hand
// is safe for it and no trump game is playable.
func chooseGame(g View, h cards.Set, legal []games.Action) games.Action {
	held := h.Union(cards.SetOf(g.Laid...))
	best, bestScore := legal[0], -1e9
	for _, k := range trumpGames {
		a := GameAction(k)
		if !slices.Contains(legal, a) {
			continue
		}
		if s := gameScore(g, k, h, held); s > bestScore {
			best, bestScore = a, s
		}
	}
	if null := GameAction(Null); bestScore < 0 && nullSafe(h) && slices.Contains(legal, null) &&
		Null.Base(g.Variant) >= g.Bid {
		return null
	}
	return best
}

// chooseAnnounce plays without announcements unless only schneider announced reaches the bid and
// the hand is very strong.
func chooseAnnounce(g View, h cards.Set, legal []games.Action) games.Action {
	held := h.Union(cards.SetOf(g.Laid...))
	n, _ := Matadors(g.Contract.Kind, held)
	plain := g.Contract
	if Value(g.Variant, plain, n, LevelGame) < g.Bid {
		sn := plain
		sn.Schneider = true
		if Value(g.Variant, sn, n, LevelSchneiderAnn) >= g.Bid &&
			strengthOf(plain.Kind, h) >= needFor(plain.Kind, false)+3 {
			return AnnounceAction(sn)
		}
	}
	return AnnounceAction(plain)
}

// playView is what the agent knows while playing a card.
type playView struct {
	kind     Kind
	me       games.Seat
	declarer games.Seat // Nobody in Ramsch
	hand     cards.Set
	unseen   cards.Set // cards neither played, nor in the hand, nor known laid away or open
	trick    []cards.Card
	players  []games.Seat // the seats of the trick in playing order from its leader
	voids    map[games.Seat]map[cards.Suit]bool
}

// newPlayView gathers what seat me knows in play from its View: the cards still unseen, and the
// suits each seat has shown it lacks by not following.
func newPlayView(g View, me games.Seat, hand cards.Set) playView {
	t := playView{kind: g.Contract.Kind, me: me, declarer: g.Declarer, hand: hand,
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
		led := Follow(t.kind, cs[0])
		for i, c := range cs {
			seen = seen.Add(c)
			if i > 0 && Follow(t.kind, c) != led {
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
	t.unseen = pack().Minus(seen)
	return t
}

// partner reports whether s plays on the agent's side (only between the two opponents).
func (t playView) partner(s games.Seat) bool {
	return s != t.me && t.declarer != games.Nobody && t.me != t.declarer && s != t.declarer
}

// winnerSoFar is the seat winning the current trick and its card.
func (t playView) winnerSoFar() (games.Seat, cards.Card) {
	i := TrickWinner(t.kind, t.trick)
	return t.players[i], t.trick[i]
}

// beats reports whether c would take the trick as it stands.
func (t playView) beats(c cards.Card) bool {
	if len(t.trick) == 0 {
		return true
	}
	_, best := t.winnerSoFar()
	return Beats(t.kind, c, best, Follow(t.kind, t.trick[0]))
}

// boss reports whether no unseen card of c's suit (as followed) is higher than c.
func (t playView) boss(c cards.Card) bool {
	f := Follow(t.kind, c)
	for _, x := range t.unseen.Cards() {
		if Follow(t.kind, x) == f && Beats(t.kind, x, c, f) {
			return false
		}
	}
	return true
}

// unseenIn counts the unseen cards of follow-suit f.
func (t playView) unseenIn(f cards.Suit) int {
	n := 0
	for _, x := range t.unseen.Cards() {
		if Follow(t.kind, x) == f {
			n++
		}
	}
	return n
}

// rank orders cards inside their follow-suit, low to high: how many cards of it c beats.
func (t playView) rank(c cards.Card) int { return int(tableOf(t.kind).rank[c]) }

// cheapest returns the card of cs minimising cost.
func cheapest(cs []cards.Card, cost func(cards.Card) float64) cards.Card {
	best, bc := cs[0], cost(cs[0])
	for _, c := range cs[1:] {
		if x := cost(c); x < bc {
			best, bc = c, x
		}
	}
	return best
}

// choosePlay chooses a card to play.
func choosePlay(g View, me games.Seat, hand cards.Set, legal []games.Action) games.Action {
	t := newPlayView(g, me, hand)
	var options []cards.Card
	for _, a := range legal {
		options = append(options, a.Card)
	}
	var c cards.Card
	switch {
	case t.kind == Ramsch:
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
func (t playView) isTrump(c cards.Card) bool {
	return t.kind.HasTrumps() && Follow(t.kind, c) == Trumps
}

// lead opens a trick in a suit game or Grand.
func (t playView) lead(options []cards.Card) cards.Card {
	trumpSuit := Trumps
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
			return cheapest(trumps, func(c cards.Card) float64 { return float64(t.rank(c)) })
		}
	} else if c, ok := t.cash(options); ok {
		return c
	}
	// Otherwise a low card, plain suits before trumps.
	return cheapest(options, func(c cards.Card) float64 {
		cost := float64(Points(c))*2 + float64(t.rank(c))
		if t.isTrump(c) {
			cost += 40
		}
		return cost
	})
}

// cash finds a plain master card that is safe to lead: no player known void in its suit.
func (t playView) cash(options []cards.Card) (cards.Card, bool) {
	for _, c := range options {
		if t.isTrump(c) || !t.boss(c) {
			continue
		}
		f := Follow(t.kind, c)
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
func (t playView) follow(options []cards.Card) cards.Card {
	winner, _ := t.winnerSoFar()
	last := len(t.trick) == 2
	points := 0
	for _, c := range t.trick {
		points += Points(c)
	}
	var winning []cards.Card
	for _, c := range options {
		if t.beats(c) {
			winning = append(winning, c)
		}
	}
	cheapWin := func() cards.Card {
		return cheapest(winning, func(c cards.Card) float64 {
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
		return cheapest(options, func(c cards.Card) float64 {
			cost := float64(Points(c))*3 + float64(t.rank(c))
			if t.isTrump(c) {
				cost += 25
			}
			return cost
		})
	}
	smear := func() cards.Card {
		return cheapest(options, func(c cards.Card) float64 {
			cost := -float64(Points(c)) * 3
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
func (t playView) safeAgainst(s games.Seat) bool {
	_, best := t.winnerSoFar()
	led := Follow(t.kind, t.trick[0])
	if !t.boss(best) {
		return false
	}
	if t.isTrump(best) {
		return true
	}
	return !t.voids[s][led]
}

// nullDeclarer ducks: the highest card that stays under the trick, else the lowest.
func (t playView) nullDeclarer(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		return cheapest(options, func(c cards.Card) float64 { return float64(t.rank(c)) })
	}
	led := Follow(t.kind, t.trick[0])
	var under []cards.Card
	for _, c := range options {
		if !t.beats(c) {
			under = append(under, c)
		}
	}
	if len(under) > 0 {
		return cheapest(under, func(c cards.Card) float64 {
			if Follow(t.kind, c) != led {
				return -float64(t.rank(c)) - 20 // discard the most dangerous card
			}
			return -float64(t.rank(c))
		})
	}
	return cheapest(options, func(c cards.Card) float64 { return float64(t.rank(c)) })
}

// nullDefender tries to make the Null declarer take a trick.
func (t playView) nullDefender(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		// Lead low in a suit the declarer still holds.
		return cheapest(options, func(c cards.Card) float64 {
			cost := float64(t.rank(c))
			if t.voids[t.declarer][Follow(t.kind, c)] {
				cost += 20
			}
			return cost
		})
	}
	winner, _ := t.winnerSoFar()
	if winner == t.declarer {
		// Stay under the declarer's card.
		return cheapest(options, func(c cards.Card) float64 {
			if t.beats(c) {
				return 100 + float64(t.rank(c))
			}
			return -float64(t.rank(c))
		})
	}
	// The declarer is still to play (or under): lead him low, discard high.
	return cheapest(options, func(c cards.Card) float64 {
		if Follow(t.kind, c) != Follow(t.kind, t.trick[0]) {
			return -float64(t.rank(c))
		}
		return float64(t.rank(c))
	})
}

// ramsch avoids taking points: duck with the highest card that loses, dump points on others.
func (t playView) ramsch(options []cards.Card) cards.Card {
	if len(t.trick) == 0 {
		return cheapest(options, func(c cards.Card) float64 {
			cost := float64(t.rank(c)) + float64(Points(c))
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
		return cheapest(under, func(c cards.Card) float64 {
			return -float64(Points(c))*2 - float64(t.rank(c))
		})
	}
	// Forced to win: take it as cheaply as possible.
	return cheapest(options, func(c cards.Card) float64 {
		return float64(Points(c))*2 + float64(t.rank(c))
	})
}
