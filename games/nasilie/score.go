package nasilie

// Hand is what decides a played (or declined) deal's score, as in the score vectors.
type Hand struct {
	Bid           int  // 3, 4, …; 2 blind; 1 the nanny's forced game
	TrickPoints   int  // card points in the declarer's tricks, without the last-trick bonus
	LastTrick     bool // the declarer won the last trick
	Tricks        int  // tricks the declarer won, 0..7
	MeldPoints    int  // declared melds, a multiple of 10
	StockUsed     bool // false: the stock was left untouched and the result doubles
	NannyDeclined bool // everybody passed and the nanny refused the forced game
}

// Outcome is a deal's score for the declarer; nobody else's score changes.
type Outcome struct {
	CardPoints int // trick points + 5 for the last trick
	Achieved   int // game points reached
	Needed     int // game points needed
	Result     int // signed change of the declarer's total
}

const (
	lastTrickBonus = 5
	allTricks      = 25 // N-ALLTRICKS
	zeroTricks     = -50
	declined       = -10
)

// ScoreHand scores one deal (nasilie.md §Scoring).
func ScoreHand(h Hand) Outcome {
	if h.NannyDeclined {
		// N-NANNY: the nanny loses 10, no doubling.
		return Outcome{Result: declined}
	}
	var o Outcome
	o.CardPoints = h.TrickPoints
	if h.LastTrick {
		o.CardPoints += lastTrickBonus
	}
	// N-ROUND: nearest ten, an exact five rounds up.
	o.Achieved = (o.CardPoints + 5) / 10
	if h.Tricks == 7 {
		o.Achieved = allTricks
	}
	// nasilie.md §Scoring step 2.
	o.Needed = h.Bid + 10 - h.MeldPoints/10
	o.Result = compare(o.Achieved, o.Needed)
	if h.Tricks == 0 {
		// N-ZERO: −50 or the ordinary result with nothing reached, whichever is lower.
		o.Achieved = 0
		o.Result = min(zeroTricks, compare(0, o.Needed))
	}
	if !h.StockUsed {
		// N-DOUBLE: an untouched stock doubles a win and a loss.
		o.Result *= 2
	}
	return o
}

// compare is step 3 of nasilie.md §Scoring: the surplus, or twice the shortfall plus 10 lost.
func compare(reached, needed int) int {
	if reached >= needed {
		return reached - needed
	}
	return -(2*(needed-reached) + 10)
}
