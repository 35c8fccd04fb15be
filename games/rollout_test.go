package games

import (
	"math/rand/v2"
	"testing"
)

type rolloutRules struct {
	ownRules
	rollout Agent
}

func (r rolloutRules) RolloutAgent() Agent { return r.rollout }

// last always plays the last legal action.
type last struct{}

func (last) Choose(_ View, legal []Action, _ *rand.Rand) Action { return legal[len(legal)-1] }

func TestRolloutAgentFor(t *testing.T) {
	tests := []struct {
		name string
		r    Rules
		want Agent
	}{
		{"a game without agents rolls out at random", plainRules{}, Random{}},
		{"a game with only its own agent rolls out with it", ownRules{agent: first{}}, first{}},
		{"a game with a rollout agent rolls out with that", rolloutRules{ownRules{agent: first{}}, last{}}, last{}},
		{"a nil rollout agent counts as none", rolloutRules{ownRules{agent: first{}}, nil}, first{}},
	}
	for _, tt := range tests {
		if got := RolloutAgentFor(tt.r); got != tt.want {
			t.Errorf("%s: RolloutAgentFor = %#v, want %#v", tt.name, got, tt.want)
		}
	}
}

// leanState is a State whose agent view differs from its full view.
type leanState struct{ State }

func (leanState) View(s Seat) View      { return View{Seat: s, Prompt: M("full")} }
func (leanState) AgentView(s Seat) View { return View{Seat: s} }

// fullState has no agent view.
type fullState struct{ State }

func (fullState) View(s Seat) View { return View{Seat: s, Prompt: M("full")} }

func TestAgentView(t *testing.T) {
	if v := AgentView(leanState{}, 1); v.Prompt.ID != "" || v.Seat != 1 {
		t.Errorf("a state with AgentView gave %+v", v)
	}
	if v := AgentView(fullState{}, 1); v.Prompt.ID != "full" || v.Seat != 1 {
		t.Errorf("a state without AgentView gave %+v, want its View", v)
	}
}
