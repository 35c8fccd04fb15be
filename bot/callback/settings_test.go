package callback

import (
	"strings"
	"testing"
)

func TestSettings(t *testing.T) {
	for _, ok := range []Settings{
		{Version: 0, Op: SetPage},
		{Version: 7, Op: SetPage, Arg: "wizard"},
		{Version: 12, Op: SetCycle, Arg: "lang"},
		{Version: 999999, Op: SetCycle, Arg: "skat.announce_requires_hand"},
		{Version: 3, Op: SetCycle, Arg: "magister.trump4"},
	} {
		s := ok.String()
		if len(s) > MaxData {
			t.Errorf("%q is %d bytes, over Telegram's %d", s, len(s), MaxData)
		}
		if got, err := ParseSettings(s); err != nil || got != ok {
			t.Errorf("round trip %q: %+v, %v", s, got, err)
		}
	}
	for _, forged := range []string{
		"", "s1", "s1|", "s1|1|p", "s2|1|p|", "s1|-1|p|", "s1|01|p|", "s1|x|p|", "s1|1|x|lang",
		"s1|1|c|", "s1|1|c|Lang", "s1|1|c|la ng", "s1|1|c|lang|x", "s1|1|p|wizard|", "s1|1|c|язык",
		"s1|1|c|" + strings.Repeat("a", 60),
	} {
		if _, err := ParseSettings(forged); err == nil {
			t.Errorf("ParseSettings(%q) accepted forged data", forged)
		}
	}
}
