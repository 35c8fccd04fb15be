package nasilie

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
)

// TestAgentViewIsViewWithoutTexts: along random matches, every seat's AgentView is its View
// with the texts for people left out, and nothing else changed.
func TestAgentViewIsViewWithoutTexts(t *testing.T) {
	st, err := Rules().New(games.Config{Players: 5}, 8)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for step := 0; step < 400 && len(st.ToAct()) > 0; step++ {
		for s := games.Nobody; s < 5; s++ {
			want := st.View(s)
			want.Table, want.Private, want.Prompt = nil, nil, games.Msg{}
			if got := st.(*state).AgentView(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d seat %d: AgentView %+v, View %+v", step, s, got, want)
			}
		}
		to := st.ToAct()
		p := to[rng.IntN(len(to))]
		legal := st.Legal(p)
		if st, _, err = st.Apply(p, legal[rng.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}
