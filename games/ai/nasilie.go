package ai

import (
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/games/nasilie"
)

func init() { agents["nasilie"] = func() Agent { return NasilieAgent{} } }

// NasilieAgent plays Nasilie from its View: it values a hand by sampling the unseen cards and
// playing the deal out with its own card play (melds and the stock included), bids only what that
// estimate says it can make, keeps the best seven cards of the stock exchange, and plays by simple
// trick-taking rules (draw trumps, cash masters, smear points on a fellow defender's trick).
type NasilieAgent struct{}

// Samples per Monte Carlo estimate: enough to rank bids, few enough for a turn timer.
const nasilieSamples = 24

// Choose picks one of legal.
func (NasilieAgent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(nasilie.Game)
	if !ok || len(legal) == 1 {
		return legal[0]
	}
	has := func(a games.Action) bool { return slices.Contains(legal, a) }
	hand := cards.SetOf(v.Hand...)
	k := nasilieKnowledge(g, v)
	switch g.Phase {
	case "auction":
		if has(games.Do("look")) {
			return games.Do("look")
		}
		if g.NextBid > 0 && has(games.Num("bid", g.NextBid)) {
			est := nasilieEstimate(k, hand, true, rng)
			if est.score(g.NextBid, false) > 0.5 {
				return games.Num("bid", g.NextBid)
			}
		}
		return games.Do("pass")
	case "nanny":
		// N-NANNY: play 1 when that is expected to cost less than the 10 for declining.
		if nasilieEstimate(k, hand, true, rng).score(1, false) > -10 {
			return games.Do("playone")
		}
		return games.Do("decline")
	case "stock":
		take := nasilieEstimate(k, hand, true, rng).score(g.Bid, false)
		leave := nasilieEstimate(k, hand, false, rng).score(g.Bid, true)
		if leave > take+2 {
			return games.Do("leave")
		}
		return games.Do("take")
	case "discard":
		keep, _ := nasilieBestSeven(hand)
		for _, a := range legal {
			if a.Kind == "discard" && !keep.Has(a.Card) {
				return a
			}
		}
	case "trump":
		best, bestScore := legal[0], -1e9
		for _, a := range legal {
			t := nasilieSuitOf(a.Kind)
			if t == cards.NoSuit {
				continue
			}
			k.trump = t
			if s := nasilieEstimate(k, hand, false, rng).score(g.Bid, g.Stock == "left"); s > bestScore {
				best, bestScore = a, s
			}
		}
		return best
	case "melds":
		// Declare everything: the highest declaration (nasilie.md §Declaring melds and trump).
		if has(games.Do("all")) {
			return games.Do("all")
		}
		return games.Do("done")
	case "play":
		c := nasiliePolicy(k, hand, k.me)
		if has(games.With("stoek", c)) {
			return games.With("stoek", c)
		}
		if has(games.With("play", c)) {
			return games.With("play", c)
		}
	}
	return legal[rng.IntN(len(legal))]
}

func nasilieSuitOf(kind string) cards.Suit {
	for _, s := range cards.Suits {
		if s.String() == kind {
			return s
		}
	}
	return cards.NoSuit
}

// nasilieKnow is what the agent knows of the deal, in the seats' real numbering.
type nasilieKnow struct {
	me, declarer games.Seat
	players      int
	order        []games.Seat // seats playing this deal, clockwise from the declarer (or from me)
	trump        cards.Suit
	lenient      bool
	pack         cards.Set
	gone         cards.Set // cards played this deal
	trick        []nasilie.Play
	shown        cards.Set // the declarer's shown meld cards still in his hand
	stockKnown   cards.Set // the laid-away cards, when I am the declarer
}

func nasilieKnowledge(g nasilie.Game, v games.View) nasilieKnow {
	k := nasilieKnow{me: v.Seat, declarer: g.Declarer, players: v.Players, trump: g.Trump, lenient: g.Lenient,
		trick: g.Trick}
	low := cards.Rank(7)
	if g.Pack == 52 {
		low = 2
	}
	k.pack = cards.SetOf(cards.FrenchFrom(low)...)
	first := g.Declarer
	if first == games.Nobody {
		first = v.Seat
	}
	for i := range v.Players {
		s := (first + games.Seat(i)) % games.Seat(v.Players)
		if s != g.SitOut {
			k.order = append(k.order, s)
		}
	}
	for _, t := range g.Tricks {
		for _, p := range t {
			k.gone = k.gone.Add(p.Card)
		}
	}
	for _, p := range g.Trick {
		k.gone = k.gone.Add(p.Card)
	}
	for _, m := range g.Melds {
		k.shown = k.shown.Union(cards.SetOf(m.Cards...))
	}
	k.shown = k.shown.Minus(k.gone)
	k.stockKnown = cards.SetOf(g.Laid...)
	return k
}

// nasilieEst is a sample of outcomes of playing the deal as declarer: game points reached and
// meld points per sample.
type nasilieEst struct{ reached, melds []int }

// score is the mean result of a contract of bid over the samples (nasilie.md §Scoring).
func (e nasilieEst) score(bid int, doubled bool) float64 {
	if len(e.reached) == 0 {
		return 0
	}
	sum := 0
	for i, r := range e.reached {
		needed := bid + 10 - e.melds[i]/10
		res := r - needed
		if res < 0 {
			res = -(2*(needed-r) + 10)
		}
		if r < 0 {
			res = min(-50, -(2*needed + 10)) // N-ZERO
		}
		sum += res
	}
	m := float64(sum) / float64(len(e.reached))
	if doubled {
		m *= 2
	}
	return m
}

// nasilieEstimate plays the deal out nasilieSamples times as declarer with the unseen cards dealt at
// random. With stock, the sample's stock joins the hand and the best trump and seven cards are
// kept by a quick rule; without it the hand is played as it is, with k.trump if named, else the
// statically best trump.
func nasilieEstimate(k nasilieKnow, hand cards.Set, stock bool, rng *rand.Rand) nasilieEst {
	var e nasilieEst
	unseen := k.pack.Minus(hand).Minus(k.gone).Minus(k.stockKnown)
	pool := unseen.Cards()
	opp := len(k.order) - 1
	for range nasilieSamples {
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		hands := make([]cards.Set, len(k.order))
		i := 0
		for p := 1; p <= opp; p++ {
			hands[p] = cards.SetOf(pool[i : i+7]...)
			i += 7
		}
		mine, trump := hand, k.trump
		if stock {
			mine = mine.Union(cards.SetOf(pool[i : i+4]...))
			mine, trump = nasilieQuickSeven(mine, trump)
		} else if trump == cards.NoSuit {
			_, trump = nasilieQuickSeven(mine, trump)
		}
		hands[0] = mine
		melds, _ := nasilie.BestMelds(mine.Cards(), trump)
		pts, tricks, last := nasiliePlayout(hands, trump, k.lenient, k.pack)
		if last {
			pts += 5
		}
		r := (pts + 5) / 10
		if tricks == 7 {
			r = 25
		} else if tricks == 0 {
			r = -5 // N-ZERO: a lost deal worse than reaching nothing
		}
		e.reached = append(e.reached, r)
		e.melds = append(e.melds, melds)
	}
	return e
}

// nasilieWeight is how much a card helps the declarer: trump control first, then aces and guarded
// tens.
func nasilieWeight(c cards.Card, trump cards.Suit, hand cards.Set) float64 {
	if c.Suit() == trump {
		switch c.Rank() {
		case cards.Jack:
			return 10
		case 9:
			return 9
		case cards.Ace:
			return 8
		case cards.King:
			return 6.5
		case cards.Queen:
			return 6
		case 10:
			return 5.5
		}
		return 4 + float64(c.Rank())/10
	}
	ace := hand.Has(cards.French(c.Suit(), cards.Ace))
	switch c.Rank() {
	case cards.Ace:
		return 6
	case 10:
		if ace {
			return 4
		}
		return 1.5
	case cards.King:
		if ace {
			return 2.5
		}
		return 1
	}
	return float64(c.Rank()) / 20
}

// nasilieStatic scores seven cards with a trump: melds in game points plus card weights.
func nasilieStatic(seven cards.Set, trump cards.Suit) float64 {
	melds, _ := nasilie.BestMelds(seven.Cards(), trump)
	s := float64(melds) / 10 * 2
	for _, c := range seven.Cards() {
		s += nasilieWeight(c, trump, seven)
	}
	return s
}

// nasilieQuickSeven keeps the seven best-weighted cards of hand for the best trump (or the given
// one): the quick rule used inside the estimates.
func nasilieQuickSeven(hand cards.Set, trump cards.Suit) (cards.Set, cards.Suit) {
	suits := cards.Suits[:]
	if trump != cards.NoSuit {
		suits = []cards.Suit{trump}
	}
	var best cards.Set
	bestT, bestS := suits[0], -1e9
	for _, t := range suits {
		cs := hand.Cards()
		slices.SortStableFunc(cs, func(a, b cards.Card) int {
			wa, wb := nasilieWeight(a, t, hand), nasilieWeight(b, t, hand)
			switch {
			case wa > wb:
				return -1
			case wa < wb:
				return 1
			}
			return 0
		})
		if len(cs) > 7 {
			cs = cs[:7]
		}
		seven := cards.SetOf(cs...)
		if s := nasilieStatic(seven, t); s > bestS {
			best, bestT, bestS = seven, t, s
		}
	}
	return best, bestT
}

// nasilieBestSeven is the exhaustive choice of the seven cards to keep from the stock exchange
// and the trump they suit best.
func nasilieBestSeven(hand cards.Set) (cards.Set, cards.Suit) {
	cs := hand.Cards()
	if len(cs) <= 7 {
		_, t := nasilieQuickSeven(hand, cards.NoSuit)
		return hand, t
	}
	var best cards.Set
	bestT, bestS := cards.NoSuit, -1e9
	idx := make([]int, 7)
	var rec func(start, depth int)
	rec = func(start, depth int) {
		if depth == 7 {
			var s cards.Set
			for _, i := range idx {
				s = s.Add(cs[i])
			}
			for _, t := range cards.Suits {
				if v := nasilieStatic(s, t); v > bestS {
					best, bestT, bestS = s, t, v
				}
			}
			return
		}
		for i := start; i <= len(cs)-(7-depth); i++ {
			idx[depth] = i
			rec(i+1, depth+1)
		}
	}
	rec(0, 0)
	return best, bestT
}

// nasiliePlayout plays seven tricks with the agent's card play for everybody; hands[0] is the
// declarer, who leads, and the others follow in order. It returns the declarer's card points,
// tricks and whether he won the last trick.
func nasiliePlayout(hands []cards.Set, trump cards.Suit, lenient bool, pack cards.Set) (int, int, bool) {
	hands = slices.Clone(hands)
	n := len(hands)
	k := nasilieKnow{declarer: 0, trump: trump, lenient: lenient, pack: pack}
	for i := range n {
		k.order = append(k.order, games.Seat(i))
	}
	lead, pts, tricks, last := 0, 0, 0, false
	for t := 0; t < 7; t++ {
		k.trick = k.trick[:0]
		played := make([]cards.Card, 0, n)
		for i := range n {
			p := (lead + i) % n
			k.me = games.Seat(p)
			c := nasiliePolicy(k, hands[p], games.Seat(p))
			if c == cards.NoCard {
				return pts, tricks, last
			}
			hands[p] = hands[p].Remove(c)
			k.trick = append(k.trick, nasilie.Play{Seat: games.Seat(p), Card: c})
			k.gone = k.gone.Add(c)
			played = append(played, c)
		}
		w := (lead + nasilie.TrickWinner(played, trump)) % n
		if w == 0 {
			tricks++
			for _, c := range played {
				pts += nasilie.CardPoints(c, trump)
			}
		}
		last = w == 0
		lead = w
	}
	return pts, tricks, last
}

// nasiliePolicy chooses a card for seat me holding hand, from what is public (k.gone, k.trick).
func nasiliePolicy(k nasilieKnow, hand cards.Set, me games.Seat) cards.Card {
	led := cards.NoCard
	if len(k.trick) > 0 {
		led = k.trick[0].Card
	}
	legal := nasilie.LegalPlays(hand.Cards(), led, k.trump, k.lenient)
	if len(legal) == 0 {
		return cards.NoCard
	}
	if len(legal) == 1 {
		return legal[0]
	}
	out := k.pack.Minus(k.gone).Minus(hand) // cards somebody else may hold
	master := func(c cards.Card) bool {
		for _, o := range out.Suit(c.Suit()).Cards() {
			if nasilie.Strength(o, k.trump) > nasilie.Strength(c, k.trump) {
				return false
			}
		}
		return true
	}
	pts := func(c cards.Card) int { return nasilie.CardPoints(c, k.trump) }
	// cheapest: fewest points, then plain before trump, then weakest.
	cheapest := func(cs []cards.Card) cards.Card {
		return slices.MinFunc(cs, func(a, b cards.Card) int {
			if d := pts(a) - pts(b); d != 0 {
				return d
			}
			ta, tb := a.Suit() == k.trump, b.Suit() == k.trump
			if ta != tb {
				if ta {
					return 1
				}
				return -1
			}
			return nasilie.Strength(a, k.trump) - nasilie.Strength(b, k.trump)
		})
	}
	richest := func(cs []cards.Card) cards.Card {
		return slices.MaxFunc(cs, func(a, b cards.Card) int {
			if d := pts(a) - pts(b); d != 0 {
				return d
			}
			return nasilie.Strength(b, k.trump) - nasilie.Strength(a, k.trump)
		})
	}
	declarer := me == k.declarer
	if led == cards.NoCard {
		trumps := nasilieFilter(legal, func(c cards.Card) bool { return c.Suit() == k.trump })
		if declarer && len(trumps) > 0 && !out.Suit(k.trump).Empty() {
			top := slices.MaxFunc(trumps, func(a, b cards.Card) int {
				return nasilie.Strength(a, k.trump) - nasilie.Strength(b, k.trump)
			})
			if master(top) || len(trumps) >= 3 {
				return top
			}
		}
		var masters []cards.Card
		for _, c := range legal {
			if c.Suit() != k.trump && master(c) {
				masters = append(masters, c)
			}
		}
		if len(masters) > 0 {
			return richest(masters)
		}
		plain := nasilieFilter(legal, func(c cards.Card) bool { return c.Suit() != k.trump })
		if len(plain) > 0 {
			return cheapest(plain)
		}
		return cheapest(legal)
	}
	played := make([]cards.Card, len(k.trick))
	trickPts := 0
	for i, p := range k.trick {
		played[i] = p.Card
		trickPts += pts(p.Card)
	}
	wi := nasilie.TrickWinner(played, k.trump)
	winner := k.trick[wi].Seat
	lastToPlay := len(k.trick) == len(k.order)-1
	declarerPlayed := slices.ContainsFunc(k.trick, func(p nasilie.Play) bool { return p.Seat == k.declarer })
	var wins []cards.Card
	for _, c := range legal {
		if nasilie.TrickWinner(append(played[:len(played):len(played)], c), k.trump) == len(played) {
			wins = append(wins, c)
		}
	}
	if !declarer && winner != k.declarer {
		// A fellow defender is winning: smear points if the declarer cannot take it back.
		if lastToPlay || declarerPlayed {
			return richest(legal)
		}
		return cheapest(legal)
	}
	if len(wins) > 0 {
		// Win when it is sure (last to play, or the best card left), sparing the trump J and 9
		// for tricks worth them; else ruff a rich trick with a small trump.
		w := cheapest(wins)
		bigTrump := w.Suit() == k.trump && (w.Rank() == cards.Jack || w.Rank() == 9)
		if (lastToPlay || master(w)) && (declarer || !bigTrump || trickPts >= 10) {
			return w
		}
		if trickPts >= 10 && w.Suit() == k.trump && !bigTrump {
			return w
		}
	}
	return cheapest(legal)
}

func nasilieFilter(cs []cards.Card, keep func(cards.Card) bool) []cards.Card {
	var out []cards.Card
	for _, c := range cs {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}
