// Package all lists every game kozyr hosts: cmd/kozyr registers them with the bot, and the locale
// tests check each one's messages have translations.
package all

import (
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/joker"
	"github.com/kozyr-bot/kozyr/games/jokerbank"
	"github.com/kozyr-bot/kozyr/games/magister"
	"github.com/kozyr-bot/kozyr/games/nasilie"
	"github.com/kozyr-bot/kozyr/games/skat"
	"github.com/kozyr-bot/kozyr/games/wizard"
)

// Rules returns every game's rules, in the order the game picker shows them.
func Rules() []games.Rules {
	return []games.Rules{
		wizard.Rules(),
		skat.Rules(),
		joker.Rules(),
		jokerbank.Rules(),
		magister.Rules(),
		nasilie.Rules(),
	}
}
