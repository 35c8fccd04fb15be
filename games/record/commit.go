package record

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
)

// CommitLen is the length of a commitment: the first 16 hex digits (64 bits) of the SHA-256.
const CommitLen = 16

// commitTag opens every commitment line and names its version: a change to the line is a new tag.
const commitTag = "kozyr-deal/1"

// CommitLine is the text a table's commitment hashes, one line without a newline: the tag
// "kozyr-deal/1", then game=, rules=, players= and seed= (16 lower-case hex digits), then every
// option of the game as key=value, sorted by key, each at the table's value or its default, all
// separated by single spaces:
//
//	kozyr-deal/1 game=wizard rules=2 players=3 seed=00000000000004d2 bids_cannot_match=off hidden_bids=off short_game=3
func CommitLine(game string, rules int, cfg games.Config, opts []games.Option, seed uint64) string {
	parts := []string{commitTag, "game=" + game, "rules=" + strconv.Itoa(rules),
		"players=" + strconv.Itoa(cfg.Players), "seed=" + Seed(seed).String()}
	all := Options(cfg, opts)
	for _, k := range slices.Sorted(maps.Keys(all)) {
		parts = append(parts, k+"="+all[k])
	}
	return strings.Join(parts, " ")
}

// Commit is the commitment to a table's seed that the table shows from the first deal on: the
// first CommitLen hex digits of the SHA-256 of CommitLine. Once the seed is revealed anyone can
// recompute it (printf '%s' LINE | sha256sum | cut -c1-16) and see that the deals were fixed
// before the match began.
func Commit(game string, rules int, cfg games.Config, opts []games.Option, seed uint64) string {
	sum := sha256.Sum256([]byte(CommitLine(game, rules, cfg, opts, seed)))
	return hex.EncodeToString(sum[:])[:CommitLen]
}

// Options is every option of a game at cfg's value, its default where cfg sets none, plus any
// key cfg sets that the game does not know (which its rules then refuse).
func Options(cfg games.Config, opts []games.Option) map[string]string {
	out := maps.Clone(cfg.Options)
	if out == nil {
		out = map[string]string{}
	}
	for _, o := range opts {
		out[o.Key] = cfg.Get(opts, o.Key)
	}
	return out
}
