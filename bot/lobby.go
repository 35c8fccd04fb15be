package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tg "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/locales"
	"github.com/kozyr-bot/kozyr/store"
)

// Callback data prefixes of the lobby ("l1|<lobby token>|<op>") and of the game picker
// ("n1|<game>").
const (
	lobbyPrefix = "l1|"
	pickPrefix  = "n1|"
)

// refusal is a request the bot turns down; its text is the locale id of the answer. Returned from
// inside a store update it also aborts the write.
type refusal string

func (r refusal) Error() string { return string(r) }

// errNeedDM means the user must open a DM with the bot (a deep link) before they can be seated.
var errNeedDM = errors.New("user has no open DM")

// open creates a lobby for game r in chat. msg is an existing message to turn into the lobby (the
// game picker), or 0 to post a new one. The creator is seated if the bot can write to them.
func (b *Bot) open(ctx context.Context, chat int64, from *models.User, r games.Rules, msg int) error {
	seed, err := newSeed()
	if err != nil {
		return err
	}
	dm := b.dmOpen(ctx, from.ID)
	var t store.Table
	err = b.st.UpdateTable(ctx, chat, func(rec *store.Table, ok bool) error {
		if ok {
			return refusal("bot.new.exists")
		}
		*rec = store.Table{
			Chat:     chat,
			Game:     r.Name(),
			Config:   games.Config{Options: map[string]string{}},
			Seed:     seed,
			Creator:  from.ID,
			LobbyMsg: msg,
			Created:  b.now(),
			Extra:    map[string]string{"creator": userName(from)},
		}
		if dm {
			rec.Seats = []store.Player{b.player(ctx, from)}
		}
		t = *rec
		return nil
	})
	if err != nil {
		return err
	}
	b.memo.dropTable(chat)
	b.sched.Set(chat, time.Time{})
	b.tableLater(t)
	if !dm {
		return errNeedDM
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
func (b *Bot) player(ctx context.Context, u *models.User) store.Player {
	return store.Player{UserID: u.ID, Name: userName(u), Lang: b.userLang(ctx, u)}
}

// dmOpen reports whether the user has started the bot, so a DM to them will not get 403.
func (b *Bot) dmOpen(ctx context.Context, user int64) bool {
	u, err := b.st.User(ctx, user)
	return err == nil && u.DMOpen
}

// lobbyUpdate runs fn on chat's lobby in one store transaction and re-renders the lobby after a
// change. A refusal from fn aborts the write.
func (b *Bot) lobbyUpdate(ctx context.Context, chat int64, fn func(t *store.Table) error) (store.Table, error) {
	var t store.Table
	err := b.st.UpdateTable(ctx, chat, func(rec *store.Table, ok bool) error {
		if !ok {
			return refusal("bot.lobby.none")
		}
		if rec.Started {
			return refusal("bot.lobby.started")
		}
		if err := fn(rec); err != nil {
			return err
		}
		t = *rec
		return nil
	})
	if err != nil {
		return store.Table{}, err
	}
	b.tableLater(t)
	return t, nil
}

// join seats a user at chat's lobby; errNeedDM when the bot cannot write to them yet.
func (b *Bot) join(ctx context.Context, chat int64, from *models.User, dm bool) error {
	if !dm && !b.dmOpen(ctx, from.ID) {
		if t, err := b.st.Table(ctx, chat); err != nil {
			return refusal("bot.lobby.none")
		} else if t.Started {
			return refusal("bot.lobby.started")
		}
		return errNeedDM
	}
	p := b.player(ctx, from)
	_, err := b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		if seatOf(*t, from.ID) >= 0 {
			return refusal("bot.join.already")
		}
		if _, hi := b.rules[t.Game].Seats(); len(t.Seats) >= hi {
			return refusal("bot.join.full")
		}
		t.Seats = append(t.Seats, p)
		return nil
	})
	return err
}

// leave takes a user's seat in the lobby away; during a match it marks the seat away instead.
func (b *Bot) leave(ctx context.Context, chat int64, user int64) error {
	t, err := b.st.Table(ctx, chat)
	if err != nil {
		return refusal("bot.lobby.none")
	}
	if t.Started {
		return b.goAway(ctx, chat, user)
	}
	_, err = b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		s := seatOf(*t, user)
		if s < 0 {
			return refusal("bot.leave.notseated")
		}
		t.Seats = slices.Delete(t.Seats, int(s), int(s)+1)
		return nil
	})
	return err
}

// goAway hands a seated player's seat to the agent until they press a button again.
func (b *Bot) goAway(ctx context.Context, chat, user int64) error {
	var t store.Table
	err := b.st.UpdateTable(ctx, chat, func(rec *store.Table, ok bool) error {
		if !ok || !rec.Started {
			return refusal("bot.lobby.none")
		}
		s := seatOf(*rec, user)
		if s < 0 {
			return refusal("bot.leave.notseated")
		}
		rec.Seats[s].Away = true
		t = *rec
		return nil
	})
	if err != nil {
		return err
	}
	b.renderAll(t)
	b.reschedule(t)
	return refusal("bot.leave.away")
}

// addAI seats an agent.
func (b *Bot) addAI(ctx context.Context, chat int64) error {
	_, err := b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		if _, hi := b.rules[t.Game].Seats(); len(t.Seats) >= hi {
			return refusal("bot.join.full")
		}
		t.Seats = append(t.Seats, store.Player{AI: true})
		return nil
	})
	return err
}

// removeAI takes the last agent's seat away.
func (b *Bot) removeAI(ctx context.Context, chat int64) error {
	_, err := b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		for i := len(t.Seats) - 1; i >= 0; i-- {
			if t.Seats[i].AI {
				t.Seats = slices.Delete(t.Seats, i, i+1)
				return nil
			}
		}
		return refusal("bot.ai.none")
	})
	return err
}

// allowed reports whether user may run the table (begin, cancel, options): its creator or a chat
// administrator (getChatMember).
func (b *Bot) allowed(ctx context.Context, chat int64, t store.Table, user int64) bool {
	if t.Creator == user {
		return true
	}
	m, err := b.api.GetChatMember(ctx, &tg.GetChatMemberParams{ChatID: chat, UserID: user})
	if err != nil {
		b.log.Warn().Int64("chat", chat).Str("err", b.clean(err)).Msg("getChatMember")
		return false
	}
	return m.Type == models.ChatMemberTypeOwner || m.Type == models.ChatMemberTypeAdministrator
}

// mayRun checks, outside any transaction (it may ask Telegram), that user may run chat's table.
func (b *Bot) mayRun(ctx context.Context, chat, user int64) error {
	t, err := b.st.Table(ctx, chat)
	if err != nil {
		return refusal("bot.lobby.none")
	}
	if !b.allowed(ctx, chat, t, user) {
		return refusal("bot.lobby.creatoronly")
	}
	return nil
}

// begin deals the first deal: the seats become the players, the lobby message becomes the table.
func (b *Bot) begin(ctx context.Context, chat int64, user int64) error {
	cur, err := b.st.Table(ctx, chat)
	if err != nil {
		return refusal("bot.lobby.none")
	}
	if !cur.Started && !b.allowed(ctx, chat, cur, user) {
		return refusal("bot.begin.denied")
	}
	now := b.now()
	var t store.Table
	err = b.st.UpdateTable(ctx, chat, func(rec *store.Table, ok bool) error {
		if !ok {
			return refusal("bot.lobby.none")
		}
		if rec.Started {
			return refusal("bot.lobby.started")
		}
		r := b.rules[rec.Game]
		if lo, hi := r.Seats(); len(rec.Seats) < lo || len(rec.Seats) > hi {
			return refusal("bot.begin.count")
		}
		if !slices.ContainsFunc(rec.Seats, func(p store.Player) bool { return !p.AI }) {
			return refusal("bot.begin.nohuman")
		}
		cfg := games.Config{Players: len(rec.Seats), Options: rec.Config.Options}
		s, err := r.New(cfg, rec.Seed)
		if errors.Is(err, games.ErrBadConfig) {
			return refusal("bot.begin.config")
		}
		if err != nil {
			return fmt.Errorf("new %s match: %w", rec.Game, err)
		}
		data, err := s.MarshalBinary()
		if err != nil {
			return fmt.Errorf("marshal %s state: %w", rec.Game, err)
		}
		rec.Config, rec.State, rec.Started, rec.Version = cfg, data, true, 0
		rec.TableMsg = rec.LobbyMsg
		delete(rec.Extra, "mode")
		b.stamp(rec, nil, s, now)
		t = *rec
		return nil
	})
	if err != nil {
		return err
	}
	b.sched.touch(chat, now)
	b.renderAll(t)
	b.reschedule(t)
	return nil
}

// setMode switches the lobby between its main and options keyboards (creator only).
func (b *Bot) setMode(ctx context.Context, chat, user int64, mode string) error {
	if err := b.mayRun(ctx, chat, user); err != nil {
		return err
	}
	_, err := b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		if t.Extra == nil {
			t.Extra = map[string]string{}
		}
		if mode == "" {
			delete(t.Extra, "mode")
		} else {
			t.Extra["mode"] = mode
		}
		return nil
	})
	return err
}

// cycleOption moves option i of the lobby's game to its next value (creator only).
func (b *Bot) cycleOption(ctx context.Context, chat, user int64, i int) error {
	if err := b.mayRun(ctx, chat, user); err != nil {
		return err
	}
	_, err := b.lobbyUpdate(ctx, chat, func(t *store.Table) error {
		opts := b.rules[t.Game].Options()
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
	return err
}

// onLobby handles a lobby button. The data names the lobby (its token), so a press on an old
// lobby's message is stale; the op is one of a fixed set.
func (b *Bot) onLobby(ctx context.Context, q *models.CallbackQuery) {
	lang := b.userLang(ctx, &q.From)
	m := q.Message.Message
	parts := strings.Split(q.Data, "|")
	if m == nil || len(parts) != 3 || !validOp(parts[2]) {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.forged"), "", false)
		return
	}
	chat := m.Chat.ID
	t, err := b.st.Table(ctx, chat)
	if err != nil || t.Started || lobbyToken(t) != parts[1] {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.stale"), "", false)
		if err != nil || (m.ID != t.LobbyMsg && m.ID != t.TableMsg) {
			b.stripPressed(q) // an older lobby's message
		}
		return
	}
	var res error
	ok := "bot.lobby.done"
	switch op := parts[2]; {
	case op == "join":
		res, ok = b.join(ctx, chat, &q.From, false), "bot.join.ok"
		if errors.Is(res, errNeedDM) {
			b.answer(ctx, q.ID, "", b.startLink(chat), false)
			return
		}
	case op == "leave":
		res, ok = b.leave(ctx, chat, q.From.ID), "bot.leave.ok"
	case op == "ai":
		res, ok = b.addAI(ctx, chat), "bot.ai.added"
	case op == "rmai":
		if res = b.mayRun(ctx, chat, q.From.ID); res == nil {
			res, ok = b.removeAI(ctx, chat), "bot.ai.removed"
		}
	case op == "opts":
		res = b.setMode(ctx, chat, q.From.ID, "opts")
	case op == "back":
		res = b.setMode(ctx, chat, q.From.ID, "")
	case op == "begin":
		res, ok = b.begin(ctx, chat, q.From.ID), "bot.begin.ok"
	case strings.HasPrefix(op, "o"):
		i, _ := strconv.Atoi(op[1:])
		res = b.cycleOption(ctx, chat, q.From.ID, i)
	}
	b.answer(ctx, q.ID, b.outcome(lang, res, ok), "", false)
}

// validOp reports whether op is a lobby operation the bot writes.
func validOp(op string) bool {
	switch op {
	case "join", "leave", "ai", "rmai", "opts", "back", "begin":
		return true
	}
	if len(op) < 2 || len(op) > 3 || op[0] != 'o' {
		return false
	}
	n, err := strconv.Atoi(op[1:])
	return err == nil && n >= 0 && strconv.Itoa(n) == op[1:]
}

// outcome is the answer to a request: its refusal, the success text, or a generic error.
func (b *Bot) outcome(lang string, err error, ok string) string {
	var r refusal
	switch {
	case err == nil:
		return b.text(lang, ok)
	case errors.As(err, &r):
		return b.text(lang, string(r))
	default:
		b.log.Error().Err(err).Msg("request failed")
		return b.text(lang, "bot.cb.error")
	}
}

// onPick opens the table chosen in the game picker, turning the picker message into the lobby.
func (b *Bot) onPick(ctx context.Context, q *models.CallbackQuery) {
	lang := b.userLang(ctx, &q.From)
	m := q.Message.Message
	r, ok := b.rules[strings.TrimPrefix(q.Data, pickPrefix)]
	if m == nil || !ok || m.Chat.Type == models.ChatTypePrivate {
		b.answer(ctx, q.ID, b.text(lang, "bot.cb.forged"), "", false)
		return
	}
	err := b.open(ctx, m.Chat.ID, &q.From, r, m.ID)
	if errors.Is(err, errNeedDM) {
		b.answer(ctx, q.ID, "", b.startLink(m.Chat.ID), false)
		return
	}
	b.answer(ctx, q.ID, b.outcome(lang, err, "bot.new.ok"), "", false)
}

// payload is the deep-link payload that seats a user at chat's table: "j<chat>".
func payload(chat int64) string { return "j" + strconv.FormatInt(chat, 10) }

// parsePayload reads a payload written by payload.
func parsePayload(s string) (int64, bool) {
	rest, ok := strings.CutPrefix(s, "j")
	if !ok {
		return 0, false
	}
	chat, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || chat == 0 || strconv.FormatInt(chat, 10) != rest {
		return 0, false
	}
	return chat, true
}

// startLink is the t.me deep link that opens the bot's DM and, on START, seats the user at
// chat's table.
func (b *Bot) startLink(chat int64) string {
	return "https://t.me/" + b.me + "?start=" + payload(chat)
}

// deepLink is a group message asking a user to open the bot, with the link as a button.
func (b *Bot) deepLink(lang, id string, chat int64, name string) content {
	return content{
		Text: b.text(lang, id, "Name", name),
		Rows: [][]button{{{Text: locales.Plain(b.text(lang, "bot.btn.open")), URL: b.startLink(chat)}}},
	}
}
