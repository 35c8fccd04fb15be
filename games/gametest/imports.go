package gametest

import (
	"os/exec"
	"strings"
	"testing"
)

// forbidden are the imports an engine may not have (design §1): no clock, no global RNG, no I/O,
// no persistence, no transport.
var forbidden = []string{
	"time", "math/rand", "os", "net", "net/http", "io/ioutil", "syscall", "log",
	"github.com/kozyr-bot/kozyr/store", "github.com/kozyr-bot/kozyr/bot",
	"github.com/kozyr-bot/kozyr/locales",
	"go.etcd.io/bbolt", "github.com/go-telegram/bot", "github.com/rs/zerolog",
}

// CheckImports fails t when a non-test package under pattern (e.g. "github.com/kozyr-bot/kozyr/games/...")
// imports anything forbidden or a network package. It shells out to `go list`, which tests may do.
func CheckImports(t *testing.T, pattern string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, pattern).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", pattern, err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if strings.HasSuffix(pkg, "/gametest") {
			continue // the suite itself runs go list; it is test support, not an engine
		}
		checked++
		for _, imp := range strings.Fields(imports) {
			if bad(imp) {
				t.Errorf("%s imports %s, which an engine must not", pkg, imp)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("go list %s listed no packages", pattern)
	}
}

func bad(imp string) bool {
	for _, f := range forbidden {
		if imp == f {
			return true
		}
	}
	return strings.HasPrefix(imp, "net/") || strings.HasPrefix(imp, "github.com/go-telegram/") ||
		strings.HasPrefix(imp, "go.etcd.io/") || strings.HasPrefix(imp, "github.com/rs/")
}
