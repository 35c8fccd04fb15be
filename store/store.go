// Package store keeps every group table, the archive of finished matches, and per-user and per-chat
// settings. One accepted action is one transaction, committed before any message goes out, so a
// crash never loses a move (design §4). bbolt is the default backend; Store lets another slot in.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/kozyr-bot/kozyr/games"
)

// ErrNotFound is returned when no record exists for the key.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned by an update function when the record moved on since the caller read it
// (its Version differs): the caller answers "old message" and changes nothing.
var ErrConflict = errors.New("store: version conflict")

// Player is one seat at a table: a Telegram user or an agent.
type Player struct {
	UserID   int64  `json:"user,omitempty"` // 0 for an agent
	Name     string `json:"name"`           // as the person chose it; escaped only when rendered
	AI       bool   `json:"ai,omitempty"`
	Away     bool   `json:"away,omitempty"`     // three timeouts in a row: the agent plays until they return
	Timeouts int    `json:"timeouts,omitempty"` // consecutive turn timeouts
	HandMsg  int    `json:"hand_msg,omitempty"` // their current DM hand message, to strip its keyboard
	Lang     string `json:"lang,omitempty"`     // language of their DMs at the time they joined
}

// Table is the record of one group table (design §4), keyed by chat ID. Version = len(Log) once the
// match has begun; it goes into every callback so a stale button is recognised.
type Table struct {
	Chat     int64             `json:"chat"`
	Game     string            `json:"game"`
	Config   games.Config      `json:"config"`
	Seed     uint64            `json:"seed"`
	Creator  int64             `json:"creator"`
	Seats    []Player          `json:"seats"`
	Started  bool              `json:"started,omitempty"`
	Log      []string          `json:"log,omitempty"` // "<seat>:<action>", e.g. "2:play/SQ"
	State    []byte            `json:"state,omitempty"`
	Version  int               `json:"version"`
	LobbyMsg int               `json:"lobby_msg,omitempty"`
	TableMsg int               `json:"table_msg,omitempty"`
	Deadline time.Time         `json:"deadline,omitzero"` // turn timer; zero when none is running
	Created  time.Time         `json:"created"`
	Finished time.Time         `json:"finished,omitzero"`
	Extra    map[string]string `json:"extra,omitempty"` // transport bookkeeping the bot may add
}

// User is what kozyr remembers of a Telegram user.
type User struct {
	ID     int64           `json:"id"`
	Name   string          `json:"name,omitempty"`
	Lang   string          `json:"lang,omitempty"`    // set by /lang in a DM; empty: follow language_code
	DMOpen bool            `json:"dm_open,omitempty"` // sent /start, so the bot may write to them
	Stats  map[string]Stat `json:"stats,omitempty"`   // per game name
}

// Stat is a user's record in one game.
type Stat struct {
	Played int `json:"played"`
	Won    int `json:"won"`
	Points int `json:"points"` // the sum of the match totals (a games.Rater rates it with Played)
}

// Chat is what kozyr remembers of a group.
type Chat struct {
	ID   int64  `json:"id"`
	Lang string `json:"lang,omitempty"` // set by /lang; empty: follow the first user's language_code
}

// Store is the persistence contract the bot relies on. Every Update* runs fn inside one
// transaction: fn sees the current record (or a zero one with ok=false), may change it, and the
// change is durable when Update returns nil. If fn returns an error nothing is written.
type Store interface {
	Table(ctx context.Context, chat int64) (Table, error)
	UpdateTable(ctx context.Context, chat int64, fn func(t *Table, ok bool) error) error
	DeleteTable(ctx context.Context, chat int64) error
	// Tables lists every open table, so timers resume after a restart.
	Tables(ctx context.Context) ([]Table, error)
	// MoveTable rekeys a table when a group becomes a supergroup (migrate_to_chat_id).
	MoveTable(ctx context.Context, from, to int64) error
	// Finish moves a finished table to the archive and deletes it from the open tables, in one
	// transaction, and applies fn to each seated user's record (stats) in the same transaction.
	Finish(ctx context.Context, chat int64, fn func(t Table, u *User)) error
	// LastFinished is the newest archived match of the chat, for /score after the end.
	LastFinished(ctx context.Context, chat int64) (Table, error)
	User(ctx context.Context, id int64) (User, error)
	UpdateUser(ctx context.Context, id int64, fn func(u *User) error) error
	Chat(ctx context.Context, id int64) (Chat, error)
	UpdateChat(ctx context.Context, id int64, fn func(c *Chat) error) error
	// Offset is the last update_id the bot finished processing, so a restart neither loses nor
	// repeats an update (go-telegram/bot never confirms its last batch on shutdown).
	Offset(ctx context.Context) (int64, error)
	SetOffset(ctx context.Context, updateID int64) error
	Close() error
}
