package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/kozyr-bot/kozyr/bot/outbox"
	"github.com/kozyr-bot/kozyr/bot/render"
	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/games/record"
	"github.com/kozyr-bot/kozyr/store"
)

// docRow is an outbox row's document: a match record to send as a file, written into the row by
// the transaction of the /record that asked for it, so it goes out once that has committed (and
// after a restart) whatever became of the archive since.
type docRow struct {
	Name    string `json:"name"` // the file's name
	Data    []byte `json:"data"` // the record, as record.Marshal wrote it
	Caption string `json:"caption"`
	ReplyTo int    `json:"reply_to,omitempty"`
}

// cmdRecord answers /record: the match record of the last match finished where it is asked (a
// group, or its forum topic) or of the user's last match (in a DM, user != 0), as a JSON
// document, or one line saying there is none. It takes no argument: one is refused with a line saying so.
func (b *Bot) cmdRecord(tx store.Tx, fx *effects, place store.Place, user int64, lang, args string, replyTo int) error {
	if strings.TrimSpace(args) != "" {
		return fx.reply(tx, place, render.Content{Text: b.render.Text(lang, "record.usage"), ReplyTo: replyTo})
	}
	var m store.Match
	var err error
	none := "record.none.group"
	if user != 0 {
		none = "record.none.dm"
		var u store.User
		if u, err = tx.User(user); err == nil && u.LastMatch == nil {
			err = store.ErrNotFound
		}
		if err == nil {
			m, err = tx.Match(*u.LastMatch)
		}
	} else {
		m, err = tx.LastMatchAt(place)
	}
	if errors.Is(err, store.ErrNotFound) {
		return fx.reply(tx, place, render.Content{Text: b.render.Text(lang, none), ReplyTo: replyTo})
	}
	if err != nil {
		return err
	}
	data, err := b.matchRecord(m)
	if err != nil {
		b.log.Error().Uint64("table", uint64(m.Table)).Err(err).Msg("match record")
		return fx.reply(tx, place, render.Content{Text: b.render.Text(lang, "record.unreadable"), ReplyTo: replyTo})
	}
	doc := docRow{Name: fmt.Sprintf("kozyr-%s-%d.json", m.Game, m.Table), Data: data, ReplyTo: replyTo,
		Caption: b.render.Text(lang, "record.caption", "Game", b.render.GameName(lang, m.Game),
			"Date", m.Finished.UTC().Format(time.DateOnly))}
	r, err := putRow(tx, fx.upd, len(fx.rows), rowBody{Chat: place.Chat, Topic: place.Topic, Doc: &doc})
	if err != nil {
		return err
	}
	fx.rows = append(fx.rows, r)
	return nil
}

// matchRecord is the record file of an archived match: the rules it was played by replay its log
// for every deal's result (record.New).
func (b *Bot) matchRecord(m store.Match) ([]byte, error) {
	r, ok := b.rules[m.Game]
	if !ok {
		return nil, fmt.Errorf("match %d: unknown game %q", m.Table, m.Game)
	}
	in := record.Match{Rules: r, Version: m.Rules, Config: m.Config, Seed: m.Seed, Sheet: m.Sheet,
		Finished: m.Finished.UTC().Format(time.RFC3339)}
	for _, s := range m.Seats {
		in.Seats = append(in.Seats, record.Seat{Name: s.Name, AI: s.AI})
	}
	for _, s := range m.Log {
		e, err := store.ParseEntry(s)
		if err != nil {
			return nil, fmt.Errorf("match %d: %w", m.Table, err)
		}
		in.Log = append(in.Log, games.Move{Seat: e.Seat, Action: e.Action})
	}
	rec, err := record.New(in)
	if err != nil {
		return nil, fmt.Errorf("match %d: %w", m.Table, err)
	}
	return record.Marshal(rec)
}

// sendDocRow sends a row's document and deletes the row once it is out (or can never go out).
func (b *Bot) sendDocRow(r store.Row, body rowBody) {
	b.out.Submit(outbox.Job{
		Chat: body.Chat,
		Call: func(ctx context.Context) error { return b.sendDocument(ctx, body.Chat, body.Topic, *body.Doc) },
		Done: func(err error) {
			b.sendFailed(body.Chat, err)
			b.books.done(r.Key, r.Seq)
		},
	})
}

// sendDocument uploads a document with sendDocument, the one call the bot makes as a multipart
// form (a file cannot travel in JSON).
func (b *Bot) sendDocument(ctx context.Context, chat int64, topic int, d docRow) error {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fields := [][2]string{{"chat_id", strconv.FormatInt(chat, 10)}, {"caption", d.Caption}, {"parse_mode", "HTML"}}
	if topic != 0 {
		fields = append(fields, [2]string{"message_thread_id", strconv.Itoa(topic)})
	}
	if d.ReplyTo != 0 {
		rp, err := json.Marshal(replyParameters{MessageID: d.ReplyTo, AllowSendingWithoutReply: true})
		if err != nil {
			return fmt.Errorf("sendDocument to %d: %w", chat, err)
		}
		fields = append(fields, [2]string{"reply_parameters", string(rp)})
	}
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return fmt.Errorf("sendDocument to %d: %w", chat, err)
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", multipart.FileContentDisposition("document", d.Name))
	h.Set("Content-Type", "application/json")
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(d.Data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return fmt.Errorf("sendDocument to %d: %w", chat, err)
	}
	if err := b.post(ctx, "sendDocument", w.FormDataContentType(), buf.Bytes(), nil); err != nil {
		return fmt.Errorf("sendDocument to %d: %w", chat, err)
	}
	return nil
}
