// Command kozyr runs the kozyr Telegram bot: card games in group chats, hands in private chats.
//
// Configuration comes from the environment; flags of the same meaning override it:
//
//	TELEGRAM_BOT_TOKEN   the bot's token from @BotFather (required; never a flag, never logged)
//	KOZYR_DB             -db            bbolt file (default kozyr.db)
//	KOZYR_API_URL        -api-url       Bot API server (default Telegram's)
//	KOZYR_LOG_LEVEL      -log-level     debug, info, warn, error (default info)
//	KOZYR_TURN_TIMEOUT   -turn-timeout  a player's time per turn before the agent plays (default 120s; 0 = none)
//	KOZYR_AI_DELAY       -ai-delay      how long computer players wait before they move (default 1.5s)
//	KOZYR_RATE_SCALE     -rate-scale    divides the bot's own rate windows (tests against a fake; default 1)
//	KOZYR_ARCHIVE_KEEP   -archive-keep  finished matches kept per chat (default 100)
//	KOZYR_WEBHOOK_URL    -webhook-url   take updates by webhook at this public address instead of polling
//	KOZYR_LISTEN         -listen        the webhook server's local address (default :8443)
//	KOZYR_WEBHOOK_SECRET                the webhook's secret_token (never a flag, never logged)
//
// SIGINT or SIGTERM stops polling, lets the updates in flight finish, flushes the outbox and
// closes the database.
//
// Two subcommands check finished matches instead of running the bot (see README):
//
//	kozyr verify FILE | -game G -seed S [-rules V] [-players N] [-opt k=v ...] [-commit C] [-deals N]
//	kozyr replay FILE
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot"
	"github.com/kozyr-bot/kozyr/games/all"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

func main() {
	if len(os.Args) > 1 {
		if sub, ok := subcommands[os.Args[1]]; ok {
			os.Exit(sub(os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "kozyr:", err)
		os.Exit(1)
	}
}

// config is the bot's settings after environment and flags.
type config struct {
	token, db, apiURL, level string
	turnTimeout, aiDelay     time.Duration
	rateScale                float64
	archiveKeep              int
	webhookURL, listen       string
	webhookSecret            string
}

// parse reads the environment, then the flags that override it.
func parse(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	c := config{token: getenv("TELEGRAM_BOT_TOKEN"), db: "kozyr.db", level: "info",
		turnTimeout: 120 * time.Second, aiDelay: 1500 * time.Millisecond, rateScale: 1,
		archiveKeep: store.DefaultArchiveKeep, listen: ":8443",
		webhookURL: getenv("KOZYR_WEBHOOK_URL"), webhookSecret: getenv("KOZYR_WEBHOOK_SECRET")}
	if v := getenv("KOZYR_LISTEN"); v != "" {
		c.listen = v
	}
	if v := getenv("KOZYR_DB"); v != "" {
		c.db = v
	}
	c.apiURL = getenv("KOZYR_API_URL")
	if v := getenv("KOZYR_LOG_LEVEL"); v != "" {
		c.level = v
	}
	var err error
	if c.turnTimeout, err = envDuration(getenv, "KOZYR_TURN_TIMEOUT", c.turnTimeout); err != nil {
		return c, err
	}
	if c.aiDelay, err = envDuration(getenv, "KOZYR_AI_DELAY", c.aiDelay); err != nil {
		return c, err
	}
	if v := getenv("KOZYR_RATE_SCALE"); v != "" {
		if c.rateScale, err = strconv.ParseFloat(v, 64); err != nil || c.rateScale <= 0 {
			return c, fmt.Errorf("KOZYR_RATE_SCALE=%q: want a positive number", v)
		}
	}
	if v := getenv("KOZYR_ARCHIVE_KEEP"); v != "" {
		if c.archiveKeep, err = strconv.Atoi(v); err != nil || c.archiveKeep <= 0 {
			return c, fmt.Errorf("KOZYR_ARCHIVE_KEEP=%q: want a positive number", v)
		}
	}

	fs := flag.NewFlagSet("kozyr", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.db, "db", c.db, "bbolt database file (KOZYR_DB)")
	fs.StringVar(&c.apiURL, "api-url", c.apiURL, "Bot API server URL, empty for Telegram's (KOZYR_API_URL)")
	fs.StringVar(&c.level, "log-level", c.level, "log level: debug, info, warn, error (KOZYR_LOG_LEVEL)")
	fs.DurationVar(&c.turnTimeout, "turn-timeout", c.turnTimeout, "time per turn before the agent plays, 0 for none (KOZYR_TURN_TIMEOUT)")
	fs.DurationVar(&c.aiDelay, "ai-delay", c.aiDelay, "computer players' delay before a move (KOZYR_AI_DELAY)")
	fs.Float64Var(&c.rateScale, "rate-scale", c.rateScale, "divides the bot's own rate windows, for tests (KOZYR_RATE_SCALE)")
	fs.IntVar(&c.archiveKeep, "archive-keep", c.archiveKeep, "finished matches kept per chat (KOZYR_ARCHIVE_KEEP)")
	fs.StringVar(&c.webhookURL, "webhook-url", c.webhookURL, "public https address for a webhook; empty to poll (KOZYR_WEBHOOK_URL)")
	fs.StringVar(&c.listen, "listen", c.listen, "local address of the webhook server (KOZYR_LISTEN)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	case c.token == "":
		return c, errors.New("TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and export it")
	case c.rateScale <= 0:
		return c, errors.New("-rate-scale must be positive")
	case c.turnTimeout < 0 || c.aiDelay < 0:
		return c, errors.New("durations must not be negative")
	case c.archiveKeep <= 0:
		return c, errors.New("-archive-keep must be positive")
	case c.webhookURL != "" && !strings.HasPrefix(c.webhookURL, "https://") && !strings.HasPrefix(c.webhookURL, "http://"):
		return c, fmt.Errorf("KOZYR_WEBHOOK_URL=%q: want an https:// (or, behind a proxy, http://) address", c.webhookURL)
	case c.webhookURL != "" && !validSecret(c.webhookSecret):
		return c, errors.New("KOZYR_WEBHOOK_SECRET: a webhook needs a secret of 1–256 characters A–Z, a–z, 0–9, _ and -")
	}
	return c, nil
}

// validSecret reports whether s is a secret_token Telegram accepts.
func validSecret(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func envDuration(getenv func(string) string, key string, def time.Duration) (time.Duration, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q: want a duration such as 90s or 1.5s", key, v)
	}
	return d, nil
}

// run starts the bot and blocks until ctx is done, then shuts it down cleanly. Logs (zerolog
// JSON) go to stderr; the token never appears in them.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	c, err := parse(args, getenv, stderr)
	if err != nil {
		return err
	}
	level, err := zerolog.ParseLevel(c.level)
	if err != nil {
		return fmt.Errorf("log level %q: %w", c.level, err)
	}
	log := zerolog.New(stderr).Level(level).With().Timestamp().Logger()
	if _, set := os.LookupEnv("GOGC"); !set {
		// The bot's live heap is a few MB and every update and call makes garbage: at Go's
		// default the collector would run every few MB allocated and take a sixth of the CPU.
		debug.SetGCPercent(400)
	}

	st, err := store.Open(c.db, store.WithArchiveKeep(c.archiveKeep))
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error().Err(err).Msg("close database")
		}
	}()
	stopStats := logStatsOnSignal(log, st) // before the first API call, which a load test waits for
	defer stopStats()
	loc, err := locales.Load()
	if err != nil {
		return err
	}
	b, err := bot.New(ctx, bot.Config{
		Token:         c.token,
		APIURL:        c.apiURL,
		Store:         st,
		Games:         all.Rules(),
		Locales:       loc,
		Log:           log,
		TurnTimeout:   c.turnTimeout,
		AIDelay:       c.aiDelay,
		RateScale:     c.rateScale,
		WebhookURL:    c.webhookURL,
		Listen:        c.listen,
		WebhookSecret: c.webhookSecret,
		Level:         search.DefaultLevel,
	})
	if err != nil {
		return err
	}
	log.Info().Str("bot", b.Username()).Str("db", c.db).Int("games", len(all.Rules())).Msg("kozyr started")
	err = b.Run(ctx)
	logStats(log, st)
	log.Info().Msg("kozyr stopped")
	return err
}

// logStatsOnSignal logs the store's totals and the heap whenever the process gets SIGUSR1, so an
// operator (or a load test) can read them from outside.
func logStatsOnSignal(log zerolog.Logger, st *store.BoltStore) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				logStats(log, st)
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// logStats logs one "stats" line: commits (fsyncs), bytes put, bytes the commits wrote, and the
// live heap (after two collections, so it counts only what is still in use: the first moves the
// buffers pooled for reuse to the pools' victim caches, the second frees them, as two of the
// runtime's own collections would).
func logStats(log zerolog.Logger, st *store.BoltStore) {
	s := st.Stats()
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	log.WithLevel(zerolog.NoLevel).Int64("commits", s.Commits).Int64("put_bytes", s.Put).Int64("disk_bytes", s.Disk).
		Uint64("heap_bytes", ms.HeapAlloc).Msg("stats")
}
