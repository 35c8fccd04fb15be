package games

import (
	"fmt"
	"maps"
	"slices"
)

// Option is one table variant the lobby can set. Its label is the locale message
// "<game>.opt.<Key>" and each value's "<game>.opt.<Key>.<value>".
type Option struct {
	Key     string
	Values  []string
	Default string
}

// Config is what a table was opened with. It is persisted, so it holds plain data only.
type Config struct {
	Players int
	Options map[string]string // Option.Key -> value; a missing key means its default
}

// Get returns the value of key in cfg, or the option's default.
func (c Config) Get(opts []Option, key string) string {
	if v, ok := c.Options[key]; ok {
		return v
	}
	for _, o := range opts {
		if o.Key == key {
			return o.Default
		}
	}
	return ""
}

// Validate checks the player count against r.Seats and every option value against r.Options; New
// calls it first and wraps ErrBadConfig.
func Validate(r Rules, cfg Config) error {
	lo, hi := r.Seats()
	if cfg.Players < lo || cfg.Players > hi {
		return fmt.Errorf("%w: %s takes %d–%d players, not %d", ErrBadConfig, r.Name(), lo, hi, cfg.Players)
	}
	opts := r.Options()
	for _, k := range slices.Sorted(maps.Keys(cfg.Options)) {
		i := slices.IndexFunc(opts, func(o Option) bool { return o.Key == k })
		if i < 0 {
			return fmt.Errorf("%w: %s has no option %q", ErrBadConfig, r.Name(), k)
		}
		if !slices.Contains(opts[i].Values, cfg.Options[k]) {
			return fmt.Errorf("%w: %s option %q has no value %q", ErrBadConfig, r.Name(), k, cfg.Options[k])
		}
	}
	return nil
}
