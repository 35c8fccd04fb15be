package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
	"github.com/rs/zerolog"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/games"
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
	TurnTimeout time.Duration
	// AIDelay is how long an agent (an AI seat, or one standing in for an away player) waits.
	AIDelay time.Duration
	// RateScale divides the outbox's rate windows (tests against a scaled fake); 0 means 1.
	RateScale  float64
	HTTPClient tg.HttpClient // optional (tests, fault injection)
}

// pollTimeout is the long-poll window of getUpdates; the HTTP client allows a little more.
const pollTimeout = 30 * time.Second

// shutdownGrace bounds how long Run waits for in-flight updates and the outbox after ctx is done.
const shutdownGrace = 20 * time.Second

// Bot is one running kozyr bot: a Telegram client, the store, the outbox and the turn timers.
type Bot struct {
	cfg    Config
	log    zerolog.Logger
	api    *tg.Bot
	me     string // the bot's username, for /cmd@me and deep links
	rules  map[string]games.Rules
	loc    *locales.Bundle
	st     store.Store
	out    *outbox.Outbox
	serial *serializer
	offs   *offsets
	memo   *memo
	sched  *scheduler
	// work is the context of handlers and timers: it outlives the polling context so in-flight
	// work finishes after a shutdown signal, and ends when Run returns.
	work context.Context
	stop context.CancelFunc
	now  func() time.Time
}

// New connects to the Bot API (getMe, for the username the commands and deep links need) and
// registers the command menus per language (setMyCommands). It does not poll yet: see Run.
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
	}
	if cfg.RateScale <= 0 {
		cfg.RateScale = 1
	}
	work, stop := context.WithCancel(context.Background())
	b := &Bot{
		cfg:   cfg,
		log:   cfg.Log,
		rules: map[string]games.Rules{},
		loc:   cfg.Locales,
		st:    cfg.Store,
		memo:  newMemo(),
		work:  work,
		stop:  stop,
		now:   func() time.Time { return time.Now().UTC().Round(0) },
	}
	for _, r := range cfg.Games {
		b.rules[r.Name()] = r
	}
	b.serial = newSerializer(b.log)
	b.sched = newScheduler(b.fire)
	lim := outbox.DefaultLimits()
	lim.Scale = cfg.RateScale
	b.out = outbox.New(lim, b.log)

	offset, err := cfg.Store.Offset(ctx)
	if err != nil {
		stop()
		return nil, fmt.Errorf("bot: read update offset: %w", err)
	}
	b.offs = newOffsets(offset)

	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: pollTimeout + 15*time.Second}
	}
	opts := []tg.Option{
		tg.WithSkipGetMe(),
		tg.WithHTTPClient(pollTimeout, client),
		// One worker hands updates over in order; serial.go runs them per table.
		tg.WithNotAsyncHandlers(),
		tg.WithWorkers(1),
		// Unbuffered: an update leaves the poller only when the worker takes it, so a shutdown
		// never drops an update whose batch getUpdates has already confirmed.
		tg.WithUpdatesChannelCap(0),
		tg.WithInitialOffset(offset),
		tg.WithDefaultHandler(b.receive),
		tg.WithErrorsHandler(func(err error) { b.log.Warn().Str("err", b.clean(err)).Msg("telegram client") }),
		tg.WithAllowedUpdates(tg.AllowedUpdates{models.AllowedUpdateMessage, models.AllowedUpdateCallbackQuery, models.AllowedUpdateMyChatMember}),
	}
	if cfg.APIURL != "" {
		opts = append(opts, tg.WithServerURL(strings.TrimRight(cfg.APIURL, "/")))
	}
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
	b.setCommands(ctx)
	return b, nil
}

// Username is the bot's Telegram username (for deep links).
func (b *Bot) Username() string { return b.me }

// Run polls for updates until ctx is done, then stops polling, finishes the updates in flight,
// flushes the outbox, persists the update offset and returns.
func (b *Bot) Run(ctx context.Context) error {
	defer b.stop()
	outCtx, stopOut := context.WithCancel(b.work)
	defer stopOut()
	var outDone sync.WaitGroup
	outDone.Add(1)
	go func() { defer outDone.Done(); b.out.Run(outCtx) }()

	bgCtx, stopBg := context.WithCancel(b.work)
	var bg sync.WaitGroup
	bg.Add(2)
	go func() { defer bg.Done(); b.sched.run(bgCtx) }()
	go func() { defer bg.Done(); b.saveOffsets(bgCtx) }()

	if err := b.resume(ctx); err != nil {
		b.log.Error().Err(err).Msg("resume tables")
	}
	b.log.Info().Str("bot", b.me).Msg("polling")
	b.api.Start(ctx)
	b.log.Info().Msg("stopping")

	stopBg()
	bg.Wait()
	grace, cancel := context.WithTimeout(b.work, shutdownGrace)
	defer cancel()
	if err := b.serial.Wait(grace); err != nil {
		b.log.Warn().Err(err).Msg("updates still running at shutdown")
	}
	if err := b.out.Flush(grace); err != nil {
		b.log.Warn().Err(err).Msg("outbox not flushed at shutdown")
	}
	stopOut()
	outDone.Wait()
	b.persistOffset(grace)
	return nil
}

// receive is go-telegram/bot's only handler. It runs in the library's single worker, in update
// order, and only queues the update behind its table's earlier work.
func (b *Bot) receive(_ context.Context, _ *tg.Bot, u *models.Update) {
	b.offs.received(u.ID)
	b.serial.Do(b.keyOf(u), func() {
		defer b.offs.finished(u.ID)
		b.handle(b.work, u)
	})
}

// keyOf is the chat whose table an update concerns: presses on DM hand messages and deep links
// carry the group's id, so they queue behind that table's other work.
func (b *Bot) keyOf(u *models.Update) int64 {
	switch {
	case u.Message != nil:
		m := u.Message
		if m.MigrateFromChatID != 0 {
			return m.MigrateFromChatID
		}
		if m.Chat.Type == models.ChatTypePrivate {
			if cmd, ok := parseCommand(m.Text, m.Entities, b.me); ok && cmd.Name == "start" {
				if chat, ok := parsePayload(cmd.Args); ok {
					return chat
				}
			}
		}
		return m.Chat.ID
	case u.CallbackQuery != nil:
		q := u.CallbackQuery
		if d, err := parsePlayData(q.Data); err == nil {
			return d.Chat
		}
		if d, err := parsePageData(q.Data); err == nil {
			return d.Chat
		}
		if q.Message.Message != nil {
			return q.Message.Message.Chat.ID
		}
		return q.From.ID
	case u.MyChatMember != nil:
		return u.MyChatMember.Chat.ID
	}
	return 0
}

func (b *Bot) handle(ctx context.Context, u *models.Update) {
	switch {
	case u.Message != nil:
		b.onMessage(ctx, u.Message)
	case u.CallbackQuery != nil:
		b.onCallback(ctx, u.CallbackQuery)
	case u.MyChatMember != nil:
		b.onMyChatMember(ctx, u.MyChatMember)
	}
}

// saveOffsets persists the finished-update mark whenever it moves, one write at a time.
func (b *Bot) saveOffsets(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.offs.changed:
			b.persistOffset(ctx)
		}
	}
}

func (b *Bot) persistOffset(ctx context.Context) {
	mark := b.offs.Mark()
	if mark <= b.offs.Saved() {
		return
	}
	if err := b.st.SetOffset(ctx, mark); err != nil {
		b.log.Warn().Err(err).Msg("persist update offset")
		return
	}
	b.offs.setSaved(mark)
}

// commandMenus lists the commands shown in groups and in DMs, in menu order; each has the
// description "bot.cmd.<name>".
func commandMenus() (group, private []string) {
	return []string{"new", "join", "leave", "addai", "begin", "cancel", "score", "hand", "rules", "lang", "stats", "help"},
		[]string{"start", "hand", "score", "rules", "lang", "stats", "help"}
}

// setCommands registers the command menus: group and private lists, per language and default.
func (b *Bot) setCommands(ctx context.Context) {
	group, private := commandMenus()
	list := func(lang string, names []string) []models.BotCommand {
		out := make([]models.BotCommand, 0, len(names))
		for _, n := range names {
			out = append(out, models.BotCommand{Command: n, Description: truncateRunes(locales.Plain(b.text(lang, "bot.cmd."+n)), 256)})
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
