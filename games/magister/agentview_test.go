package magister

import (
	"math/rand/v2"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestAgentViewIsViewWithoutTexts: along a random game, every seat's AgentView is its View with
// the texts for people left out, and nothing else changed.
func TestAgentViewIsViewWithoutTexts(t *testing.T) {
	st, err := Rules().New(games.Config{Players: 4}, 8)
	if err != nil {
		t.Fatal(err)
	}
	gametest.CheckAgentView(t, st, rand.New(rand.NewPCG(8, 8)), 400)
}
