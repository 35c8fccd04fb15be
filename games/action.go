package games

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games/cards"
)

// Action is one move. It is comparable, so Legal lists can be searched with slices.Contains, and
// its canonical text ("bid/18", "play/SQ", "pass", "play/X1/1") is what the log and the callback
// data carry.
type Action struct {
	Kind string     // lower-case verb: "bid", "play", "pass", "meld", ...
	Card cards.Card // the card the action names, or cards.NoCard
	N    int32      // the number the action names, meaningful only when HasN
	HasN bool       // whether the action carries a number (a bid of 0 is not "no bid")
}

// Do is an action with neither card nor number ("pass").
func Do(kind string) Action { return Action{Kind: kind} }

// Num is an action with a number ("bid/3").
func Num(kind string, n int) Action { return Action{Kind: kind, N: int32(n), HasN: true} }

// With is an action with a card ("play/SQ").
func With(kind string, c cards.Card) Action { return Action{Kind: kind, Card: c} }

// WithNum is an action with a card and a number ("play/X1/1": a joker played high).
func WithNum(kind string, c cards.Card, n int) Action {
	return Action{Kind: kind, Card: c, N: int32(n), HasN: true}
}

// String is the canonical text: kind, then "/card" and "/n" where present.
func (a Action) String() string {
	var b strings.Builder
	b.WriteString(a.Kind)
	if a.Card != cards.NoCard {
		b.WriteByte('/')
		b.WriteString(a.Card.String())
	}
	if a.HasN {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(int(a.N)))
	}
	return b.String()
}

const maxKindLen = 16

// ParseAction reads canonical text back into an Action. It accepts exactly what String writes, so
// forged callback data fails here (wrapping ErrBadAction) before any game sees it.
func ParseAction(s string) (Action, error) {
	parts := strings.Split(s, "/")
	if len(parts) > 3 {
		return Action{}, fmt.Errorf("%w: %q has too many parts", ErrBadAction, s)
	}
	kind := parts[0]
	if kind == "" || len(kind) > maxKindLen {
		return Action{}, fmt.Errorf("%w: bad kind in %q", ErrBadAction, s)
	}
	for _, r := range kind {
		if r < 'a' || r > 'z' {
			return Action{}, fmt.Errorf("%w: bad kind in %q", ErrBadAction, s)
		}
	}
	a := Action{Kind: kind}
	rest := parts[1:]
	if len(rest) > 0 && !isNumber(rest[0]) {
		c, err := cards.Parse(rest[0])
		if err != nil || c.String() != rest[0] {
			return Action{}, fmt.Errorf("%w: bad card in %q", ErrBadAction, s)
		}
		a.Card = c
		rest = rest[1:]
	}
	if len(rest) > 0 {
		n, err := strconv.ParseInt(rest[0], 10, 32)
		if err != nil || !isNumber(rest[0]) || strconv.FormatInt(n, 10) != rest[0] {
			return Action{}, fmt.Errorf("%w: bad number in %q", ErrBadAction, s)
		}
		a.N, a.HasN = int32(n), true
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return Action{}, fmt.Errorf("%w: trailing part in %q", ErrBadAction, s)
	}
	return a, nil
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
