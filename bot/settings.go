package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/store"
)

// A group's settings (/settings) are the defaults its new tables start from: its language, each
// game's options, the turn timeout, the computer players' pause and level. They are kept with
// the chat's record under a version that every change (and /lang) moves on, so a button of a
// settings message drawn before a change is stale. Only the chat's administrators may change
// them; an anonymous administrator posts as the group itself.

// anonymousAdmin reports whether m was posted as its own group (sender_chat is the chat), which
// Telegram allows its anonymous administrators only.
func anonymousAdmin(m *models.Message) bool {
	return m.SenderChat != nil && m.SenderChat.ID == m.Chat.ID && m.Chat.Type != models.ChatTypePrivate
}

// isAdmin reports whether user owns or administers chat, as Telegram says (getChatMember); it is
// asked before any transaction.
func (b *Bot) isAdmin(ctx context.Context, chat, user int64) bool {
	m, err := b.api.GetChatMember(ctx, &tg.GetChatMemberParams{ChatID: chat, UserID: user})
	if err != nil {
		b.log.Warn().Int64("chat", chat).Str("err", b.clean(err)).Msg("getChatMember")
		return false
	}
	return m.Type == models.ChatMemberTypeOwner || m.Type == models.ChatMemberTypeAdministrator
}

// onAnonymous runs a command an anonymous administrator posted as the group: those that need no
// person (settings, begin, cancel and the informational ones) run as an administrator's; those
// that seat or answer a person are refused with one line.
func (b *Bot) onAnonymous(ctx context.Context, upd int64, m *models.Message, cmd command) error {
	switch cmd.Name {
	case "settings":
		return b.cmdSettings(ctx, upd, m, cmd.Args)
	case "begin", "cancel", "score", "rules", "lang", "help", "start":
		return b.onGroup(ctx, upd, m, cmd)
	case "new", "join", "leave", "addai", "hand", "stats":
		return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
			lang, err := b.groupLangTx(tx, m.Chat.ID, nil)
			if err != nil {
				return err
			}
			return fx.reply(tx, placeOf(m), render.Content{Text: b.render.Text(lang, "bot.settings.anonymous"), ReplyTo: m.ID})
		})
	}
	return nil
}

// defaults are the bot's own choices, shown where a group chose nothing.
func (b *Bot) defaults() render.Defaults {
	return render.Defaults{TurnTimeout: b.cfg.TurnTimeout, AIDelay: b.cfg.AIDelay, Level: b.cfg.Level}
}

// cmdSettings answers /settings in a group: alone, the settings message with a button per
// setting; with key=value arguments, it sets all of them, or nothing when one is wrong (that one
// is named, with what it could be).
func (b *Bot) cmdSettings(ctx context.Context, upd int64, m *models.Message, args string) error {
	place := placeOf(m)
	admin := anonymousAdmin(m) || (m.From != nil && b.isAdmin(ctx, place.Chat, m.From.ID))
	return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		lang, err := b.groupLangTx(tx, place.Chat, m.From)
		if err != nil {
			return err
		}
		say := func(c render.Content) error {
			c.ReplyTo = m.ID
			return fx.reply(tx, place, c)
		}
		if !admin {
			return say(render.Content{Text: b.render.Text(lang, "bot.settings.denied")})
		}
		c, err := tx.Chat(place.Chat) // a group the bot has not written to yet has no record
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if args == "" {
			return say(b.render.Settings(lang, c, b.defaults(), ""))
		}
		given, bad := b.groupScope(lang).parse(args)
		if bad != nil {
			return say(render.Content{Text: bad.text(b.render, lang)})
		}
		for _, a := range given {
			setGroup(&c, a, b.rules)
		}
		if err := b.putSettings(tx, fx, &c, lang); err != nil {
			return err
		}
		saved := b.render.Settings(c.Lang, c, b.defaults(), "")
		saved.Text = b.render.Text(c.Lang, "bot.settings.saved") + "\n" + saved.Text
		return say(saved)
	})
}

// putSettings stores a group's changed settings under their next version; when the group's
// language changed (it was before), the messages of its open tables follow.
func (b *Bot) putSettings(tx store.Tx, fx *effects, c *store.Chat, before string) error {
	c.Settings.Version++
	if err := tx.PutChat(*c); err != nil {
		return err
	}
	if c.Lang == before {
		return nil
	}
	all, err := tx.Tables()
	if err != nil {
		return err
	}
	for _, rec := range all {
		if rec.Place.Chat != c.ID || rec.Ending() {
			continue
		}
		if snap := b.snapOf(tx, rec); snap != nil {
			again := *snap
			again.Lang = c.Lang
			fx.snaps = append(fx.snaps, &again)
		}
	}
	return nil
}

// onSettings handles a button of the settings message. In the order of every press: forged data
// → the presser is an administrator of the chat → the button is of the settings' current
// version; each failure is answered and changes nothing. A page button redraws the message; a
// setting's button moves it to its next value and redraws the message at the new version.
func (b *Bot) onSettings(ctx context.Context, upd int64, q *models.CallbackQuery) error {
	d, err := callback.ParseSettings(q.Data)
	m := q.Message.Message
	_, game := b.rules[d.Arg]
	if err != nil || m == nil || m.Chat.Type == models.ChatTypePrivate || (d.Op == callback.SetPage && d.Arg != "" && !game) {
		b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "")
		return nil
	}
	admin := b.isAdmin(ctx, m.Chat.ID, q.From.ID)
	var answer string
	err = b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		lang := b.userLangTx(tx, &q.From)
		if !admin {
			answer = b.render.Text(lang, "bot.settings.denied")
			return errUnchanged
		}
		c, err := tx.Chat(m.Chat.ID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if d.Version != c.Settings.Version {
			answer = b.render.Text(lang, "bot.settings.stale")
			return errUnchanged
		}
		page := d.Arg
		if d.Op == callback.SetCycle {
			a, ok := b.nextSetting(c, d.Arg)
			if !ok {
				answer = b.render.Text(lang, "bot.cb.forged")
				return errUnchanged
			}
			before := b.chatLangTx(tx, c.ID)
			c.Lang = before
			setGroup(&c, a, b.rules)
			if err := b.putSettings(tx, fx, &c, before); err != nil {
				return err
			}
			page, _, _ = strings.Cut(d.Arg, ".")
			if _, ok := b.rules[page]; !ok {
				page = ""
			}
			answer = b.render.Text(lang, "bot.settings.saved")
		}
		return fx.edit(tx, m.Chat.ID, m.ID, b.render.Settings(b.loc.Match(c.Lang), c, b.defaults(), page))
	})
	switch {
	case errors.Is(err, errUnchanged):
		b.refuse(ctx, upd, q, answer, "")
		return nil
	case err == nil:
		b.answer(ctx, q.ID, answer, "", false)
	}
	return err
}

// The values the buttons of the timing settings step through, after the bot's default; a
// duration typed in /settings that is not among them steps to the next one above it.
var (
	timeoutSteps = []time.Duration{0, 30 * time.Second, time.Minute, 90 * time.Second, 2 * time.Minute,
		5 * time.Minute, 10 * time.Minute, time.Hour}
	delaySteps = []time.Duration{0, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond,
		2 * time.Second, 3 * time.Second, 5 * time.Second, maxDelay}
)

// nextSetting is the value after the current one of setting key in c, as a /settings argument;
// false for a key the bot does not know.
func (b *Bot) nextSetting(c store.Chat, key string) (assigned, bool) {
	next := func(values []string, cur string) assigned {
		return assigned{key, values[(slices.Index(values, cur)+1)%len(values)]}
	}
	s := c.Settings
	switch key {
	case render.SetLang:
		return next(b.loc.Langs(), b.loc.Match(c.Lang)), true
	case render.SetLevel:
		values := []string{render.ValueDefault}
		for _, l := range search.Levels() {
			values = append(values, l.String())
		}
		cur := s.Level
		if cur == "" {
			cur = render.ValueDefault
		}
		return next(values, cur), true
	case render.SetTimeout:
		return assigned{key, nextStep(s.TurnTimeout, timeoutSteps)}, true
	case render.SetDelay:
		return assigned{key, nextStep(s.AIDelay, delaySteps)}, true
	}
	game, opt, _ := strings.Cut(key, ".")
	r, ok := b.rules[game]
	if !ok {
		return assigned{}, false
	}
	for _, o := range r.Options() {
		if o.Key == opt && len(o.Values) > 0 {
			cur := o.Default
			if v, ok := s.Options[game][opt]; ok {
				cur = v
			}
			return next(o.Values, cur), true
		}
	}
	return assigned{}, false
}

// nextStep is the timing value after cur: the first step above it, after the last one the bot's
// default, after that the first step.
func nextStep(cur *time.Duration, steps []time.Duration) string {
	if cur == nil {
		return steps[0].String()
	}
	for _, d := range steps {
		if d > *cur {
			return d.String()
		}
	}
	return render.ValueDefault
}

// edit records, in the transaction, that message msg of chat must show c (the settings message
// after a press); like a reply it goes out once the transaction has committed.
func (fx *effects) edit(tx store.Tx, chat int64, msg int, c render.Content) error {
	r, err := putRow(tx, fx.upd, len(fx.rows), rowBody{Chat: chat, Edit: msg, Content: &c})
	if err != nil {
		return err
	}
	fx.rows = append(fx.rows, r)
	return nil
}
