package skat

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

// TestConformance runs the engine contract's suite over 3 and 4 players, both presets, every
// switch value and every match length, with the strict decoding contract. There are 48
// configurations, so one seed each keeps the package quick; the fuzz targets reach many more.
func TestConformance(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 1
	s.Strict = true
	if raceBuild {
		// Under -race every step costs ten times more: the leak and corruption checks run less
		// often.
		s.LeakEvery = 11
	}
	gametest.Run(t, Rules(), s)
}
