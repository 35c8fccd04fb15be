package nasilie

import (
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Agent is the computer player of Nasilie, which Rules().Agent returns. It chooses from the View
// and Legal it is given, never from the State: it values a hand by sampling the unseen cards and
// playing the deal out with its own card play (melds and the stock included) and the rules' own
// trick winner, following rule and scoring, bids only what that estimate says it can make, keeps
// the best seven cards of the stock exchange, and plays by simple trick-taking rules (draw trumps,
// cash masters, smear points on a fellow defender's trick).
//
// Samples is how many deals an estimate plays out, agentSamples when 0; Quick keeps the seven
// cards of the stock exchange by the quick rule of the estimates instead of trying every seven.
// The rule agent of a table uses neither; the search's rollouts use both (RolloutAgent).
type Agent struct {
	Samples int
	Quick   bool
}

// agentSamples is the number of deals an estimate plays out: enough to rank bids, few enough for
// a turn timer.
const agentSamples = 24

// rolloutSamples is the Samples of the rollout agent: a rollout is itself one sample of the deal,
// and the search averages many, so its estimates need far fewer.
const rolloutSamples = 4

// RolloutAgent is the player a search plays its simulated deals with: Agent with four samples
// per estimate and the quick exchange, the same bidding and play at a small part of the cost.
func RolloutAgent() Agent { return Agent{Samples: rolloutSamples, Quick: true} }

// Choose picks one of legal for the seat whose view v is.
func (ag Agent) Choose(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	g, ok := v.Game.(View)
	if !ok || len(legal) == 1 {
		return legal[0]
	}
	has := func(a games.Action) bool { return slices.Contains(legal, a) }
	hand := cards.SetOf(v.Hand...)
	k := knowledge(g, v)
	switch g.Phase {
	case "auction":
		if has(games.Do("look")) {
			return games.Do("look")
		}
		if g.NextBid > 0 && has(games.Num("bid", g.NextBid)) {
			est := ag.estimate(k, hand, true, rng)
			if est.score(g.NextBid, false) > 0.5 {
				return games.Num("bid", g.NextBid)
			}
		}
		return games.Do("pass")
	case "nanny":
		// N-NANNY: play 1 when that is expected to cost less than the 10 for declining.
		if ag.estimate(k, hand, true, rng).score(1, false) > -10 {
			return games.Do("playone")
		}
		return games.Do("decline")
	case "stock":
		take := ag.estimate(k, hand, true, rng).score(g.Bid, false)
		leave := ag.estimate(k, hand, false, rng).score(g.Bid, true)
		if leave > take+2 {
			return games.Do("leave")
		}
		return games.Do("take")
	case "discard":
		var keep cards.Set
		if ag.Quick {
			keep, _ = quickSeven(hand, cards.NoSuit)
		} else {
			keep, _ = bestSeven(hand)
		}
		for _, a := range legal {
			if a.Kind == "discard" && !keep.Has(a.Card) {
				return a
			}
		}
	case "trump":
		best, bestScore := legal[0], -1e9
		for _, a := range legal {
			t := trumpOf(a.Kind)
			if t == cards.NoSuit {
				continue
			}
			k.trump = t
			if s := ag.estimate(k, hand, false, rng).score(g.Bid, g.Stock == "left"); s > bestScore {
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
		c := policy(k, hand, k.me)
		if has(games.With("stoek", c)) {
			return games.With("stoek", c)
		}
		if has(games.With("play", c)) {
			return games.With("play", c)
		}
	}
	return legal[rng.IntN(len(legal))]
}

// know is what the agent knows of the deal, in the seats' real numbering.
type know struct {
	me, declarer games.Seat
	order        []games.Seat // seats playing this deal, clockwise from the declarer (or from me)
	trump        cards.Suit
	lenient      bool
	pack         cards.Set
	gone         cards.Set // cards played this deal
	trick        []Play
	stockKnown   cards.Set // the laid-away cards, when I am the declarer
}

// knowledge gathers what the view v, whose Game is g, tells of the deal.
func knowledge(g View, v games.View) know {
	k := know{me: v.Seat, declarer: g.Declarer, trump: g.Trump, lenient: g.Lenient, trick: g.Trick}
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
	k.stockKnown = g.Laid
	return k
}

// samples are the outcomes of playing a deal out as declarer, one Hand per sample, without the
// bid and the stock decision, which score fills in.
type samples []Hand

// score is the mean result of a contract of bid over the samples, doubled when the stock is left
// untouched (ScoreHand: nasilie.md §Scoring).
func (e samples) score(bid int, doubled bool) float64 {
	if len(e) == 0 {
		return 0
	}
	sum := 0
	for _, h := range e {
		h.Bid, h.StockUsed = bid, !doubled
		sum += ScoreHand(h).Result
	}
	return float64(sum) / float64(len(e))
}

// estimate plays the deal out ag.Samples (default agentSamples) times as declarer with the unseen
// cards dealt at random. With stock, the sample's stock joins the hand and the best trump and seven cards are
// kept by a quick rule; without it the hand is played as it is, with k.trump if named, else the
// statically best trump.
func (ag Agent) estimate(k know, hand cards.Set, stock bool, rng *rand.Rand) samples {
	var e samples
	n := ag.Samples
	if n <= 0 {
		n = agentSamples
	}
	unseen := k.pack.Minus(hand).Minus(k.gone).Minus(k.stockKnown)
	pool := unseen.Cards()
	opp := len(k.order) - 1
	for range n {
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
			mine, trump = quickSeven(mine, trump)
		} else if trump == cards.NoSuit {
			_, trump = quickSeven(mine, trump)
		}
		hands[0] = mine
		melds, _ := BestMelds(mine.Cards(), trump)
		pts, won, last := playout(hands, trump, k.lenient, k.pack)
		e = append(e, Hand{TrickPoints: pts, LastTrick: last, Tricks: won, MeldPoints: melds})
	}
	return e
}

// weight is how much a card helps the declarer: trump control first, then aces and guarded
// tens.
func weight(c cards.Card, trump cards.Suit, hand cards.Set) float64 {
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

// staticValue scores seven cards with a trump: melds in game points plus card weights.
func staticValue(seven cards.Set, trump cards.Suit) float64 {
	melds, _ := BestMelds(seven.Cards(), trump)
	s := float64(melds) / 10 * 2
	for _, c := range seven.Cards() {
		s += weight(c, trump, seven)
	}
	return s
}

// quickSeven keeps the seven best-weighted cards of hand for the best trump (or the given
// one): the quick rule used inside the estimates.
func quickSeven(hand cards.Set, trump cards.Suit) (cards.Set, cards.Suit) {
	suits := cards.Suits[:]
	if trump != cards.NoSuit {
		suits = []cards.Suit{trump}
	}
	var best cards.Set
	bestT, bestS := suits[0], -1e9
	for _, t := range suits {
		cs := hand.Cards()
		slices.SortStableFunc(cs, func(a, b cards.Card) int {
			wa, wb := weight(a, t, hand), weight(b, t, hand)
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
		if s := staticValue(seven, t); s > bestS {
			best, bestT, bestS = seven, t, s
		}
	}
	return best, bestT
}

// bestSeven is the exhaustive choice of the seven cards to keep from the stock exchange
// and the trump they suit best.
func bestSeven(hand cards.Set) (cards.Set, cards.Suit) {
	cs := hand.Cards()
	if len(cs) <= 7 {
		_, t := quickSeven(hand, cards.NoSuit)
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
				if v := staticValue(s, t); v > bestS {
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

// playout plays seven tricks with the agent's card play for everybody; hands[0] is the
// declarer, who leads, and the others follow in order. It returns the declarer's card points,
// tricks and whether he won the last trick.
func playout(hands []cards.Set, trump cards.Suit, lenient bool, pack cards.Set) (int, int, bool) {
	hands = slices.Clone(hands)
	n := len(hands)
	k := know{declarer: 0, trump: trump, lenient: lenient, pack: pack}
	for i := range n {
		k.order = append(k.order, games.Seat(i))
	}
	lead, pts, won, last := 0, 0, 0, false
	for range dealTricks {
		k.trick = k.trick[:0]
		played := make([]cards.Card, 0, n)
		for i := range n {
			p := (lead + i) % n
			k.me = games.Seat(p)
			c := policy(k, hands[p], games.Seat(p))
			if c == cards.NoCard {
				return pts, won, last
			}
			hands[p] = hands[p].Remove(c)
			k.trick = append(k.trick, Play{Seat: games.Seat(p), Card: c})
			k.gone = k.gone.Add(c)
			played = append(played, c)
		}
		w := (lead + TrickWinner(played, trump)) % n
		if w == 0 {
			won++
			for _, c := range played {
				pts += CardPoints(c, trump)
			}
		}
		last = w == 0
		lead = w
	}
	return pts, won, last
}

// policy chooses a card for seat me holding hand, from what is public (k.gone, k.trick).
func policy(k know, hand cards.Set, me games.Seat) cards.Card {
	led := cards.NoCard
	if len(k.trick) > 0 {
		led = k.trick[0].Card
	}
	legal := LegalPlays(hand.Cards(), led, k.trump, k.lenient)
	if len(legal) == 0 {
		return cards.NoCard
	}
	if len(legal) == 1 {
		return legal[0]
	}
	out := k.pack.Minus(k.gone).Minus(hand) // cards somebody else may hold
	master := func(c cards.Card) bool {
		for _, o := range out.Suit(c.Suit()).Cards() {
			if Strength(o, k.trump) > Strength(c, k.trump) {
				return false
			}
		}
		return true
	}
	pts := func(c cards.Card) int { return CardPoints(c, k.trump) }
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
			return Strength(a, k.trump) - Strength(b, k.trump)
		})
	}
	richest := func(cs []cards.Card) cards.Card {
		return slices.MaxFunc(cs, func(a, b cards.Card) int {
			if d := pts(a) - pts(b); d != 0 {
				return d
			}
			return Strength(b, k.trump) - Strength(a, k.trump)
		})
	}
	declarer := me == k.declarer
	if led == cards.NoCard {
		trumps := filter(legal, func(c cards.Card) bool { return c.Suit() == k.trump })
		if declarer && len(trumps) > 0 && !out.Suit(k.trump).Empty() {
			top := slices.MaxFunc(trumps, func(a, b cards.Card) int {
				return Strength(a, k.trump) - Strength(b, k.trump)
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
		plain := filter(legal, func(c cards.Card) bool { return c.Suit() != k.trump })
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
	wi := TrickWinner(played, k.trump)
	winner := k.trick[wi].Seat
	lastToPlay := len(k.trick) == len(k.order)-1
	declarerPlayed := slices.ContainsFunc(k.trick, func(p Play) bool { return p.Seat == k.declarer })
	var wins []cards.Card
	for _, c := range legal {
		if TrickWinner(append(played[:len(played):len(played)], c), k.trump) == len(played) {
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
