package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/bot/callback"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/search"
	"github.com/kozyr-bot/kozyr/store"
)

// errNeedDM means the user must open a DM with the bot (a deep link) before they can be seated.
var errNeedDM = errors.New("user has no open DM")

// cmdNew opens a table at place: with a game id at once, without one through a picker keyboard.
// The table starts from the group's settings; key=value arguments after the game set its lobby
// options and level as if chosen in the lobby, and a wrong one opens nothing (options.go).
// msg is a message to turn into the lobby (the picker's), or 0 to post a new one. The creator is
// seated if the bot can write to them; otherwise they get a deep link (errNeedDM, with the new
// table in fx).
func (b *Bot) cmdNew(tx store.Tx, fx *effects, place store.Place, from *models.User, lang, arg string, msg int, say func(render.Content) error) error {
	if rec, err := tx.TableAt(place); err == nil {
		if rec.Started {
			return refusal("bot.lobby.started")
		}
		return refusal("bot.new.exists")
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if arg == "" {
		return say(render.Content{Text: b.render.Text(lang, "bot.new.pick"), Rows: b.render.PickRows(lang)})
	}
	game, rest := firstWord(arg)
	r, ok := b.rules[game]
	if !ok {
		return say(render.Content{Text: b.render.Text(lang, "bot.new.unknown", "Games", b.render.GameIDs())})
	}
	c, err := tx.Chat(place.Chat)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	opts, level, bad := b.tableChoices(lang, r, c.Settings, rest)
	if bad != nil {
		return say(render.Content{Text: bad.text(b.render, lang)})
	}
	seed, err := newSeed()
	if err != nil {
		return err
	}
	u, err := tx.User(from.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	rec := store.Table{
		Place:       place,
		Game:        r.Name(),
		Config:      games.Config{Options: opts},
		Level:       level,
		TurnTimeout: c.Settings.TurnTimeout,
		AIDelay:     c.Settings.AIDelay,
		Seed:        seed,
		Creator:     from.ID,
		CreatorName: userName(from),
		Msg:         msg,
		Created:     b.now(),
	}
	if u.DMOpen {
		rec.Seats = []store.Player{b.player(tx, from)}
	}
	if err := fx.save(tx, &render.Snapshot{Rec: rec, Lang: lang}); err != nil {
		return err
	}
	if !u.DMOpen {
		return say(b.render.DeepLink(lang, "bot.join.dm", fx.snaps[len(fx.snaps)-1].Rec.ID, userName(from)))
	}
	return nil
}

// newSeed is a table's 64-bit seed from crypto/rand (design §2).
func newSeed() (uint64, error) {
	var buf [8]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return 0, fmt.Errorf("table seed: %w", err)
	}
	return binary.LittleEndian.Uint64(buf[:]), nil
}

// player is the seat record of a Telegram user.
func (b *Bot) player(tx store.Tx, u *models.User) store.Player {
	return store.NewPlayer(u.ID, userName(u), b.userLangTx(tx, u))
}

// lobbyTx changes the lobby at place in tx: fn changes the record; the lobby message follows.
func (b *Bot) lobbyTx(tx store.Tx, fx *effects, place store.Place, fn func(rec *store.Table) error) error {
	rec, err := tx.TableAt(place)
	if errors.Is(err, store.ErrNotFound) {
		return refusal("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	return b.lobbyChange(tx, fx, rec, fn)
}

// lobbyChange is lobbyTx for a record already read.
func (b *Bot) lobbyChange(tx store.Tx, fx *effects, rec store.Table, fn func(rec *store.Table) error) error {
	if rec.Started {
		return refusal("bot.lobby.started")
	}
	rec = fx.load(b, tx, rec)
	if err := fn(&rec); err != nil {
		return err
	}
	return fx.save(tx, &render.Snapshot{Rec: rec, Lang: b.chatLangTx(tx, rec.Place.Chat)})
}

// join seats a user at the lobby at place; errNeedDM when the bot cannot write to them yet (dm:
// they came through the deep link, so it can).
func (b *Bot) join(tx store.Tx, fx *effects, place store.Place, from *models.User, dm bool) error {
	rec, err := tx.TableAt(place)
	if errors.Is(err, store.ErrNotFound) {
		return refusal("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	if rec.Started {
		return refusal("bot.lobby.started")
	}
	if !dm {
		if u, err := tx.User(from.ID); err != nil || !u.DMOpen {
			return errNeedDM
		}
	}
	p := b.player(tx, from)
	return b.lobbyChange(tx, fx, rec, func(t *store.Table) error {
		if t.SeatOf(from.ID) >= 0 {
			return refusal("bot.join.already")
		}
		if _, hi := b.rules[t.Game].Seats(); len(t.Seats) >= hi {
			return refusal("bot.join.full")
		}
		t.Seats = append(t.Seats, p)
		return nil
	})
}

// leave takes a user's seat in the lobby away; during a match it marks the seat away instead.
func (b *Bot) leave(tx store.Tx, fx *effects, place store.Place, user int64) error {
	rec, err := tx.TableAt(place)
	if errors.Is(err, store.ErrNotFound) {
		return refusal("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	if rec.Started {
		return b.goAway(tx, fx, rec, user)
	}
	return b.lobbyChange(tx, fx, rec, func(t *store.Table) error {
		s := t.SeatOf(user)
		if s < 0 {
			return refusal("bot.leave.notseated")
		}
		t.Seats = slices.Delete(t.Seats, int(s), int(s)+1)
		return nil
	})
}

// goAway hands a seated player's seat to the agent until they press a button again; the group is
// told so.
func (b *Bot) goAway(tx store.Tx, fx *effects, rec store.Table, user int64) error {
	s := rec.SeatOf(user)
	if s < 0 {
		return refusal("bot.leave.notseated")
	}
	rec = fx.load(b, tx, rec)
	rec.Seats[s].Away = true
	snap := b.snapOf(tx, rec)
	if snap == nil {
		return errNoTable
	}
	again := *snap
	again.Rec = rec
	if err := fx.save(tx, &again); err != nil {
		return err
	}
	return fx.reply(tx, rec.Place, render.Content{Text: b.render.Text(again.Lang, "bot.leave.away")})
}

// addAI seats an agent.
func (b *Bot) addAI(tx store.Tx, fx *effects, place store.Place) error {
	return b.lobbyTx(tx, fx, place, func(t *store.Table) error {
		if _, hi := b.rules[t.Game].Seats(); len(t.Seats) >= hi {
			return refusal("bot.join.full")
		}
		t.Seats = append(t.Seats, store.NewAgent())
		return nil
	})
}

// removeAI takes the last agent's seat away.
func (b *Bot) removeAI(tx store.Tx, fx *effects, rec store.Table) error {
	return b.lobbyChange(tx, fx, rec, func(t *store.Table) error {
		for i := len(t.Seats) - 1; i >= 0; i-- {
			if t.Seats[i].AI {
				t.Seats = slices.Delete(t.Seats, i, i+1)
				return nil
			}
		}
		return refusal("bot.ai.none")
	})
}

// mayRun reports whether user may run the table at place (begin, cancel, options): its creator
// or a chat administrator. It may ask Telegram (getChatMember), so it runs before any
// transaction; the transaction then finds the same table or refuses.
func (b *Bot) mayRun(ctx context.Context, place store.Place, user int64) bool {
	var rec store.Table
	err := b.st.View(ctx, func(tx store.Tx) error {
		var err error
		rec, err = tx.TableAt(place)
		return err
	})
	if err != nil {
		return false
	}
	return b.allowed(ctx, rec, user)
}

// allowed reports whether user is the table's creator or an administrator of its chat.
func (b *Bot) allowed(ctx context.Context, rec store.Table, user int64) bool {
	return rec.Creator == user || b.isAdmin(ctx, rec.Place.Chat, user)
}

// begin deals the first deal: the seats become the players, the lobby message becomes the table.
func (b *Bot) begin(tx store.Tx, fx *effects, place store.Place, may bool) error {
	rec, err := tx.TableAt(place)
	if errors.Is(err, store.ErrNotFound) {
		return refusal("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	if rec.Started {
		return refusal("bot.lobby.started")
	}
	if !may {
		return refusal("bot.begin.denied")
	}
	r := b.rules[rec.Game]
	if lo, hi := r.Seats(); len(rec.Seats) < lo || len(rec.Seats) > hi {
		return refusal("bot.begin.count")
	}
	if !slices.ContainsFunc(rec.Seats, func(p store.Player) bool { return !p.AI }) {
		return refusal("bot.begin.nohuman")
	}
	cfg := games.Config{Players: len(rec.Seats), Options: rec.Config.Options}
	st, err := r.New(cfg, rec.Seed)
	if errors.Is(err, games.ErrBadConfig) {
		return refusal("bot.begin.config")
	}
	if err != nil {
		return fmt.Errorf("new %s match: %w", rec.Game, err)
	}
	data, err := st.MarshalBinary()
	if err != nil {
		return fmt.Errorf("marshal %s state: %w", rec.Game, err)
	}
	rec = fx.load(b, tx, rec)
	rec.Config, rec.Started, rec.Version, rec.Rules, rec.Mode = cfg, true, 0, r.Version(), ""
	b.stamp(&rec, st, b.now())
	if err := tx.PutState(rec.ID, data); err != nil {
		return err
	}
	return fx.save(tx, &render.Snapshot{Rec: rec, State: st, Lang: b.chatLangTx(tx, rec.Place.Chat)})
}

// cancel closes the table at place, lobby or match, without a result (creator or admin).
func (b *Bot) cancel(tx store.Tx, fx *effects, place store.Place, may bool) error {
	rec, err := tx.TableAt(place)
	if errors.Is(err, store.ErrNotFound) {
		return refusal("bot.lobby.none")
	}
	if err != nil {
		return err
	}
	if !may {
		return refusal("bot.cancel.denied")
	}
	return b.closeTable(tx, fx, rec, closedCancelled)
}

// cycleOption moves option i of the lobby's game to its next value; the one after the game's last
// is the computer players' level.
func (b *Bot) cycleOption(tx store.Tx, fx *effects, rec store.Table, i int) error {
	return b.lobbyChange(tx, fx, rec, func(t *store.Table) error {
		opts := b.rules[t.Game].Options()
		if i == len(opts) {
			// After the game's options: the computer players' level.
			levels := search.Levels()
			cur := slices.Index(levels, render.TableLevel(*t, b.cfg.Level))
			t.Level = levels[(cur+1)%len(levels)].String()
			return nil
		}
		if i < 0 || i >= len(opts) || len(opts[i].Values) == 0 {
			return refusal("bot.cb.forged")
		}
		o := opts[i]
		cur := slices.Index(o.Values, t.Config.Get(opts, o.Key))
		next := o.Values[(cur+1)%len(o.Values)]
		if t.Config.Options == nil {
			t.Config.Options = map[string]string{}
		}
		if next == o.Default {
			delete(t.Config.Options, o.Key)
		} else {
			t.Config.Options[o.Key] = next
		}
		return nil
	})
}

// onLobby handles a lobby button. The data names the table, so a press on an older lobby's
// message, or on a lobby whose match began, is stale; the op is one of a fixed set.
func (b *Bot) onLobby(ctx context.Context, upd int64, q *models.CallbackQuery) error {
	d, err := callback.ParseLobby(q.Data)
	m := q.Message.Message
	if err != nil || m == nil {
		b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "")
		return nil
	}
	var may bool
	switch d.Op {
	case callback.OpRemove, callback.OpOptions, callback.OpBack, callback.OpBegin:
		may = b.mayRun(ctx, placeOf(m), q.From.ID)
	default:
		may = d.Option() >= 0 && b.mayRun(ctx, placeOf(m), q.From.ID)
	}
	var answer, url string
	err = b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		lang := b.userLangTx(tx, &q.From)
		answer, url = "", ""
		rec, err := tx.Table(d.Table)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (rec.Started || rec.Ending() || rec.Place != placeOf(m))) {
			answer = b.render.Text(lang, "bot.cb.stale")
			return errUnchanged
		}
		if err != nil {
			return err
		}
		ok := "bot.lobby.done"
		var res error
		switch op := d.Op; {
		case op == callback.OpJoin:
			res, ok = b.join(tx, fx, rec.Place, &q.From, false), "bot.join.ok"
			if errors.Is(res, errNeedDM) {
				url = b.render.StartLink(rec.ID)
				return errUnchanged
			}
		case op == callback.OpLeave:
			res, ok = b.leave(tx, fx, rec.Place, q.From.ID), "bot.leave.ok"
		case op == callback.OpAddAI:
			res, ok = b.addAI(tx, fx, rec.Place), "bot.ai.added"
		case !may:
			res = refusal("bot.lobby.creatoronly")
		case op == callback.OpRemove:
			res, ok = b.removeAI(tx, fx, rec), "bot.ai.removed"
		case op == callback.OpOptions, op == callback.OpBack:
			mode := ""
			if op == callback.OpOptions {
				mode = render.ModeOptions
			}
			res = b.lobbyChange(tx, fx, rec, func(t *store.Table) error { t.Mode = mode; return nil })
		case op == callback.OpBegin:
			res, ok = b.begin(tx, fx, rec.Place, true), "bot.begin.ok"
		default:
			res = b.cycleOption(tx, fx, rec, d.Option())
		}
		answer = b.outcome(lang, res, ok)
		if _, refused := refusalOf(res); refused {
			return errUnchanged
		}
		return res
	})
	switch {
	case errors.Is(err, errUnchanged):
		b.refuse(ctx, upd, q, answer, url)
		return nil
	case err == nil:
		b.answer(ctx, q.ID, answer, url, false)
	}
	return err
}

// onPick opens the table chosen in the game picker, turning the picker message into the lobby.
func (b *Bot) onPick(ctx context.Context, upd int64, q *models.CallbackQuery) error {
	d, err := callback.ParsePick(q.Data)
	m := q.Message.Message
	_, known := b.rules[d.Game]
	if err != nil || m == nil || !known || m.Chat.Type == models.ChatTypePrivate {
		b.refuse(ctx, upd, q, b.render.Text(b.userLang(ctx, &q.From), "bot.cb.forged"), "")
		return nil
	}
	var answer, url string
	err = b.run(ctx, upd, func(tx store.Tx, fx *effects) error {
		lang := b.userLangTx(tx, &q.From)
		glang, err := b.groupLangTx(tx, m.Chat.ID, &q.From)
		if err != nil {
			return err
		}
		res := b.cmdNew(tx, fx, placeOf(m), &q.From, glang, d.Game, m.ID, func(c render.Content) error {
			if len(fx.snaps) > 0 {
				url = b.render.StartLink(fx.snaps[len(fx.snaps)-1].Rec.ID)
			}
			return nil
		})
		answer = b.outcome(lang, res, "bot.new.ok")
		if url != "" {
			answer = ""
		}
		if _, refused := refusalOf(res); refused {
			return errUnchanged
		}
		return res
	})
	switch {
	case errors.Is(err, errUnchanged):
		b.refuse(ctx, upd, q, answer, url)
		return nil
	case err == nil:
		b.answer(ctx, q.ID, answer, url, false)
	}
	return err
}

// tableKey is the queue of the table that callback data or a deep-link payload names: the
// table's place, when the bot holds the table.
func (b *Bot) tableKey(data string) (queueKey, bool) {
	var id store.TableID
	if d, err := callback.ParsePlay(data); err == nil {
		id = d.Table
	} else if d, err := callback.ParsePage(data); err == nil {
		id = d.Table
	} else if d, err := callback.ParseLobby(data); err == nil {
		id = d.Table
	} else if t, ok := callback.ParseJoinPayload(data); ok {
		id = t
	} else {
		return queueKey{}, false
	}
	m := b.mem(id)
	if m == nil {
		return queueKey{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return queueKey{chat: m.place.Chat, topic: m.place.Topic}, true
}
