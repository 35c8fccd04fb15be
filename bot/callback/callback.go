// Package callback is the text the bot puts into inline buttons (callback_data, at most 64 bytes)
// and deep links, and its strict parsers: each accepts exactly what its String writes, so forged
// data is refused before anything is looked up.
//
// Game and page buttons name the table (its id, never reused) and the record version they were
// drawn at, so a press on an old message, a double press and a press meant for an earlier table at
// the same place are all recognised as stale.
package callback

import (
	"errors"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// MaxData is Telegram's limit on callback_data, in bytes.
const MaxData = 64

// ErrForged is returned for data the bot could not have written.
var ErrForged = errors.New("forged callback data")

// Prefixes of the button kinds; each kind's data starts with one.
const (
	PlayPrefix  = "v2|"
	PagePrefix  = "p2|"
	LobbyPrefix = "l2|"
	PickPrefix  = "n1|"
	// SettingsPrefix starts the buttons of a group's settings message (settings.go).
	SettingsPrefix = "s1|"
)

// Play is a game button: "v2|<table>|<version>|<action>".
type Play struct {
	Table   store.TableID
	Version int
	Action  games.Action
}

func (d Play) String() string {
	return PlayPrefix + id(d.Table) + "|" + strconv.Itoa(d.Version) + "|" + d.Action.String()
}

// ParsePlay accepts exactly what Play.String writes.
func ParsePlay(s string) (Play, error) {
	f, ok := fields(s, PlayPrefix, 3)
	if !ok {
		return Play{}, ErrForged
	}
	t, ok1 := parseID(f[0])
	v, ok2 := parseCount(f[1])
	a, err := games.ParseAction(f[2])
	if !ok1 || !ok2 || err != nil {
		return Play{}, ErrForged
	}
	return Play{Table: t, Version: v, Action: a}, nil
}

// Page turns the pages of a long hand keyboard: "p2|<table>|<version>|<page>".
type Page struct {
	Table   store.TableID
	Version int
	Page    int
}

func (d Page) String() string {
	return PagePrefix + id(d.Table) + "|" + strconv.Itoa(d.Version) + "|" + strconv.Itoa(d.Page)
}

// ParsePage accepts exactly what Page.String writes.
func ParsePage(s string) (Page, error) {
	f, ok := fields(s, PagePrefix, 3)
	if !ok {
		return Page{}, ErrForged
	}
	t, ok1 := parseID(f[0])
	v, ok2 := parseCount(f[1])
	p, ok3 := parseCount(f[2])
	if !ok1 || !ok2 || !ok3 {
		return Page{}, ErrForged
	}
	return Page{Table: t, Version: v, Page: p}, nil
}

// Lobby operations. "o<i>" cycles the i-th option of the game.
const (
	OpJoin    = "join"
	OpLeave   = "leave"
	OpAddAI   = "ai"
	OpRemove  = "rmai"
	OpOptions = "opts"
	OpBack    = "back"
	OpBegin   = "begin"
)

// Lobby is a lobby button: "l2|<table>|<op>".
type Lobby struct {
	Table store.TableID
	Op    string
}

func (d Lobby) String() string { return LobbyPrefix + id(d.Table) + "|" + d.Op }

// Option is the index of the option an "o<i>" op cycles, or -1.
func (d Lobby) Option() int {
	n, ok := parseCount(strings.TrimPrefix(d.Op, "o"))
	if !strings.HasPrefix(d.Op, "o") || !ok || n > 99 {
		return -1
	}
	return n
}

// OptionOp is the op that cycles option i.
func OptionOp(i int) string { return "o" + strconv.Itoa(i) }

// ParseLobby accepts exactly what Lobby.String writes, with one of the known ops.
func ParseLobby(s string) (Lobby, error) {
	f, ok := fields(s, LobbyPrefix, 2)
	if !ok {
		return Lobby{}, ErrForged
	}
	t, ok := parseID(f[0])
	if !ok {
		return Lobby{}, ErrForged
	}
	d := Lobby{Table: t, Op: f[1]}
	switch d.Op {
	case OpJoin, OpLeave, OpAddAI, OpRemove, OpOptions, OpBack, OpBegin:
		return d, nil
	}
	if d.Option() < 0 {
		return Lobby{}, ErrForged
	}
	return d, nil
}

// Pick is a button of the game picker: "n1|<game>".
type Pick struct{ Game string }

func (d Pick) String() string { return PickPrefix + d.Game }

// ParsePick accepts a game id of lower-case letters after the prefix; whether the game exists is
// the caller's question.
func ParsePick(s string) (Pick, error) {
	g, ok := strings.CutPrefix(s, PickPrefix)
	if !ok || len(s) > MaxData || g == "" {
		return Pick{}, ErrForged
	}
	for _, r := range g {
		if r < 'a' || r > 'z' {
			return Pick{}, ErrForged
		}
	}
	return Pick{Game: g}, nil
}

// JoinPayload is the deep-link payload that seats a user at a table: "t<table>" (at most 64
// characters of A-Z a-z 0-9 _ -, as Telegram requires).
func JoinPayload(t store.TableID) string { return "t" + id(t) }

// ParseJoinPayload reads what JoinPayload writes.
func ParseJoinPayload(s string) (store.TableID, bool) {
	rest, ok := strings.CutPrefix(s, "t")
	if !ok {
		return 0, false
	}
	return parseID(rest)
}

func id(t store.TableID) string { return strconv.FormatUint(uint64(t), 10) }

// fields splits data of the given prefix into exactly n fields.
func fields(s, prefix string, n int) ([]string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(s) > MaxData {
		return nil, false
	}
	f := strings.SplitN(rest, "|", n)
	if len(f) != n || strings.Contains(f[n-1], "|") {
		return nil, false
	}
	return f, true
}

// parseID reads a table id in canonical decimal: no sign, no leading zero, not zero.
func parseID(s string) (store.TableID, bool) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != s {
		return 0, false
	}
	return store.TableID(n), true
}

// parseCount reads a non-negative int in canonical decimal.
func parseCount(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}
