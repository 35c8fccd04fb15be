package skat

// RamschScores scores a Ramsch deal (skat.md §13) from each active player's card points (the
// skat already added to the winner of trick 10), tricks won and the number (1..10) of the last
// trick he won (0 if none), in the order forehand, middlehand, rearhand. The first rule that
// fits applies.
func RamschScores(points, tricks, last [3]int) [3]int {
	var out [3]int
	// §13.1 (D13): one player won all ten tricks and loses 30.
	for i, t := range tricks {
		if t == 10 {
			out[i] = -30
			return out
		}
	}
	// §13.2: all three have 40; forehand scores 10.
	if points[0] == 40 && points[1] == 40 && points[2] == 40 {
		out[0] = 10
		return out
	}
	low := min(points[0], points[1], points[2])
	var lows []int
	for i, p := range points {
		if p == low {
			lows = append(lows, i)
		}
	}
	bonus := func(i int) int {
		if tricks[i] == 0 {
			return 20
		}
		return 10
	}
	switch len(lows) {
	case 1:
		// §13.3: one player alone has the fewest points.
		out[lows[0]] = bonus(lows[0])
	case 2:
		// §13.4 (D12): of two tied, one without a trick takes 20; else the later last trick 10.
		a, b := lows[0], lows[1]
		switch {
		case tricks[a] == 0:
			out[a] = 20
		case tricks[b] == 0:
			out[b] = 20
		case last[a] > last[b]:
			out[a] = 10
		default:
			out[b] = 10
		}
	}
	return out
}
