// Package store keeps kozyr's tables, their append-only action logs and engine states, the
// transactional outbox, the processed update ids, the archive of finished matches, and per-user
// and per-chat settings (design §4).
//
// Everything the bot changes in answer to one update — the move, its log entry, the update id
// that caused it and the messages it owes — is written in one transaction, so a crash at any
// point leaves either all of it or none. bbolt is the default backend; Store lets another one slot
// in.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/kozyr-bot/kozyr/games"
)

// ErrNotFound is returned when no record exists for the key.
var ErrNotFound = errors.New("store: not found")

// ErrConflict is returned when a write would break an invariant the store keeps: a second open
// table at one place, or a migration onto a chat that already has one.
var ErrConflict = errors.New("store: conflict")

// TableID identifies one table from its lobby to its end. Ids come from a sequence and are never
// reused, so a button drawn for an earlier table can never act on a later one at the same place.
type TableID uint64

// Place is where a table sits: a group chat and, in a forum supergroup, a topic (0 for none).
type Place struct {
	Chat  int64 `json:"chat"`
	Topic int   `json:"topic,omitempty"`
}

// NoTurn marks a Player field that holds no version (not to act, never acted, never prompted).
const NoTurn = -1

// Player is one seat at a table: a Telegram user or an agent.
type Player struct {
	UserID   int64  `json:"user,omitempty"` // 0 for an agent
	Name     string `json:"name,omitempty"` // as the person chose it; escaped only when rendered
	AI       bool   `json:"ai,omitempty"`
	Away     bool   `json:"away,omitempty"`     // the agent plays the seat until the player presses again
	Timeouts int    `json:"timeouts,omitempty"` // consecutive turn timeouts
	Lang     string `json:"lang,omitempty"`     // language of their DMs when they sat down

	// HandMsg is the player's live hand message in their DM, Shown the hash of what it shows and
	// Buttons whether that has a keyboard (a prompt superseded before it was updated is deleted).
	HandMsg int    `json:"hand_msg,omitempty"`
	Shown   uint64 `json:"shown,omitempty"`
	Buttons bool   `json:"buttons,omitempty"`
	// TurnFrom is the version at which the seat's current turn began (NoTurn when it is not to
	// act), Prompted the TurnFrom its fresh prompt was sent for, Acted the version at which the
	// seat last acted.
	TurnFrom int `json:"turn_from"`
	Prompted int `json:"prompted"`
	Acted    int `json:"acted"`
}

// NewPlayer is a seat with no turn history.
func NewPlayer(user int64, name, lang string) Player {
	return Player{UserID: user, Name: name, Lang: lang, TurnFrom: NoTurn, Prompted: NoTurn, Acted: NoTurn}
}

// NewAgent is a computer player's seat.
func NewAgent() Player {
	return Player{AI: true, TurnFrom: NoTurn, Prompted: NoTurn, Acted: NoTurn}
}

// Table is the record of one table: only what the next move and the next render need. The engine
// state and the action log are kept beside it (State, Log), so a move writes a few hundred bytes
// whatever the length of the match.
type Table struct {
	ID          TableID      `json:"id"`
	Place       Place        `json:"place"`
	Game        string       `json:"game"`
	Rules       int          `json:"rules,omitempty"` // the game's rules version the match began with
	Config      games.Config `json:"config"`
	Seed        uint64       `json:"seed"`
	Creator     int64        `json:"creator"`
	CreatorName string       `json:"creator_name,omitempty"`
	Seats       []Player     `json:"seats"`
	Started     bool         `json:"started,omitempty"`
	// Version counts the committed actions once the match has begun (the length of the log); it
	// goes into every game button so a stale press is recognised.
	Version int `json:"version"`
	// Msg is the table's group message (the lobby, then the table, then the result) and Shown the
	// hash of what it shows.
	Msg   int    `json:"msg,omitempty"`
	Shown uint64 `json:"shown,omitempty"`
	Mode  string `json:"mode,omitempty"` // the lobby keyboard shown: "" or "opts"
	// Level is how well the table's computer players play (AI seats and absent players alike):
	// a search.Level's name, "" for the bot's default.
	Level string `json:"level,omitempty"`
	// TimedOut is the seat the agent last played for because its turn timer ran out, plus one
	// (0: the last action was nobody's timeout).
	TimedOut int       `json:"timed_out,omitempty"`
	Deadline time.Time `json:"deadline,omitzero"` // turn timer; zero when none runs
	// TurnTimeout and AIDelay are the table's own timing (a player's time per move, 0 for none;
	// the computer players' pause), taken from its group's settings when it opened; nil leaves
	// them to the bot's configuration.
	TurnTimeout *time.Duration `json:"turn_timeout,omitempty"`
	AIDelay     *time.Duration `json:"ai_delay,omitempty"`
	Created     time.Time      `json:"created"`
	// Finished is set by the action that ended the match, Closed (a locale id saying why) when the
	// table ended without a result. Either way the table no longer holds its place, and its record
	// stays only until its last messages are out.
	Finished time.Time `json:"finished,omitzero"`
	Closed   string    `json:"closed,omitempty"`
}

// Ending reports whether the table has ended (finished or closed) and stays only for its last
// messages.
func (t Table) Ending() bool { return !t.Finished.IsZero() || t.Closed != "" }

// SeatOf is the seat of user at t, or games.Nobody.
func (t Table) SeatOf(user int64) games.Seat {
	if user == 0 {
		return games.Nobody
	}
	for i, p := range t.Seats {
		if p.UserID == user {
			return games.Seat(i)
		}
	}
	return games.Nobody
}

// Entry is one action of a match's log. Update is the Telegram update that pressed it (0 for an
// agent's move), so a press delivered again is recognised by the log itself.
type Entry struct {
	Seat   games.Seat
	Action games.Action
	Update int64
}

// Row is one message the bot owes a chat, kept until it is sent (the transactional outbox). Key
// names what the row is for; putting a row with the same key replaces the earlier one. Body is the
// bot's own encoding of what to send.
type Row struct {
	Key  string
	Seq  uint64 // assigned when put; a delete names it, so a newer row of the key survives
	Body []byte
}

// Match is a finished match kept in the archive: enough to show its sheet, rate its players and
// replay it.
type Match struct {
	Table    TableID      `json:"table"`
	Place    Place        `json:"place"`
	Game     string       `json:"game"`
	Rules    int          `json:"rules"`
	Config   games.Config `json:"config"`
	Seed     uint64       `json:"seed"`
	Seats    []MatchSeat  `json:"seats"`
	Log      []string     `json:"log"` // "<seat>:<action>"
	Sheet    *games.Sheet `json:"sheet,omitempty"`
	Created  time.Time    `json:"created"`
	Finished time.Time    `json:"finished"`
}

// MatchSeat is a seat of an archived match.
type MatchSeat struct {
	UserID int64  `json:"user,omitempty"`
	Name   string `json:"name,omitempty"`
	AI     bool   `json:"ai,omitempty"`
}

// MatchRef names an archived match.
type MatchRef struct {
	Chat     int64     `json:"chat"`
	Finished time.Time `json:"finished"`
	Table    TableID   `json:"table"`
}

// User is what kozyr remembers of a Telegram user.
type User struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name,omitempty"`
	Lang      string          `json:"lang,omitempty"`    // set by /lang in a DM; empty: follow language_code
	DMOpen    bool            `json:"dm_open,omitempty"` // sent /start, so the bot may write to them
	Stats     map[string]Stat `json:"stats,omitempty"`   // per game name
	LastMatch *MatchRef       `json:"last_match,omitempty"`
}

// Stat is a user's record in one game.
type Stat struct {
	Played int `json:"played"`
	Won    int `json:"won"`
	Points int `json:"points"` // the sum of the match totals (a games.Rater rates it with Played)
	// Rating is the Elo rating after Rated matches (see RateMatch); with Rated 0 the user is
	// unrated and counts at RatingStart. Rated can be less than Played: matches finished before
	// ratings existed and dropped from the archive were never rated.
	Rating float64 `json:"rating,omitempty"`
	Rated  int     `json:"rated,omitempty"`
}

// Chat is what kozyr remembers of a group.
type Chat struct {
	ID   int64  `json:"id"`
	Lang string `json:"lang,omitempty"` // set by /lang; empty: follow the first user's language_code
	// Sent are the unix milliseconds at which the bot's recent calls to the group ended, so a
	// restarted bot keeps Telegram's per-group limit.
	Sent []int64 `json:"sent,omitempty"`
	// Settings are the defaults the group's administrators chose for its new tables.
	Settings Settings `json:"settings,omitzero"`
}

// Settings are a group's defaults for the tables it opens (/settings). What is left unset falls to
// the bot's configuration (timing, level) or the game's own default (options).
type Settings struct {
	// Version counts the changes of the settings and of the group's language, so a press on a
	// settings message drawn before one changes nothing.
	Version int `json:"version,omitempty"`
	// Options are per game name: Option.Key -> value, only values other than the game's default.
	Options map[string]map[string]string `json:"options,omitempty"`
	// Level is a search.Level's name, "" for the bot's default.
	Level       string         `json:"level,omitempty"`
	TurnTimeout *time.Duration `json:"turn_timeout,omitempty"` // 0: no turn timer
	AIDelay     *time.Duration `json:"ai_delay,omitempty"`
}

// Update is an update kept by PutUpdate: its id and its JSON as Telegram sent it.
type Update struct {
	ID  int64
	Raw []byte
}

// Store is the persistence contract the bot relies on. Update runs fn in one write transaction
// and commits what it wrote, durably, when fn returns nil; when fn fails nothing is written.
// Batch is Update for concurrent callers that may share one commit (a group commit: one fsync for
// all, and no wait when nothing else is committing): fn may run more than once, when a call that
// shares its commit fails after writing, so it must compute its result afresh on every run; a fn
// that fails without writing runs once and costs the others nothing. View runs fn in a read-only
// transaction.
type Store interface {
	Update(ctx context.Context, fn func(tx Tx) error) error
	Batch(ctx context.Context, fn func(tx Tx) error) error
	View(ctx context.Context, fn func(tx Tx) error) error
	Close() error
}

// Tx is one transaction. Reads see the transaction's own writes. Values returned are copies, valid
// after the transaction ends.
type Tx interface {
	// Seen reports whether update id was processed within the last 24 hours (how long Telegram
	// keeps an update); MarkSeen records it as processed now.
	Seen(update int64) (bool, error)
	MarkSeen(update int64) error

	// TableAt is the open (not ending) table at p.
	TableAt(p Place) (Table, error)
	// Table is the record of id, open or ending.
	Table(id TableID) (Table, error)
	// PutTable saves t, assigning t.ID to a new table, and keeps the indexes: an open table holds
	// its place (ErrConflict if another one does), an ending one does not; each seated user is
	// listed with the table.
	PutTable(t *Table) error
	// DeleteTable removes a table's record, state, log and index entries.
	DeleteTable(id TableID) error
	// Tables lists every table record, open and ending, for the bot's start.
	Tables() ([]Table, error)
	// UserTables lists the tables user is seated at.
	UserTables(user int64) ([]TableID, error)

	// State and PutState are a table's engine state, kept as its own bytes.
	State(id TableID) ([]byte, error)
	PutState(id TableID, state []byte) error
	// AppendLog adds the entry at position seq (0-based) of a table's log; Log reads it whole,
	// LogFrom from position seq on.
	AppendLog(id TableID, seq int, e Entry) error
	Log(id TableID) ([]Entry, error)
	LogFrom(id TableID, seq int) ([]Entry, error)

	// PutRow records a message owed, replacing a row of the same key; DeleteRow removes the row
	// of key only if it is still the one with seq; Rows lists every row in key order.
	PutRow(key string, body []byte) (seq uint64, err error)
	DeleteRow(key string, seq uint64) error
	Rows() ([]Row, error)

	// PutUpdate keeps an update Telegram delivered, as it came, so the bot may confirm it to
	// Telegram before it is processed; DeleteUpdate drops it once processed; Updates lists the
	// ones kept, in id order, for a restarted bot to process.
	PutUpdate(id int64, raw []byte) error
	DeleteUpdate(id int64) error
	Updates() ([]Update, error)

	// Archive keeps a finished match, dropping the chat's oldest beyond the store's keep limit.
	Archive(m Match) (MatchRef, error)
	// LastMatch is the newest archived match of chat, LastMatchAt the newest played at p (a
	// forum topic's own); Match the one ref names.
	LastMatch(chat int64) (Match, error)
	LastMatchAt(p Place) (Match, error)
	Match(ref MatchRef) (Match, error)

	User(id int64) (User, error)
	PutUser(u User) error
	Chat(id int64) (Chat, error)
	PutChat(c Chat) error

	// AddChatPlayer lists user among the players of game in chat (any of its topics), the index
	// of the chat's leaderboard; ChatPlayers lists them in id order, without reading other users.
	AddChatPlayer(chat int64, game string, user int64) error
	ChatPlayers(chat int64, game string) ([]int64, error)

	// MoveChat moves everything kept under chat from to chat to (a group that became a
	// supergroup): its tables' places, its archive, its players and its settings. ErrConflict if
	// a table of from would take a place to already holds.
	MoveChat(from, to int64) error
}

// Stats are a store's running totals, for benchmarks: commits are fsyncs (one per write
// transaction), Put counts the bytes of keys and values written, Disk the bytes of the pages the
// commits wrote to the file.
type Stats struct {
	Commits int64
	Put     int64
	Disk    int64
}
