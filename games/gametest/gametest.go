// Package gametest is the conformance suite every engine passes (design §3): random playouts of
// whole matches for every player count and option, with the invariants of the engine contract
// checked after every step.
package gametest

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
)

// Settings tune Run. The zero value is not useful; start from Defaults.
type Settings struct {
	Seeds     int // matches per configuration
	MaxSteps  int // actions after which a match counts as non-terminating
	LeakEvery int // run the no-leak check every LeakEvery steps (1 = every step)
	// Strict holds the engine's decoder to the strict contract: every LeakEvery steps and at the
	// end, CheckCorrupt feeds Unmarshal corrupted copies of the state. An engine switches it on once
	// its Unmarshal refuses everything but the canonical encoding of a conserving state.
	Strict bool
}

// Defaults are the settings Run uses unless an engine passes its own.
var Defaults = Settings{Seeds: 4, MaxSteps: 200_000, LeakEvery: 7}

// Configs lists the configurations Run covers: every player count with default options, and for
// each option every non-default value (at the smallest and largest player count). A
// games.PlayoutCapper's options are added to each, so random playouts end.
func Configs(r games.Rules) []games.Config {
	cfgs := configs(r)
	for i, cfg := range cfgs {
		cfgs[i] = withPlayoutOptions(r, cfg)
	}
	return cfgs
}

func configs(r games.Rules) []games.Config {
	lo, hi := r.Seats()
	var out []games.Config
	for n := lo; n <= hi; n++ {
		out = append(out, games.Config{Players: n})
	}
	for _, o := range r.Options() {
		for _, v := range o.Values {
			if v == o.Default {
				continue
			}
			for _, n := range []int{lo, hi} {
				cfg := games.Config{Players: n, Options: map[string]string{o.Key: v}}
				if games.Validate(r, cfg) == nil {
					out = append(out, cfg)
				}
				if lo == hi {
					break
				}
			}
		}
	}
	return out
}

// Run plays s.Seeds random matches for every configuration of Configs(r) and checks the contract.
// It fails when no match was played, so a broken setup cannot pass silently.
func Run(t *testing.T, r games.Rules, s Settings) {
	t.Helper()
	played := 0
	for _, cfg := range Configs(r) {
		for i := range s.Seeds {
			seed := seedFor(r.Name(), cfg, i)
			name := fmt.Sprintf("%s/p%d/%v/seed%d", r.Name(), cfg.Players, cfg.Options, seed)
			t.Run(name, func(t *testing.T) {
				New, err := r.New(cfg, seed)
				if err != nil {
					// Some option values may not fit every player count; Validate decides.
					if errors.Is(err, games.ErrBadConfig) {
						t.Skipf("config rejected: %v", err)
					}
					t.Fatalf("New: %v", err)
				}
				Playout(t, r, cfg, seed, New, s)
				played++
			})
		}
	}
	if played == 0 {
		t.Fatalf("%s: no match was played", r.Name())
	}
	want := 0
	for range Configs(r) {
		want += s.Seeds
	}
	if played != want && !t.Failed() {
		t.Logf("%s: %d of %d configured matches played (rest rejected by New)", r.Name(), played, want)
	}
}

// seedFor is the seed of match i of cfg: a hash of the game, the player count, the sorted options
// and i, so no two configurations of any game play the same seeds.
func seedFor(game string, cfg games.Config, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00", game, cfg.Players)
	for _, k := range slices.Sorted(maps.Keys(cfg.Options)) {
		fmt.Fprintf(h, "%s=%s\x00", k, cfg.Options[k])
	}
	fmt.Fprintf(h, "%d", i)
	return h.Sum64()
}

// withPlayoutOptions adds the options of a games.PlayoutCapper to cfg where cfg does not set them.
func withPlayoutOptions(r games.Rules, cfg games.Config) games.Config {
	c, ok := r.(games.PlayoutCapper)
	if !ok {
		return cfg
	}
	opts := c.PlayoutOptions()
	maps.Copy(opts, cfg.Options)
	cfg.Options = opts
	return cfg
}

type step struct {
	seat   games.Seat
	action games.Action
}

// earlier is a state of a playout with the bytes it marshalled to when it was reached.
type earlier struct {
	st   games.State
	b    []byte
	step int
}

// Playout plays one random match from st to its end, checking every invariant on the way.
//
// Besides the invariants of one state it checks that states never share memory they write: each
// step also applies a different legal action to the same state and checks that the first result
// did not change ("mutate the copy, compare the original"); a state must still marshal to the
// bytes it had when reached once its turn comes, and every state of the match must at the end.
func Playout(t testing.TB, r games.Rules, cfg games.Config, seed uint64, st games.State, s Settings) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var log []step
	history := []earlier{{st, mustMarshal(t, st), 0}}
	checkState(t, r, st, history[0].b, cfg.Players)
	for n := 0; ; n++ {
		if n > s.MaxSteps {
			t.Fatalf("match did not end within %d steps", s.MaxSteps)
		}
		toAct := st.ToAct()
		if len(toAct) == 0 {
			break
		}
		if s.LeakEvery > 0 && n%s.LeakEvery == 0 {
			checkNoLeak(t, st, cfg.Players, rng)
			if s.Strict {
				CheckCorrupt(t, r, st)
			}
		}
		checkRejects(t, st, cfg.Players, toAct, rng)
		seat := toAct[rng.IntN(len(toAct))]
		legal := st.Legal(seat)
		a := legal[rng.IntN(len(legal))]
		before := mustMarshal(t, st)
		if reached := history[len(history)-1]; !bytes.Equal(before, reached.b) {
			t.Fatalf("the state of step %d changed before its turn: a method wrote into it, or it "+
				"shares memory with another state", reached.step)
		}
		next, evs, err := st.Apply(seat, a)
		if err != nil {
			t.Fatalf("step %d: seat %d %v is in Legal but Apply failed: %v", n, seat, a, err)
		}
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("step %d: Apply mutated its receiver", n)
		}
		nextBytes := mustMarshal(t, next)
		checkSibling(t, st, toAct, seat, a, next, nextBytes, n, rng)
		checkEvents(t, evs, cfg.Players)
		log = append(log, step{seat, a})
		history = append(history, earlier{next, nextBytes, n + 1})
		st = next
		checkState(t, r, st, nextBytes, cfg.Players)
	}
	checkEarlier(t, history, len(log))
	if s.Strict {
		CheckCorrupt(t, r, st)
	}
	// The end: everything refuses, the sheet adds up, somebody won.
	for s := range games.Seat(cfg.Players) {
		if l := st.Legal(s); len(l) != 0 {
			t.Fatalf("match over but seat %d has legal actions %v", s, l)
		}
		if _, _, err := st.Apply(s, games.Do("pass")); !errors.Is(err, games.ErrOver) {
			t.Fatalf("Apply after the end: got %v, want ErrOver", err)
		}
	}
	sh := st.Score()
	if len(sh.Winners) == 0 {
		t.Fatalf("match over without winners")
	}
	// Replaying the log reproduces the final state byte for byte.
	replay, err := r.New(cfg, seed)
	if err != nil {
		t.Fatalf("replay New: %v", err)
	}
	for i, s := range log {
		if replay, _, err = replay.Apply(s.seat, s.action); err != nil {
			t.Fatalf("replay step %d (%d %v): %v", i, s.seat, s.action, err)
		}
	}
	if !bytes.Equal(mustMarshal(t, replay), mustMarshal(t, st)) {
		t.Fatalf("replaying %d actions did not reproduce the final state", len(log))
	}
}

// checkEarlier fails when an earlier state no longer marshals to the bytes it had when it was
// reached: something wrote into it later, through memory it shares with a later state or from a
// method that writes into its receiver.
func checkEarlier(t testing.TB, states []earlier, now int) {
	t.Helper()
	for _, e := range states {
		if !bytes.Equal(e.b, mustMarshal(t, e.st)) {
			t.Fatalf("the state of step %d changed by step %d: it shares memory with a later state "+
				"(a clone that copies too little), or a method wrote into it", e.step, now)
		}
	}
}

// checkSibling applies another legal action than a to st (the same seat's, or another acting
// seat's) and fails when that changes next, the result of a: the two results of one state must
// not share memory either writes.
func checkSibling(t testing.TB, st games.State, toAct []games.Seat, seat games.Seat, a games.Action,
	next games.State, nextBytes []byte, n int, rng *rand.Rand) {
	t.Helper()
	var options []step
	for _, s := range toAct {
		for _, b := range st.Legal(s) {
			if s != seat || b != a {
				options = append(options, step{s, b})
			}
		}
	}
	if len(options) == 0 {
		return
	}
	o := options[rng.IntN(len(options))]
	if _, _, err := st.Apply(o.seat, o.action); err != nil {
		t.Fatalf("step %d: seat %d %v is in Legal but Apply failed: %v", n, o.seat, o.action, err)
	}
	if !bytes.Equal(nextBytes, mustMarshal(t, next)) {
		t.Fatalf("step %d: applying seat %d %v to the same state changed the result of seat %d %v: "+
			"the two results share memory (a clone that copies too little)", n, o.seat, o.action, seat, a)
	}
}

func mustMarshal(t testing.TB, st games.State) []byte {
	t.Helper()
	b, err := st.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	return b
}

// checkState checks one state, which marshals to b: card conservation, round trip, the sheet's
// sums, ToAct/Legal agree.
func checkState(t testing.TB, r games.Rules, st games.State, b []byte, players int) {
	t.Helper()
	checkZones(t, st)
	back, err := r.Unmarshal(b)
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if !bytes.Equal(b, mustMarshal(t, back)) {
		t.Fatalf("Marshal/Unmarshal round trip changed the state")
	}
	if _, err := r.Unmarshal(append([]byte("\x00garbage"), b...)); !errors.Is(err, games.ErrCorrupt) {
		t.Fatalf("Unmarshal of garbage: got %v, want ErrCorrupt", err)
	}
	toAct := st.ToAct()
	for s := range games.Seat(players) {
		l := st.Legal(s)
		if slices.Contains(toAct, s) != (len(l) > 0) {
			t.Fatalf("seat %d: in ToAct=%v but Legal=%v", s, toAct, l)
		}
		for _, a := range l {
			p, err := games.ParseAction(a.String())
			if err != nil || p != a {
				t.Fatalf("action %#v does not round-trip its text %q: %v", a, a.String(), err)
			}
		}
	}
	sh := st.Score()
	checkSheet(t, sh, players)
	if tt, ok := st.(games.Totaler); ok && !slices.Equal(tt.Totals(), sh.Totals) {
		t.Fatalf("Totals() = %v, but the sheet's totals are %v", tt.Totals(), sh.Totals)
	}
	checkView(t, st.View(games.Nobody), players)
	for s := range games.Seat(players) {
		v := st.View(s)
		checkView(t, v, players)
		if slices.Contains(toAct, s) && v.Prompt.ID == "" {
			t.Fatalf("seat %d must act but its view has no prompt", s)
		}
	}
}

// checkZones is the card-conservation audit: the zones are disjoint and hold exactly the deck.
func checkZones(t testing.TB, st games.State) {
	t.Helper()
	if err := audit(st); err != nil {
		t.Fatalf("%v", err)
	}
}

// audit is checkZones as an error, for callers that add context.
func audit(st games.State) error {
	au, ok := st.(games.Auditor)
	if !ok {
		return fmt.Errorf("%T does not implement games.Auditor", st)
	}
	var all cards.Set
	n := 0
	for _, z := range au.Zones() {
		if !all.Intersect(z).Empty() {
			return fmt.Errorf("card(s) %v in two zones", all.Intersect(z))
		}
		all = all.Union(z)
		n += z.Len()
	}
	if all != au.Deck() || n != au.Deck().Len() {
		return fmt.Errorf("cards not conserved: zones hold %v, deck is %v", all, au.Deck())
	}
	return nil
}

func checkSheet(t testing.TB, sh games.Sheet, players int) {
	t.Helper()
	if len(sh.Totals) != players {
		t.Fatalf("sheet has %d totals for %d players", len(sh.Totals), players)
	}
	sums := make([]int, players)
	for i, row := range sh.Rows {
		if row.Label.ID == "" {
			t.Fatalf("sheet row %d has no label", i)
		}
		if len(row.Cells) != players {
			t.Fatalf("sheet row %d has %d cells for %d players", i, len(row.Cells), players)
		}
		if row.Points == nil {
			continue
		}
		if len(row.Points) != players {
			t.Fatalf("sheet row %d has %d points for %d players", i, len(row.Points), players)
		}
		for s, p := range row.Points {
			sums[s] += p
		}
	}
	if !slices.Equal(sums, sh.Totals) {
		t.Fatalf("sheet totals %v are not the column sums %v", sh.Totals, sums)
	}
}

func checkView(t testing.TB, v games.View, players int) {
	t.Helper()
	if v.Players != players {
		t.Fatalf("view of seat %d says %d players, want %d", v.Seat, v.Players, players)
	}
	if v.Seat == games.Nobody && len(v.Hand) != 0 {
		t.Fatalf("the public view shows a hand %v", v.Hand)
	}
	for _, m := range append(append([]games.Msg{v.Prompt}, v.Table...), v.Private...) {
		checkMsg(t, m)
	}
}

func checkEvents(t testing.TB, evs []games.Event, players int) {
	t.Helper()
	for _, e := range evs {
		if e.To < games.Nobody || int(e.To) >= players {
			t.Fatalf("event %v addressed to seat %d", e.Msg.ID, e.To)
		}
		if e.Msg.ID == "" {
			t.Fatalf("event without a message")
		}
		checkMsg(t, e.Msg)
	}
}

func checkMsg(t testing.TB, m games.Msg) {
	t.Helper()
	for k, v := range m.Args {
		switch x := v.(type) {
		case int, string, bool, cards.Card, []cards.Card, cards.Set, cards.Suit, games.Seat, []games.Seat:
		case games.Msg:
			checkMsg(t, x)
		case []games.Msg:
			for _, y := range x {
				checkMsg(t, y)
			}
		default:
			t.Fatalf("message %s argument %s has unsupported type %T", m.ID, k, v)
		}
	}
}

// checkRejects feeds actions that must fail and checks the sentinel and that nothing changed.
func checkRejects(t testing.TB, st games.State, players int, toAct []games.Seat, rng *rand.Rand) {
	t.Helper()
	before := mustMarshal(t, st)
	for s := range games.Seat(players) {
		if slices.Contains(toAct, s) {
			continue
		}
		if _, _, err := st.Apply(s, anyLegal(st, toAct)); !errors.Is(err, games.ErrNotYourTurn) {
			t.Fatalf("seat %d out of turn: got %v, want ErrNotYourTurn", s, err)
		}
		break
	}
	seat := toAct[rng.IntN(len(toAct))]
	legal := st.Legal(seat)
	for _, bad := range []games.Action{
		games.Do("nonsense"),
		games.With("play", cards.Joker(2)),
		games.Num("bid", 9999),
		games.With("play", randomCard(rng)),
	} {
		if slices.Contains(legal, bad) {
			continue
		}
		if _, _, err := st.Apply(seat, bad); !errors.Is(err, games.ErrIllegal) {
			t.Fatalf("seat %d illegal %v: got %v, want ErrIllegal", seat, bad, err)
		}
	}
	if !bytes.Equal(before, mustMarshal(t, st)) {
		t.Fatalf("a rejected action changed the state")
	}
}

func anyLegal(st games.State, toAct []games.Seat) games.Action {
	return st.Legal(toAct[0])[0]
}

func randomCard(rng *rand.Rand) cards.Card { return cards.Card(1 + rng.IntN(62)) }

// checkNoLeak redeals every card hidden from each seat and checks that its View and Legal do not
// change: a View that did change would show something the seat cannot know.
func checkNoLeak(t testing.TB, st games.State, players int, rng *rand.Rand) {
	t.Helper()
	au := st.(games.Auditor)
	before := mustMarshal(t, st)
	for s := games.Nobody; int(s) < players; s++ {
		other := au.Redeal(s, rng)
		if !bytes.Equal(before, mustMarshal(t, st)) {
			t.Fatalf("seat %d: Redeal changed the state it copies", s)
		}
		checkZones(t, other)
		if !reflect.DeepEqual(st.View(s), other.View(s)) {
			t.Fatalf("seat %d: View changed when hidden cards were redealt:\n%+v\n%+v", s, st.View(s), other.View(s))
		}
		if s != games.Nobody && !slices.Equal(st.Legal(s), other.Legal(s)) {
			t.Fatalf("seat %d: Legal changed when hidden cards were redealt", s)
		}
		oa := other.(games.Auditor)
		if oa.Deck() != au.Deck() {
			t.Fatalf("seat %d: Redeal changed the deck", s)
		}
	}
}
