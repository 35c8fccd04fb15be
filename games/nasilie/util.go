package nasilie

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

// signed writes n with its sign: "+3", "−12", "0".
func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}
