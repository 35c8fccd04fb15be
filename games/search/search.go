package search

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/kozyr-bot/kozyr/games"
)

// Budget is the work of one decision, counted so that a decision replays exactly from its rng: at
// most Worlds sampled worlds, each with one rollout per legal action, and no new world once Steps
// simulated moves have been made (the world under way is finished, so Steps may be overrun by one
// world's rollouts). Worlds below 2 leave every decision to the agent: a single world cannot show
// that Redeal draws anything (see the package doc).
//
// RandomAfter, when positive, lets the Policy play only the first RandomAfter moves of a rollout
// and the rest at random: the moves near the decision matter most, and a random move costs
// neither a View nor the policy's own thinking, so a slow policy buys many more worlds.
//
// Margin is how sure the search must be to overrule the agent: the best action replaces the
// agent's own choice only when its mean gain over it is more than Margin standard errors above
// zero (0: any gain). With the few worlds a slow game affords, plain argmax follows the noise;
// the margin keeps the agent's move unless the worlds agree.
type Budget struct {
	Worlds      int
	Steps       int
	RandomAfter int
	Margin      float64
}

// maxRollout bounds one rollout, so an engine that never ends a deal cannot hang a decision.
const maxRollout = 20_000

// Worlds samples one complete state consistent with everything the deciding seat knows, drawing
// only from rng.
type Worlds func(rng *rand.Rand) games.State

// RedealWorlds is the sampler of the worlds s cannot tell from st: st's Redeal for s. It returns
// false when st cannot redeal (it is no games.Auditor).
func RedealWorlds(st games.State, s games.Seat) (Worlds, bool) {
	au, ok := st.(games.Auditor)
	if !ok {
		return nil, false
	}
	return func(rng *rand.Rand) games.State { return au.Redeal(s, rng) }, true
}

// Search is a determinized search: Agent's choice is played unless the rollouts show a better one
// (and whenever there is nothing to search), Policy plays every seat in the rollouts, Budget bounds
// the work.
type Search struct {
	Agent  games.Agent
	Policy games.Agent
	Budget Budget
}

// Stats is what one decision did, for benchmarks and tests.
type Stats struct {
	Worlds   int  // worlds sampled
	Rollouts int  // rollouts played (worlds × legal actions)
	Steps    int  // simulated moves, the first move of each rollout included
	Agent    bool // the decision was left to the agent
	Kept     bool // the search found nothing convincingly better than the agent's choice
}

// Choose picks one of legal for the seat whose view v is, from the worlds that seat cannot tell
// apart. It returns an element of legal whenever legal is not empty, and the zero Action when it
// is; with a single legal action it returns it at once.
func (x Search) Choose(worlds Worlds, v games.View, legal []games.Action, rng *rand.Rand) (games.Action, Stats) {
	var st Stats
	switch {
	case len(legal) == 0:
		return games.Action{}, st
	case len(legal) == 1:
		return legal[0], st
	case worlds == nil || x.Policy == nil || x.Budget.Worlds < 2:
		st.Agent = true
		return x.agentChoice(v, legal, rng), st
	}
	// The agent's own choice is the default: the search overrules it only on evidence.
	mine := x.agentChoice(v, legal, rng)
	if len(legal) > maxCandidates {
		legal = candidates(legal, mine)
	}
	ref := slices.Index(legal, mine)
	sums := make([]float64, 3*len(legal))
	sums, sq, vals := sums[:len(legal)], sums[len(legal):2*len(legal)], sums[2*len(legal):]
	src := new(rand.PCG)
	roll := rand.New(src)
	probe, fixed := x.probe(worlds, rng)
	st.Worlds = len(probe)
	if fixed {
		// Every world drawn is the same: nothing to sample, so nothing honest to search.
		st.Agent = true
		return mine, st
	}
	played := 0
	for ; played < x.Budget.Worlds && (played == 0 || st.Steps < x.Budget.Steps); played++ {
		var w games.State
		if played < len(probe) {
			w = probe[played]
		} else {
			w = worlds(rng)
			st.Worlds++
		}
		// Common random numbers: every action of a world is played out with the same stream, so
		// the actions are compared on the same luck.
		s1, s2 := rng.Uint64(), rng.Uint64()
		for j, a := range legal {
			src.Seed(s1, s2)
			vals[j] = x.rollout(w, v.Seat, a, roll, &st.Steps)
			st.Rollouts++
		}
		for j := range legal {
			d := vals[j] - vals[ref]
			sums[j] += vals[j]
			sq[j] += d * d
		}
	}
	best := ref
	for j := range legal {
		if sums[j] > sums[best] {
			best = j
		}
	}
	if best == ref || !convincing(sums[best]-sums[ref], sq[best], played, x.Budget.Margin) {
		st.Kept = true
		return mine, st
	}
	return legal[best], st
}

// convincing reports whether a gain of sum over n paired worlds (sq the sum of the squared
// differences) is more than margin standard errors above zero. The worlds are paired (the same
// world and stream for both actions), so the error is that of the per-world difference.
func convincing(sum, sq float64, n int, margin float64) bool {
	if sum <= 0 {
		return false
	}
	if margin <= 0 || n < 2 {
		return margin <= 0
	}
	fn := float64(n)
	mean := sum / fn
	variance := max(0, (sq/fn-mean*mean)*fn/(fn-1))
	return mean > margin*math.Sqrt(variance/fn)
}

// maxCandidates is the most actions one decision plays out. A longer list is a ladder (Skat's
// first bid offers 88 values): playing each out would leave a world or two for all of them, so the
// search compares the agent's own choice with actions spread evenly over the canonical order.
const maxCandidates = 12

// candidates are the agent's choice a and maxCandidates-1 other actions of legal spread evenly
// over it (the first and the last included), in legal's order.
func candidates(legal []games.Action, a games.Action) []games.Action {
	out := make([]games.Action, 0, maxCandidates)
	n := maxCandidates - 1
	agentIn := false
	for i := range n {
		c := legal[i*(len(legal)-1)/(n-1)]
		if c == a {
			agentIn = true
		}
		out = append(out, c)
	}
	if !agentIn {
		out = append(out, a)
	}
	return out
}

// fixedProbe is how many worlds are drawn first to see whether Redeal draws anything at all.
const fixedProbe = 3

// probe draws the first worlds of a decision and reports whether they are all identical. A world
// that cannot be marshalled counts as identical: the search cannot tell that it is honest.
func (x Search) probe(worlds Worlds, rng *rand.Rand) ([]games.State, bool) {
	out := make([]games.State, min(fixedProbe, x.Budget.Worlds))
	var first []byte
	fixed := true
	for i := range out {
		out[i] = worlds(rng)
		b, err := out[i].MarshalBinary()
		switch {
		case err != nil:
		case i == 0:
			first = b
		case first != nil && !bytes.Equal(first, b):
			fixed = false
		}
	}
	return out, fixed
}

// agentChoice is the agent's pick, or the first legal action without an agent or when the agent
// returns something illegal.
func (x Search) agentChoice(v games.View, legal []games.Action, rng *rand.Rand) games.Action {
	if x.Agent == nil {
		return legal[0]
	}
	a := x.Agent.Choose(v, legal, rng)
	for _, l := range legal {
		if l == a {
			return a
		}
	}
	return legal[0]
}

// rollout plays a for s in world w, then lets Policy play every seat to the end of the deal, and
// returns the result for s. An engine error ends the rollout where it happened.
func (x Search) rollout(w games.State, s games.Seat, a games.Action, rng *rand.Rand, steps *int) float64 {
	st, evs, err := w.Apply(s, a)
	*steps++
	if err != nil {
		return value(w, s)
	}
	for n := 0; n < maxRollout && !dealOver(evs); n++ {
		to := st.ToAct()
		if len(to) == 0 {
			break
		}
		p := to[0]
		legal := st.Legal(p)
		var b games.Action
		switch {
		case len(legal) == 0:
			return value(st, s)
		case len(legal) == 1:
			b = legal[0] // forced: no view to build
		case x.Budget.RandomAfter > 0 && n >= x.Budget.RandomAfter:
			b = legal[rng.IntN(len(legal))]
		default:
			b = x.Policy.Choose(games.AgentView(st, p), legal, rng)
		}
		next, e, err := st.Apply(p, b)
		*steps++
		if err != nil {
			break
		}
		st, evs = next, e
	}
	return value(st, s)
}

// dealOver reports whether evs end a deal (or the match).
func dealOver(evs []games.Event) bool {
	for _, e := range evs {
		if e.Kind == games.EventDealEnd || e.Kind == games.EventMatchEnd {
			return true
		}
	}
	return false
}

// value is s's total minus the mean of the other seats' totals (see the package doc). It reads
// the totals without the sheet where the state can (games.Totaler): it runs after every rollout,
// and a sheet grows with the match.
func value(st games.State, s games.Seat) float64 {
	var t []int
	if tt, ok := st.(games.Totaler); ok {
		t = tt.Totals()
	} else {
		t = st.Score().Totals
	}
	if int(s) < 0 || int(s) >= len(t) {
		return 0
	}
	if len(t) < 2 {
		return float64(t[s])
	}
	others := 0
	for i, x := range t {
		if i != int(s) {
			others += x
		}
	}
	return float64(t[s]) - float64(others)/float64(len(t)-1)
}
