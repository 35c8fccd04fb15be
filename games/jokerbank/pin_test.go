package jokerbank

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestReplayPin: replaying the pinned logs in testdata/pins gives what it gave when they were
// pinned, unless the rules version was bumped (then re-pin: go test ./games/jokerbank -update-pins).
func TestReplayPin(t *testing.T) {
	for _, p := range []struct {
		cfg  games.Config
		seed uint64
	}{
		{games.Config{Players: 2}, 3},
		{games.Config{Players: 5, Options: map[string]string{OptCeiling: "50", OptRounds: "open"}}, 4},
	} {
		r := Rules()
		name := fmt.Sprintf("%s-p%d", r.Name(), p.cfg.Players)
		for _, o := range r.Options() {
			if v, ok := p.cfg.Options[o.Key]; ok {
				name += "-" + o.Key + "-" + v
			}
		}
		t.Run(name, func(t *testing.T) {
			gametest.CheckReplayPin(t, r, p.cfg, p.seed, filepath.Join("testdata", "pins", name+".json"))
		})
	}
}
