package joker

import (
	"testing"

	"github.com/kozyr-bot/kozyr/games/gametest"
)

func TestConformanceJoker(t *testing.T) {
	gametest.Run(t, Rules(), gametest.Defaults)
}

func TestConformanceJokerBank(t *testing.T) {
	s := gametest.Defaults
	s.Seeds = 2 // 23 configurations: every player count 2–10 and every option value
	gametest.Run(t, BankRules(), s)
}
