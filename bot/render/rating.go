package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/kozyr-bot/kozyr/games"
	"github.com/kozyr-bot/kozyr/store"
)

// Leader is one player of a chat's leaderboard: who, and their record in the game.
type Leader struct {
	User int64
	Name string // as the store keeps it; escaped when rendered
	Stat store.Stat
}

// maxLeaderName bounds a name on the leaderboard, so twenty lines stay well within a message.
const maxLeaderName = 32

// Top is the answer to /top: the leaderboard of game, best first, each line with the rank (ratings
// shown equal share one), the name, the rating and the player's matches, wins and mean points per
// match; or one line saying that nobody has min rated matches yet.
func (r *Renderer) Top(lang, game string, leaders []Leader, min int) Content {
	name := games.M(game + ".name")
	if len(leaders) == 0 {
		return Content{Text: r.Text(lang, "bot.top.nobody", "Game", name, "Count", min)}
	}
	lines := []string{r.Text(lang, "bot.top.title", "Game", name, "Min", min)}
	rank := 0
	for i, l := range leaders {
		if i == 0 || ratingText(l.Stat.Rating) != ratingText(leaders[i-1].Stat.Rating) {
			rank = i + 1
		}
		who := l.Name
		if who == "" {
			who = "?"
		}
		lines = append(lines, r.Text(lang, "bot.top.line", "Rank", rank, "Name", Truncate(who, maxLeaderName),
			"Rating", ratingText(l.Stat.Rating), "Count", l.Stat.Played, "Won", l.Stat.Won, "Avg", meanText(l.Stat.Points, l.Stat.Played)))
	}
	return Content{Text: strings.Join(lines, "\n")}
}

// eloNote is the rating /stats shows after a game's results, "" while the user is unrated.
func (r *Renderer) eloNote(lang string, s store.Stat) string {
	if s.Rated == 0 {
		return ""
	}
	return " " + r.Text(lang, "bot.stats.elo", "Rating", ratingText(s.Rating))
}

// ratingText is a rating as people read one: a whole number.
func ratingText(rating float64) string { return strconv.Itoa(int(math.Round(rating))) }

// meanText is points per match with one decimal, "0.0" for no matches.
func meanText(points, matches int) string {
	if matches <= 0 {
		return "0.0"
	}
	s := strconv.FormatFloat(float64(points)/float64(matches), 'f', 1, 64)
	if s == "-0.0" {
		return "0.0"
	}
	return s
}
