package magister

import (
	"fmt"
	"strconv"

	"github.com/kozyr-bot/kozyr/games"
)

// DealRecord is one finished deal's row of the score sheet (§9): per player the banks taken
// (КВП) and the signed points (КОНИП), the banks not played (КВОП), first leader and dealer.
type DealRecord struct {
	Deal      int
	Dealer    games.Seat
	Leader    games.Seat
	Banks     []int
	Points    []int
	Remaining int
	Counts    []int // Max deals: card points + bonus (§8.3)
}

// Tally is the sheet's sums of §9 over the finished deals.
type Tally struct {
	HalfBanks     [2][]int // ОКВПИ per half and player
	HalfPoints    [2][]int // ОРПИ
	HalfRemaining [2]int   // КВОППИ
	HalfDeals     [2]int   // finished deals per half
	GameBanks     []int    // ВВИ
	GameResult    []int    // ОРВИ (M-ORVI: both halves)
	GameRemaining int      // КВВИ (M-KVVI)
}

// TallyOf sums the records of an n-player game.
func TallyOf(n int, recs []DealRecord) Tally {
	var t Tally
	for h := range 2 {
		t.HalfBanks[h] = make([]int, n)
		t.HalfPoints[h] = make([]int, n)
	}
	t.GameBanks = make([]int, n)
	t.GameResult = make([]int, n)
	for _, r := range recs {
		h := 0
		if r.Deal > 12 {
			h = 1
		}
		t.HalfDeals[h]++
		t.HalfRemaining[h] += r.Remaining
		t.GameRemaining += r.Remaining
		for p := range n {
			t.HalfBanks[h][p] += r.Banks[p]
			t.HalfPoints[h][p] += r.Points[p]
			t.GameBanks[p] += r.Banks[p]
			t.GameResult[p] += r.Points[p]
		}
	}
	return t
}

// Places are the places of §9 (МЗИ, M-PLACE): 1 + the number of players with a better result,
// or the same result from fewer banks; equal players share a place and skip the next (1, 2, 2, 4).
func Places(result, banks []int) []int {
	out := make([]int, len(result))
	for p := range result {
		out[p] = 1
		for q := range result {
			if result[q] > result[p] || result[q] == result[p] && banks[q] < banks[p] {
				out[p]++
			}
		}
	}
	return out
}

// ratingHundredths is 50 % + sum/(488 × games) in hundredths of a percent, computed exactly and
// rounded half up (§10).
func ratingHundredths(sum, games int) int {
	den := 2 * HalfTotal * games
	num := 5000*den + 10000*sum
	q := (2*num + den) / (2 * den)
	if 2*num+den < 0 && (2*num+den)%(2*den) != 0 {
		q-- // floor for a negative numerator (never for a real result)
	}
	return q
}

func percentText(h int) string { return fmt.Sprintf("%d.%02d%%", h/100, h%100) }

// RatingText is the rating of §10 shown as a percentage rounded half up to two decimals:
// RatingText(56) = "61.48%".
func RatingText(result int) string { return percentText(ratingHundredths(result, 1)) }

// OverallRatingText is the overall rating of §10 over games played games whose results add up to
// sum, or "—" for a player with no games.
func OverallRatingText(sum, games int) string {
	if games <= 0 {
		return "—"
	}
	return percentText(ratingHundredths(sum, games))
}

// CheckSums verifies every check sum of §8.2 and §9 on the records of an n-player game: per deal
// banks + remaining = banks of the deal and points add up to the deal's total; per finished half
// banks + remaining = ВВПИ and points = ∓244; per finished game results add up to 0 and КВВИ
// agrees both ways.
func CheckSums(n int, recs []DealRecord) error {
	for i, r := range recs {
		if r.Deal != i+1 {
			return fmt.Errorf("record %d is deal %d", i, r.Deal)
		}
		banks, pts := r.Remaining, 0
		for p := range n {
			banks += r.Banks[p]
			pts += r.Points[p]
		}
		if want := HandSize(ContractOf(r.Deal), n); banks != want {
			return fmt.Errorf("deal %d: %d banks taken + %d remaining ≠ %d", r.Deal, banks-r.Remaining, r.Remaining, want)
		}
		if want := DealTotal(r.Deal); pts != want {
			return fmt.Errorf("deal %d: points add up to %d, not %d", r.Deal, pts, want)
		}
		if !ContractOf(r.Deal).EndsEarly() && r.Remaining != 0 {
			return fmt.Errorf("deal %d ended early", r.Deal)
		}
	}
	t := TallyOf(n, recs)
	for h := range 2 {
		if t.HalfDeals[h] != 12 {
			continue
		}
		banks, pts := t.HalfRemaining[h], 0
		for p := range n {
			banks += t.HalfBanks[h][p]
			pts += t.HalfPoints[h][p]
		}
		if banks != BanksPerHalf(n) {
			return fmt.Errorf("half %d: %d banks, want ВВПИ = %d", h+1, banks, BanksPerHalf(n))
		}
		if want := (2*h - 1) * HalfTotal; pts != want {
			return fmt.Errorf("half %d: points add up to %d, not %d", h+1, pts, want)
		}
	}
	if len(recs) == Deals {
		sum, banks := 0, 0
		for p := range n {
			sum += t.GameResult[p]
			banks += t.GameBanks[p]
		}
		if sum != 0 {
			return fmt.Errorf("game results add up to %d, not 0", sum)
		}
		if kvvi := 2*BanksPerHalf(n) - banks; kvvi != t.GameRemaining || kvvi != t.HalfRemaining[0]+t.HalfRemaining[1] {
			return fmt.Errorf("КВВИ %d ≠ remaining %d", kvvi, t.GameRemaining)
		}
	}
	return nil
}

func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func bankCell(banks, points int) string { return strconv.Itoa(banks) + "/" + signed(points) }

// totalsOf are the match totals of the deals recorded: each seat's points summed.
func totalsOf(n int, recs []DealRecord) []int {
	out := make([]int, n)
	for _, r := range recs {
		for p := range n {
			out[p] += r.Points[p]
		}
	}
	return out
}

// sheet builds the score sheet of §9 from the records: a row per finished deal (points add up to
// the totals), the half totals, the game result, and at the end places and ratings (§10).
func sheet(n int, recs []DealRecord, over bool) games.Sheet {
	t := TallyOf(n, recs)
	var sh games.Sheet
	sh.Totals = totalsOf(n, recs)
	half := func(h int) {
		cells := make([]string, n)
		for p := range n {
			cells[p] = bankCell(t.HalfBanks[h][p], t.HalfPoints[h][p])
		}
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("magister.sheet.half", "Half", h+1, "Left", t.HalfRemaining[h], "Banks", BanksPerHalf(n)),
			Cells: cells,
		})
	}
	for _, r := range recs {
		cells := make([]string, n)
		for p := range n {
			cells[p] = bankCell(r.Banks[p], r.Points[p])
		}
		c := ContractOf(r.Deal)
		sh.Rows = append(sh.Rows, games.SheetRow{
			Label: games.M("magister.sheet.deal", "Num", r.Deal, "Deal", games.M("magister.deal."+c.ID()),
				"Total", signed(DealTotal(r.Deal)), "Left", r.Remaining, "Dealer", r.Dealer, "Leader", r.Leader),
			Cells:  cells,
			Points: append([]int(nil), r.Points...),
		})
		if r.Deal == 12 {
			half(0)
		}
	}
	if t.HalfDeals[1] > 0 {
		half(1)
	}
	if len(recs) == 0 {
		return sh
	}
	res := make([]string, n)
	for p := range n {
		res[p] = bankCell(t.GameBanks[p], t.GameResult[p])
	}
	sh.Rows = append(sh.Rows, games.SheetRow{
		Label: games.M("magister.sheet.result", "Left", t.GameRemaining), Cells: res,
	})
	sh.Notes = append(sh.Notes, games.M("magister.sheet.legend"))
	if !over {
		return sh
	}
	places := Places(t.GameResult, t.GameBanks)
	pc, rc := make([]string, n), make([]string, n)
	for p := range n {
		pc[p] = strconv.Itoa(places[p])
		rc[p] = RatingText(t.GameResult[p])
		if places[p] == 1 {
			sh.Winners = append(sh.Winners, games.Seat(p))
		}
	}
	sh.Rows = append(sh.Rows,
		games.SheetRow{Label: games.M("magister.sheet.place"), Cells: pc},
		games.SheetRow{Label: games.M("magister.sheet.rating"), Cells: rc},
	)
	sh.Notes = append(sh.Notes, games.M("magister.sheet.winners", "Seats", sh.Winners, "Count", len(sh.Winners)))
	return sh
}
