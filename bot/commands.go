package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// effects is what one handler's transaction changed, applied once it has committed: the replies
// it owes (outbox rows) and the tables whose messages must follow.
type effects struct {
	upd   int64 // the update the transaction answers
	rows  []store.Row
	snaps []*render.Snapshot
	gens  map[store.TableID]uint64
	hands []handResend // hand messages to send afresh (/hand, /start)
}

// handResend asks for a fresh hand message of seat at the table of snap.
type handResend struct {
	snap *render.Snapshot
	seat int
}

// load reads a table for a change in tx, with the marks of the bot's own messages applied.
func (fx *effects) load(b *Bot, tx store.Tx, rec store.Table) store.Table {
	if m := b.mem(rec.ID); m != nil {
		if fx.gens == nil {
			fx.gens = map[store.TableID]uint64{}
		}
		fx.gens[rec.ID] = m.apply(&rec)
	}
	return rec
}

// save writes a changed table and notes its new snapshot.
func (fx *effects) save(tx store.Tx, snap *render.Snapshot) error {
	if err := tx.PutTable(&snap.Rec); err != nil {
		return err
	}
	fx.snaps = append(fx.snaps, snap)
	return nil
}

// reply records a message owed to place.
func (fx *effects) reply(tx store.Tx, place store.Place, c render.Content) error {
	r, err := putReply(tx, fx.upd, len(fx.rows), place, c)
	if err != nil {
		return err
	}
	fx.rows = append(fx.rows, r)
	return nil
}

// run runs a handler's transaction for update upd and, once it has committed, sends what it owes.
// A redelivered update changes nothing and owes nothing (errDuplicate).
func (b *Bot) run(ctx context.Context, upd int64, fn func(tx store.Tx, fx *effects) error) error {
	var fx *effects
	err := b.txn(ctx, upd, func(tx store.Tx) error {
		fx = &effects{upd: upd}
		return fn(tx, fx)
	})
	if err != nil {
		return err
	}
	b.apply(fx)
	return nil
}

// apply sends what a committed transaction owes.
func (b *Bot) apply(fx *effects) {
	for _, snap := range fx.snaps {
		m := b.mem(snap.Rec.ID)
		if m == nil {
			m = b.remember(snap)
		}
		b.saved(m, fx.gens[snap.Rec.ID], snap)
		b.shown(snap, nil)
	}
	for _, r := range fx.rows {
		b.sendRow(nil, nil, r)
	}
	for _, h := range fx.hands {
		b.resendHand(h.snap, h.seat)
	}
}

// onMessage handles a message: a group migration, or a command for this bot.
func (b *Bot) onMessage(ctx context.Context, upd int64, m *models.Message) error {
	switch {
	case m.MigrateToChatID != 0:
		return b.migrate(ctx, upd, m.Chat.ID, m.MigrateToChatID)
	case m.MigrateFromChatID != 0:
		return b.migrate(ctx, upd, m.MigrateFromChatID, m.Chat.ID)
	case anonymousAdmin(m) && m.From != nil:
		if cmd, ok := parseCommand(m.Text, m.Entities, b.me); ok {
			return b.onAnonymous(ctx, upd, m, cmd)
		}
		return nil
	case m.From == nil || m.From.IsBot:
		return nil
	}
	cmd, ok := parseCommand(m.Text, m.Entities, b.me)
	if !ok {
		return nil
	}
	switch m.Chat.Type {
	case models.ChatTypePrivate:
		return b.onPrivate(ctx, upd, m, cmd)
	case models.ChatTypeGroup, models.ChatTypeSupergroup:
		return b.onGroup(ctx, upd, m, cmd)
	}
	return nil
}

// placeOf is where a group message was sent: its chat and forum topic.
func placeOf(m *models.Message) store.Place {
	return store.Place{Chat: m.Chat.ID, Topic: topicOf(m)}
}

// topicOf is the forum topic of a message, 0 outside forum topics. The General topic is 0 too:
// Telegram gives its messages no is_topic_message (a reply there carries the thread of the
// message replied to), and its id 1 is no thread a message may be sent to.
func topicOf(m *models.Message) int {
	if m.IsTopicMessage && m.MessageThreadID > 1 {
		return m.MessageThreadID
	}
	return 0
}

// onGroup runs a command sent in a group. Successful lobby commands answer through the lobby
// message itself (edited in place); refusals and other answers are replies.
func (b *Bot) onGroup(ctx context.Context, upd int64, m *models.Message, cmd command) error {
	place, from := placeOf(m), m.From
	if cmd.Name == "settings" {
		return b.cmdSettings(ctx, upd, m, cmd.Args)
	}
	// Who may run the table is Telegram's to say (getChatMember), asked before the transaction.
	var may bool
	if cmd.Name == "begin" || cmd.Name == "cancel" {
		may = anonymousAdmin(m) || b.mayRun(ctx, place, from.ID)
	}
	return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		lang, err := b.groupLangTx(tx, place.Chat, from)
		if err != nil {
			return err
		}
		say := func(c render.Content) error {
			c.ReplyTo = m.ID
			return fx.reply(tx, place, c)
		}
		refused := func(err error) error {
			if r, ok := refusalOf(err); ok {
				return say(render.Content{Text: b.render.Text(lang, string(r))})
			}
			return err
		}
		switch cmd.Name {
		case "new":
			return refused(b.cmdNew(tx, fx, place, from, lang, cmd.Args, 0, say))
		case "join":
			err := b.join(tx, fx, place, from, false)
			if errors.Is(err, errNeedDM) {
				rec, err := tx.TableAt(place)
				if err != nil {
					return err
				}
				return say(b.render.DeepLink(lang, "bot.join.dm", rec.ID, userName(from)))
			}
			return refused(err)
		case "leave":
			return refused(b.leave(tx, fx, place, from.ID))
		case "addai":
			return refused(b.addAI(tx, fx, place))
		case "begin":
			return refused(b.begin(tx, fx, place, may))
		case "cancel":
			return refused(b.cancel(tx, fx, place, may))
		case "score":
			return say(b.scoreContentTx(tx, place, lang))
		case "hand":
			return refused(b.groupHand(tx, fx, place, from))
		case "rules":
			return b.sayRules(tx, place, lang, cmd.Args, say)
		case "lang":
			return say(b.setGroupLang(tx, fx, place, lang, cmd.Args))
		case "stats":
			return say(b.statsTx(tx, from.ID, userName(from), lang))
		case "record":
			return b.cmdRecord(tx, fx, place, 0, lang, cmd.Args, m.ID)
		case "top":
			return say(b.topTx(tx, place, lang, cmd.Args))
		case "help", "start":
			return say(b.render.Help(lang, "bot.help.group"))
		}
		return nil
	})
}

// onPrivate runs a command sent in a DM.
func (b *Bot) onPrivate(ctx context.Context, upd int64, m *models.Message, cmd command) error {
	from := m.From
	me := store.Place{Chat: from.ID}
	return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		if cmd.Name == "start" {
			return b.cmdStart(tx, fx, from, cmd.Args)
		}
		lang := b.userLangTx(tx, from)
		say := func(c render.Content) error { return fx.reply(tx, me, c) }
		switch cmd.Name {
		case "hand":
			if n, err := b.dmHand(tx, fx, from.ID); err != nil || n > 0 {
				return err
			}
			return say(render.Content{Text: b.render.Text(lang, "bot.hand.none")})
		case "score":
			ids, err := tx.UserTables(from.ID)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if rec, err := tx.Table(id); err == nil && rec.Started && !rec.Ending() {
					return say(b.scoreContentTx(tx, rec.Place, lang))
				}
			}
			return say(render.Content{Text: b.render.Text(lang, "bot.score.none")})
		case "rules":
			return b.sayRules(tx, store.Place{}, lang, cmd.Args, say)
		case "lang":
			return say(b.setUserLang(tx, fx, from, lang, cmd.Args))
		case "stats":
			return say(b.statsTx(tx, from.ID, userName(from), lang))
		case "record":
			return b.cmdRecord(tx, fx, me, from.ID, lang, cmd.Args, 0)
		case "top":
			return say(render.Content{Text: b.render.Text(lang, "bot.top.dm")})
		case "help":
			return say(b.render.Help(lang, "bot.help.private"))
		case "new", "join", "leave", "addai", "begin", "cancel", "settings":
			return say(render.Content{Text: b.render.Text(lang, "bot.err.grouponly")})
		}
		return say(render.Content{Text: b.render.Text(lang, "bot.err.unknown")})
	})
}

// cmdStart handles /start in a DM: the DM is open from now on; a deep-link payload seats the user
// at that table (or, if already seated, sends their hand again).
func (b *Bot) cmdStart(tx store.Tx, fx *effects, from *models.User, args string) error {
	u, err := tx.User(from.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	u.Name, u.DMOpen = userName(from), true
	if err := tx.PutUser(u); err != nil {
		return err
	}
	lang := b.userLangTx(tx, from)
	say := func(id string, kv ...any) error {
		return fx.reply(tx, store.Place{Chat: from.ID}, render.Content{Text: b.render.Text(lang, id, kv...)})
	}
	id, ok := callback.ParseJoinPayload(args)
	if !ok {
		if n, err := b.dmHand(tx, fx, from.ID); err != nil || n > 0 {
			return err
		}
		return say("bot.start.welcome", "Games", b.render.GameIDs())
	}
	rec, err := tx.Table(id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && rec.Ending()) {
		return say("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	if s := rec.SeatOf(from.ID); s >= 0 {
		if m := b.mem(rec.ID); m != nil {
			m.clearWarn(from.ID)
		}
		if rec.Started {
			fx.hands = append(fx.hands, handResend{snap: b.snapOf(tx, rec), seat: int(s)})
			return nil
		}
		return say("bot.join.already")
	}
	if err := b.join(tx, fx, rec.Place, from, true); err != nil {
		if r, ok := refusalOf(err); ok {
			return say(string(r))
		}
		return err
	}
	return say("bot.start.joined", "Game", locales.Plain(b.render.GameName(lang, rec.Game)))
}

// snapOf is the current snapshot of a table read in tx: the one the bot holds, if it is of this
// record's version.
func (b *Bot) snapOf(tx store.Tx, rec store.Table) *render.Snapshot {
	if m := b.mem(rec.ID); m != nil {
		if snap := m.current(); snap != nil && snap.Rec.Version == rec.Version && snap.Rec.Started == rec.Started {
			return snap
		}
	}
	snap := &render.Snapshot{Rec: rec, Lang: b.chatLangTx(tx, rec.Place.Chat)}
	if rec.Started {
		st, err := b.stateOf(tx, nil, rec)
		if err != nil {
			b.log.Error().Err(err).Msg("read a table's state")
			return nil
		}
		snap.State = st
	}
	return snap
}

// groupHand answers /hand in a group: the user's hand arrives as a fresh DM.
func (b *Bot) groupHand(tx store.Tx, fx *effects, place store.Place, from *models.User) error {
	rec, err := tx.TableAt(place)
	if err != nil || !rec.Started || rec.SeatOf(from.ID) < 0 {
		return refusal("bot.hand.none")
	}
	if u, err := tx.User(from.ID); err != nil || !u.DMOpen {
		lang := b.chatLangTx(tx, place.Chat)
		return fx.reply(tx, place, b.render.DeepLink(lang, "bot.dm.closed", rec.ID, userName(from)))
	}
	if snap := b.snapOf(tx, rec); snap != nil {
		fx.hands = append(fx.hands, handResend{snap: snap, seat: int(rec.SeatOf(from.ID))})
	}
	return nil
}

// dmHand asks for fresh hand messages of every running table the user sits at (found through the
// user's index of tables); it returns how many.
func (b *Bot) dmHand(tx store.Tx, fx *effects, user int64) (int, error) {
	ids, err := tx.UserTables(user)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		rec, err := tx.Table(id)
		if err != nil || !rec.Started || rec.Ending() {
			continue
		}
		if m := b.mem(id); m != nil {
			m.clearWarn(user)
		}
		if snap := b.snapOf(tx, rec); snap != nil {
			fx.hands = append(fx.hands, handResend{snap: snap, seat: int(rec.SeatOf(user))})
			n++
		}
	}
	return n, nil
}

// sayRules answers /rules [game]: the named game, else the table's game, else the list. The
// game's options (with the ids /new takes) follow its rules, in the same message if it holds both.
func (b *Bot) sayRules(tx store.Tx, place store.Place, lang, arg string, say func(render.Content) error) error {
	game := strings.ToLower(strings.TrimSpace(arg))
	if game == "" && place.Chat != 0 {
		if rec, err := tx.TableAt(place); err == nil {
			game = rec.Game
		}
	}
	if _, ok := b.rules[game]; !ok {
		return say(render.Content{Text: b.render.Text(lang, "bot.rules.which", "Games", b.render.GameIDs())})
	}
	rules := b.render.RulesText(lang, game).Text
	opts := b.render.OptionsHelp(lang, game)
	if len([]rune(rules))+len([]rune(opts)) < 3900 {
		return say(render.Content{Text: rules + "\n\n" + opts})
	}
	if err := say(render.Content{Text: rules}); err != nil {
		return err
	}
	return say(render.Content{Text: opts})
}

// setGroupLang answers /lang in a group: it shows or sets the group's language, and the table's
// message follows.
func (b *Bot) setGroupLang(tx store.Tx, fx *effects, place store.Place, lang, arg string) render.Content {
	code, ok := b.langArg(arg)
	if !ok {
		return render.Content{Text: b.render.Text(lang, "bot.lang.usage", "Lang", lang, "Langs", strings.Join(b.loc.Langs(), ", "))}
	}
	c, err := tx.Chat(place.Chat)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return render.Content{Text: b.render.Text(lang, "bot.cb.error")}
	}
	c.Lang = code
	c.Settings.Version++ // a settings message shows the language
	if err := tx.PutChat(c); err != nil {
		b.log.Error().Err(err).Msg("store chat language")
		return render.Content{Text: b.render.Text(lang, "bot.cb.error")}
	}
	if rec, err := tx.TableAt(place); err == nil {
		if snap := b.snapOf(tx, rec); snap != nil {
			again := *snap
			again.Lang = code
			fx.snaps = append(fx.snaps, &again)
		}
	}
	return render.Content{Text: b.render.Text(code, "bot.lang.set")}
}

// setUserLang answers /lang in a DM: it shows or sets the user's language, copies it into every
// seat they hold (hands render from the seats) and re-renders their hands in it.
func (b *Bot) setUserLang(tx store.Tx, fx *effects, from *models.User, lang, arg string) render.Content {
	code, ok := b.langArg(arg)
	if !ok {
		return render.Content{Text: b.render.Text(lang, "bot.lang.usage", "Lang", lang, "Langs", strings.Join(b.loc.Langs(), ", "))}
	}
	u, err := tx.User(from.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return render.Content{Text: b.render.Text(lang, "bot.cb.error")}
	}
	u.Lang = code
	if err := tx.PutUser(u); err != nil {
		b.log.Error().Err(err).Msg("store user language")
		return render.Content{Text: b.render.Text(lang, "bot.cb.error")}
	}
	ids, _ := tx.UserTables(from.ID)
	for _, id := range ids {
		rec, err := tx.Table(id)
		if err != nil || rec.Ending() {
			continue
		}
		rec = fx.load(b, tx, rec)
		rec.Seats[rec.SeatOf(from.ID)].Lang = code
		snap := b.snapOf(tx, rec)
		if snap == nil {
			continue
		}
		again := *snap
		again.Rec = rec
		if err := fx.save(tx, &again); err != nil {
			b.log.Error().Err(err).Msg("store seat language")
		}
	}
	return render.Content{Text: b.render.Text(code, "bot.lang.set")}
}

// statsTx answers /stats with the user's record as the store has it.
func (b *Bot) statsTx(tx store.Tx, user int64, name, lang string) render.Content {
	u, err := tx.User(user)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		b.log.Error().Err(err).Msg("read user stats")
	}
	return b.render.Stats(u, name, lang)
}

// langArg reads a /lang argument: a supported language code.
func (b *Bot) langArg(arg string) (string, bool) {
	code := strings.ToLower(strings.TrimSpace(arg))
	if code == "" || !slices.Contains(b.loc.Langs(), code) {
		return "", false
	}
	return code, true
}

// migrate follows a group that became a supergroup: its tables, archive and settings move to the
// new chat id, the group messages are posted anew there, and the hands get the new place.
func (b *Bot) migrate(ctx context.Context, upd int64, from, to int64) error {
	if from == 0 || to == 0 || from == to {
		return nil
	}
	return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		if c, err := tx.Chat(from); err == nil && c.Lang != "" {
			if n, err := tx.Chat(to); errors.Is(err, store.ErrNotFound) || n.Lang == "" {
				n.Lang, n.Settings = c.Lang, c.Settings
				if err := tx.PutChat(n); err != nil {
					return err
				}
			}
		}
		var moved []store.Table
		all, err := tx.Tables()
		if err != nil {
			return err
		}
		for _, rec := range all {
			if rec.Place.Chat == from && !rec.Ending() {
				moved = append(moved, rec)
			}
		}
		if err := tx.MoveChat(from, to); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		}
		for _, old := range moved {
			rec, err := tx.Table(old.ID)
			if err != nil {
				return err
			}
			rec = fx.load(b, tx, rec)
			rec.Msg, rec.Shown = 0, 0
			if m := b.mem(rec.ID); m != nil {
				m.setGroup(0, 0)
				m.mu.Lock()
				m.place = rec.Place
				m.mu.Unlock()
			}
			snap := b.snapOf(tx, rec)
			if snap == nil {
				continue
			}
			again := *snap
			again.Rec = rec
			if err := fx.save(tx, &again); err != nil {
				return err
			}
			b.log.Info().Int64("from", from).Int64("to", to).Uint64("table", uint64(rec.ID)).Msg("table moved to supergroup")
		}
		return nil
	})
}

// onMyChatMember handles the bot being added to or removed from a chat, quietly: added, it
// remembers the group's language; removed, it closes the group's tables (no archive, no stats)
// and the players' hand messages say so; blocked in a DM, it stops writing there.
func (b *Bot) onMyChatMember(ctx context.Context, upd int64, u *models.ChatMemberUpdated) error {
	gone := u.NewChatMember.Type == models.ChatMemberTypeLeft || u.NewChatMember.Type == models.ChatMemberTypeBanned
	return b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		if u.Chat.Type == models.ChatTypePrivate {
			if !gone {
				return nil
			}
			rec, err := tx.User(u.Chat.ID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			rec.DMOpen = false
			return tx.PutUser(rec)
		}
		if !gone {
			_, err := b.groupLangTx(tx, u.Chat.ID, &u.From)
			return err
		}
		all, err := tx.Tables()
		if err != nil {
			return err
		}
		for _, rec := range all {
			if rec.Place.Chat == u.Chat.ID && !rec.Ending() {
				if err := b.closeTable(tx, fx, rec, closedRemoved); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Reasons a table closed without a result, as locale ids.
const (
	closedCancelled  = "bot.table.cancelled"
	closedRemoved    = "bot.table.removed"
	closedUnreadable = "bot.table.unreadable"
)

// closeTable ends a table without a result: it gives up its place, and its group message (if the
// bot can still write there) and hand messages say why; the record goes once they are out.
func (b *Bot) closeTable(tx store.Tx, fx *effects, rec store.Table, why string) error {
	rec = fx.load(b, tx, rec)
	snap := b.snapOf(tx, rec)
	if snap == nil {
		snap = &render.Snapshot{Rec: rec, Lang: b.chatLangTx(tx, rec.Place.Chat)}
	}
	again := *snap
	again.Rec = rec
	again.Rec.Closed, again.Rec.Deadline = why, time.Time{}
	return fx.save(tx, &again)
}
