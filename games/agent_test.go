package games

import (
	"math/rand/v2"
	"testing"
)

// plainRules is a Rules without its own agent; ownRules has one.
type plainRules struct{}

func (plainRules) Name() string                      { return "plain" }
func (plainRules) Version() int                      { return 1 }
func (plainRules) Seats() (int, int)                 { return 2, 2 }
func (plainRules) Options() []Option                 { return nil }
func (plainRules) New(Config, uint64) (State, error) { return nil, ErrBadConfig }
func (plainRules) Unmarshal([]byte) (State, error)   { return nil, ErrCorrupt }

type ownRules struct {
	plainRules
	agent Agent
}

func (r ownRules) Agent() Agent { return r.agent }

// first always plays the first legal action.
type first struct{}

func (first) Choose(_ View, legal []Action, _ *rand.Rand) Action { return legal[0] }

func TestAgentFor(t *testing.T) {
	tests := []struct {
		name string
		r    Rules
		want Agent
	}{
		{"a game without an agent gets Random", plainRules{}, Random{}},
		{"a game with an agent gets it", ownRules{agent: first{}}, first{}},
		{"a nil agent counts as none", ownRules{}, Random{}},
	}
	for _, tt := range tests {
		if got := AgentFor(tt.r); got != tt.want {
			t.Errorf("%s: AgentFor = %#v, want %#v", tt.name, got, tt.want)
		}
	}
}

func TestRandomIsUniform(t *testing.T) {
	legal := []Action{Do("a"), Do("b"), Do("c")}
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[Action]int{}
	for range 3000 {
		a := Random{}.Choose(View{}, legal, rng)
		count[a]++
	}
	for _, a := range legal {
		if n := count[a]; n < 900 || n > 1100 {
			t.Errorf("%v chosen %d times of 3000", a, n)
		}
	}
}
