package cards

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func sets(lists ...string) []Set {
	out := make([]Set, len(lists))
	for i, l := range lists {
		out[i] = SetOf(MustParseList(l)...)
	}
	return out
}

func TestRedistribute(t *testing.T) {
	tests := []struct {
		name  string
		zones []Set
		fit   []Set
		want  []Set // nil: any deal that keeps the sizes (and fits)
		err   error // nil: must succeed
	}{
		{name: "no zones"},
		{name: "empty zones", zones: sets("", "")},
		{name: "shuffle", zones: sets("SA SK", "HA", "", "D7 D8 D9")},
		{name: "one zone keeps its cards", zones: sets("SA SK SQ"), want: sets("SA SK SQ")},
		{name: "a fit decides everything", zones: sets("SA", "HA"), fit: sets("HA", "SA HA"),
			want: sets("HA", "SA")},
		{name: "a void forces the rest", zones: sets("SA HA", "SK HK", "C7"),
			fit: sets("HA HK C7", "SA SK HA HK C7", "SA SK HA HK C7")},
		{name: "known cards stay", zones: sets("SA SK", "HA HK"), fit: sets("SA SK", "SA SK HA HK"),
			want: sets("SA SK", "HA HK")},
		{name: "fits that cover everything", zones: sets("SA SK", "HA HK"), fit: sets("SA SK HA HK", "SA SK HA HK")},
		{name: "a card nobody may hold", zones: sets("SA", "HA"), fit: sets("SA", "SA"), err: ErrInfeasible},
		{name: "two zones want the same card", zones: sets("SA", "HA", "CA"), fit: sets("SA", "SA", "SA HA CA"),
			err: ErrInfeasible},
		{name: "Hall's condition on a pair", zones: sets("SA SK", "HA HK", "C7"),
			fit: sets("SA C7", "SA C7", "SA SK HA HK C7"), err: ErrInfeasible},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := range uint64(20) {
				got, p, err := Redistribute(tt.zones, tt.fit, rand.New(rand.NewPCG(seed, 1)))
				if tt.err != nil {
					if !errors.Is(err, tt.err) {
						t.Fatalf("seed %d: got %v, %v; want %v", seed, got, err, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				checkRedistributed(t, tt.zones, tt.fit, got, p)
				if tt.want != nil && !slices.Equal(got, tt.want) {
					t.Fatalf("seed %d: got %v, want %v", seed, got, tt.want)
				}
			}
		})
	}
}

func TestRedistributeRejectsBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for name, in := range map[string][2][]Set{
		"overlapping zones":  {sets("SA SK", "SK HA"), nil},
		"fit of other width": {sets("SA", "HA"), sets("SA")},
		"too many zones":     {make([]Set, maxZones+1), nil},
	} {
		if got, _, err := Redistribute(in[0], in[1], rng); err == nil || errors.Is(err, ErrInfeasible) {
			t.Errorf("%s: got %v, %v; want an input error", name, got, err)
		}
	}
}

// checkRedistributed checks the contract: sizes and union kept, fits honoured, and the permutation
// is a bijection of the union that maps each zone's old cards onto its new ones.
func checkRedistributed(t *testing.T, zones, fit, got []Set, p Permutation) {
	t.Helper()
	if len(got) != len(zones) {
		t.Fatalf("%d zones in, %d out", len(zones), len(got))
	}
	var in, out Set
	for i := range zones {
		if got[i].Len() != zones[i].Len() {
			t.Fatalf("zone %d: %v became %v", i, zones[i], got[i])
		}
		if fit != nil && !got[i].Minus(fit[i]).Empty() {
			t.Fatalf("zone %d got %v outside its fit %v", i, got[i].Minus(fit[i]), fit[i])
		}
		if p.Apply(zones[i]) != got[i] {
			t.Fatalf("zone %d: permutation maps %v to %v, the zone is %v", i, zones[i], p.Apply(zones[i]), got[i])
		}
		if !out.Intersect(got[i]).Empty() {
			t.Fatalf("%v dealt twice", out.Intersect(got[i]))
		}
		in, out = in.Union(zones[i]), out.Union(got[i])
	}
	if in != out {
		t.Fatalf("cards %v became %v", in, out)
	}
	var image Set
	for _, c := range in.Cards() {
		image = image.Add(p.Card(c))
	}
	if image != in {
		t.Fatalf("permutation of %v has image %v", in, image)
	}
	if c := MustParse("X2"); !in.Has(c) && p.Card(c) != c {
		t.Fatalf("a card outside the zones moved to %v", p.Card(c))
	}
}

func TestPermutationZeroIsIdentity(t *testing.T) {
	var p Permutation
	s := SetOf(MustParseList("SA W1 X2")...)
	if p.Apply(s) != s || p.Card(MustParse("SA")) != MustParse("SA") || p.Card(NoCard) != NoCard {
		t.Fatal("the zero Permutation moves cards")
	}
	if odd := Set(1) << 63; p.Apply(odd) != odd {
		t.Fatal("Apply dropped a non-card bit")
	}
}

// feasible decides the fit problem by Hall's condition, independently of Redistribute: for every
// subset S of zones, the cards that fit nowhere but in S must not outnumber S's places.
func feasible(zones, fit []Set) bool {
	var all Set
	for _, z := range zones {
		all = all.Union(z)
	}
	for s := range 1 << len(zones) {
		room, inside := 0, all
		for i := range zones {
			if s&(1<<i) != 0 {
				room += zones[i].Len()
			} else {
				inside = inside.Minus(fit[i])
			}
		}
		if inside.Len() > room {
			return false
		}
	}
	return true
}

// TestRedistributeProperties: random zones and fits; every feasible problem is solved within the
// contract and every infeasible one is refused.
func TestRedistributeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	universe := append(WizardDeck(), Joker(1), Joker(2))
	solved, refused := 0, 0
	for range 3000 {
		k := 1 + rng.IntN(8)
		deck := ShuffleWith(universe, rng)[:rng.IntN(len(universe)+1)]
		zones := make([]Set, k)
		for _, c := range deck {
			i := rng.IntN(k)
			zones[i] = zones[i].Add(c)
		}
		var fit []Set
		if rng.IntN(5) > 0 {
			fit = make([]Set, k)
			keep := rng.Float64()
			for i := range fit {
				for _, c := range deck {
					if zones[i].Has(c) && rng.IntN(4) > 0 || rng.Float64() < keep {
						fit[i] = fit[i].Add(c)
					}
				}
			}
		}
		got, p, err := Redistribute(zones, fit, rng)
		switch ok := fit == nil || feasible(zones, fit); {
		case ok && err != nil:
			t.Fatalf("zones %v fits %v: feasible, but %v", zones, fit, err)
		case !ok && !errors.Is(err, ErrInfeasible):
			t.Fatalf("zones %v fits %v: infeasible, but got %v, %v", zones, fit, got, err)
		case ok:
			checkRedistributed(t, zones, fit, got, p)
			solved++
		default:
			refused++
		}
	}
	if solved < 500 || refused < 100 {
		t.Fatalf("the generator solved %d and refused %d problems: too few of one kind", solved, refused)
	}
}

// TestRedistributeSpread: without fits every card is as likely in every place; with permissive fits
// too. A loose bound: the streams are fixed, so this is a regression check, not a flaky one.
func TestRedistributeSpread(t *testing.T) {
	zones := sets("SA", "SK SQ", "SJ S10 S9")
	all := sets("SA SK SQ SJ S10 S9")[0]
	for _, fit := range [][]Set{nil, {all, all, all}} {
		rng := rand.New(rand.NewPCG(5, 6))
		count := map[Card]int{}
		const runs = 6000
		for range runs {
			got, _, err := Redistribute(zones, fit, rng)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range got[0].Cards() {
				count[c]++
			}
		}
		for _, c := range all.Cards() {
			if n := count[c]; n < runs/6*9/10 || n > runs/6*11/10 {
				t.Errorf("fit %v: %v was in the first zone %d times of %d, want about %d", fit, c, n, runs, runs/6)
			}
		}
	}
}

func BenchmarkRedistribute(b *testing.B) {
	deck := ShuffleWith(FrenchFrom(2), rand.New(rand.NewPCG(1, 1)))
	zones := []Set{SetOf(deck[:13]...), SetOf(deck[13:26]...), SetOf(deck[26:39]...), SetOf(deck[39:]...)}
	all := SetOf(deck...)
	voids := []Set{all.Minus(all.Suit(Spades)), all.Minus(all.Suit(Hearts)), all, all}
	for _, bc := range []struct {
		name string
		fit  []Set
	}{{"shuffle", nil}, {"voids", voids}} {
		b.Run(bc.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(2, 2))
			for b.Loop() {
				if _, _, err := Redistribute(zones, bc.fit, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
