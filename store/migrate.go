package store

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/kozyr-bot/kozyr/games"
)

// migration brings a file from schema version from to from+1, inside Open's transaction.
type migration struct {
	from uint64
	run  func(tx *bolt.Tx, s *BoltStore) error
}

// migrations run in order; each one's result is the next one's input.
var migrations = []migration{
	{from: 1, run: migrate1to2},
	{from: 2, run: migrate2to3},
}

// tableV1 is a table record of schema 1: keyed by chat, with the whole log and the state (base64)
// inside, rewritten on every move.
type tableV1 struct {
	Chat    int64        `json:"chat"`
	Game    string       `json:"game"`
	Config  games.Config `json:"config"`
	Seed    uint64       `json:"seed"`
	Creator int64        `json:"creator"`
	Seats   []struct {
		UserID   int64  `json:"user,omitempty"`
		Name     string `json:"name"`
		AI       bool   `json:"ai,omitempty"`
		Away     bool   `json:"away,omitempty"`
		Timeouts int    `json:"timeouts,omitempty"`
		HandMsg  int    `json:"hand_msg,omitempty"`
		Lang     string `json:"lang,omitempty"`
	} `json:"seats"`
	Started  bool              `json:"started,omitempty"`
	Log      []string          `json:"log,omitempty"`
	State    []byte            `json:"state,omitempty"`
	Version  int               `json:"version"`
	LobbyMsg int               `json:"lobby_msg,omitempty"`
	TableMsg int               `json:"table_msg,omitempty"`
	Deadline time.Time         `json:"deadline,omitzero"`
	Created  time.Time         `json:"created"`
	Finished time.Time         `json:"finished,omitzero"`
	Extra    map[string]string `json:"extra,omitempty"`
}

// migrate1to2 splits every schema-1 table into its record, state and log, gives it a table id
// and indexes it; archived matches become compact Matches; the stored update offset goes (updates
// are now recognised by their processed ids). Users and chats keep their records. A schema-1 table
// predates rules versions: it was begun under version 1 of its game.
func migrate1to2(tx *bolt.Tx, s *BoltStore) error {
	var open, archived []tableV1
	for _, b := range []struct {
		name []byte
		into *[]tableV1
	}{{[]byte("tables"), &open}, {[]byte("archive"), &archived}} {
		bucket := tx.Bucket(b.name)
		if bucket == nil {
			continue
		}
		err := bucket.ForEach(func(k, v []byte) error {
			var t tableV1
			if err := json.Unmarshal(v, &t); err != nil {
				return fmt.Errorf("decode %s %x: %w", b.name, k, err)
			}
			*b.into = append(*b.into, t)
			return nil
		})
		if err != nil {
			return err
		}
		if err := tx.DeleteBucket(b.name); err != nil {
			return fmt.Errorf("drop schema-1 bucket %s: %w", b.name, err)
		}
	}
	if meta := tx.Bucket(bucketMeta); meta != nil {
		if err := meta.Delete([]byte("offset")); err != nil {
			return err
		}
	}
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	t := &boltTx{tx: tx, s: s}
	for _, old := range archived {
		id, err := tx.Bucket(bucketTables).NextSequence()
		if err != nil {
			return err
		}
		if _, err := t.Archive(matchV1(old, TableID(id))); err != nil {
			return err
		}
	}
	for _, old := range open {
		rec, log, err := tableFromV1(old)
		if err != nil {
			return fmt.Errorf("table of chat %d: %w", old.Chat, err)
		}
		// Schema 1 looked up a player's /lang when rendering; now the seats carry it.
		for i, p := range rec.Seats {
			if u, err := t.User(p.UserID); p.UserID != 0 && err == nil && u.Lang != "" {
				rec.Seats[i].Lang = u.Lang
			}
		}
		if !old.Finished.IsZero() {
			// It ended before the old bot could archive it: archive it now; the bot sends its
			// last messages and then drops the record.
			id, err := tx.Bucket(bucketTables).NextSequence()
			if err != nil {
				return err
			}
			rec.ID = TableID(id)
			if _, err := t.Archive(matchV1(old, rec.ID)); err != nil {
				return err
			}
		}
		if err := t.PutTable(&rec); err != nil {
			return err
		}
		if len(old.State) > 0 {
			if err := t.PutState(rec.ID, old.State); err != nil {
				return err
			}
		}
		for i, e := range log {
			if err := t.AppendLog(rec.ID, i, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// archivedHead is the part of an archived Match that rating it needs (the log, often the most
// of it, is skipped, so the migration holds little even for a large archive).
type archivedHead struct {
	Table TableID     `json:"table"`
	Place Place       `json:"place"`
	Game  string      `json:"game"`
	Seats []MatchSeat `json:"seats"`
	Sheet *struct {
		Totals  []int
		Winners []games.Seat
	} `json:"sheet,omitempty"`
	Finished time.Time `json:"finished"`
}

// migrate2to3 builds the players index (the chats' leaderboards) and the users' ratings from the
// archive: every kept match, oldest first across all chats, goes through RateMatch as if it had
// just finished, its computer players at RatingStart (the archive does not say their level; that
// is the normal level's rating). Ratings start afresh, so matches already dropped from the
// archive (beyond the chat's keep limit) and schema-1 matches without a final sheet are not rated
// and a user's Rated can be less than Played; Played, Won and Points stay as they were.
func migrate2to3(tx *bolt.Tx, s *BoltStore) error {
	if _, err := tx.CreateBucketIfNotExists(bucketPlayers); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketPlayers, err)
	}
	var heads []archivedHead
	err := tx.Bucket(bucketArchive).ForEach(func(k, v []byte) error {
		var h archivedHead
		if err := json.Unmarshal(v, &h); err != nil {
			return fmt.Errorf("decode archive %x: %w", k, err)
		}
		heads = append(heads, h)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(heads, func(a, b archivedHead) int {
		return cmp.Or(a.Finished.Compare(b.Finished), cmp.Compare(a.Table, b.Table))
	})
	t := &boltTx{tx: tx, s: s}
	for _, h := range heads {
		m := Match{Table: h.Table, Place: h.Place, Game: h.Game, Seats: h.Seats, Finished: h.Finished}
		if h.Sheet != nil {
			m.Sheet = &games.Sheet{Totals: h.Sheet.Totals, Winners: h.Sheet.Winners}
		}
		if err := RateMatch(t, m, RatingStart); err != nil {
			return fmt.Errorf("rate table %d: %w", h.Table, err)
		}
	}
	return nil
}

// tableFromV1 converts a schema-1 record; the turn bookkeeping that lived in Extra moves into the
// seats.
func tableFromV1(old tableV1) (Table, []Entry, error) {
	log := make([]Entry, 0, len(old.Log))
	for i, s := range old.Log {
		e, err := ParseEntry(s)
		if err != nil {
			return Table{}, nil, fmt.Errorf("log entry %d: %w", i, err)
		}
		log = append(log, e)
	}
	rec := Table{
		Place:       Place{Chat: old.Chat},
		Game:        old.Game,
		Config:      old.Config,
		Seed:        old.Seed,
		Creator:     old.Creator,
		CreatorName: old.Extra["creator"],
		Started:     old.Started,
		Version:     old.Version,
		Msg:         old.LobbyMsg,
		Mode:        old.Extra["mode"],
		Deadline:    old.Deadline,
		Created:     old.Created,
		Finished:    old.Finished,
	}
	if old.Started {
		rec.Rules, rec.Msg = 1, old.TableMsg
	}
	extra := func(key string) int {
		n, err := strconv.Atoi(old.Extra[key])
		if err != nil {
			return NoTurn
		}
		return n
	}
	for i, p := range old.Seats {
		q := Player{UserID: p.UserID, Name: p.Name, AI: p.AI, Away: p.Away, Timeouts: p.Timeouts,
			Lang: p.Lang, HandMsg: p.HandMsg, Acted: NoTurn,
			TurnFrom: extra("turn." + strconv.Itoa(i)), Prompted: extra("sent." + strconv.Itoa(i))}
		q.Buttons = q.HandMsg != 0 && q.TurnFrom != NoTurn
		for v, e := range log {
			if int(e.Seat) == i {
				q.Acted = v
			}
		}
		rec.Seats = append(rec.Seats, q)
	}
	return rec, log, nil
}

func matchV1(old tableV1, id TableID) Match {
	m := Match{Table: id, Place: Place{Chat: old.Chat}, Game: old.Game, Rules: 1, Config: old.Config,
		Seed: old.Seed, Log: old.Log, Created: old.Created, Finished: old.Finished}
	for _, p := range old.Seats {
		m.Seats = append(m.Seats, MatchSeat{UserID: p.UserID, Name: p.Name, AI: p.AI})
	}
	return m
}

// FormatEntry is an Entry's text in a Match log: "<seat>:<action>".
func FormatEntry(e Entry) string { return strconv.Itoa(int(e.Seat)) + ":" + e.Action.String() }

// ParseEntry reads what FormatEntry writes.
func ParseEntry(s string) (Entry, error) {
	seat, action, ok := strings.Cut(s, ":")
	n, err := strconv.Atoi(seat)
	if !ok || err != nil || n < 0 || n > 127 || strconv.Itoa(n) != seat {
		return Entry{}, fmt.Errorf("log entry %q: bad seat", s)
	}
	a, err := games.ParseAction(action)
	if err != nil {
		return Entry{}, fmt.Errorf("log entry %q: %w", s, err)
	}
	return Entry{Seat: games.Seat(n), Action: a}, nil
}
