package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// onMessage handles a message: a group migration, or a command for this bot.
func (b *Bot) onMessage(ctx context.Context, m *models.Message) {
	switch {
	case m.MigrateToChatID != 0:
		b.migrate(ctx, m.Chat.ID, m.MigrateToChatID)
		return
	case m.MigrateFromChatID != 0:
		b.migrate(ctx, m.MigrateFromChatID, m.Chat.ID)
		return
	case m.From == nil || m.From.IsBot:
		return
	}
	cmd, ok := parseCommand(m.Text, m.Entities, b.me)
	if !ok {
		return
	}
	switch m.Chat.Type {
	case models.ChatTypePrivate:
		b.onPrivate(ctx, m, cmd)
	case models.ChatTypeGroup, models.ChatTypeSupergroup:
		b.onGroup(ctx, m, cmd)
	}
}

// onGroup runs a command sent in a group. Successful lobby commands answer through the lobby
// message itself (edited in place); refusals are replies.
func (b *Bot) onGroup(ctx context.Context, m *models.Message, cmd command) {
	chat, from := m.Chat.ID, m.From
	lang := b.groupLang(ctx, chat, from)
	say := func(c content) {
		c.ReplyTo = m.ID
		b.post(chat, c, nil)
	}
	refused := func(err error) {
		if err != nil {
			say(content{Text: b.outcome(lang, err, "")})
		}
	}
	switch cmd.Name {
	case "new":
		b.cmdNew(ctx, chat, from, lang, cmd.Args, say)
	case "join":
		err := b.join(ctx, chat, from, false)
		if errors.Is(err, errNeedDM) {
			say(b.deepLink(lang, "bot.join.dm", chat, userName(from)))
			return
		}
		refused(err)
	case "leave":
		refused(b.leave(ctx, chat, from.ID))
	case "addai":
		refused(b.addAI(ctx, chat))
	case "begin":
		refused(b.begin(ctx, chat, from.ID))
	case "cancel":
		refused(b.cancel(ctx, chat, from.ID))
	case "score":
		say(b.scoreContent(ctx, chat, lang))
	case "hand":
		b.groupHand(ctx, chat, from, lang, say)
	case "rules":
		say(b.rulesContent(ctx, chat, lang, cmd.Args))
	case "lang":
		say(b.setGroupLang(ctx, chat, lang, cmd.Args))
	case "stats":
		say(b.statsContent(ctx, from.ID, userName(from), lang))
	case "help", "start":
		say(b.helpContent(lang, "bot.help.group"))
	}
}

// onPrivate runs a command sent in a DM.
func (b *Bot) onPrivate(ctx context.Context, m *models.Message, cmd command) {
	from := m.From
	if cmd.Name == "start" {
		b.cmdStart(ctx, from, cmd.Args)
		return
	}
	lang := b.userLang(ctx, from)
	say := func(c content) { b.post(from.ID, c, nil) }
	switch cmd.Name {
	case "hand":
		if n := b.dmHand(ctx, from.ID); n == 0 {
			say(content{Text: b.text(lang, "bot.hand.none")})
		}
	case "score":
		t, ok := b.tableOf(ctx, from.ID)
		if !ok {
			say(content{Text: b.text(lang, "bot.score.none")})
			return
		}
		say(b.scoreContent(ctx, t.Chat, lang))
	case "rules":
		say(b.rulesContent(ctx, 0, lang, cmd.Args))
	case "lang":
		say(b.setUserLang(ctx, from, lang, cmd.Args))
	case "stats":
		say(b.statsContent(ctx, from.ID, userName(from), lang))
	case "help":
		say(b.helpContent(lang, "bot.help.private"))
	case "new", "join", "leave", "addai", "begin", "cancel":
		say(content{Text: b.text(lang, "bot.err.grouponly")})
	default:
		say(content{Text: b.text(lang, "bot.err.unknown")})
	}
}

// cmdNew opens a table: with a game id at once, without one through a picker keyboard.
func (b *Bot) cmdNew(ctx context.Context, chat int64, from *models.User, lang, arg string, say func(content)) {
	if t, err := b.st.Table(ctx, chat); err == nil {
		id := "bot.new.exists"
		if t.Started {
			id = "bot.lobby.started"
		}
		say(content{Text: b.text(lang, id)})
		return
	}
	if arg == "" {
		say(content{Text: b.text(lang, "bot.new.pick"), Rows: b.pickRows(lang)})
		return
	}
	r, ok := b.rules[strings.ToLower(strings.Fields(arg)[0])]
	if !ok {
		say(content{Text: b.text(lang, "bot.new.unknown", "Games", b.gameIDs())})
		return
	}
	err := b.open(ctx, chat, from, r, 0)
	if errors.Is(err, errNeedDM) {
		say(b.deepLink(lang, "bot.join.dm", chat, userName(from)))
		return
	}
	if err != nil {
		say(content{Text: b.outcome(lang, err, "")})
	}
}

func (b *Bot) gameIDs() string {
	ids := make([]string, 0, len(b.cfg.Games))
	for _, r := range b.cfg.Games {
		ids = append(ids, r.Name())
	}
	return strings.Join(ids, ", ")
}

// cmdStart handles /start in a DM: the DM is open from now on; a deep-link payload seats the user
// at that table (or, if already seated, sends their hand again).
func (b *Bot) cmdStart(ctx context.Context, from *models.User, args string) {
	err := b.st.UpdateUser(ctx, from.ID, func(u *store.User) error {
		u.ID, u.Name, u.DMOpen = from.ID, userName(from), true
		return nil
	})
	if err != nil {
		b.log.Error().Err(err).Msg("store user")
	}
	lang := b.userLang(ctx, from)
	say := func(id string, kv ...any) { b.post(from.ID, content{Text: b.text(lang, id, kv...)}, nil) }
	chat, ok := parsePayload(args)
	if !ok {
		if b.dmHand(ctx, from.ID) == 0 {
			say("bot.start.welcome", "Games", b.gameIDs())
		}
		return
	}
	t, err := b.st.Table(ctx, chat)
	if err != nil {
		say("bot.lobby.none")
		return
	}
	if s := seatOf(t, from.ID); s >= 0 {
		b.memo.clearWarn(chat, from.ID)
		if t.Started {
			b.memo.setFresh(chat, from.ID)
			b.syncHandLater(t, s)
			return
		}
		say("bot.join.already")
		return
	}
	if err := b.join(ctx, chat, from, true); err != nil {
		say(b.outcomeID(err))
		return
	}
	say("bot.start.joined", "Game", locales.Plain(b.gameName(lang, t.Game)))
}

// outcomeID is the locale id of a refusal, or the generic error.
func (b *Bot) outcomeID(err error) string {
	var r refusal
	if errors.As(err, &r) {
		return string(r)
	}
	b.log.Error().Err(err).Msg("request failed")
	return "bot.cb.error"
}

// groupHand answers /hand in a group: the user's hand arrives as a fresh DM.
func (b *Bot) groupHand(ctx context.Context, chat int64, from *models.User, lang string, say func(content)) {
	t, err := b.st.Table(ctx, chat)
	s := games.Nobody
	if err == nil && t.Started {
		s = seatOf(t, from.ID)
	}
	if s < 0 {
		say(content{Text: b.text(lang, "bot.hand.none")})
		return
	}
	if !b.dmOpen(ctx, from.ID) {
		say(b.deepLink(lang, "bot.dm.closed", chat, userName(from)))
		return
	}
	b.memo.setFresh(chat, from.ID)
	b.syncHandLater(t, s)
}

// dmHand sends fresh hand messages for every running table the user sits at; it returns how many.
func (b *Bot) dmHand(ctx context.Context, user int64) int {
	tables, err := b.st.Tables(ctx)
	if err != nil {
		b.log.Error().Err(err).Msg("list tables")
		return 0
	}
	n := 0
	for _, t := range tables {
		if s := seatOf(t, user); s >= 0 && t.Started {
			b.memo.clearWarn(t.Chat, user)
			b.memo.setFresh(t.Chat, user)
			b.syncHandLater(t, s)
			n++
		}
	}
	return n
}

// tableOf is a running table the user sits at.
func (b *Bot) tableOf(ctx context.Context, user int64) (store.Table, bool) {
	tables, err := b.st.Tables(ctx)
	if err != nil {
		return store.Table{}, false
	}
	for _, t := range tables {
		if seatOf(t, user) >= 0 {
			return t, true
		}
	}
	return store.Table{}, false
}

// cancel closes chat's table, lobby or match, without archiving it (creator or admin).
func (b *Bot) cancel(ctx context.Context, chat, user int64) error {
	t, err := b.st.Table(ctx, chat)
	if err != nil {
		return refusal("bot.lobby.none")
	}
	if !b.allowed(ctx, chat, t, user) {
		return refusal("bot.cancel.denied")
	}
	b.closeTable(ctx, t, "bot.table.cancelled", true)
	return nil
}

// closeTable deletes a table: its group message says so (if the bot can still write there) and
// the players' hand messages lose their buttons.
func (b *Bot) closeTable(ctx context.Context, t store.Table, id string, group bool) {
	if err := b.st.DeleteTable(ctx, t.Chat); err != nil && !errors.Is(err, store.ErrNotFound) {
		b.log.Error().Int64("chat", t.Chat).Err(err).Msg("delete table")
		return
	}
	b.sched.forget(t.Chat)
	if group {
		msg := t.LobbyMsg
		if t.Started {
			msg = t.TableMsg
		}
		b.change(t.Chat, msg, b.closedContent(t.Game, b.chatLang(ctx, t.Chat), id))
	}
	for _, p := range t.Seats {
		if p.UserID != 0 {
			b.closeHand(t.Chat, p, b.closedContent(t.Game, b.seatLang(ctx, p), id))
		}
	}
}

// closeHand replaces a player's hand message with c. It finds the message when it runs, so a
// fresh hand message still on its way (queued before it in the same chat) is the one closed.
func (b *Bot) closeHand(chat int64, p store.Player, c content) {
	b.out.Submit(outbox.Job{
		Chat:     p.UserID,
		Coalesce: fmt.Sprintf("close:%d:%d", chat, p.UserID),
		Call: func(ctx context.Context) error {
			if msg := b.memo.hand(chat, p.UserID, p.HandMsg); msg != 0 {
				return b.edit(ctx, p.UserID, msg, c)
			}
			return nil
		},
		Done: func(err error) { b.sendFailed(p.UserID, err) },
	})
}

// rulesContent answers /rules [game]: the named game, else the table's game, else the list.
func (b *Bot) rulesContent(ctx context.Context, chat int64, lang, arg string) content {
	game := strings.ToLower(strings.TrimSpace(arg))
	if game == "" && chat != 0 {
		if t, err := b.st.Table(ctx, chat); err == nil {
			game = t.Game
		}
	}
	if _, ok := b.rules[game]; !ok {
		return content{Text: b.text(lang, "bot.rules.which", "Games", b.gameIDs())}
	}
	return content{Text: "<b>" + b.gameName(lang, game) + "</b>\n" + b.text(lang, game+".rules")}
}

// helpContent is the command list of a group or a DM.
func (b *Bot) helpContent(lang, id string) content {
	return content{Text: b.text(lang, id, "Games", b.gameIDs(), "Bot", b.me)}
}

// setGroupLang answers /lang in a group: it shows or sets the group's language.
func (b *Bot) setGroupLang(ctx context.Context, chat int64, lang, arg string) content {
	code, ok := b.langArg(arg)
	if !ok {
		return content{Text: b.text(lang, "bot.lang.usage", "Lang", lang, "Langs", strings.Join(b.loc.Langs(), ", "))}
	}
	err := b.st.UpdateChat(ctx, chat, func(c *store.Chat) error { c.ID, c.Lang = chat, code; return nil })
	if err != nil {
		b.log.Error().Err(err).Msg("store chat language")
		return content{Text: b.text(lang, "bot.cb.error")}
	}
	if t, err := b.st.Table(ctx, chat); err == nil {
		b.tableLater(t)
	}
	return content{Text: b.text(code, "bot.lang.set")}
}

// setUserLang answers /lang in a DM: it shows or sets the user's language and re-renders their
// hands in it.
func (b *Bot) setUserLang(ctx context.Context, from *models.User, lang, arg string) content {
	code, ok := b.langArg(arg)
	if !ok {
		return content{Text: b.text(lang, "bot.lang.usage", "Lang", lang, "Langs", strings.Join(b.loc.Langs(), ", "))}
	}
	err := b.st.UpdateUser(ctx, from.ID, func(u *store.User) error { u.ID, u.Lang = from.ID, code; return nil })
	if err != nil {
		b.log.Error().Err(err).Msg("store user language")
		return content{Text: b.text(lang, "bot.cb.error")}
	}
	if tables, err := b.st.Tables(ctx); err == nil {
		for _, t := range tables {
			if s := seatOf(t, from.ID); s >= 0 && t.Started {
				b.syncHandLater(t, s)
			}
		}
	}
	return content{Text: b.text(code, "bot.lang.set")}
}

// langArg reads a /lang argument: a supported language code.
func (b *Bot) langArg(arg string) (string, bool) {
	code := strings.ToLower(strings.TrimSpace(arg))
	if code == "" || !slices.Contains(b.loc.Langs(), code) {
		return "", false
	}
	return code, true
}

// migrate follows a group that became a supergroup: the table moves to the new chat id, its
// group message is posted anew there, and the hands get buttons carrying the new id.
func (b *Bot) migrate(ctx context.Context, from, to int64) {
	if from == 0 || to == 0 || from == to {
		return
	}
	if c, err := b.st.Chat(ctx, from); err == nil && c.Lang != "" {
		if err := b.st.UpdateChat(ctx, to, func(n *store.Chat) error {
			if n.Lang == "" {
				n.ID, n.Lang = to, c.Lang
			}
			return nil
		}); err != nil {
			b.log.Warn().Err(err).Msg("copy chat language")
		}
	}
	if err := b.st.MoveTable(ctx, from, to); err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			b.log.Error().Int64("from", from).Int64("to", to).Err(err).Msg("move table")
		}
		return
	}
	var t store.Table
	err := b.st.UpdateTable(ctx, to, func(rec *store.Table, ok bool) error {
		if !ok {
			return errNoTable
		}
		rec.Chat, rec.LobbyMsg, rec.TableMsg = to, 0, 0
		t = *rec
		return nil
	})
	if err != nil {
		b.log.Error().Int64("chat", to).Err(err).Msg("rekey moved table")
		return
	}
	b.log.Info().Int64("from", from).Int64("to", to).Msg("table moved to supergroup")
	b.memo.dropTable(from)
	b.sched.forget(from)
	b.renderAll(t)
	b.reschedule(t)
}

// onMyChatMember handles the bot being added to or removed from a chat, quietly: added, it
// remembers the group's language; removed, it closes the group's table (no archive, no stats) and
// strips the players' hand keyboards; blocked in a DM, it stops writing there.
func (b *Bot) onMyChatMember(ctx context.Context, u *models.ChatMemberUpdated) {
	gone := u.NewChatMember.Type == models.ChatMemberTypeLeft || u.NewChatMember.Type == models.ChatMemberTypeBanned
	if u.Chat.Type == models.ChatTypePrivate {
		if gone {
			if err := b.st.UpdateUser(ctx, u.Chat.ID, func(r *store.User) error { r.ID, r.DMOpen = u.Chat.ID, false; return nil }); err != nil {
				b.log.Warn().Err(err).Msg("mark DM closed")
			}
		}
		return
	}
	if !gone {
		b.groupLang(ctx, u.Chat.ID, &u.From)
		return
	}
	if t, err := b.st.Table(ctx, u.Chat.ID); err == nil {
		b.closeTable(ctx, t, "bot.table.removed", false)
	}
}
