package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/bot/schedule"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// Config is everything the bot needs; cmd/kozyr fills it from the environment.
type Config struct {
	Token   string
	APIURL  string // "" = Telegram's
	Store   store.Store
	Games   []games.Rules
	Locales *locales.Bundle
	Log     zerolog.Logger
	// TurnTimeout is how long a player may think before the agent plays for them; 0 disables it.
	// A group's /settings may choose its own for the tables it opens.
	TurnTimeout time.Duration
	// AIDelay is how long an agent (an AI seat, or one standing in for an away player) waits,
	// unless the table's group chose its own.
	AIDelay time.Duration
	// RateScale divides the outbox's rate windows (tests against a scaled fake); 0 means 1.
	RateScale float64
	// GroupPause is how long a table's group message waits for more moves before it is edited,
	// so a quick run of moves costs one edit of the group's 20 a minute; 0 means
	// DefaultGroupPause, a negative value none.
	GroupPause time.Duration
	// HandPause is how long the hand message of a player who is not to act waits before it is
	// edited: when their next turn comes sooner, its fresh prompt replaces the edit (one call
	// instead of two) and the old prompt is deleted; 0 means DefaultHandPause, negative none.
	HandPause time.Duration
	// WebhookURL switches from polling to a webhook: the public address Telegram posts updates
	// to. Listen is the local address the webhook server listens on (":8443"), WebhookSecret the
	// secret_token Telegram sends back in every request.
	WebhookURL    string
	Listen        string
	WebhookSecret string
	// Level is how well computer players play at a table that chose no level.
	Level search.Level
	// HTTPClient replaces the client of every Bot API call (tests, fault injection).
	HTTPClient HTTPDoer
}

// HTTPDoer is the client the bot makes its Bot API calls with.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// Defaults of Config.GroupPause and Config.HandPause. A second's pause keeps the table message
// close behind the play (the players act from their DMs) while a quick round of moves costs one
// edit: a group's 20 messages a minute allow no more than one every three seconds anyway.
const (
	DefaultGroupPause = time.Second
	DefaultHandPause  = 1500 * time.Millisecond
)

// pollTimeout is the long-poll window of getUpdates; the HTTP client allows a little more.
const pollTimeout = 30 * time.Second

// shutdownGrace bounds how long Run waits for in-flight updates and the outbox after ctx is done.
const shutdownGrace = 20 * time.Second

// Bot is one running kozyr bot: a Telegram client, the store, the outbox and the turn timers.
type Bot struct {
	cfg    Config
	log    zerolog.Logger
	api    *tg.Bot
	httpc  HTTPDoer
	base   string // the Bot API server, without a trailing slash
	me     string // the bot's username, for /cmd@me and deep links
	rules  map[string]games.Rules
	loc    *locales.Bundle
	render *render.Renderer
	st     store.Store
	out    *outbox.Outbox
	queue  *serializer
	intake *tracker
	sched  *schedule.Timers[store.TableID]
	books  *books

	mu     sync.Mutex
	tables map[store.TableID]*tableMem
	bodies sync.Pool // the buffers of the hot calls' requests and answers
	// thinking bounds the computer players searching at once, so they leave a core to the presses
	// of every other table.
	thinking chan struct{}

	// work is the context of handlers, jobs and timers: it outlives the polling context so work
	// in flight finishes after a shutdown signal, and ends when Run returns.
	work context.Context
	stop context.CancelFunc
	now  func() time.Time
}

// New connects to the Bot API (getMe, for the username the commands and deep links need) and
// registers the command menus per language (setMyCommands). It does not take updates yet: see Run.
func New(ctx context.Context, cfg Config) (*Bot, error) {
	switch {
	case strings.TrimSpace(cfg.Token) == "":
		return nil, errors.New("bot: no token")
	case cfg.Store == nil:
		return nil, errors.New("bot: no store")
	case cfg.Locales == nil:
		return nil, errors.New("bot: no locales")
	case len(cfg.Games) == 0:
		return nil, errors.New("bot: no games")
	case cfg.WebhookURL != "" && cfg.Listen == "":
		return nil, errors.New("bot: a webhook needs an address to listen on")
	}
	if cfg.WebhookURL != "" {
		u, err := url.Parse(cfg.WebhookURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("bot: webhook URL %q is not an http(s) address", cfg.WebhookURL)
		}
	}
	if cfg.RateScale <= 0 {
		cfg.RateScale = 1
	}
	switch {
	case cfg.GroupPause == 0:
		cfg.GroupPause = DefaultGroupPause
	case cfg.GroupPause < 0:
		cfg.GroupPause = 0
	}
	switch {
	case cfg.HandPause == 0:
		cfg.HandPause = DefaultHandPause
	case cfg.HandPause < 0:
		cfg.HandPause = 0
	}
	work, stop := context.WithCancel(context.Background())
	b := &Bot{
		cfg:    cfg,
		log:    cfg.Log,
		rules:  map[string]games.Rules{},
		loc:    cfg.Locales,
		st:     cfg.Store,
		tables: map[store.TableID]*tableMem{},
		work:   work,
		stop:   stop,
		now:    func() time.Time { return time.Now().UTC().Round(0) },
		base:   "https://api.telegram.org",
	}
	for _, r := range cfg.Games {
		b.rules[r.Name()] = r
	}
	if cfg.APIURL != "" {
		b.base = strings.TrimRight(cfg.APIURL, "/")
	}
	b.queue = newSerializer(b.log)
	b.intake = newTracker()
	b.sched = schedule.New(b.fire)
	b.books = newBooks()
	lim := outbox.DefaultLimits()
	lim.Scale = cfg.RateScale
	b.out = outbox.New(lim, b.log)

	b.httpc = cfg.HTTPClient
	if b.httpc == nil {
		b.httpc = sizedBodies{newHTTPClient()}
	}
	opts := []tg.Option{
		tg.WithSkipGetMe(),
		tg.WithHTTPClient(pollTimeout, b.httpc),
		tg.WithServerURL(b.base),
		tg.WithErrorsHandler(func(err error) { b.log.Warn().Str("err", b.clean(err)).Msg("telegram client") }),
	}
	var err error
	b.api, err = tg.New(cfg.Token, opts...)
	if err != nil {
		stop()
		return nil, fmt.Errorf("bot: %s", b.clean(err))
	}
	me, err := b.api.GetMe(ctx)
	if err != nil {
		stop()
		return nil, fmt.Errorf("bot: getMe: %s", b.clean(err))
	}
	b.me = me.Username
	b.render = render.New(cfg.Locales, cfg.Games, b.me, b.log)
	b.render.Level = cfg.Level
	b.thinking = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))
	b.setCommands(ctx)
	return b, nil
}

// IdleConnTimeout is how long a kept-alive connection to the Bot API may stay unused. The pool
// hands out the connection used last, so a busy bot keeps reusing its warm ones, and the ones a
// burst opened close this long after it instead of holding their buffers (8 KiB each) for good.
const IdleConnTimeout = 15 * time.Second

// newHTTPClient is a client sized for the bot's concurrency: the outbox may have a call in
// flight for every chat, so idle connections to the one Bot API host are kept for all of them
// (up to maxIdleConns: with 200 busy tables fewer than 1 call in 200 opens a connection) and
// calls reuse kept-alive connections instead of opening new ones.
func newHTTPClient() *http.Client {
	const maxIdleConns = 1024
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = maxIdleConns
	t.MaxIdleConnsPerHost = maxIdleConns
	t.IdleConnTimeout = IdleConnTimeout
	return &http.Client{Timeout: pollTimeout + 15*time.Second, Transport: t}
}

// sizedBodies sends each request with its whole body at once. go-telegram/bot streams its
// multipart bodies through a pipe, which the transport would send chunked, a few bytes a write;
// read first and sent with its length, a call costs one write.
type sizedBodies struct{ c HTTPDoer }

func (s sizedBodies) Do(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.ContentLength <= 0 {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		req.ContentLength = int64(len(body))
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	return s.c.Do(req)
}

// Username is the bot's Telegram username (for deep links).
func (b *Bot) Username() string { return b.me }

// Run takes updates until ctx is done — by long polling, or from Telegram's webhook requests when
// a webhook URL is configured — then stops taking them, finishes the work in flight, sends what
// is queued, persists the bookkeeping and returns.
func (b *Bot) Run(ctx context.Context) error {
	defer b.stop()
	outCtx, stopOut := context.WithCancel(b.work)
	defer stopOut()
	var outDone sync.WaitGroup
	outDone.Go(func() { b.out.Run(outCtx) })

	bgCtx, stopBg := context.WithCancel(b.work)
	var bg sync.WaitGroup
	bg.Go(func() { b.sched.Run(bgCtx) })
	bg.Go(func() { b.flushLoop(bgCtx) })

	if err := b.resume(ctx); err != nil {
		b.log.Error().Err(err).Msg("resume tables")
	}
	if err := b.resumeKept(ctx); err != nil {
		b.log.Error().Err(err).Msg("resume kept updates")
	}
	var err error
	if b.cfg.WebhookURL != "" {
		err = b.serveWebhook(ctx)
	} else {
		err = b.poll(ctx)
	}
	b.log.Info().Msg("stopping")

	stopBg()
	bg.Wait()
	grace, cancel := context.WithTimeout(b.work, shutdownGrace)
	defer cancel()
	if werr := b.queue.Wait(grace); werr != nil {
		b.log.Warn().Err(werr).Msg("updates still running at shutdown")
	}
	if ferr := b.out.Flush(grace); ferr != nil {
		b.log.Warn().Err(ferr).Msg("outbox not flushed at shutdown")
	}
	stopOut()
	outDone.Wait()
	b.flushBooks(grace, true)
	b.keep(grace)
	if b.cfg.WebhookURL == "" {
		b.confirm(grace)
	}
	return err
}

// handle runs one update: a message, a button press or a change of the bot's membership. It runs
// in the update's queue (one at a time per table) and reports whether the update's effect is
// durable, so the update may be confirmed to Telegram.
func (b *Bot) handle(ctx context.Context, u *models.Update) error {
	switch {
	case u.Message != nil:
		return b.onMessage(ctx, u.ID, u.Message)
	case u.CallbackQuery != nil:
		return b.onCallback(ctx, u.ID, u.CallbackQuery)
	case u.MyChatMember != nil:
		return b.onMyChatMember(ctx, u.ID, u.MyChatMember)
	}
	return nil
}

// commandMenus lists the commands shown in groups and in DMs, in menu order; each has the
// description "bot.cmd.<name>".
func commandMenus() (group, private []string) {
	return []string{"new", "join", "leave", "addai", "begin", "cancel", "score", "hand", "rules", "record", "lang", "settings", "stats", "top", "help"},
		[]string{"start", "hand", "score", "rules", "record", "lang", "stats", "help"}
}

// setCommands registers the command menus: group and private lists, per language and default.
func (b *Bot) setCommands(ctx context.Context) {
	group, private := commandMenus()
	list := func(lang string, names []string) []models.BotCommand {
		out := make([]models.BotCommand, 0, len(names))
		for _, n := range names {
			out = append(out, models.BotCommand{Command: n, Description: render.Truncate(locales.Plain(b.render.Text(lang, "bot.cmd."+n)), 256)})
		}
		return out
	}
	langs := append([]string{""}, b.loc.Langs()...)
	for _, lang := range langs {
		shown := lang
		if shown == "" {
			shown = b.loc.Match("")
		}
		for _, set := range []struct {
			scope models.BotCommandScope
			names []string
		}{{&models.BotCommandScopeAllGroupChats{}, group}, {&models.BotCommandScopeAllPrivateChats{}, private}} {
			_, err := b.api.SetMyCommands(ctx, &tg.SetMyCommandsParams{Commands: list(shown, set.names), Scope: set.scope, LanguageCode: lang})
			if err != nil {
				b.log.Warn().Str("lang", lang).Str("err", b.clean(err)).Msg("setMyCommands")
			}
		}
	}
}
