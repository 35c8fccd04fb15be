package games

import (
	"errors"
	"testing"

	"github.com/kozyr-bot/kozyr/games/cards"
)

func TestActionText(t *testing.T) {
	tests := []struct {
		a    Action
		text string
	}{
		{Do("pass"), "pass"},
		{Num("bid", 0), "bid/0"},
		{Num("bid", 18), "bid/18"},
		{Num("stake", -3), "stake/-3"},
		{With("play", cards.MustParse("SQ")), "play/SQ"},
		{With("play", cards.MustParse("10H")), "play/H10"},
		{WithNum("play", cards.Joker(1), 1), "play/X1/1"},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.text {
			t.Errorf("%#v.String() = %q, want %q", tt.a, got, tt.text)
		}
		back, err := ParseAction(tt.text)
		if err != nil || back != tt.a {
			t.Errorf("ParseAction(%q) = %#v, %v; want %#v", tt.text, back, err, tt.a)
		}
	}
}

func TestParseActionRejects(t *testing.T) {
	for _, s := range []string{"", "/", "PASS", "bid/", "bid/x", "bid/01", "bid/+1", "play/10H",
		"play/SQ/1/2", "play/ZZ", "a/b/c/d", "bid/99999999999", "verylongkindnameabc", "bid/-",
		"pass/", "bid/1/SQ", "pl ay"} {
		if a, err := ParseAction(s); !errors.Is(err, ErrBadAction) {
			t.Errorf("ParseAction(%q) = %#v, %v; want ErrBadAction", s, a, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"pass", "bid/3", "play/SQ", "play/X1/1", "bid/-2", "x/1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		if a.String() != s {
			t.Fatalf("ParseAction(%q) accepted a non-canonical text (canonical %q)", s, a.String())
		}
	})
}
