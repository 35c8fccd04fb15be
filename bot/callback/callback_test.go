package callback

import (
	"strings"
	"testing"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/cards"
	"github.com/kozyr-bot/kozyr/store"
)

func TestPlay(t *testing.T) {
	longest := Play{Table: 1<<64 - 1, Version: 999999, Action: games.WithNum("play", cards.Joker(2), 10)}
	if s := longest.String(); len(s) > MaxData {
		t.Errorf("%q is %d bytes, over Telegram's %d", s, len(s), MaxData)
	}
	ok := Play{Table: 42, Version: 12, Action: games.With("play", cards.MustParse("SQ"))}
	if got, err := ParsePlay(ok.String()); err != nil || got != ok {
		t.Errorf("round trip %q: %+v, %v", ok, got, err)
	}
	for _, forged := range []string{
		"", "v2", "v1|42|12|play/SQ", "v2|42|12", "v2|42|12|play/SQ|x", "v2|x|12|play/SQ",
		"v2|0|12|play/SQ", "v2|042|12|play/SQ", "v2|-42|12|play/SQ", "v2|42|-1|play/SQ", "v2|42|012|play/SQ",
		"v2|42|12|play/sq", "v2|42|12|PLAY/SQ", "v2|42|12|play/ZZ", "v2|42|12|", "v2|42||play/SQ",
		"v2|42|12|" + strings.Repeat("a", 60), "v2|18446744073709551616|1|pass",
	} {
		if _, err := ParsePlay(forged); err == nil {
			t.Errorf("ParsePlay(%q) accepted forged data", forged)
		}
	}
}

func TestPage(t *testing.T) {
	ok := Page{Table: 7, Version: 3, Page: 2}
	if got, err := ParsePage(ok.String()); err != nil || got != ok {
		t.Errorf("round trip %q: %+v, %v", ok, got, err)
	}
	for _, forged := range []string{"p2|7|3", "p2|7|3|-1", "p2|7|3|02", "p1|7|3|2", "p2|7|3|2|", "p2|0|3|2"} {
		if _, err := ParsePage(forged); err == nil {
			t.Errorf("ParsePage(%q) accepted forged data", forged)
		}
	}
}

func TestLobby(t *testing.T) {
	for op, want := range map[string]bool{
		OpJoin: true, OpLeave: true, OpAddAI: true, OpRemove: true, OpOptions: true, OpBack: true, OpBegin: true,
		"o0": true, "o12": true, "o": false, "o01": false, "o-1": false, "o123": false, "drop": false, "": false,
	} {
		d := Lobby{Table: 5, Op: op}
		got, err := ParseLobby(d.String())
		if (err == nil) != want || (want && got != d) {
			t.Errorf("ParseLobby(%q) = %+v, %v", d.String(), got, err)
		}
	}
	if n := (Lobby{Op: OptionOp(7)}).Option(); n != 7 {
		t.Errorf("Option of o7 = %d", n)
	}
	if n := (Lobby{Op: OpJoin}).Option(); n != -1 {
		t.Errorf("Option of join = %d", n)
	}
}

func TestPickAndPayload(t *testing.T) {
	if d, err := ParsePick(Pick{Game: "skat"}.String()); err != nil || d.Game != "skat" {
		t.Errorf("pick round trip: %+v, %v", d, err)
	}
	for _, forged := range []string{"n1|", "n1|Skat", "n1|sk at", "n2|skat", "skat"} {
		if _, err := ParsePick(forged); err == nil {
			t.Errorf("ParsePick(%q) accepted", forged)
		}
	}
	for s, want := range map[string]store.TableID{"t42": 42, "t1": 1, "t": 0, "t0": 0, "t042": 0, "j-4001": 0, "t42 ": 0, "t-1": 0} {
		got, ok := ParseJoinPayload(s)
		if got != want || ok != (want != 0) {
			t.Errorf("ParseJoinPayload(%q) = %d, %v", s, got, ok)
		}
		if ok && JoinPayload(got) != s {
			t.Errorf("JoinPayload(%d) = %q", got, JoinPayload(got))
		}
	}
}

// FuzzParse: whatever the parsers accept is canonical (writes back to the same text) and fits
// Telegram's limit.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"v2|42|12|play/SQ", "p2|7|3|2", "l2|5|join", "l2|5|o3", "n1|skat", "v2|1|0|pass", "t42"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParsePlay(s); err == nil && (d.String() != s || len(s) > MaxData) {
			t.Fatalf("ParsePlay(%q) accepted non-canonical data (%q)", s, d.String())
		}
		if d, err := ParsePage(s); err == nil && d.String() != s {
			t.Fatalf("ParsePage(%q) accepted non-canonical data (%q)", s, d.String())
		}
		if d, err := ParseLobby(s); err == nil && d.String() != s {
			t.Fatalf("ParseLobby(%q) accepted non-canonical data (%q)", s, d.String())
		}
		if d, err := ParsePick(s); err == nil && d.String() != s {
			t.Fatalf("ParsePick(%q) accepted non-canonical data (%q)", s, d.String())
		}
		if id, ok := ParseJoinPayload(s); ok && JoinPayload(id) != s {
			t.Fatalf("ParseJoinPayload(%q) accepted non-canonical text", s)
		}
	})
}
