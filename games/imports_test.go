package games_test

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestEnginesArePure enforces design §1: no engine package imports a clock, a global RNG, I/O,
// storage or a transport.
func TestEnginesArePure(t *testing.T) {
	gametest.CheckImports(t, "github.com/kozyr-bot/kozyr/games/...")
}
