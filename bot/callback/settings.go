package callback

import (
	"strconv"
	"strings"
)

// Settings operations: SetPage shows a page of the settings message (Arg: a game, or "" for the
// group's general settings); SetCycle moves the setting Arg to its next value.
const (
	SetPage  = "p"
	SetCycle = "c"
)

// Settings is a button of a group's settings message: "s1|<version>|<op>|<arg>". The message's
// chat names the group; Version is the group's Settings.Version the button was drawn at, so a
// press after any change (another admin's, an older message's) is stale and changes nothing.
type Settings struct {
	Version int
	Op      string
	Arg     string // a setting's key ("lang", "wizard.short_game") or a game's name
}

func (d Settings) String() string {
	return SettingsPrefix + strconv.Itoa(d.Version) + "|" + d.Op + "|" + d.Arg
}

// ParseSettings accepts exactly what Settings.String writes: one of the two ops, and an
// argument of lower-case letters, digits, '_', '-' and '.' (empty only for the main page).
func ParseSettings(s string) (Settings, error) {
	f, ok := fields(s, SettingsPrefix, 3)
	if !ok {
		return Settings{}, ErrForged
	}
	v, ok := parseCount(f[0])
	if !ok || (f[1] != SetPage && f[1] != SetCycle) || (f[1] == SetCycle && f[2] == "") {
		return Settings{}, ErrForged
	}
	if strings.Trim(f[2], "abcdefghijklmnopqrstuvwxyz0123456789_-.") != "" {
		return Settings{}, ErrForged
	}
	return Settings{Version: v, Op: f[1], Arg: f[2]}, nil
}
