package nasilie

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestReplayPin: replaying the pinned logs in testdata/pins gives what it gave when they were
// pinned, unless the rules version was bumped (then re-pin: go test ./games/nasilie -update-pins).
func TestReplayPin(t *testing.T) {
	for _, p := range []struct {
		r    games.Rules
		cfg  games.Config
		seed uint64
	}{
		{Rules(), games.Config{Players: 4}, 1},
		{Rules(), games.Config{Players: 5, Options: map[string]string{OptFive: FiveDealer, OptFollow: FollowFree}}, 2},
	} {
		name := fmt.Sprintf("%s-p%d", p.r.Name(), p.cfg.Players)
		for _, o := range p.r.Options() {
			if v, ok := p.cfg.Options[o.Key]; ok {
				name += "-" + o.Key + "-" + v
			}
		}
		t.Run(name, func(t *testing.T) {
			gametest.CheckReplayPin(t, p.r, p.cfg, p.seed, filepath.Join("testdata", "pins", name+".json"))
		})
	}
}
